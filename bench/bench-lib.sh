# Functions shared by the benchmark scripts (bench/broker-bench.sh,
# floor-bench.sh, ha-bench.sh, backlog-bench.sh, scale-bench.sh; POSIX sh,
# sourced, not run): log, die, bench_traps, drop_stores, bench_dirs, bench_outputs,
# servers, servers_stop, label, and for the replication benchmarks
# (ha-bench.sh, controller-bench.sh) sync_produce, sync_measure and the
# memory cgroup they run in (bound_page_cache, refill_page_cache,
# page_cache_note, unbound_page_cache). Before sourcing, a script sets HERE (its
# folder, bench/), ROOT (the repository) and BENCH_NAME (its log prefix);
# it defines cleanup and calls bench_traps.
# shellcheck disable=SC2034 # RESULTS, SERVERS_UP: set here for the script

# log MESSAGE...: a progress line on stderr; die: one, then exit 1.
log() { echo "$BENCH_NAME: $*" >&2; }
die() { log "$*"; exit 1; }

# bench_traps: the script's cleanup runs on exit, then drop_stores and
# unbound_page_cache; INT and TERM end it with the shell's status for them.
bench_traps() {
  trap 'cleanup; drop_stores; unbound_page_cache' EXIT
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

# bound_page_cache: moves this shell, and so every server and client it
# starts from now on, into a memory cgroup of its own limited to MB
# megabytes (cgroup v1's memory controller, or v2's where the shell's
# group delegates it), and fills that with the clean pages of a file of MB
# megabytes (PAGE_CACHE_FILLER, written once with O_DIRECT, read back by
# refill_page_cache; MB is MEM_LIMIT_MB, 4096 unless set). Every new
# page a broker writes its commitlog into is then a page the kernel takes
# back from that cache, as on a machine that has run for a while, and not
# a page of memory the machine has never used: on a virtual machine that returns freed memory to its host (free
# page reporting, as here: Linux's page_reporting), the first write to such
# a page is a fault in the host, and it cost each broker of a pair about
# 2.7 µs a 1 KB message, the same for Java's and ours, a quarter of what
# the two of ours spend in all (perf: memset in the page cache's fault
# path, under madvise or the writer's store). rmqbench touchmem, which
# writes the free memory once and frees it, no longer helps there: the
# freed memory goes back to the host. MB=0, or a machine where no cgroup
# can be made, leaves the page cache unbounded (logged).
bound_page_cache() {
  MEM_CGROUP=""
  set -- "${MEM_LIMIT_MB:=4096}"
  if [ "$1" -le 0 ]; then
    log "page cache unbounded (MEM_LIMIT_MB=0)"
    return 0
  fi
  v1=$(sed -n 's/^[0-9]*:memory:\(.*\)/\1/p' /proc/self/cgroup)
  v2=$(sed -n 's/^0::\(.*\)/\1/p' /proc/self/cgroup)
  if [ -n "$v1" ] && [ -d "/sys/fs/cgroup/memory$v1" ]; then
    base=/sys/fs/cgroup/memory${v1%/} limit_file=memory.limit_in_bytes
  elif [ -n "$v2" ] && grep -qw memory "/sys/fs/cgroup${v2%/}/cgroup.subtree_control" 2>/dev/null; then
    base=/sys/fs/cgroup${v2%/} limit_file=memory.max
  else
    log "page cache unbounded: no memory cgroup this shell can make a child of"
    return 0
  fi
  dir=$base/rmqbench-$$
  if ! { mkdir "$dir" && echo $(($1 * 1048576)) >"$dir/$limit_file" && echo $$ >"$dir/cgroup.procs"; } 2>/dev/null; then
    rmdir "$dir" 2>/dev/null
    log "page cache unbounded: could not make the memory cgroup $dir"
    return 0
  fi
  MEM_CGROUP=$dir MEM_CGROUP_PARENT=$base
  PAGE_CACHE_FILLER=${PAGE_CACHE_FILLER:-$OUT_DIR/page-cache-filler}
  log "servers and load in the memory cgroup $dir, limited to $1 MB; writing $1 MB to $PAGE_CACHE_FILLER"
  dd if=/dev/zero of="$PAGE_CACHE_FILLER" bs=4M count=$(($1 / 4)) oflag=direct status=none ||
    log "could not write $PAGE_CACHE_FILLER; the cgroup's cache fills as the brokers write"
}

# refill_page_cache: the filler read into the cgroup's cache again (a pair
# whose store was wiped gave its pages back, and the next would otherwise
# take fresh memory until the cgroup is full again).
refill_page_cache() {
  if [ -n "${MEM_CGROUP:-}" ] && [ -f "$PAGE_CACHE_FILLER" ]; then
    cat "$PAGE_CACHE_FILLER" >/dev/null
  fi
}

# page_cache_note: the line a table's header says the memory set-up with.
page_cache_note() {
  if [ -n "${MEM_CGROUP:-}" ]; then
    echo "Servers and load in a memory cgroup of $MEM_LIMIT_MB MB, its page cache full before each pair."
  else
    echo "Page cache unbounded (no memory cgroup)."
  fi
}

# unbound_page_cache: this shell back in its own group, the cgroup and the
# filler removed (on exit, after the servers have stopped).
unbound_page_cache() {
  if [ -n "${MEM_CGROUP:-}" ]; then
    echo $$ >"$MEM_CGROUP_PARENT/cgroup.procs" 2>/dev/null
    rmdir "$MEM_CGROUP" 2>/dev/null || log "could not remove $MEM_CGROUP (a process still in it?)"
    rm -f "$PAGE_CACHE_FILLER"
    MEM_CGROUP=""
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
