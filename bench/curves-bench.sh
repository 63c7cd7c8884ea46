#!/bin/sh
# Cost curves, Java broker beside ours (POSIX sh): runs bench/broker-bench.sh
# once per point of each curve (each run starts the Java servers, 4.9.7 or
# LINE=5's 5.3.3, then ours, on this machine, so every ratio comes from one
# run) and prints one markdown table per curve (rmqbench curve-table), also
# saved in $OUT_DIR/<curve>.md.
#
#   queues     queues per topic: QUEUE_POINTS queues, QUEUE_THREADS senders,
#              load tools QUEUE_TOOLS: send TPS, consume TPS (and how much of
#              what was sent was consumed), broker CPU µs/msg, peak anon MB
#   syncflush  flushDiskType=SYNC_FLUSH on the broker (group commit),
#              SENDER_POINTS synchronous senders on SYNC_QUEUES queues, load
#              tools SYNC_TOOLS: send TPS, send p99, failed sends (SYSTEM_BUSY),
#              broker CPU µs/msg
#
#   RMQGO_BROKER_BIN=$PWD/bin/rmqgo-broker sh bench/curves-bench.sh
#   CURVES=syncflush SENDER_POINTS="1 64" PHASE_SECS=15 RMQGO_BROKER_BIN=$PWD/bin/rmqgo-broker sh bench/curves-bench.sh
#
# Environment (defaults in brackets):
#   CURVES ["queues syncflush"]     the curves to run, in order
#   QUEUE_POINTS ["1 16 256 1024"]  queues per topic, one run each
#   QUEUE_THREADS [64]              senders of the queues curve
#   QUEUE_TOOLS ["java rmqbench"]   load tools of the queues curve
#   SENDER_POINTS ["1 4 16 64 256"] synchronous senders, one run each
#   SYNC_QUEUES [8]                 queues of the syncflush curve's topic
#   SYNC_TOOLS [rmqbench]           load tools of the syncflush curve
#   BODY [1024] PHASE_SECS [20] WARMUP_SECS [5] GRACE_SECS [5]  as in
#                                   broker-bench.sh, for every point
#   RMQGO_BROKER_BIN                this project's broker (without it only
#                                   the Java broker runs); the rest of
#                                   broker-bench.sh's variables (LINE,
#                                   NAMESRV_PORT, BROKER_PORT, BROKER_B_PORT,
#                                   BROKER_CPUS, TOOL_CPUS, JAVA_BENCH_CP...)
#                                   pass through
#   RUN_DIR [bench/target/curves-run]  the servers' directory, reused by
#                                   every point; OUT_DIR [$RUN_DIR.out]: one
#                                   <curve>-<point>/ per run (broker-bench's
#                                   outputs), curves.jsonl (every run's
#                                   results.jsonl lines tagged with "curve"
#                                   and "point"), <curve>.md
#   GO [go]
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
CURVES=${CURVES:-queues syncflush}
QUEUE_POINTS=${QUEUE_POINTS:-1 16 256 1024}
QUEUE_THREADS=${QUEUE_THREADS:-64}
QUEUE_TOOLS=${QUEUE_TOOLS:-java rmqbench}
SENDER_POINTS=${SENDER_POINTS:-1 4 16 64 256}
SYNC_QUEUES=${SYNC_QUEUES:-8}
SYNC_TOOLS=${SYNC_TOOLS:-rmqbench}
BODY=${BODY:-1024}
PHASE_SECS=${PHASE_SECS:-20}
WARMUP_SECS=${WARMUP_SECS:-5}
GRACE_SECS=${GRACE_SECS:-5}
GO=${GO:-go}
RUN_DIR=${RUN_DIR:-$HERE/target/curves-run}
OUT_DIR=${OUT_DIR:-$RUN_DIR.out}
CURVES_OUT=$OUT_DIR
BENCH=$CURVES_OUT/rmqbench
export BODY PHASE_SECS WARMUP_SECS GRACE_SECS RUN_DIR

log() { echo "curves-bench: $*" >&2; }

# point CURVE POINT: one broker-bench.sh run (its variables already set by
# the caller), its result lines tagged and appended to curves.jsonl.
point() {
  out=$CURVES_OUT/$1-$2
  log "$1 = $2: $(date -u +%H:%M:%S), load average $(cut -d' ' -f1-3 /proc/loadavg)"
  OUT_DIR=$out sh "$HERE/broker-bench.sh" >"$out.log" 2>&1 ||
    log "$1 = $2: broker-bench.sh failed (see $out.log)"
  sed -n "s/^{/{\"curve\":\"$1\",\"point\":\"$2\",\"loadavg\":\"$(cut -d' ' -f1 /proc/loadavg)\",/p" \
    "$out/results.jsonl" >>"$CURVES_OUT/curves.jsonl" 2>/dev/null
}

curve_queues() {
  for q in $QUEUE_POINTS; do
    QUEUES=$q THREADS=$QUEUE_THREADS TOOLS=$QUEUE_TOOLS point queues "$q"
  done
}

curve_syncflush() {
  extra="flushDiskType=SYNC_FLUSH"
  [ -z "${BROKER_CONF_EXTRA:-}" ] || extra="$BROKER_CONF_EXTRA
$extra"
  for n in $SENDER_POINTS; do
    QUEUES=$SYNC_QUEUES THREADS=$n TOOLS=$SYNC_TOOLS BROKER_CONF_EXTRA=$extra point syncflush "$n"
  done
}

# table CURVE: the curve's markdown table, with the conditions above it.
table() {
  case $1 in
    queues)
      what="queues per topic; $QUEUE_THREADS synchronous senders"
      metrics="send TPS,consume TPS,consumed ÷ sent,CPU µs/msg,peak anon MB" ;;
    syncflush)
      what="synchronous senders; flushDiskType=SYNC_FLUSH, $SYNC_QUEUES queues"
      metrics="send TPS,send p99 ms,send failed,CPU µs/msg" ;;
  esac
  case ${LINE:-4} in 4) jver=4.9.7 ;; *) jver=5.3.3 ;; esac
  {
    echo "Points: $what; ${BODY}-byte bodies, ${PHASE_SECS}s of sends per point after ${WARMUP_SECS}s of warm-up;"
    echo "Java $jver servers then ours in the same run per point (bench/broker-bench.sh)."
    echo
    "$BENCH" curve-table -curve "$1" -metrics "$metrics" <"$CURVES_OUT/curves.jsonl"
  } | tee "$CURVES_OUT/$1.md"
}

mkdir -p "$CURVES_OUT"
: >"$CURVES_OUT/curves.jsonl"
for c in $CURVES; do
  case $c in
    queues) curve_queues ;;
    syncflush) curve_syncflush ;;
    *) log "unknown curve $c (queues, syncflush)"; exit 2 ;;
  esac
done
log "done $(date -u +%H:%M:%S), load average $(cut -d' ' -f1-3 /proc/loadavg)"
"$GO" build -o "$BENCH" "$ROOT/cmd/rmqbench" || { log "go build rmqbench failed"; exit 1; }
for c in $CURVES; do
  echo
  echo "### $c"
  echo
  table "$c"
done
