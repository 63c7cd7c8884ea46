#!/bin/sh
# Starts the servers, runs the compat suite against them, always stops them,
# and exits with Maven's status (POSIX sh).
#
#   sh compat/run-suite.sh [4|5] [extra mvn args...]
#
#   4 (default): Java servers 4.9.7, clients and tools 4.9.8
#   5:           Java servers 5.3.3, clients and tools 5.3.3 (mvn -Prmq5)
#
# NAMESRV_IMPL / BROKER_IMPL (java|go) and RMQGO_NAMESRV_BIN /
# RMQGO_BROKER_BIN choose the servers, as for ref-servers.sh.
# CLIENT_LINE=4|5 runs the other client line against the chosen servers.
# MVN_TEST_FLAGS replaces the default Maven flags (-B -ntp), e.g. "-q".
# RUN_DIR (compat/target/run) is where the servers run and env.sh is written,
# as for ref-servers.sh.
# PROXY=1 (line 5) starts broker-a with the proxy inside it (ref-servers.sh:
# `mqbroker --enable-proxy`, gRPC on PROXY_PORT, first choice 26081) and runs
# the tests tagged "grpc" (the 5.x gRPC client, GrpcClientTest and
# GrpcSimpleConsumerTest) with the others, which leave them out otherwise:
#   PROXY=1 COMPAT_CLIENTS="" sh compat/run-suite.sh 5 -Dtest='Grpc*'
# PROXY=cluster (line 5) does the same with the proxy as a server of its own
# in front of the brokers, in cluster mode, run by PROXY_IMPL=java|go
# (default BROKER_IMPL; go needs RMQGO_PROXY_BIN, bin/rmqgo-proxy): see
# ref-servers.sh. compat/proxy-cluster-suite.sh runs only the gRPC tests so.
# COMPAT_CLIENTS lists the suites of the other clients that run after the
# Java one, on the same servers: goclient (rocketmq-client-go, compat/goclient),
# node (ali-ons, compat/node), spring (rocketmq-spring-boot-starter of the
# client line, compat/spring), python (Apache's C++ client through its Python
# wrapper, compat/python); default all four, "" for the Java suite alone.
# With PROXY=1 or cluster the default adds gov5 (the RocketMQ 5 Go client through the
# proxy, compat/gov5), which skips itself (all its tests counted as skipped)
# on servers started without the proxy.
# Examples:
#   NAMESRV_IMPL=java BROKER_IMPL=java sh compat/run-suite.sh 4
#   NAMESRV_IMPL=go RMQGO_NAMESRV_BIN=$PWD/bin/rmqgo-namesrv sh compat/run-suite.sh 5
#   sh compat/run-suite.sh 4 -Dtest=KvConfigTest
#
# Last lines printed: one "<suite>: N passed, N failed, N skipped" per
# suite of COMPAT_CLIENTS, then "compat: N passed, N failed, N skipped" (the
# Java suite, from the Surefire reports; a note instead when Maven failed
# before running any test). The exit status is the first failure's.

set -u
COMPAT_DIR=$(cd "$(dirname "$0")" && pwd)
MVN=${MVN:-mvn}
RUN_DIR=${RUN_DIR:-$COMPAT_DIR/target/run}
export RUN_DIR
LINE=${1:-4}
[ $# -gt 0 ] && shift
case $LINE in
  4|5) ;;
  *) echo "usage: $0 [4|5] [mvn args...]" >&2; exit 2 ;;
esac
CLIENT_LINE=${CLIENT_LINE:-$LINE}
case $CLIENT_LINE in
  4) profile="" ;;
  5) profile="-Prmq5" ;;
  *) echo "run-suite: CLIENT_LINE must be 4 or 5" >&2; exit 2 ;;
esac

cleanup() {
  sh "$COMPAT_DIR/ref-servers.sh" stop
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

sh "$COMPAT_DIR/ref-servers.sh" start "$LINE" >/dev/null || {
  echo "run-suite: the servers did not start (logs under $RUN_DIR/)" >&2
  exit 1
}
# shellcheck disable=SC1091
. "$RUN_DIR/env.sh"
proxy_desc=""
[ "${PROXY:-0}" = cluster ] && proxy_desc=", proxy $PROXY_IMPL in cluster mode"
echo "run-suite: servers line $LINE (namesrv $NAMESRV_IMPL, brokers $BROKER_IMPL$proxy_desc, $REF_SERVER_VERSION for java)," \
  "clients line $CLIENT_LINE; NAMESRV_ADDR=$NAMESRV_ADDR BROKER_ADDR=$BROKER_ADDR${PROXY_ADDR:+ PROXY_ADDR=$PROXY_ADDR}"
# With the proxy (inside broker-a or in front of the brokers), the "grpc" tests run too
# (pom.xml compat.grpcExclusion: a tag no test has).
with_proxy=0
case ${PROXY:-0} in 1|cluster) with_proxy=1 ;; esac
grpc_flag=""
[ $with_proxy = 1 ] && grpc_flag="-Dcompat.grpcExclusion=nogrpc"

rm -rf "$COMPAT_DIR/target/surefire-reports"
# shellcheck disable=SC2086
"$MVN" ${MVN_TEST_FLAGS:--B -ntp} -Dstyle.color=never -f "$COMPAT_DIR/pom.xml" $profile $grpc_flag test "$@"
status=$?

java_summary=$(sh "$COMPAT_DIR/surefire-summary.sh" compat "$COMPAT_DIR/target/surefire-reports")

# The other clients' suites, each ending with its "<suite>: N passed, ..." line.
summaries=""
default_clients="goclient node spring python"
[ $with_proxy = 1 ] && default_clients="$default_clients gov5"
for suite in ${COMPAT_CLIENTS-$default_clients}; do
  case $suite in
    goclient|node|python|gov5) set -- sh "$COMPAT_DIR/$suite/run.sh" ;;
    spring) set -- sh "$COMPAT_DIR/spring/run.sh" "$CLIENT_LINE" ;;
    *) echo "run-suite: unknown suite '$suite' in COMPAT_CLIENTS" >&2; status=2; continue ;;
  esac
  echo "run-suite: === $suite"
  out=$RUN_DIR/suite-$suite.out
  RUN_DIR=$RUN_DIR "$@" >"$out" 2>&1
  rc=$?
  cat "$out"
  line=$(tail -n 1 "$out")
  case $line in
    "$suite: "*) ;;
    *) line="$suite: no summary (exit $rc)" ;;
  esac
  summaries="$summaries$line
"
  [ $rc -ne 0 ] && [ $status -eq 0 ] && status=$rc
done
printf '%s' "$summaries"
echo "$java_summary"
exit $status
