# Functions shared by the benchmark scripts (bench/broker-bench.sh,
# floor-bench.sh, ha-bench.sh, backlog-bench.sh, scale-bench.sh; POSIX sh,
# sourced, not run): log, die, bench_traps, drop_stores, bench_dirs, bench_outputs,
# servers, servers_stop, label, and for the replication benchmarks
# (ha-bench.sh, controller-bench.sh) sync_produce and sync_measure. Before sourcing, a script sets HERE (its
# folder, bench/), ROOT (the repository) and BENCH_NAME (its log prefix);
# it defines cleanup and calls bench_traps.
# shellcheck disable=SC2034 # RESULTS, SERVERS_UP: set here for the script

# log MESSAGE...: a progress line on stderr; die: one, then exit 1.
log() { echo "$BENCH_NAME: $*" >&2; }
die() { log "$*"; exit 1; }

# bench_traps: the script's cleanup runs on exit, then drop_stores; INT and
# TERM end it with the shell's status for them.
bench_traps() {
  trap 'cleanup; drop_stores' EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
}

# drop_stores: deletes the servers' store directories under RUN_DIR (their
# logs stay) unless KEEP_STORES=1. A run leaves gigabytes of commitlog
# behind, and a few runs can push the disk past the brokers' forced-clean
# ratio (85 %), where the next test's brokers delete the files it writes.
drop_stores() {
  if [ "${KEEP_STORES:-0}" != 1 ] && [ -d "${RUN_DIR:-}" ]; then
    find "$RUN_DIR" -type d -name store -prune -exec rm -rf {} +
  fi
}

# bench_dirs RUN RESULTS_FILE: RUN_DIR (the servers' directory, default
# bench/target/RUN) and OUT_DIR (the outputs, default $RUN_DIR.out) unless
# set; RESULTS=OUT_DIR/RESULTS_FILE; RUN_DIR, OUT_DIR and COMPAT_BROKER_B=0
# (no broker-b) exported for compat/ref-servers.sh; SERVERS_UP=0.
bench_dirs() {
  RUN_DIR=${RUN_DIR:-$HERE/target/$1}
  OUT_DIR=${OUT_DIR:-$RUN_DIR.out}
  RESULTS=$OUT_DIR/$2
  COMPAT_BROKER_B=0
  export RUN_DIR OUT_DIR COMPAT_BROKER_B
  SERVERS_UP=0
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

# servers ARGS...: compat/ref-servers.sh ARGS (start, stop, stop-broker
# ...) on RUN_DIR, its stderr appended to OUT_DIR/servers.log.
servers() { sh "$ROOT/compat/ref-servers.sh" "$@" 2>>"$OUT_DIR/servers.log"; }

# servers_stop: servers stop, then SERVERS_UP=0 (a script sets it to 1 as
# it starts them, and its cleanup stops them while it is).
servers_stop() {
  servers stop
  SERVERS_UP=0
}

# label KEY=VALUE...: prints the JSON lines of stdin with these string
# keys added first (other lines are dropped).
label() {
  prefix=""
  for kv in "$@"; do prefix="$prefix\"${kv%%=*}\":\"${kv#*=}\","; done
  sed -n "s/^{/{$prefix/p"
}

# sync_produce SECS FILE: SECS of rmqbench produce to the cluster of
# NAMESRV_ADDR, THREADS synchronous senders of BODY-byte bodies on TOPIC,
# its output in FILE.
sync_produce() {
  "$RMQBENCH_BIN" produce -n "$NAMESRV_ADDR" -t "$TOPIC" -s "$BODY" -w "$THREADS" -d "${1}s" -progress 0 >"$2" 2>&1
}

# sync_measure IMPL PHASE: PHASE_SECS of sync_produce, its figures shown and
# its result line labelled pair=IMPL phase=PHASE in RESULTS.
sync_measure() {
  log "[$1] $2: ${PHASE_SECS}s of rmqbench produce, $THREADS senders, ${BODY}-byte bodies"
  sync_produce "$PHASE_SECS" "$OUT_DIR/$1-$2.out" || { tail -5 "$OUT_DIR/$1-$2.out" >&2; return 1; }
  sed -n 's/^/  /; /produce: sent/p; /response/p' "$OUT_DIR/$1-$2.out" >&2
  label pair="$1" phase="$2" <"$OUT_DIR/$1-$2.out" >>"$RESULTS"
}
