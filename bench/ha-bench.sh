#!/bin/sh
# Replication throughput and the latency a SYNC_MASTER adds, the Java pair
# (Java 4.9.7 master + Java slave) against ours (Go master + Go slave), one
# run on this machine (POSIX sh). For each pair, on one set of servers
# (compat/ref-servers.sh COMPAT_SLAVE=1, the Java name server, ASYNC_FLUSH
# everywhere so that the disk's fsync does not hide replication):
#
#   warm-up        WARMUP_SECS of rmqbench produce (not measured), then until
#                  the slave has everything
#   async-alone    the slave stopped (SIGTERM): ASYNC_MASTER alone, PHASE_SECS
#                  of rmqbench produce
#   catchup        rmqbench catchup started, then the slave: how fast it
#                  copies what async-alone wrote (commitLogMaxOffset polled)
#   async-slave    ASYNC_MASTER with its slave attached, PHASE_SECS
#   sync-slave     the master restarted as SYNC_MASTER (brokerRole appended to
#                  its broker.conf), warmed up again, PHASE_SECS: every send
#                  waits for the slave's ack
#
# Load: rmqbench produce, THREADS synchronous senders, BODY-byte bodies, on a
# topic of 4 queues made through TBW102. Each measured phase is bracketed
# by rmqbench proc of the master and the running slave (their CPU seconds),
# so the tables show the CPU a message cost each broker besides TPS and
# latency. Prints each phase as it goes and at the end the markdown tables
# (also OUT_DIR/table.md, made by rmqbench ha-table from
# OUT_DIR/results.jsonl) with Go ÷ Java ratios.
#
#   RMQGO_BROKER_BIN=$PWD/bin/rmqgo-broker sh bench/ha-bench.sh
#   PHASE_SECS=5 WARMUP_SECS=2 PAIRS=go RMQGO_BROKER_BIN=... sh bench/ha-bench.sh   # a quick look
#
# The servers and the load run in a memory cgroup of MEM_LIMIT_MB, filled
# with clean page cache before each pair (bench-lib.sh bound_page_cache:
# on this virtual machine a page of memory never used before costs each
# broker about 2.7 µs a 1 KB message, Java's and ours alike).
#
# Environment (defaults in brackets): PHASE_SECS [20], WARMUP_SECS [10],
# THREADS [32], BODY [1024], PAIRS ["java go"], LINE [4], RUN_DIR
# [bench/target/ha-bench-run] (servers, wiped per pair), OUT_DIR
# [$RUN_DIR.out], RMQBENCH_BIN [built into OUT_DIR], GO [go], NAMESRV_PORT
# [25876], BROKER_PORT [25911], SLAVE_PORT [25921], MEM_LIMIT_MB [4096; 0:
# no cgroup].
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BENCH_NAME=ha-bench
# shellcheck source=bench/bench-lib.sh
. "$HERE/bench-lib.sh"
PHASE_SECS=${PHASE_SECS:-20}
WARMUP_SECS=${WARMUP_SECS:-10}
THREADS=${THREADS:-32}
BODY=${BODY:-1024}
PAIRS=${PAIRS:-java go}
LINE=${LINE:-4}
GO=${GO:-go}
bench_dirs ha-bench-run results.jsonl
TOPIC=HaBench

cleanup() {
  if [ "$SERVERS_UP" = 1 ]; then servers stop; fi
}
bench_traps

prepare() {
  bench_outputs
  bound_page_cache
}

# warmup IMPL WHAT: WARMUP_SECS of sends (not measured), then until the
# slave has everything.
warmup() {
  log "[$1] warming up ($2): ${WARMUP_SECS}s of rmqbench produce, not measured"
  sync_produce "$WARMUP_SECS" "$OUT_DIR/$1-warmup-$2.out" || log "[$1] the warm-up producer failed (see $OUT_DIR/$1-warmup-$2.out)"
  "$RMQBENCH_BIN" catchup -master "$BROKER_ADDR" -slave "$SLAVE_ADDR" -timeout 120s >"$OUT_DIR/$1-sync-$2.out" 2>&1 ||
    { cat "$OUT_DIR/$1-sync-$2.out" >&2; return 1; }
}

# catchup IMPL: starts the slave with rmqbench catchup polling.
catchup() {
  log "[$1] catchup: starting the slave, rmqbench catchup polling both brokers"
  "$RMQBENCH_BIN" catchup -master "$BROKER_ADDR" -slave "$SLAVE_ADDR" -timeout 300s >"$OUT_DIR/$1-catchup.out" 2>&1 &
  poller=$!
  servers start-broker a-slave || { kill "$poller"; return 1; }
  wait "$poller" || { cat "$OUT_DIR/$1-catchup.out" >&2; return 1; }
  sed -n '/^catchup:/s/^/  /p' "$OUT_DIR/$1-catchup.out" >&2
  label pair="$1" phase=catchup <"$OUT_DIR/$1-catchup.out" >>"$RESULTS"
}

# to_sync_master: the master restarted as SYNC_MASTER on its store, and
# one send until it is answered SUCCESS (SLAVE_NOT_AVAILABLE until the
# slave has connected again), for up to 120 s.
to_sync_master() {
  echo "brokerRole=SYNC_MASTER" >>"$RUN_DIR/broker-a/broker.conf"
  servers restart-broker a || return 1
  n=0
  until "$RMQBENCH_BIN" produce -n "$NAMESRV_ADDR" -t "$TOPIC" -s "$BODY" -w 1 -count 1 -progress 0 >"$OUT_DIR/probe.out" 2>&1; do
    n=$((n + 1))
    [ $n -lt 240 ] || { log "the SYNC_MASTER did not answer SUCCESS within 120 s"; tail -3 "$OUT_DIR/probe.out" >&2; return 1; }
    sleep 0.5
  done
}

# brokers_cpu IMPL PHASE AT: a proc line (CPU seconds so far) of the master
# and, when it runs, the slave, labelled for ha-table.
brokers_cpu() {
  for b in broker-a broker-a-slave; do
    [ -f "$RUN_DIR/$b/pid" ] || continue
    pid=$(cat "$RUN_DIR/$b/pid")
    kill -0 "$pid" 2>/dev/null || continue
    "$RMQBENCH_BIN" proc -pid "$pid" | label pair="$1" phase="$2" broker="$b" at="$3" >>"$RESULTS"
  done
}

# measure IMPL PHASE: sync_measure bracketed by brokers_cpu.
measure() {
  brokers_cpu "$1" "$2" before
  sync_measure "$1" "$2" || return 1
  brokers_cpu "$1" "$2" after
}

# bench IMPL: the phases against IMPL's pair.
bench() {
  impl=$1
  refill_page_cache
  log "[$impl] starting the Java name server, a $impl master and a $impl slave (RUN_DIR=$RUN_DIR)"
  NAMESRV_PORT=${NAMESRV_PORT:-25876} BROKER_PORT=${BROKER_PORT:-25911} SLAVE_PORT=${SLAVE_PORT:-25921} \
    NAMESRV_IMPL=java BROKER_IMPL=$impl SLAVE_IMPL=$impl COMPAT_SLAVE=1 COMPAT_BROKER_B=0 \
    servers start "$LINE" >/dev/null || return 1
  SERVERS_UP=1
  # shellcheck disable=SC1091
  . "$RUN_DIR/env.sh"
  warmup "$impl" async || return 1
  servers stop-broker a-slave || return 1
  measure "$impl" async-alone || return 1
  catchup "$impl" || return 1
  measure "$impl" async-slave || return 1
  to_sync_master || return 1
  warmup "$impl" sync || return 1
  measure "$impl" sync-slave || return 1
  servers_stop
}

prepare
for impl in $PAIRS; do
  case $impl in
    go) [ -x "${RMQGO_BROKER_BIN:-}" ] || die "the go pair needs RMQGO_BROKER_BIN (make build)" ;;
    java) ;;
    *) die "PAIRS holds java and/or go, not $impl" ;;
  esac
  if ! bench "$impl"; then
    log "[$impl] failed (see $OUT_DIR/ and $RUN_DIR/)"
    printf '{"kind":"skip","pair":"%s","reason":"the run failed; see %s"}\n' "$impl" "$OUT_DIR" >>"$RESULTS"
    if [ "$SERVERS_UP" = 1 ]; then servers_stop; fi
  fi
done

{
  echo
  echo "Pairs: java = Java 4.9.7 master + slave; go = this project's; the Java name server for both. Load: rmqbench"
  echo "produce, $THREADS synchronous senders, ${BODY}-byte bodies, ${PHASE_SECS}s a row, ASYNC_FLUSH; warmed up ${WARMUP_SECS}s first."
  page_cache_note
  echo
  "$RMQBENCH_BIN" ha-table <"$RESULTS"
} | tee "$OUT_DIR/table.md"
