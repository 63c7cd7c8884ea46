#!/bin/sh
# Runs the Go-client compat tests (POSIX sh) against running servers, once
# per version of github.com/apache/rocketmq-client-go/v2:
#   release  go.mod / go.sum                v2.1.2, its newest release
#   master   go.master.mod / go.master.sum  its master as the module proxy serves it
#
#   RUN_DIR=/tmp/run sh compat/goclient/run.sh        # both versions
#   GOCLIENT_MODS=master RUN_DIR=/tmp/run sh compat/goclient/run.sh
#   RUN_DIR=/tmp/run sh compat/goclient/run.sh -run TestTransactions   # extra args go to go test
#
# RUN_DIR is the run directory of compat/ref-servers.sh: its env.sh gives
# NAMESRV_ADDR and BROKER_ADDR. Without RUN_DIR the environment's own are
# used (and the tests skip when NAMESRV_ADDR is unset).
#
# Knobs: GOCLIENT_MODS ("release master"), GOCLIENT_PARALLEL (16: how many
# tests run side by side; most of their time is spent waiting), GO (go).
# The Go client logs (errors only) go to $RUN_DIR/goclient-<version>.log, its
# broadcasting offsets to $RUN_DIR/goclient-offsets (or a temp dir).
#
# The last line is "goclient: N passed, N failed, N skipped", summed over
# the versions run; the exit status is 1 when a test failed (or a run failed
# without naming a test, e.g. a build error, counted as one failure).

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
GO=${GO:-go}
GOCLIENT_MODS=${GOCLIENT_MODS:-release master}
GOCLIENT_PARALLEL=${GOCLIENT_PARALLEL:-16}

if [ -n "${RUN_DIR:-}" ]; then
    if [ ! -f "$RUN_DIR/env.sh" ]; then
        echo "goclient: no $RUN_DIR/env.sh: start the servers with compat/ref-servers.sh first" >&2
        echo "goclient: 0 passed, 1 failed, 0 skipped"
        exit 2
    fi
    . "$RUN_DIR/env.sh"
    OUT_DIR=$RUN_DIR
else
    OUT_DIR=$(mktemp -d "${TMPDIR:-/tmp}/goclient.XXXXXX")
fi
echo "goclient: NAMESRV_ADDR=${NAMESRV_ADDR:-unset} BROKER_ADDR=${BROKER_ADDR:-unset}; outputs in $OUT_DIR"

total_pass=0
total_fail=0
total_skip=0
status=0

# count PATTERN FILE: how many lines of FILE match the extended regexp.
count() {
    grep -Ec "$1" "$2" || true
}

for mod in $GOCLIENT_MODS; do
    case $mod in
    release) modfile=go.mod ;;
    master) modfile=go.master.mod ;;
    *)
        echo "goclient: unknown version '$mod' (release or master)" >&2
        total_fail=$((total_fail + 1))
        status=1
        continue
        ;;
    esac
    out=$OUT_DIR/goclient-$mod.out
    rcfile=$OUT_DIR/goclient-$mod.rc
    echo "goclient: === $mod ($modfile)"
    start=$(date +%s)
    {
        (cd "$HERE" && env "rocketmq.client.localOffsetStoreDir=$OUT_DIR/goclient-offsets" \
            GOCLIENT_LOG="$OUT_DIR/goclient-$mod.log" \
            "$GO" test -modfile="$modfile" -count=1 -v -parallel "$GOCLIENT_PARALLEL" ./... "$@" 2>&1)
        echo $? >"$rcfile"
    } | tee "$out"
    rc=$(cat "$rcfile")
    pass=$(count '^ *--- PASS:' "$out")
    fail=$(count '^ *--- FAIL:' "$out")
    skip=$(count '^ *--- SKIP:' "$out")
    if [ "$rc" -ne 0 ] && [ "$fail" -eq 0 ]; then
        fail=1
    fi
    echo "goclient: $mod: $pass passed, $fail failed, $skip skipped ($(($(date +%s) - start)) s, go test exit $rc)"
    total_pass=$((total_pass + pass))
    total_fail=$((total_fail + fail))
    total_skip=$((total_skip + skip))
    if [ "$rc" -ne 0 ]; then
        status=1
    fi
done

if [ "$total_fail" -gt 0 ]; then
    status=1
fi
echo "goclient: $total_pass passed, $total_fail failed, $total_skip skipped"
exit $status
