#!/bin/sh
# Every broker benchmark in one run (make bench; POSIX sh): this project's
# broker beside the Java one, the same load on both, in one run on this
# machine, each step's table appended to one report.
#
#   1 throughput     bench/broker-bench.sh: Java's benchmark tools and
#                    rmqbench, line 4 (4.9.7), the broker and tools sharing
#                    the cores
#   2 pinned         the same with the servers on CPU 0 and the tools on
#                    CPU 1 (BROKER_CPUS, TOOL_CPUS; skipped on one core)
#   3 line 5         the same with the 5.3.3 servers and client
#   4 fixed rate     rmqbench at RATE messages a second: send and
#                    end-to-end latency under the same load on both
#   5 floor          bench/floor-bench.sh: the CPU a message costs a
#                    server that stores nothing (rmqbench null-broker),
#                    beside both brokers
#   6 curves         bench/curves-bench.sh: 1 -> 1024 queues, SYNC_FLUSH
#                    with 1 -> 256 senders
#   7 scale          bench/scale-bench.sh: 10 -> 10,000 topics,
#                    10 -> 5,000 client connections
#   8 backlog        bench/backlog-bench.sh: a consumer catching up on a
#                    backlog read cold from disk
#   9 recovery       bench/recovery-bench.sh: start time after a SIGKILL
#                    under load, by store size
#  10 grpc           bench/grpc-bench.sh: the 5.x clients' gRPC path in
#                    local mode (the Java 5.3.3 broker's proxy and ours):
#                    SendMessage throughput, latency and CPU, and the
#                    memory of thousands of idle Telemetry streams
#
# STEPS picks steps by name (default: all ten). SMOKE=1 runs each step
# briefly at its smallest points (CI: make bench-smoke); the figures then
# only show that every step works. A failed step is reported and the others
# still run; the exit status is 1 when any step failed.
#
#   sh bench/bench-all.sh                        # about 2 hours
#   STEPS="throughput pinned" PHASE_SECS=60 sh bench/bench-all.sh
#   SMOKE=1 sh bench/bench-all.sh
#
# Environment (defaults in brackets):
#   RMQGO_BROKER_BIN, RMQGO_NAMESRV_BIN, RMQBENCH_BIN  our binaries (make
#                    bench sets them)
#   OUT [bench/target/bench-all]  the report (report.md) and each step's
#                    log and output directory
#   PHASE_SECS [60], BODY [1024], THREADS [64], RATE [10000]  steps 1-4
#                    (PHASE_SECS, BODY, THREADS also step 10)
#   RECOVERY_SIZES ["1 5 10"]  GiB, step 8
#   TOUCHMEM [1, 0 under SMOKE]  first write once to most free memory
#                    (rmqbench touchmem): on a fresh virtual machine the
#                    first write to a page of guest memory costs about 8x a
#                    later one, and whichever broker ran second would get
#                    the pages the first had paid for
#   NAMESRV_PORT, BROKER_PORT, BROKER_B_PORT, SLAVE_PORT  first port choices
#                    (compat/ref-servers.sh), passed to every step
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
OUT=${OUT:-$HERE/target/bench-all}
SMOKE=${SMOKE:-0}
STEPS=${STEPS:-throughput pinned line5 fixedrate floor curves scale backlog recovery grpc}
if [ "$SMOKE" = 1 ]; then
  TOUCHMEM=${TOUCHMEM:-0}
  PHASE_SECS=${PHASE_SECS:-12}  # the Java tools report every 10 s
  RECOVERY_SIZES=${RECOVERY_SIZES:-1}
  export WARMUP_SECS=${WARMUP_SECS:-0} GRACE_SECS=${GRACE_SECS:-2} SMOKE
else
  PHASE_SECS=${PHASE_SECS:-60}
  RECOVERY_SIZES=${RECOVERY_SIZES:-1 5 10}
fi
BODY=${BODY:-1024}
THREADS=${THREADS:-64}
RATE=${RATE:-10000}
export PHASE_SECS BODY THREADS
REPORT=$OUT/report.md
FAILED=""

log() { echo "bench-all: $*" >&2; }

# step NAME TITLE CMD...: runs CMD with its output in OUT/NAME.log, and
# appends TITLE, the command and the table CMD printed (its last lines
# from the first table row on) to the report.
step() {
  name=$1 title=$2
  shift 2
  log "[$name] $title: $*"
  start=$(date +%s)
  if "$@" >"$OUT/$name.log" 2>&1; then status=ok; else status=failed; FAILED="$FAILED $name"; fi
  secs=$(($(date +%s) - start))
  log "[$name] $status after ${secs}s (log: $OUT/$name.log)"
  {
    echo "## $title"
    echo
    echo "    $*"
    echo
    echo "$status after ${secs}s, load average $(cut -d' ' -f1-3 /proc/loadavg)."
    echo
    if [ $status = ok ]; then
      sed -n '/^|/,$p' "$OUT/$name.log" | grep -v '^broker-bench:\|^floor-bench:\|^curves-bench:\|^scale-bench:\|^backlog-bench:\|^recovery-bench:\|^grpc-bench:'
    else
      tail -20 "$OUT/$name.log" | sed 's/^/    /'
    fi
    echo
  } >>"$REPORT"
}

# broker_bench NAME VAR=VALUE...: bench/broker-bench.sh with its own run
# and output directories.
broker_bench() {
  name=$1
  shift
  env RUN_DIR="$OUT/$name-run" OUT_DIR="$OUT/$name" "$@" sh "$HERE/broker-bench.sh"
}

wants() { case " $STEPS " in *" $1 "*) return 0 ;; esac; return 1; }

# smoke_env STEP: the settings that make a curve step brief under SMOKE=1
# (its smallest points), printed as VAR=VALUE words for env.
smoke_env() {
  [ "$SMOKE" = 1 ] || return 0
  case $1 in
    scale) echo "TOPIC_POINTS=10 CLIENT_POINTS=10 REGISTER_COUNT=3 PHASE_SECS=4 WARMUP_SECS=1" ;;
    backlog) echo "BACKLOGS_MB=64 FILLER_MB=32 PHASE_SECS=4" ;;
    floor) echo "ROUNDS=1 PHASE_SECS=4 WARMUP_SECS=1" ;;
    curves) echo "QUEUE_POINTS=16 QUEUE_TOOLS=rmqbench SENDER_POINTS=16 PHASE_SECS=4" ;;
    grpc) echo "PHASE_SECS=4 WARMUP_SECS=1 IDLE_CLIENTS=100 IDLE_POLLS=10 IDLE_SECS=3" ;;
  esac
}

mkdir -p "$OUT"
{
  echo "# Broker benchmarks, ours beside Java's"
  echo
  echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) CPUs, commit $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)$([ "$SMOKE" = 1 ] && echo ', SMOKE=1 (short phases: figures not meaningful)')."
  echo
} >"$REPORT"

if [ "${TOUCHMEM:-1}" = 1 ]; then
  log "writing once to the free memory (rmqbench touchmem)"
  "${RMQBENCH_BIN:?set RMQBENCH_BIN (make bench)}" touchmem >&2 || log "touchmem failed; going on"
fi

wants throughput && step throughput "Throughput, CPU and memory (line 4, shared cores)" broker_bench throughput LINE=4
if wants pinned; then
  if [ "$(nproc)" -ge 2 ]; then
    step pinned "Throughput, CPU and memory (line 4, broker on CPU 0, tools on CPU 1)" broker_bench pinned LINE=4 BROKER_CPUS=0 TOOL_CPUS=1
  else
    log "[pinned] skipped: one CPU"
  fi
fi
wants line5 && step line5 "Throughput, CPU and memory (line 5: 5.3.3 servers and client)" broker_bench line5 LINE=5
wants fixedrate && step fixedrate "Latency at a fixed rate ($RATE msg/s, rmqbench)" broker_bench fixedrate LINE=4 TOOLS=rmqbench RATE="$RATE"
for s in "floor|floor-bench|The remoting path's CPU floor: a server that stores nothing, beside both brokers" \
  "curves|curves-bench|Cost curves: queues per topic, SYNC_FLUSH senders" \
  "scale|scale-bench|Cost curves: topics, client connections" \
  "backlog|backlog-bench|Cost curve: a consumer catching up on a cold backlog"; do
  name=${s%%|*} rest=${s#*|}
  script=$HERE/${rest%%|*}.sh title=${rest#*|}
  wants "$name" || continue
  if [ -f "$script" ]; then
    # shellcheck disable=SC2046
    step "$name" "$title" env RUN_DIR="$OUT/$name-run" OUT_DIR="$OUT/$name" $(smoke_env "$name") sh "$script"
  else
    log "[$name] skipped: no $script"
  fi
done
wants recovery && step recovery "Crash recovery time by store size" \
  env SIZES="$RECOVERY_SIZES" $([ "$SMOKE" = 1 ] && echo FILE_MB=64) BENCH_DIR="$OUT/recovery-run" sh "$HERE/recovery-bench.sh"
# shellcheck disable=SC2046
wants grpc && step grpc "The 5.x gRPC path in local mode: SendMessage, CPU, idle streams' memory" \
  env RUN_DIR="$OUT/grpc-run" OUT_DIR="$OUT/grpc" $(smoke_env grpc) sh "$HERE/grpc-bench.sh"

log "report: $REPORT"
cat "$REPORT"
if [ -n "$FAILED" ]; then
  log "failed steps:$FAILED"
  exit 1
fi
