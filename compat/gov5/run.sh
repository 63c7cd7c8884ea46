#!/bin/sh
# Runs the RocketMQ 5 Go client's compat tests (POSIX sh,
# github.com/apache/rocketmq-clients/golang/v5 v5.1.3, go.mod / go.sum)
# against the gRPC proxy inside broker-a of running servers
# (compat/ref-servers.sh with PROXY=1, line 5), or the proxy in cluster mode
# in front of them (PROXY=cluster, compat/proxy-cluster-suite.sh):
#
#   RUN_DIR=/tmp/run PROXY=1 sh compat/ref-servers.sh start 5
#   RUN_DIR=/tmp/run sh compat/gov5/run.sh
#   RUN_DIR=/tmp/run sh compat/gov5/run.sh -run TestTransactions   # extra args go to go test
#
# RUN_DIR is the run directory of compat/ref-servers.sh: its env.sh gives
# PROXY_ADDR (the proxy's gRPC endpoint), NAMESRV_ADDR and BROKER_ADDR.
# Without RUN_DIR the environment's own are used. Without PROXY_ADDR (servers
# started without PROXY=1) nothing runs and every test counts as skipped.
#
# Knobs: GOV5_PARALLEL (16: how many tests run side by side; most of their
# time is spent waiting), GOV5_TIMEOUT (go test -timeout, 20m), GO (go).
# The Go client logs to $RUN_DIR/gov5-logs/rocketmq_client_go.log
# (rocketmq.client.logRoot), the test output goes to $RUN_DIR/gov5.out.
#
# The last line is "gov5: N passed, N failed, N skipped"; the exit status is
# 1 when a test failed (or go test failed without naming a test, e.g. a build
# error, counted as one failure).

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
GO=${GO:-go}
GOV5_PARALLEL=${GOV5_PARALLEL:-16}
GOV5_TIMEOUT=${GOV5_TIMEOUT:-20m}

if [ -n "${RUN_DIR:-}" ]; then
    if [ ! -f "$RUN_DIR/env.sh" ]; then
        echo "gov5: no $RUN_DIR/env.sh: start the servers with compat/ref-servers.sh first" >&2
        echo "gov5: 0 passed, 1 failed, 0 skipped"
        exit 2
    fi
    PROXY_ADDR="" # a run with the proxy says so in its env.sh
    # shellcheck disable=SC1091
    . "$RUN_DIR/env.sh"
    OUT_DIR=$RUN_DIR
else
    OUT_DIR=$(mktemp -d "${TMPDIR:-/tmp}/gov5.XXXXXX")
fi

if [ -z "${PROXY_ADDR:-}" ]; then
    tests=$(cat "$HERE"/*_test.go | grep -c '^func Test')
    echo "gov5: skipped: no PROXY_ADDR (start the servers with PROXY=1 compat/ref-servers.sh start 5)"
    echo "gov5: 0 passed, 0 failed, $tests skipped"
    exit 0
fi
echo "gov5: PROXY_ADDR=$PROXY_ADDR NAMESRV_ADDR=${NAMESRV_ADDR:-unset} BROKER_ADDR=${BROKER_ADDR:-unset}; outputs in $OUT_DIR"

# count PATTERN FILE: how many lines of FILE match the extended regexp.
count() {
    grep -Ec "$1" "$2" || true
}

out=$OUT_DIR/gov5.out
rcfile=$OUT_DIR/gov5.rc
start=$(date +%s)
{
    (cd "$HERE" && env "rocketmq.client.logRoot=$OUT_DIR/gov5-logs" \
        "$GO" test -count=1 -v -timeout "$GOV5_TIMEOUT" -parallel "$GOV5_PARALLEL" ./... "$@" 2>&1)
    echo $? >"$rcfile"
} | tee "$out"
rc=$(cat "$rcfile")
pass=$(count '^ *--- PASS:' "$out")
fail=$(count '^ *--- FAIL:' "$out")
skip=$(count '^ *--- SKIP:' "$out")
if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
    fail=1
fi
echo "gov5: $(($(date +%s) - start)) s, go test exit $rc"
status=0
if [ "$rc" -ne 0 ] || [ "$fail" -gt 0 ]; then
    status=1
fi
echo "gov5: $pass passed, $fail failed, $skip skipped"
exit $status
