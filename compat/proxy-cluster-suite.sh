#!/bin/sh
# Runs the gRPC clients' suites through a proxy in cluster mode (POSIX sh):
# run-suite.sh's servers (line 5) with PROXY=cluster, the proxy a server of
# its own in front of the brokers (ref-servers.sh: ProxyStartup -pm cluster,
# or bin/rmqgo-proxy with the same arguments), and only the gRPC tests: the
# Java suite's tests tagged "grpc" (GrpcClientTest, GrpcSimpleConsumerTest;
# GrpcAcl2Test, tags acl2 and grpc, stays out with the acl2 tag, as pom.xml's
# compat.excludedGroups leaves it out) and the RocketMQ 5 Go client's suite
# (compat/gov5). broker-b is left out (COMPAT_BROKER_B=0): no gRPC test
# uses it.
#
#   NAMESRV_IMPL=java BROKER_IMPL=java PROXY_IMPL=java sh compat/proxy-cluster-suite.sh
#   NAMESRV_IMPL=go BROKER_IMPL=go PROXY_IMPL=java RMQGO_NAMESRV_BIN=$PWD/bin/rmqgo-namesrv \
#     RMQGO_BROKER_BIN=$PWD/bin/rmqgo-broker sh compat/proxy-cluster-suite.sh
#   NAMESRV_IMPL=go BROKER_IMPL=java PROXY_IMPL=go RMQGO_NAMESRV_BIN=$PWD/bin/rmqgo-namesrv \
#     RMQGO_PROXY_BIN=$PWD/bin/rmqgo-proxy sh compat/proxy-cluster-suite.sh
#
# NAMESRV_IMPL, BROKER_IMPL, PROXY_IMPL (default BROKER_IMPL), RMQGO_*_BIN,
# MVN_TEST_FLAGS, the first ports (NAMESRV_PORT 29876, BROKER_PORT 29911,
# PROXY_PORT 29081 here: apart from the other suites' first choices, so that
# this can run beside them), COMPAT_CLIENTS (default gov5) and RUN_DIR
# (default compat/target/run-proxy-cluster) are passed on as run-suite.sh
# reads them; extra arguments go to Maven (e.g. -Dtest=GrpcClientTest).
# Ends with run-suite.sh's summary lines ("gov5: N passed, ...", then
# "compat: N passed, ...") and its status.

set -u
COMPAT_DIR=$(cd "$(dirname "$0")" && pwd)
NAMESRV_PORT=${NAMESRV_PORT:-29876}
BROKER_PORT=${BROKER_PORT:-29911}
PROXY_PORT=${PROXY_PORT:-29081}
export NAMESRV_PORT BROKER_PORT PROXY_PORT
RUN_DIR=${RUN_DIR:-$COMPAT_DIR/target/run-proxy-cluster} COMPAT_CLIENTS=${COMPAT_CLIENTS-gov5} COMPAT_BROKER_B=0 \
  PROXY=cluster exec sh "$COMPAT_DIR/run-suite.sh" 5 -Dgroups=grpc "$@"
