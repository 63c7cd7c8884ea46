# Functions shared by the benchmark scripts (bench/broker-bench.sh,
# ha-bench.sh, backlog-bench.sh, scale-bench.sh; POSIX sh, sourced, not
# run). Before sourcing, a script sets BENCH_NAME (its log prefix); it
# defines cleanup and calls bench_traps.

# log MESSAGE...: a progress line on stderr; die: one, then exit 1.
log() { echo "$BENCH_NAME: $*" >&2; }
die() { log "$*"; exit 1; }

# bench_traps: the script's cleanup runs on exit; INT and TERM end it with
# the shell's status for them.
bench_traps() {
  trap cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
}

# bench_outputs: OUT_DIR made, RESULTS and OUT_DIR/servers.log emptied,
# and RMQBENCH_BIN built into OUT_DIR when it is not set.
bench_outputs() {
  mkdir -p "$OUT_DIR"
  : >"$RESULTS"
  : >"$OUT_DIR/servers.log"
  if [ -z "${RMQBENCH_BIN:-}" ]; then
    RMQBENCH_BIN=$OUT_DIR/rmqbench
    log "building rmqbench into $OUT_DIR"
    "$GO" build -o "$RMQBENCH_BIN" "$ROOT/cmd/rmqbench" || die "go build rmqbench failed"
  fi
}

# label KEY=VALUE...: prints the JSON lines of stdin with these string
# keys added first (other lines are dropped).
label() {
  prefix=""
  for kv in "$@"; do prefix="$prefix\"${kv%%=*}\":\"${kv#*=}\","; done
  sed -n "s/^{/{$prefix/p"
}
