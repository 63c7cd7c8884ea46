#!/bin/sh
# The CPU floor of the remoting path beside both brokers (make bench-floor;
# POSIX sh): how much CPU a message costs a server that answers every send
# and stores nothing (rmqbench null-broker, built on this project's
# remoting package, as the broker is), next to the Java broker (4.9.7) and
# ours, under the same load, in one run on this machine. It prints a
# markdown table (also saved as $OUT_DIR/table.md; the raw figures in
# $OUT_DIR/results.txt, one key=value line per run):
#
#   for each of ROUNDS rounds, for each header encoding (binary: the
#   ROCKETMQ headers Java's benchmark tools send; json: the JSON headers
#   of other clients), one after the other:
#     java   the Java name server and broker (compat/ref-servers.sh)
#     go     ours (RMQGO_NAMESRV_BIN, RMQGO_BROKER_BIN)
#     null   rmqbench null-broker (its own route: one broker, 4 queues)
#   each: rmqbench produce (THREADS synchronous senders, BODY-byte bodies,
#   one connection, topic BenchmarkTest: 1,024 queues on both brokers,
#   which create it at start) for WARMUP_SECS unmeasured, then for PHASE_SECS with
#   the server's CPU time (/proc, rmqbench proc) read before and after:
#     µs/msg  the server's CPU time over the messages sent in that window
#
# The null broker's CPU per message is what the kernel's reads, writes and
# wake-ups, the event loop, frame coding and the hand-off to a pool cost
# without any broker work: no broker built on them costs less. docs/cpu.md
# reads the table.
#
#   make bench-floor
#   ROUNDS=1 PHASE_SECS=10 sh bench/floor-bench.sh
#
# Environment (defaults in brackets):
#   ROUNDS [2]  PHASE_SECS [15]  WARMUP_SECS [15]  BODY [1024]  THREADS [64]
#   HEADERS ["binary json"]  IMPLS ["java go null"]
#   RMQGO_NAMESRV_BIN, RMQGO_BROKER_BIN  ours (required for go)
#   RMQBENCH_BIN     rmqbench (built into OUT_DIR when unset); GO [go]
#   RUN_DIR [bench/target/floor-run]  the servers' directory (wiped)
#   OUT_DIR [$RUN_DIR.out]
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BENCH_NAME=floor-bench
# shellcheck source=bench/bench-lib.sh
. "$HERE/bench-lib.sh"
ROUNDS=${ROUNDS:-2}
PHASE_SECS=${PHASE_SECS:-15}
WARMUP_SECS=${WARMUP_SECS:-15}
BODY=${BODY:-1024}
THREADS=${THREADS:-64}
HEADERS=${HEADERS:-binary json}
IMPLS=${IMPLS:-java go null}
GO=${GO:-go}
bench_dirs floor-run results.txt
NULL_PID=""

cleanup() {
  if [ -n "$NULL_PID" ]; then kill -TERM "$NULL_PID" 2>/dev/null; fi
  if [ "$SERVERS_UP" = 1 ]; then servers stop >>"$OUT_DIR/servers.log"; fi
}
bench_traps
bench_outputs

# start IMPL: starts the server(s) of IMPL; sets SERVER_PID (the broker's)
# and NAMESRV (the address produce asks for routes).
start() {
  case $1 in
    null)
      "$RMQBENCH_BIN" null-broker -addr 127.0.0.1:0 >"$OUT_DIR/null.log" 2>&1 &
      NULL_PID=$!
      SERVER_PID=$NULL_PID
      i=0
      until NAMESRV=$(sed -n 's/^null-broker: listening on \([^,]*\),.*/\1/p' "$OUT_DIR/null.log") && [ -n "$NAMESRV" ]; do
        kill -0 "$NULL_PID" 2>/dev/null && [ $i -lt 100 ] || die "the null broker did not start: $(cat "$OUT_DIR/null.log")"
        i=$((i + 1))
        sleep 0.1
      done
      ;;
    *)
      SERVERS_UP=1
      NAMESRV_IMPL=$1 BROKER_IMPL=$1 sh "$ROOT/compat/ref-servers.sh" start 4 >>"$OUT_DIR/servers.log" 2>&1 ||
        die "[$1] the servers did not start (see $OUT_DIR/servers.log)"
      SERVER_PID=$(cat "$RUN_DIR/broker-a/pid")
      NAMESRV=$(sed -n 's/^NAMESRV_ADDR=\([^;]*\);.*/\1/p' "$RUN_DIR/env.sh")
      ;;
  esac
}

stop() {
  if [ "$1" = null ]; then
    kill -TERM "$NULL_PID" 2>/dev/null
    wait "$NULL_PID" 2>/dev/null
    NULL_PID=""
  else
    servers_stop >>"$OUT_DIR/servers.log"
  fi
}

# produce HEADER SECS OUT: rmqbench produce against NAMESRV.
produce() {
  flag=""
  [ "$1" = binary ] && flag=-rocketmq-header
  "$RMQBENCH_BIN" produce -n "$NAMESRV" -t BenchmarkTest -s "$BODY" -w "$THREADS" $flag -d "${2}s" -progress 0 >"$3" 2>&1
}

# cpu: the server's CPU seconds so far.
cpu() { "$RMQBENCH_BIN" proc -pid "$SERVER_PID" | sed -n 's/.*"cpuSec":\([0-9.]*\).*/\1/p'; }

# measure ROUND IMPL HEADER: one run, its key=value line into RESULTS.
measure() {
  round=$1 impl=$2 header=$3
  log "[round $round, $header headers, $impl] starting"
  start "$impl"
  if [ "$WARMUP_SECS" -gt 0 ]; then produce "$header" "$WARMUP_SECS" "$OUT_DIR/warmup.out"; fi
  before=$(cpu)
  produce "$header" "$PHASE_SECS" "$OUT_DIR/produce.out" || log "[$impl] produce failed: $(tail -3 "$OUT_DIR/produce.out")"
  after=$(cpu)
  stop "$impl"
  sent=$(sed -n 's/.*"messages":\([0-9]*\).*/\1/p' "$OUT_DIR/produce.out")
  tps=$(sed -n 's/.*"tps":\([0-9.]*\).*/\1/p' "$OUT_DIR/produce.out")
  line="round=$round header=$header impl=$impl sent=${sent:-0} tps=${tps:-0} cpu=$(awk -v a="$before" -v b="$after" 'BEGIN{printf "%.2f", b - a}')"
  log "$line"
  echo "$line" >>"$RESULTS"
}

# table: one row per round and header encoding, µs a message of each
# server and the ratios to Java's.
table() {
  awk '
    function us(k) { return (k in sent) && sent[k] > 0 ? cpu[k] * 1e6 / sent[k] : 0 }
    function fmt(v) { return v > 0 ? sprintf("%.1f", v) : "–" }
    function ratio(a, b) { return a > 0 && b > 0 ? sprintf("×%.2f", a / b) : "–" }
    {
      for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
      row = f["round"] " " f["header"]
      if (!(row in seen)) { seen[row] = 1; rows[++n] = row }
      k = row " " f["impl"]
      sent[k] = f["sent"]; cpu[k] = f["cpu"]; tps[k] = f["tps"]
    }
    END {
      print "| round, headers | java µs/msg | go µs/msg | null µs/msg | go ÷ java | null ÷ java | sends/s java / go / null |"
      print "|---|---:|---:|---:|---:|---:|---|"
      for (i = 1; i <= n; i++) {
        r = rows[i]; j = us(r " java"); g = us(r " go"); z = us(r " null")
        printf "| %s | %s | %s | %s | %s | %s | %.0f / %.0f / %.0f |\n", r, fmt(j), fmt(g), fmt(z), ratio(g, j), ratio(z, j),
          tps[r " java"], tps[r " go"], tps[r " null"]
      }
    }' "$RESULTS"
}

round=1
while [ $round -le "$ROUNDS" ]; do
  for header in $HEADERS; do
    for impl in $IMPLS; do
      measure $round "$impl" "$header"
    done
  done
  round=$((round + 1))
done
table | tee "$OUT_DIR/table.md"
echo "Each cell: $PHASE_SECS s of sends after $WARMUP_SECS s unmeasured, $THREADS synchronous senders on one connection, $BODY-byte bodies, topic BenchmarkTest; CPU of the broker process only (the name server and the load generator left out)."
