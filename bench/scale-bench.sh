#!/bin/sh
# Two cost curves of issue 16 (POSIX sh), the reference Java name server +
# broker (compat/ref-servers.sh, LINE 4 = 4.9.7) and then this project's,
# in one run on this machine, printed as markdown tables with Go ÷ Java
# ratios (also saved in $OUT_DIR/topics.md and $OUT_DIR/clients.md; the
# raw figures in $OUT_DIR/results.txt, one key=value line per point):
#
# topics   for each N of TOPIC_POINTS: a store whose config/topics.json
#          (Java's format, written here) holds N topics of 4 queues, the
#          servers started on it (a fresh name server, the broker registers
#          at start), then
#            start s      the broker's age when "boot success" shows in its
#                         output (polled every 0.05 s)
#            table B      the broker's topic table (its system topics
#                         too) as the broker itself encodes it
#                         (GET_ALL_TOPIC_CONFIG): its REGISTER_BROKER body
#                         is that and ~50 bytes of envelope
#            body B, reg p50/p99  rmqbench register -b: that table as a
#                         REGISTER_BROKER body (rmqbench's encoding),
#                         REGISTER_COUNT registrations replayed to the name
#                         server by a client, each with a new DataVersion
#                         (the name server rebuilds the queue data each
#                         time), as a broker of its own name; round trips
#            route q/s, p99  rmqbench route: GET_ROUTEINFO_BY_TOPIC of one
#                         of the N topics, ROUTE_CONNS connections, for
#                         PHASE_SECS
#            anon MB      RssAnon of the broker and of the name server
#                         after the registration and before the route load
# clients  for each C of CLIENT_POINTS: the servers started fresh, then
#          rmqbench clients: C connections each sending HEART_BEAT (a
#          producer and a push consumer group in its body, GROUP_SIZE
#          connections a group) every HB_PERIOD (Java clients: 30 s; a
#          shorter one makes the cost visible), WARMUP_SECS unmeasured,
#          then a PHASE_SECS window:
#            hb/s, p99    heartbeats answered per second, their p99
#            CPU %, µs/hb the broker's CPU time over the window, per second
#                         and per heartbeat (it includes the broker's idle
#                         background work, which dominates at few clients)
#            anon MB      the broker's RssAnon at the window's end; KiB/conn
#                         is its growth over the fresh broker's, per
#                         connection
#
#   make bench-scale
#   PHASE_SECS=20 TOPIC_POINTS="10 10000" sh bench/scale-bench.sh
#
# Environment (defaults in brackets):
#   IMPLS ["java go"]   the servers, in order (java: the Java 4.9.7 name
#                    server and broker; go: RMQGO_NAMESRV_BIN and
#                    RMQGO_BROKER_BIN, which must be set)
#   CURVES ["topics clients"]
#   TOPIC_POINTS ["10 100 1000 10000"]  CLIENT_POINTS ["10 100 1000 5000"]
#   PHASE_SECS [15]  route load and heartbeat window length
#   WARMUP_SECS [5]  unmeasured heartbeats before the window
#   HB_PERIOD [1s]   each connection's heartbeat period
#   GROUP_SIZE [10]  connections per producer and consumer group
#   REGISTER_COUNT [20]  replayed registrations per point
#   ROUTE_CONNS [4]  connections of rmqbench route
#   LINE [4]         4: Java servers 4.9.7; 5: 5.3.3
#   RMQBENCH_BIN     rmqbench (built into OUT_DIR when unset); GO [go]
#   RUN_DIR [bench/target/scale-run]  the servers' directory (wiped on
#                    each start); NAMESRV_PORT, BROKER_PORT: first port
#                    choices (see ref-servers.sh); OUT_DIR [$RUN_DIR.out]:
#                    outputs, the stores written here, results, tables
#
# The open-file limit is raised to the hard limit when the largest client
# point needs more (connections on both ends are in this machine).
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BENCH_NAME=scale-bench
# shellcheck source=bench/bench-lib.sh
. "$HERE/bench-lib.sh"
IMPLS=${IMPLS:-java go}
CURVES=${CURVES:-topics clients}
TOPIC_POINTS=${TOPIC_POINTS:-10 100 1000 10000}
CLIENT_POINTS=${CLIENT_POINTS:-10 100 1000 5000}
PHASE_SECS=${PHASE_SECS:-15}
WARMUP_SECS=${WARMUP_SECS:-5}
HB_PERIOD=${HB_PERIOD:-1s}
GROUP_SIZE=${GROUP_SIZE:-10}
REGISTER_COUNT=${REGISTER_COUNT:-20}
ROUTE_CONNS=${ROUTE_CONNS:-4}
LINE=${LINE:-4}
GO=${GO:-go}
bench_dirs scale-run results.txt

cleanup() {
  if [ "$SERVERS_UP" = 1 ]; then servers stop; fi
}
bench_traps

prepare() {
  bench_outputs
  case " $IMPLS " in
    *" go "*) [ -x "${RMQGO_BROKER_BIN:-}" ] && [ -x "${RMQGO_NAMESRV_BIN:-}" ] ||
      die "IMPLS has go: set RMQGO_BROKER_BIN and RMQGO_NAMESRV_BIN (make build)" ;;
  esac
  max=0
  for c in $CLIENT_POINTS; do [ "$c" -gt "$max" ] && max=$c; done
  need=$((max + 500))
  if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$need" ]; then
    ulimit -n "$(ulimit -Hn)" 2>/dev/null
    [ "$(ulimit -n)" = unlimited ] || [ "$(ulimit -n)" -ge "$need" ] ||
      die "open-file limit $(ulimit -n) is below the $need the client points need"
  fi
}

# topics_json N FILE: a 4.9.x topics.json with topics ScaleTopic_1..N of
# 4 read and write queues, perm 6 (the broker adds its system topics).
topics_json() {
  awk -v n="$1" 'BEGIN {
    printf "{\n\t\"dataVersion\":{\n\t\t\"counter\":%d,\n\t\t\"timestamp\":1700000000000\n\t},\n\t\"topicConfigTable\":{", n
    for (i = 1; i <= n; i++) {
      t = "ScaleTopic_" i
      printf "%s\n\t\t\"%s\":{\n\t\t\t\"order\":false,\n\t\t\t\"perm\":6,\n\t\t\t\"readQueueNums\":4,\n", (i > 1 ? "," : ""), t
      printf "\t\t\t\"topicFilterType\":\"SINGLE_TAG\",\n\t\t\t\"topicName\":\"%s\",\n\t\t\t\"topicSysFlag\":0,\n\t\t\t\"writeQueueNums\":4\n\t\t}", t
    }
    printf "\n\t}\n}"
  }' >"$2"
}

# kv KEY FILE: the value of KEY=value in the last line of FILE having it.
kv() { sed -n "s/.*[ :]$1=\([0-9.]*\).*/\1/p" "$2" | tail -1; }

# json KEY: the number of "KEY":number in the JSON line on stdin.
json() { sed -n "s/.*\"$1\":\([0-9.]*\).*/\1/p"; }

# start_servers IMPL [STORE]: the name server and broker-a of IMPL (on the
# store root STORE when given); sets START_SEC (the broker's age at its
# boot line), NAMESRV_ADDR, BROKER_ADDR, BROKER_PID, NAMESRV_PID.
start_servers() {
  impl=$1 extra=""
  [ -n "${2:-}" ] && extra="storePathRootDir=$2
storePathCommitLog=$2/commitlog"
  rm -rf "$RUN_DIR"
  NAMESRV_IMPL=$impl BROKER_IMPL=$impl BROKER_CONF_EXTRA=$extra \
    sh "$ROOT/compat/ref-servers.sh" start "$LINE" >>"$OUT_DIR/servers.log" 2>&1 &
  starter=$!
  SERVERS_UP=1
  START_SEC=""
  while kill -0 "$starter" 2>/dev/null; do
    if [ -z "$START_SEC" ] && [ -s "$RUN_DIR/broker-a/pid" ] && grep -q "boot success" "$RUN_DIR/broker-a/stdout.log" 2>/dev/null; then
      START_SEC=$("$RMQBENCH_BIN" proc -pid "$(cat "$RUN_DIR/broker-a/pid")" | json ageSec)
    fi
    sleep 0.05
  done
  wait "$starter" || { tail -20 "$OUT_DIR/servers.log" >&2; log "[$impl] the servers did not start"; return 1; }
  # shellcheck disable=SC1091
  . "$RUN_DIR/env.sh"
  BROKER_PID=$(cat "$RUN_DIR/broker-a/pid")
  NAMESRV_PID=$(cat "$RUN_DIR/namesrv/pid")
  [ -n "$START_SEC" ] || START_SEC=$("$RMQBENCH_BIN" proc -pid "$BROKER_PID" | json ageSec)
}

anon() { "$RMQBENCH_BIN" proc -pid "$1" | json anonMB; }

# wait_route TOPIC: until the name server has TOPIC's route (the broker's
# registration arrived), at most 60 s.
wait_route() {
  tries=0
  until "$RMQBENCH_BIN" route -n "$NAMESRV_ADDR" -t "$1" -c 1 -count 1 -progress 0 >/dev/null 2>&1; do
    tries=$((tries + 1))
    [ $tries -lt 600 ] || { log "no route of $1 after 60 s"; return 1; }
    sleep 0.1
  done
}

# topics_point IMPL N: one point of the topics curve.
topics_point() {
  impl=$1 n=$2
  store=$OUT_DIR/store-$impl-$n
  rm -rf "$store"
  mkdir -p "$store/config"
  topics_json "$n" "$store/config/topics.json"
  log "[$impl] $n topics: starting"
  start_servers "$impl" "$store" || return 1
  topic=ScaleTopic_$n
  wait_route "$topic" || return 1
  banon=$(anon "$BROKER_PID") nanon=$(anon "$NAMESRV_PID")
  out=$OUT_DIR/topics-$impl-$n
  "$RMQBENCH_BIN" register -n "$NAMESRV_ADDR" -b "$BROKER_ADDR" -count "$REGISTER_COUNT" >"$out.register" 2>&1 ||
    log "[$impl] $n topics: register reported failures (see $out.register)"
  "$RMQBENCH_BIN" route -n "$NAMESRV_ADDR" -t "$topic" -c "$ROUTE_CONNS" -d "${PHASE_SECS}s" -progress 0 >"$out.route" 2>&1 ||
    log "[$impl] $n topics: route reported failures (see $out.route)"
  qps=$(sed -n 's/^throughput: *\([0-9.]*\) req\/s/\1/p' "$out.route")
  rp99=$(sed -n 's/^latency:.* p99 \([0-9.]*\)ms .*/\1/p' "$out.route")
  echo "curve=topics impl=$impl n=$n startSec=$START_SEC tableBytes=$(kv brokerTableBytes "$out.register") bodyBytes=$(kv bodyBytes "$out.register") regP50Ms=$(kv p50Ms "$out.register") regP99Ms=$(kv p99Ms "$out.register") routeQps=$qps routeP99Ms=$rp99 brokerAnonMB=$banon namesrvAnonMB=$nanon load=$(cut -d' ' -f1 /proc/loadavg)" |
    tee -a "$RESULTS" >&2
  servers_stop
  rm -rf "$store"
}

# clients_point IMPL C: one point of the clients curve.
clients_point() {
  impl=$1 c=$2
  log "[$impl] $c clients: starting"
  start_servers "$impl" || return 1
  out=$OUT_DIR/clients-$impl-$c
  "$RMQBENCH_BIN" clients -addr "$BROKER_ADDR" -pid "$BROKER_PID" -c "$c" -period "$HB_PERIOD" -group-size "$GROUP_SIZE" \
    -warmup "${WARMUP_SECS}s" -d "${PHASE_SECS}s" >"$out" 2>&1 || log "[$impl] $c clients: failures (see $out)"
  line=$(grep '^clients: conns=' "$out" | sed 's/^clients: //')
  echo "curve=clients impl=$impl $line period=$HB_PERIOD load=$(cut -d' ' -f1 /proc/loadavg)" | tee -a "$RESULTS" >&2
  servers_stop
}

# table CURVE: the markdown table of CURVE from RESULTS, a Go ÷ Java row
# under each point that both ran.
table() {
  awk -v curve="$1" '
    function val(k,   i, kv) { for (i = 1; i <= NF; i++) { split($i, kv, "="); if (kv[1] == k) return kv[2] } return "" }
    function ratio(a, b) { return (a == "" || b == "" || b + 0 == 0) ? "" : sprintf("%.2f", a / b) }
    BEGIN {
      if (curve == "topics") {
        nk = split("tableBytes bodyBytes regP50Ms regP99Ms routeQps routeP99Ms startSec brokerAnonMB namesrvAnonMB", keys, " ")
        print "| topics | servers | table B | register body B | register p50 ms | register p99 ms | route q/s | route p99 ms | broker start s | broker anon MB | namesrv anon MB | load |"
        print "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
      } else {
        nk = split("hbps p99Ms cpuPct cpuUsPerHb anonMB kibPerConn", keys, " ")
        print "| clients | servers | heartbeats/s | heartbeat p99 ms | broker CPU % | CPU µs/heartbeat | broker anon MB | anon KiB/conn | load |"
        print "|---:|---|---:|---:|---:|---:|---:|---:|---:|"
      }
    }
    $0 ~ "^curve=" curve " " {
      impl = val("impl"); n = (curve == "topics") ? val("n") : val("conns")
      if (!(n in seen)) { seen[n] = 1; order[++np] = n }
      for (k = 1; k <= nk; k++) v[n, impl, keys[k]] = val(keys[k])
      if (curve == "clients") {
        v[n, impl, "hbps"] = sprintf("%.0f", val("heartbeats") / '"${PHASE_SECS}"')
        v[n, impl, "kibPerConn"] = sprintf("%.1f", (val("anonMB") - val("anonBeforeMB")) * 1024 / val("conns"))
      }
      v[n, impl, "load"] = val("load"); has[n, impl] = 1
    }
    END {
      for (p = 1; p <= np; p++) {
        n = order[p]
        split("java go", impls, " ")
        for (i = 1; i <= 2; i++) {
          im = impls[i]; if (!((n, im) in has)) continue
          row = "| " n " | " im
          for (k = 1; k <= nk; k++) row = row " | " v[n, im, keys[k]]
          print row " | " v[n, im, "load"] " |"
        }
        if ((n, "java") in has && (n, "go") in has) {
          row = "| " n " | go ÷ java"
          for (k = 1; k <= nk; k++) row = row " | " ratio(v[n, "go", keys[k]], v[n, "java", keys[k]])
          print row " | |"
        }
      }
    }' "$RESULTS"
}

prepare
log "started $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
for curve in $CURVES; do
  for impl in $IMPLS; do
    case $curve in
      topics) for n in $TOPIC_POINTS; do topics_point "$impl" "$n" || servers_stop; done ;;
      clients) for c in $CLIENT_POINTS; do clients_point "$impl" "$c" || servers_stop; done ;;
      *) die "unknown curve $curve (topics, clients)" ;;
    esac
  done
done
for curve in $CURVES; do
  table "$curve" >"$OUT_DIR/$curve.md"
  echo
  cat "$OUT_DIR/$curve.md"
done
log "done $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
