#!/bin/sh
# The store benchmark, side by side in one run on this machine: the Java
# broker's DefaultMessageStore (rocketmq-store 4.9.7 and 5.3.3, driven by
# compat/storetool StoreBench) and this project's store (rmqbench store),
# each on the same loads: 1 KiB messages appended with ASYNC_FLUSH and
# SYNC_FLUSH, by one writer and by four, then read back. Prints the JSON
# lines as they come and a markdown table with ratios at the end (POSIX sh).
#
#   sh bench/store-bench.sh                 # all loads
#   ASYNC_MSGS=100000 SYNC_MSGS=10000 sh bench/store-bench.sh
#   LINES="4" sh bench/store-bench.sh       # Java 4.9.7 only
#
# Each run gets a fresh directory under BENCH_DIR (default a mktemp dir),
# deleted afterwards: the stores use 1 GiB commitlog files.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ASYNC_MSGS=${ASYNC_MSGS:-200000}
SYNC_MSGS=${SYNC_MSGS:-20000}
BODY=${BODY:-1024}
LINES=${LINES:-"4 5"}
BENCH_DIR=${BENCH_DIR:-$(mktemp -d /tmp/rmqgo-store-bench.XXXXXX)}
RESULTS=$BENCH_DIR/results.jsonl
GO=${GO:-go}

"$GO" build -o "$BENCH_DIR/rmqbench" "$ROOT/cmd/rmqbench"
for line in $LINES; do sh "$ROOT/compat/storetool/run.sh" "$line" build; done
: >"$RESULTS"

run() { # name command...
  dir=$BENCH_DIR/store
  rm -rf "$dir"
  echo "store-bench: $*" >&2
  "$@" | tee -a "$RESULTS"
  rm -rf "$dir"
}

for load in "ASYNC_FLUSH 1 $ASYNC_MSGS" "ASYNC_FLUSH 4 $ASYNC_MSGS" "SYNC_FLUSH 1 $SYNC_MSGS" "SYNC_FLUSH 4 $SYNC_MSGS"; do
  set -- $load
  for line in $LINES; do
    run sh "$ROOT/compat/storetool/run.sh" "$line" StoreBench "$BENCH_DIR/store" "$1" "$2" "$3" "$BODY"
  done
  run "$BENCH_DIR/rmqbench" store -dir "$BENCH_DIR/store" -flush "$1" -threads "$2" -messages "$3" -body "$BODY"
done
echo
"$BENCH_DIR/rmqbench" store-table <"$RESULTS"
rm -rf "$BENCH_DIR"
