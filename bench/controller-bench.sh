#!/bin/sh
# What a controller-mode SyncStateSet costs a send (issue 31, item 3): Java's
# controller and two Java brokers against ours, one run on this machine
# (POSIX sh). For each pair (compat/controller-suite.sh start: the Java name
# server, a controller and two brokers of broker-a, all of the pair,
# allAckInSyncStateSet=true, ASYNC_FLUSH, 1 GiB commitlog files):
#
#   warm-up       WARMUP_SECS of rmqbench produce (not measured), once the
#                 SyncStateSet holds both brokers
#   sync-slave    PHASE_SECS: every send waits until the slave has it
#                 (allAckInSyncStateSet, the slave in the SyncStateSet)
#   async-alone   the slave stopped (SIGTERM) and the SyncStateSet down to
#                 the master: PHASE_SECS of sends that wait for nobody
#
# Load: rmqbench produce, THREADS synchronous senders, BODY-byte bodies, a
# 4-queue topic. The table (rmqbench ha-table, OUT_DIR/table.md) has both
# phases per pair with Go ÷ Java ratios, and what the SyncStateSet adds
# to a send (sync-slave less async-alone, average and p99) and the share
# of the lone master's TPS it keeps.
#
#   make build; RMQGO_CONTROLLER_BIN=$PWD/bin/rmqgo-controller RMQGO_BROKER_BIN=$PWD/bin/rmqgo-broker \
#     RMQBENCH_BIN=$PWD/bin/rmqbench THREADS=16 sh bench/controller-bench.sh
#   make bench-controller     # THREADS 1, 16 and 64 in a row
#
# The servers and the load run in a memory cgroup of MEM_LIMIT_MB, filled
# with clean page cache before each pair (bench-lib.sh bound_page_cache).
#
# Environment (defaults in brackets): PHASE_SECS [20], WARMUP_SECS [10],
# THREADS [16], BODY [1024], PAIRS ["java go"], RUN_DIR
# [bench/target/controller-bench-run-$THREADS], OUT_DIR [$RUN_DIR.out],
# RMQBENCH_BIN [built into OUT_DIR], GO [go], MEM_LIMIT_MB [4096; 0: no
# cgroup].
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BENCH_NAME=controller-bench
# shellcheck source=bench/bench-lib.sh
. "$HERE/bench-lib.sh"
PHASE_SECS=${PHASE_SECS:-20}
WARMUP_SECS=${WARMUP_SECS:-10}
THREADS=${THREADS:-16}
BODY=${BODY:-1024}
PAIRS=${PAIRS:-java go}
GO=${GO:-go}
bench_dirs "controller-bench-run-$THREADS" results.jsonl
TOPIC=CtlBench

cleanup() {
  if [ "$SERVERS_UP" = 1 ]; then suite stop; fi
}
bench_traps

# suite ARGS...: compat/controller-suite.sh on RUN_DIR.
suite() { sh "$ROOT/compat/controller-suite.sh" "$@" 2>>"$OUT_DIR/servers.log"; }

# sync_state_set_size: how many replicas the controller has in sync.
sync_state_set_size() {
  RMQ_LINE=5 sh "$ROOT/compat/mqadmin.sh" getSyncStateSet -a "$CONTROLLER_ADDR" -b broker-a 2>/dev/null |
    sed -n 's/^#SyncStateSetNums[[:space:]]*//p'
}

# await_sync_state_set N: up to 120 s for a SyncStateSet of N replicas.
await_sync_state_set() {
  n=0
  until [ "$(sync_state_set_size)" = "$1" ]; do
    n=$((n + 1))
    [ $n -lt 60 ] || { log "the SyncStateSet did not reach $1 replicas within 120 s"; return 1; }
    sleep 2
  done
}

# master_index: the broker (1 or 2) the controller has as master.
master_index() {
  addr=$(RMQ_LINE=5 sh "$ROOT/compat/mqadmin.sh" getSyncStateSet -a "$CONTROLLER_ADDR" -b broker-a 2>/dev/null |
    sed -n 's/^#MasterAddr[[:space:]]*//p')
  if [ "$addr" = "$BROKER_2_ADDR" ]; then echo 2; else echo 1; fi
}

# bench IMPL: the phases against IMPL's controller and brokers.
bench() {
  impl=$1
  refill_page_cache
  log "[$impl] starting the Java name server, a $impl controller and two $impl brokers (RUN_DIR=$RUN_DIR)"
  CONTROLLER_IMPL=$impl CONTROLLER_BROKERS="$impl $impl" BROKER_CONF_EXTRA="mappedFileSizeCommitLog=1073741824" \
    suite start >/dev/null || return 1
  SERVERS_UP=1
  # shellcheck disable=SC1091
  . "$RUN_DIR/env.sh"
  await_sync_state_set 2 || return 1
  log "[$impl] warming up: ${WARMUP_SECS}s of rmqbench produce, not measured"
  sync_produce "$WARMUP_SECS" "$OUT_DIR/$impl-warmup.out" || log "[$impl] the warm-up producer failed (see $OUT_DIR/$impl-warmup.out)"
  await_sync_state_set 2 || return 1
  sync_measure "$impl" sync-slave || return 1
  master=$(master_index)
  slave=$((3 - master))
  log "[$impl] stopping the slave (broker-$slave); waiting for a SyncStateSet of the master alone"
  suite stop-broker "$slave" || return 1
  await_sync_state_set 1 || return 1
  sync_measure "$impl" async-alone || return 1
  suite stop
  SERVERS_UP=0
}

bench_outputs
bound_page_cache
for impl in $PAIRS; do
  case $impl in
    go) [ -x "${RMQGO_BROKER_BIN:-}" ] && [ -x "${RMQGO_CONTROLLER_BIN:-}" ] ||
      die "the go pair needs RMQGO_BROKER_BIN and RMQGO_CONTROLLER_BIN (make build)" ;;
    java) ;;
    *) die "PAIRS holds java and/or go, not $impl" ;;
  esac
  if ! bench "$impl"; then
    log "[$impl] failed (see $OUT_DIR/ and $RUN_DIR/)"
    printf '{"kind":"skip","pair":"%s","reason":"the run failed; see %s"}\n' "$impl" "$OUT_DIR" >>"$RESULTS"
    if [ "$SERVERS_UP" = 1 ]; then suite stop; SERVERS_UP=0; fi
  fi
done

{
  echo
  echo "Controller mode, allAckInSyncStateSet=true: java = Java 5.3.3 controller + two brokers; go = this project's;"
  echo "the Java name server for both. Load: rmqbench produce, $THREADS synchronous senders, ${BODY}-byte bodies,"
  echo "${PHASE_SECS}s a row, ASYNC_FLUSH; warmed up ${WARMUP_SECS}s first. sync-slave: the slave in the SyncStateSet;"
  echo "async-alone: the slave stopped, the SyncStateSet the master alone (the SYNC_MASTER column is what the"
  echo "SyncStateSet adds)."
  page_cache_note
  echo
  "$RMQBENCH_BIN" ha-table <"$RESULTS"
} | tee "$OUT_DIR/table.md"
