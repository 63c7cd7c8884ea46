#!/bin/sh
# The broker benchmark, side by side in one run on this machine (POSIX sh):
# the reference Java name server + broker (compat/ref-servers.sh, line 4 =
# 4.9.7 by default), and this project's when $RMQGO_BROKER_BIN is set, each
# driven in turn by two load tools on the same load:
#
#   java      Java benchmark Producer + Consumer (bench/benchtool, the
#             work-alikes of org.apache.rocketmq.example.benchmark.*, which
#             Maven Central does not carry; JAVA_BENCH_CP runs the real ones)
#   rmqbench  rmqbench produce + rmqbench consume
#
# For each broker: start it, note its start-to-ready time, warm it up for
# WARMUP_SECS with rmqbench (not measured: a JVM broker's first seconds are
# JIT compilation, which would otherwise fall on the first tool); then for
# each tool: create a fresh topic with QUEUES queues (mqadmin updateTopic), start
# the consumer, once it is up start the producer (THREADS synchronous
# senders, BODY-byte bodies) for PHASE_SECS, let the consumer drain for
# GRACE_SECS, stop it; the broker's CPU time, resident memory (VmRSS) and
# peak (VmHWM) are read from /proc before and after. Then stop the servers.
# Prints progress as it goes, and at the end a markdown table (also saved in
# $OUT_DIR/table.md) with Go ÷ Java ratios where both brokers ran.
#
#   sh bench/broker-bench.sh
#   PHASE_SECS=60 THREADS=16 sh bench/broker-bench.sh
#   RMQGO_BROKER_BIN=$PWD/bin/rmqgo-broker sh bench/broker-bench.sh
#   RUN_DIR=/tmp/benchB NAMESRV_PORT=29876 BROKER_PORT=30911 BROKER_B_PORT=31911 sh bench/broker-bench.sh
#
# Environment (defaults in brackets):
#   PHASE_SECS [30]  how long each producer sends
#   GRACE_SECS [5]   how long a consumer runs on after its producer stopped
#   WARMUP_SECS [10] unmeasured rmqbench produce + consume after each start
#                    (0: none)
#   BODY [128] THREADS [64] QUEUES [4]   message body bytes, producer
#                    threads (senders), queues of the topic (Java's
#                    benchmark defaults for the first two)
#   RATE [0]         rmqbench produce's total send rate in messages a
#                    second, 0 for as fast as it can: a rate both brokers
#                    sustain compares their latencies under the same load
#                    (the Java Producer has no rate and runs flat out)
#   LINE [4]         4: Java servers 4.9.7 and rocketmq-client 4.9.7 in the
#                    Java tools; 5: 5.3.3 and 5.3.3
#   RMQGO_BROKER_BIN this project's broker binary; also runs our name server,
#                    RMQGO_NAMESRV_BIN [built from cmd/rmqgo-namesrv]
#   JAVA_BENCH_CP    a classpath holding org.apache.rocketmq.example.benchmark
#                    Producer and Consumer (e.g. a RocketMQ binary
#                    distribution's lib/*) to run instead of bench/benchtool
#   RUN_DIR [bench/target/bench-run]  the servers' directory (wiped on each
#                    start); NAMESRV_PORT, BROKER_PORT, BROKER_B_PORT: first
#                    port choices (see ref-servers.sh); OUT_DIR
#                    [$RUN_DIR.out]: tool outputs, results.jsonl, table.md
#   TOOLS ["java rmqbench"]  the load tools, in order
#   JAVA_TOOL_OPTS [""] JVM flags of the Java tools, e.g. -Dtls.enable=true:
#                    the servers' default tls.server.mode is permissive (TLS
#                    and plaintext on one port, Java's and ours), so the
#                    Java tools' traffic is then TLS and the rest plaintext
#                    (TOOLS=java WARMUP_SECS=0 measures TLS alone)
#   JAVA_TOOL_HEAP ["-Xms256m -Xmx512m"], GO [go]
#   BROKER_CPUS, TOOL_CPUS [""]  taskset(1) CPU lists: the servers (all their
#                    threads) and the load tools pinned apart, e.g.
#                    BROKER_CPUS=0 TOOL_CPUS=1; empty: not pinned
#
# Memory: VmRSS and VmHWM count the pages of the mapped store files the
# broker touched (on both brokers); the "peak anon MB" column is the
# largest RssAnon (heap, stacks, buffers) sampled every 200 ms during each
# phase (rmqbench proc -watch).
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BENCH_NAME=broker-bench
# shellcheck source=bench/bench-lib.sh
. "$HERE/bench-lib.sh"
PHASE_SECS=${PHASE_SECS:-30}
GRACE_SECS=${GRACE_SECS:-5}
WARMUP_SECS=${WARMUP_SECS:-10}
BODY=${BODY:-128}
THREADS=${THREADS:-64}
RATE=${RATE:-0}
QUEUES=${QUEUES:-4}
LINE=${LINE:-4}
GO=${GO:-go}
JAVA_TOOL_HEAP=${JAVA_TOOL_HEAP:--Xms256m -Xmx512m}
JAVA_TOOL_OPTS=${JAVA_TOOL_OPTS:-}
TOOLS=${TOOLS:-java rmqbench}
BROKER_CPUS=${BROKER_CPUS:-}
TOOL_CPUS=${TOOL_CPUS:-}
PIN=""
[ -z "$TOOL_CPUS" ] || PIN="taskset -c $TOOL_CPUS"
bench_dirs bench-run results.jsonl
BENCH=$OUT_DIR/rmqbench
CONSUMER_PID=""
WATCH_PID=""


cleanup() {
  if [ -n "$CONSUMER_PID" ]; then kill -TERM "$CONSUMER_PID" 2>/dev/null; fi
  if [ -n "$WATCH_PID" ]; then kill -TERM "$WATCH_PID" 2>/dev/null; fi
  if [ "$SERVERS_UP" = 1 ]; then servers stop; fi
}
bench_traps

prepare() {
  mkdir -p "$OUT_DIR"
  : >"$RESULTS"
  : >"$OUT_DIR/servers.log"
  log "building rmqbench into $OUT_DIR"
  "$GO" build -o "$BENCH" "$ROOT/cmd/rmqbench" || die "go build rmqbench failed"
  if [ -z "${JAVA_BENCH_CP:-}" ]; then
    sh "$HERE/benchtool/run.sh" "$LINE" build || die "bench/benchtool did not build"
  fi
  if [ -n "${RMQGO_BROKER_BIN:-}" ] && [ -x "$RMQGO_BROKER_BIN" ] && [ -z "${RMQGO_NAMESRV_BIN:-}" ]; then
    RMQGO_NAMESRV_BIN=$OUT_DIR/rmqgo-namesrv
    "$GO" build -o "$RMQGO_NAMESRV_BIN" "$ROOT/cmd/rmqgo-namesrv" || die "go build rmqgo-namesrv failed"
  fi
}

# start_servers IMPL: starts name server + broker-a of IMPL (java|go) and
# records the broker's start-to-ready time (its age when the boot line
# shows up, polled every 0.1 s).
start_servers() {
  impl=$1
  rm -rf "$RUN_DIR"
  log "[$impl] starting the name server and broker (RUN_DIR=$RUN_DIR)"
  NAMESRV_IMPL=$impl BROKER_IMPL=$impl RMQGO_NAMESRV_BIN=${RMQGO_NAMESRV_BIN:-} \
    sh "$ROOT/compat/ref-servers.sh" start "$LINE" >>"$OUT_DIR/servers.log" 2>&1 &
  starter=$!
  SERVERS_UP=1
  booted=0
  while :; do
    alive=0
    kill -0 "$starter" 2>/dev/null && alive=1
    if [ -s "$RUN_DIR/broker-a/pid" ] && grep -q "boot success" "$RUN_DIR/broker-a/stdout.log" 2>/dev/null; then
      "$BENCH" proc -pid "$(cat "$RUN_DIR/broker-a/pid")" | label broker="$impl" at=boot >>"$RESULTS"
      booted=1
      break
    fi
    [ $alive = 1 ] || break
    sleep 0.1
  done
  wait "$starter" || { tail -20 "$OUT_DIR/servers.log" >&2; log "[$impl] the servers did not start"; return 1; }
  [ $booted = 1 ] || { log "[$impl] no boot line seen"; return 1; }
  # shellcheck disable=SC1091
  . "$RUN_DIR/env.sh"
  BROKER_PID=$(cat "$RUN_DIR/broker-a/pid")
  pin_servers
  log "[$impl] up: name server $NAMESRV_ADDR, broker $BROKER_ADDR (pid $BROKER_PID), ready after $(sed -n 's/.*"ageSec":\([0-9.]*\).*/\1/p' "$RESULTS" | tail -1) s"
}

# pin_servers: every thread of the name server and broker onto BROKER_CPUS
# (threads they start later inherit it).
pin_servers() {
  [ -n "$BROKER_CPUS" ] || return 0
  for pidfile in "$RUN_DIR"/*/pid; do
    taskset -a -p -c "$BROKER_CPUS" "$(cat "$pidfile")" >/dev/null || log "taskset $pidfile failed"
  done
  log "servers pinned to CPUs $BROKER_CPUS${TOOL_CPUS:+, load tools to $TOOL_CPUS}"
}

stop_servers() {
  log "stopping the servers"
  servers_stop
}

# create_topic TOPIC: QUEUES read and write queues on every master.
create_topic() {
  out=$(RMQ_LINE=$LINE sh "$ROOT/compat/mqadmin.sh" updateTopic -n "$NAMESRV_ADDR" -c "$CLUSTER_NAME" \
    -t "$1" -r "$QUEUES" -w "$QUEUES" 2>&1)
  echo "$out" | grep -q "success" || { echo "$out" >&2; log "mqadmin updateTopic $1 failed"; return 1; }
}

# start_consumer TOOL TOPIC GROUP FILE: starts the consumer in the
# background and waits until it says it has started.
start_consumer() {
  case $1 in
    java) java_tool Consumer -n "$NAMESRV_ADDR" -t "$2" -g "$3" >"$4" 2>&1 & ;;
    rmqbench) $PIN "$BENCH" consume -n "$NAMESRV_ADDR" -t "$2" -g "$3" -rocketmq-header -d 1h -progress 10s >"$4" 2>&1 & ;;
  esac
  CONSUMER_PID=$!
  n=0
  until grep -q -E "Consumer Started|consume: started" "$4" 2>/dev/null; do
    kill -0 "$CONSUMER_PID" 2>/dev/null || { tail -20 "$4" >&2; log "the $1 consumer exited"; return 1; }
    n=$((n + 1))
    [ $n -lt 1200 ] || { log "the $1 consumer did not start within 120 s"; return 1; }
    sleep 0.1
  done
}

# java_tool CLASS ARGS...: runs the Java benchmark tool CLASS in this
# process (exec), so that its pid is the caller's $!.
java_tool() {
  class=$1; shift
  if [ -n "${JAVA_BENCH_CP:-}" ]; then
    # shellcheck disable=SC2086
    exec $PIN java $JAVA_TOOL_HEAP $JAVA_TOOL_OPTS -Duser.home="$OUT_DIR/java-home" -Drocketmq.client.logRoot="$OUT_DIR/java-home/logs" \
      -cp "$JAVA_BENCH_CP" "org.apache.rocketmq.example.benchmark.$class" "$@"
  fi
  JAVA_HEAP=$JAVA_TOOL_HEAP JAVA_OPTS=$JAVA_TOOL_OPTS BENCH_HOME=$OUT_DIR/java-home exec $PIN sh "$HERE/benchtool/run.sh" "$LINE" "$class" "$@"
}

# run_producer TOOL TOPIC FILE: sends for PHASE_SECS, its report lines
# shown as they come. The Java tool runs 2 s longer than PHASE_SECS so that
# the report due at PHASE_SECS after its start is printed.
run_producer() {
  case $1 in
    java) timeout -s TERM "$((PHASE_SECS + 2))" sh "$0" java-tool Producer -n "$NAMESRV_ADDR" -t "$2" \
      -s "$BODY" -w "$THREADS" 2>&1 ;;
    rmqbench) $PIN "$BENCH" produce -n "$NAMESRV_ADDR" -t "$2" -s "$BODY" -w "$THREADS" -rate "$RATE" -rocketmq-header \
      -d "${PHASE_SECS}s" -progress 10s 2>&1 ;;
  esac | tee "$3" | sed -n -e "s/^/  [$1 producer] /p" >&2
}

# phase IMPL TOOL: one tool's producer and consumer against the broker.
phase() {
  impl=$1 tool=$2
  topic=Bench_${impl}_$tool group=bench_${impl}_$tool
  pfile=$OUT_DIR/$impl-$tool-producer.out cfile=$OUT_DIR/$impl-$tool-consumer.out
  log "[$impl broker, $tool tools] topic $topic ($QUEUES queues), ${BODY}-byte bodies, $THREADS senders, ${PHASE_SECS}s"
  create_topic "$topic" || return 1
  "$BENCH" proc -pid "$BROKER_PID" | label broker="$impl" tool="$tool" at=before >>"$RESULTS"
  "$BENCH" proc -pid "$BROKER_PID" -watch 200ms >"$OUT_DIR/watch.out" &
  WATCH_PID=$!
  start_consumer "$tool" "$topic" "$group" "$cfile" || return 1
  run_producer "$tool" "$topic" "$pfile"
  sleep "$GRACE_SECS"
  kill -TERM "$CONSUMER_PID" 2>/dev/null
  wait "$CONSUMER_PID"
  CONSUMER_PID=""
  kill -TERM "$WATCH_PID" 2>/dev/null
  wait "$WATCH_PID"
  WATCH_PID=""
  label broker="$impl" tool="$tool" at=watch <"$OUT_DIR/watch.out" >>"$RESULTS"
  "$BENCH" proc -pid "$BROKER_PID" | label broker="$impl" tool="$tool" at=after >>"$RESULTS"
  sed -n -E "/TPS|received/s/^/  [$tool consumer] /p" "$cfile" >&2
  collect "$impl" "$tool" "$topic" "$group" "$pfile" "$cfile"
}

# collect IMPL TOOL TOPIC GROUP PFILE CFILE: the phase's result lines.
collect() {
  if [ "$2" = java ]; then
    "$BENCH" java-result -kind produce -t "$3" -s "$BODY" -w "$THREADS" <"$5" | label broker="$1" >>"$RESULTS"
    "$BENCH" java-result -kind consume -t "$3" -g "$4" <"$6" | label broker="$1" >>"$RESULTS"
  else
    label broker="$1" <"$5" >>"$RESULTS"
    label broker="$1" <"$6" >>"$RESULTS"
  fi
}

# warmup IMPL: rmqbench produce and consume on a topic of their own for
# WARMUP_SECS (the producer creates it through TBW102); not measured, and a
# failure only logged.
warmup() {
  [ "$WARMUP_SECS" -gt 0 ] || return 0
  log "[$1] warming up: rmqbench produce + consume for ${WARMUP_SECS}s (not measured)"
  $PIN "$BENCH" consume -n "$NAMESRV_ADDR" -t "Bench_$1_warmup" -g "bench_$1_warmup" -rocketmq-header \
    -d "$((WARMUP_SECS + 5))s" -progress 1h >"$OUT_DIR/$1-warmup-consumer.out" 2>&1 &
  CONSUMER_PID=$!
  $PIN "$BENCH" produce -n "$NAMESRV_ADDR" -t "Bench_$1_warmup" -s "$BODY" -w "$THREADS" -rocketmq-header \
    -d "${WARMUP_SECS}s" -progress 1h >"$OUT_DIR/$1-warmup-producer.out" 2>&1 ||
    log "[$1] the warm-up producer failed (see $OUT_DIR/$1-warmup-producer.out)"
  wait "$CONSUMER_PID"
  CONSUMER_PID=""
}

# bench IMPL: both tools against IMPL's servers; on a failure the broker's
# row says why (the logs stay in OUT_DIR and RUN_DIR).
bench() {
  if ! start_servers "$1"; then
    skip "$1" "the servers did not start (see $OUT_DIR/servers.log)"
    stop_servers
    return
  fi
  warmup "$1"
  for tool in $TOOLS; do
    if ! phase "$1" "$tool"; then
      if [ -n "$CONSUMER_PID" ]; then kill -TERM "$CONSUMER_PID" 2>/dev/null; wait "$CONSUMER_PID"; CONSUMER_PID=""; fi
      skip "$1" "the $tool phase failed (see $OUT_DIR/$1-$tool-*.out, $RUN_DIR/broker-a/stdout.log)"
      break
    fi
  done
  stop_servers
}

# skip IMPL REASON: the table shows REASON instead of IMPL's figures.
skip() {
  log "$1: skipped: $2"
  printf '{"kind":"skip","broker":"%s","reason":"%s"}\n' "$1" "$2" >>"$RESULTS"
}

# `sh broker-bench.sh java-tool CLASS ARGS...` is how the Java producer runs
# under timeout(1).
if [ "${1:-}" = java-tool ]; then
  shift
  trap - EXIT
  java_tool "$@"
fi

prepare
bench java
if [ -n "${RMQGO_BROKER_BIN:-}" ] && [ -x "$RMQGO_BROKER_BIN" ]; then
  bench go
else
  skip go "no Go broker (RMQGO_BROKER_BIN ${RMQGO_BROKER_BIN:+=$RMQGO_BROKER_BIN is not executable}${RMQGO_BROKER_BIN:-is not set})"
fi

case $LINE in 4) jver=4.9.7 ;; *) jver=5.3.3 ;; esac
tools="bench/benchtool Producer/Consumer (rocketmq-client $jver)"
[ -n "${JAVA_BENCH_CP:-}" ] && tools="org.apache.rocketmq.example.benchmark Producer/Consumer from JAVA_BENCH_CP"
{
  echo
  echo "Brokers: java = Java $jver name server + broker; go = this project's. Load tools: java = $tools;"
  echo "rmqbench = rmqbench produce/consume. ${PHASE_SECS}s of sends per row, $THREADS synchronous senders,"
  echo "${BODY}-byte bodies, $QUEUES queues, ROCKETMQ binary headers; consumer started first, stopped ${GRACE_SECS}s after the producer;"
  echo "each broker warmed up for ${WARMUP_SECS}s first (not measured)."
  [ -z "$BROKER_CPUS" ] || echo "The servers were pinned to CPUs $BROKER_CPUS and the load tools to ${TOOL_CPUS:-any CPU} (taskset)."
  [ "$RATE" = 0 ] || echo "rmqbench sends at most $RATE messages a second in all; the Java Producer as fast as it can."
  echo "The Java tools report no percentiles (–); their figures are means of 9 s windows."
  echo
  "$BENCH" broker-table <"$RESULTS"
} | tee "$OUT_DIR/table.md"
