#!/bin/sh
# The 5.x clients' gRPC path, side by side in one run on this machine
# (make bench-grpc; POSIX sh): the Java 5.3.3 broker with its proxy in local
# mode (compat/ref-servers.sh PROXY=1 runs ProxyStartup -pm local, what
# `mqbroker --enable-proxy` runs), and ours, rmqgo-broker --enable-proxy,
# when $RMQGO_BROKER_BIN is set; each with the name server of its kind, no
# broker-b. The broker and its proxy are one process on both sides: its CPU
# and memory are what is measured.
#
# For each broker: start the servers; create two topics with
# message.type=NORMAL and QUEUES queues (mqadmin 5.3.3 updateTopic -a
# +message.type=NORMAL), one to send to and one for the idle clients;
# warm up with rmqbench grpc-produce for WARMUP_SECS (not measured: a JVM's
# first seconds are JIT compilation); read the broker process's CPU time
# and memory (rmqbench proc), run rmqbench grpc-produce (THREADS synchronous
# senders over CONNS clients, BODY-byte bodies, unary SendMessage) for
# PHASE_SECS, read them again; then rmqbench grpc-idle: IDLE_CLIENTS
# clients, one gRPC connection each, with their Telemetry stream open
# (SIMPLE_CONSUMER settings) and IDLE_POLLS long-polling ReceiveMessage
# calls held, for IDLE_SECS, the process's memory before they open, once
# open, at the end and after they closed, and a check (route, send,
# receive, ack) with them all open; stop the servers. At the end a markdown
# table with Go ÷ Java ratios (also $OUT_DIR/table.md; the raw lines in
# $OUT_DIR/results.jsonl, the tools' outputs beside them).
#
#   make bench-grpc
#   RMQGO_BROKER_BIN=$PWD/bin/rmqgo-broker sh bench/grpc-bench.sh
#   RUN_DIR=/tmp/grpcB NAMESRV_PORT=29876 BROKER_PORT=30911 PROXY_PORT=28081 PHASE_SECS=60 sh bench/grpc-bench.sh
#
# Environment (defaults in brackets):
#   PHASE_SECS [30]   how long grpc-produce sends
#   WARMUP_SECS [30]  unmeasured grpc-produce after each start (0: none):
#                     the JVM's gRPC path (Netty, grpc-java, protobuf) is
#                     still compiling after 10 s (measured: 10 s of
#                     warm-up, 30 s of sends gave the Java broker 138 ms of
#                     CPU per 1000 messages; 30 s and 60 s, 57 ms)
#   BODY [128] THREADS [64] CONNS [1] QUEUES [4]  body bytes, senders,
#                     clients (a connection each) the senders share, queues
#   RATE [0]          messages a second in all (0: as fast as they go)
#   IDLE_CLIENTS [2000] IDLE_POLLS [200] IDLE_SECS [30]  grpc-idle's -c,
#                     -polls and -d (IDLE_SECS under 120: the clients send
#                     no Heartbeat, and Java expires a client after 120 s)
#   IMPLS ["java go"] the brokers, in order (go is skipped without
#                     RMQGO_BROKER_BIN)
#   RMQGO_BROKER_BIN, RMQGO_NAMESRV_BIN [built from cmd/rmqgo-namesrv]
#   SERVER_JAVA_OPT_EXT [""]  JVM flags for both brokers (ref-servers.sh):
#                     the Java broker has -Xms256m -Xmx512m; ours, without
#                     an -Xmx, a soft memory limit of 128 MiB (internal/
#                     startup/gc.go); -Xmx512m gives both the same figure
#   RMQBENCH_BIN      rmqbench (built into OUT_DIR when unset); GO [go]
#   RUN_DIR [bench/target/grpc-bench-run]  the servers' directory (wiped on
#                     each start); NAMESRV_PORT, BROKER_PORT, PROXY_PORT:
#                     first port choices (compat/ref-servers.sh); OUT_DIR
#                     [$RUN_DIR.out]
#
# Memory: VmRSS counts the pages of the mapped store files the broker
# touched; RssAnon (heap, stacks, buffers) does not. The JVM's heap (256 to
# 512 MB) and Go's runtime keep memory they freed, so growth in the idle
# phase is memory newly touched: an upper bound on neither's real cost per
# stream, but what the machine pays.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BENCH_NAME=grpc-bench
# shellcheck source=bench/bench-lib.sh
. "$HERE/bench-lib.sh"
PHASE_SECS=${PHASE_SECS:-30}
WARMUP_SECS=${WARMUP_SECS:-30}
BODY=${BODY:-128}
THREADS=${THREADS:-64}
CONNS=${CONNS:-1}
QUEUES=${QUEUES:-4}
RATE=${RATE:-0}
IDLE_CLIENTS=${IDLE_CLIENTS:-2000}
IDLE_POLLS=${IDLE_POLLS:-200}
IDLE_SECS=${IDLE_SECS:-30}
IMPLS=${IMPLS:-java go}
GO=${GO:-go}
bench_dirs grpc-bench-run results.jsonl

cleanup() {
  if [ "$SERVERS_UP" = 1 ]; then servers stop >>"$OUT_DIR/servers.log"; fi
}
bench_traps
bench_outputs
BENCH=$RMQBENCH_BIN

need=$((IDLE_CLIENTS + 500))
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$need" ]; then
  ulimit -n "$(ulimit -Hn)" 2>/dev/null
  [ "$(ulimit -n)" = unlimited ] || [ "$(ulimit -n)" -ge "$need" ] ||
    die "open-file limit $(ulimit -n) is below the $need IDLE_CLIENTS needs"
fi
if [ -n "${RMQGO_BROKER_BIN:-}" ] && [ -x "$RMQGO_BROKER_BIN" ] && [ -z "${RMQGO_NAMESRV_BIN:-}" ]; then
  RMQGO_NAMESRV_BIN=$OUT_DIR/rmqgo-namesrv
  "$GO" build -o "$RMQGO_NAMESRV_BIN" "$ROOT/cmd/rmqgo-namesrv" || die "go build rmqgo-namesrv failed"
fi

# start_servers IMPL: the name server and broker-a with its proxy, of IMPL.
start_servers() {
  log "[$1] starting the name server and the broker with its proxy (RUN_DIR=$RUN_DIR)"
  SERVERS_UP=1
  NAMESRV_IMPL=$1 BROKER_IMPL=$1 PROXY=1 RMQGO_NAMESRV_BIN=${RMQGO_NAMESRV_BIN:-} \
    servers start 5 >>"$OUT_DIR/servers.log" || { tail -20 "$OUT_DIR/servers.log" >&2; return 1; }
  # shellcheck disable=SC1091
  . "$RUN_DIR/env.sh"
  BROKER_PID=$(cat "$RUN_DIR/broker-a/pid")
  log "[$1] up: name server $NAMESRV_ADDR, broker $BROKER_ADDR, proxy $PROXY_ADDR (pid $BROKER_PID)"
}

# create_topic TOPIC: QUEUES queues, message.type NORMAL, on the cluster;
# tried again for a while (the Java proxy's boot line can come before its
# broker's first registration with the name server).
create_topic() {
  tries=0
  until out=$(RMQ_LINE=5 sh "$ROOT/compat/mqadmin.sh" updateTopic -n "$NAMESRV_ADDR" -c "$CLUSTER_NAME" \
    -t "$1" -r "$QUEUES" -w "$QUEUES" -a +message.type=NORMAL 2>&1) && echo "$out" | grep -q "success"; do
    tries=$((tries + 1))
    [ $tries -lt 10 ] || { echo "$out" >&2; log "mqadmin updateTopic $1 failed"; return 1; }
    sleep 2
  done
}

# produce IMPL TOPIC SECS FILE: grpc-produce for SECS, its lines shown as
# they come.
produce() {
  "$BENCH" grpc-produce -proxy "$PROXY_ADDR" -t "$2" -s "$BODY" -w "$THREADS" -conns "$CONNS" -rate "$RATE" \
    -d "${3}s" 2>&1 | tee "$4" | sed "s/^/  [$1 grpc-produce] /" >&2
}

# bench IMPL: both phases on IMPL's servers; a failure puts a skip line
# with the reason.
bench() {
  impl=$1 ptopic=GrpcBench_$1 itopic=GrpcIdle_$1
  if ! start_servers "$impl"; then
    skip "$impl" "the servers did not start (see $OUT_DIR/servers.log)"
    servers_stop >>"$OUT_DIR/servers.log"
    return
  fi
  if ! create_topic "$ptopic" || ! create_topic "$itopic"; then
    skip "$impl" "mqadmin updateTopic failed"
    servers_stop >>"$OUT_DIR/servers.log"
    return
  fi
  if [ "$WARMUP_SECS" -gt 0 ]; then
    log "[$impl] warming up: grpc-produce for ${WARMUP_SECS}s (not measured)"
    produce "$impl" "$ptopic" "$WARMUP_SECS" "$OUT_DIR/$impl-warmup.out" 2>/dev/null
  fi
  log "[$impl] grpc-produce: $ptopic, ${BODY}-byte bodies, $THREADS senders over $CONNS client(s), ${PHASE_SECS}s; load $(cut -d' ' -f1-3 /proc/loadavg)"
  "$BENCH" proc -pid "$BROKER_PID" | label broker="$impl" tool=grpc at=before >>"$RESULTS"
  produce "$impl" "$ptopic" "$PHASE_SECS" "$OUT_DIR/$impl-produce.out"
  "$BENCH" proc -pid "$BROKER_PID" | label broker="$impl" tool=grpc at=after >>"$RESULTS"
  label broker="$impl" <"$OUT_DIR/$impl-produce.out" >>"$RESULTS"
  log "[$impl] grpc-idle: $IDLE_CLIENTS clients, $IDLE_POLLS long polls, ${IDLE_SECS}s; load $(cut -d' ' -f1-3 /proc/loadavg)"
  "$BENCH" grpc-idle -proxy "$PROXY_ADDR" -pid "$BROKER_PID" -t "$itopic" -c "$IDLE_CLIENTS" -polls "$IDLE_POLLS" \
    -d "${IDLE_SECS}s" 2>&1 | tee "$OUT_DIR/$impl-idle.out" | sed "s/^/  [$impl grpc-idle] /" >&2
  label broker="$impl" <"$OUT_DIR/$impl-idle.out" >>"$RESULTS"
  grep -q '"kind"' "$OUT_DIR/$impl-produce.out" || skip "$impl" "grpc-produce failed (see $OUT_DIR/$impl-produce.out)"
  log "[$impl] stopping the servers"
  servers_stop >>"$OUT_DIR/servers.log"
}

# skip IMPL REASON: the table shows REASON instead of IMPL's figures.
skip() {
  log "$1: skipped: $2"
  printf '{"kind":"skip","broker":"%s","reason":"%s"}\n' "$1" "$2" >>"$RESULTS"
}

started="$(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg)"
for impl in $IMPLS; do
  if [ "$impl" = go ] && { [ -z "${RMQGO_BROKER_BIN:-}" ] || [ ! -x "$RMQGO_BROKER_BIN" ]; }; then
    skip go "no Go broker (RMQGO_BROKER_BIN ${RMQGO_BROKER_BIN:+=$RMQGO_BROKER_BIN is not executable}${RMQGO_BROKER_BIN:-is not set})"
    continue
  fi
  bench "$impl"
done

{
  echo
  echo "The 5.x gRPC path in local mode: java = Java 5.3.3 broker with its proxy (ProxyStartup -pm local); go = rmqgo-broker"
  echo "--enable-proxy; each with its own name server. Started $started; ended $(date -u '+%H:%M UTC'), load"
  echo "$(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs. rmqbench grpc-produce: ${PHASE_SECS}s of unary SendMessage from $THREADS"
  echo "senders over $CONNS client(s), ${BODY}-byte bodies, $QUEUES queues, after ${WARMUP_SECS}s of warm-up$([ "$RATE" = 0 ] || echo ", at most $RATE msg/s")."
  echo "rmqbench grpc-idle: $IDLE_CLIENTS clients (a connection, a Telemetry stream each), $IDLE_POLLS long polls, ${IDLE_SECS}s."
  echo "CPU and memory are the broker process's (broker and proxy in one)${SERVER_JAVA_OPT_EXT:+; both brokers had $SERVER_JAVA_OPT_EXT}."
  echo
  "$BENCH" grpc-table <"$RESULTS"
} | tee "$OUT_DIR/table.md"
