#!/bin/sh
# Catching up on a cold backlog, side by side in one run on this machine
# (POSIX sh): the reference Java name server + broker (compat/ref-servers.sh,
# line 4 = 4.9.7 by default), then this project's when $RMQGO_BROKER_BIN is
# set, the same steps for each backlog size of BACKLOGS_MB:
#
#   1. start the servers on an empty RUN_DIR; make topic Backlog (QUEUES
#      queues); rmqbench produce BACKLOG MB of BODY-byte messages to it, no
#      consumer (THREADS senders, as fast as they go);
#   2. rmqbench produce FILLER_MB more to another topic in FILLER_BODY-byte
#      messages: a broker restarted on a clean shutdown reads its last three
#      commitlog files back to check them (Java's recoverNormally, and ours),
#      which would put the end of the backlog back in the page cache; the
#      filler takes that place;
#   3. stop the broker (SIGTERM), drop the store's files from the page cache
#      (rmqbench dropcache: fadvise DONTNEED on those files only, never the
#      machine's whole cache), start it again, drop once more what the
#      restart read and the broker no longer maps, and note how much of the
#      commitlog is still cached (mincore);
#   4. "alone": rmqbench produce at RATE msg/s for PHASE_SECS, no consumer:
#      the send latency without a catch-up;
#   5. "catchup": rmqbench consume -from first -until-caught-up in a new
#      group (CONSUME_FROM_FIRST_OFFSET) while rmqbench produce sends at
#      RATE to the same topic, until every queue was read to its end (or
#      CATCHUP_TIMEOUT); the broker's CPU time from /proc before and after,
#      its RssAnon sampled every 200 ms (rmqbench proc -watch);
#   6. note the machine's load averages; stop the servers and delete the
#      store.
#
# Prints progress as it goes, and at the end a markdown table (also saved in
# $OUT_DIR/table.md, built by rmqbench backlog-table from
# $OUT_DIR/results.jsonl) with Go ÷ Java rows where both brokers ran.
#
#   RMQGO_BROKER_BIN=$PWD/bin/rmqgo-broker RMQGO_NAMESRV_BIN=$PWD/bin/rmqgo-namesrv sh bench/backlog-bench.sh
#   BACKLOGS_MB="1024 4096" RATE=2000 RUN_DIR=/tmp/me/backlog NAMESRV_PORT=29876 BROKER_PORT=30911 sh bench/backlog-bench.sh
#
# Environment (defaults in brackets):
#   BACKLOGS_MB ["1024 4096"]  backlog sizes, MiB of message bodies
#   BODY [1024]       body bytes of the backlog and of the live messages
#   THREADS [32]      senders of the backlog producer
#   QUEUES [4]        queues of topic Backlog
#   FILLER_MB [320] FILLER_BODY [262144]  the filler after the backlog
#                     (five 64 MiB commitlog files of ref-servers.sh's
#                     mappedFileSizeCommitLog; with 1 GiB files, as
#                     BROKER_CONF_EXTRA=mappedFileSizeCommitLog=1073741824
#                     makes them, give FILLER_MB=3400)
#   RATE [2000]       live send rate, messages a second, during "alone" and
#                     "catchup"; LIVE_THREADS [8] its senders
#   PHASE_SECS [20]   length of the "alone" phase
#   CATCHUP_TIMEOUT [20m]  the consumer gives up after this long
#   LINE [4]          4: Java servers 4.9.7; 5: 5.3.3
#   IMPLS ["java go"] the brokers, in order ("go" needs RMQGO_BROKER_BIN)
#   RMQGO_BROKER_BIN, RMQGO_NAMESRV_BIN  this project's servers (make build)
#   RUN_DIR [bench/target/backlog-run]  the servers' directory (wiped on
#                     each start, deleted at the end of each point);
#                     NAMESRV_PORT, BROKER_PORT: first port choices (see
#                     ref-servers.sh); OUT_DIR [$RUN_DIR.out]: tool
#                     outputs, results.jsonl, table.md
#   BROKER_CONF_EXTRA ["diskMaxUsedSpaceRatio=95"]  lines added to
#                     broker.conf (ref-servers.sh)
#   SERVER_JAVA_OPT_EXT ["-Drocketmq.broker.diskSpaceWarningLevelRatio=0.99
#                     -Drocketmq.broker.diskSpaceCleanForciblyRatio=0.99"]
#                     on a disk shared with other runs the defaults (75 %,
#                     90 %, 85 % of the disk used) can be passed while the
#                     backlog is written, and both brokers would then delete
#                     the backlog's oldest files at once or refuse sends
#   MIN_FREE_MB [1024]  a point is skipped when the disk of RUN_DIR has less
#                     than its backlog + FILLER_MB + MIN_FREE_MB free
#   RMQBENCH_BIN [built into OUT_DIR]  the rmqbench binary, GO [go]
#
# Disk: each point holds BACKLOG + FILLER_MB plus the live sends at once.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
BENCH_NAME=backlog-bench
# shellcheck source=bench/bench-lib.sh
. "$HERE/bench-lib.sh"
BACKLOGS_MB=${BACKLOGS_MB:-1024 4096}
BODY=${BODY:-1024}
THREADS=${THREADS:-32}
QUEUES=${QUEUES:-4}
FILLER_MB=${FILLER_MB:-320}
FILLER_BODY=${FILLER_BODY:-262144}
RATE=${RATE:-2000}
LIVE_THREADS=${LIVE_THREADS:-8}
PHASE_SECS=${PHASE_SECS:-20}
CATCHUP_TIMEOUT=${CATCHUP_TIMEOUT:-20m}
LINE=${LINE:-4}
IMPLS=${IMPLS:-java go}
GO=${GO:-go}
bench_dirs backlog-run results.jsonl
BROKER_CONF_EXTRA=${BROKER_CONF_EXTRA:-diskMaxUsedSpaceRatio=95}
SERVER_JAVA_OPT_EXT=${SERVER_JAVA_OPT_EXT:--Drocketmq.broker.diskSpaceWarningLevelRatio=0.99 -Drocketmq.broker.diskSpaceCleanForciblyRatio=0.99}
MIN_FREE_MB=${MIN_FREE_MB:-1024}
export BROKER_CONF_EXTRA SERVER_JAVA_OPT_EXT
BG_PIDS=""


cleanup() {
  for pid in $BG_PIDS; do kill -TERM "$pid" 2>/dev/null; done
  if [ "$SERVERS_UP" = 1 ]; then servers stop; fi
}
bench_traps

prepare() {
  bench_outputs
}

# start_servers IMPL: a name server and broker-a of IMPL on an empty RUN_DIR.
start_servers() {
  rm -rf "$RUN_DIR"
  log "[$1] starting the name server and broker (RUN_DIR=$RUN_DIR)"
  SERVERS_UP=1
  NAMESRV_IMPL=$1 BROKER_IMPL=$1 sh "$ROOT/compat/ref-servers.sh" start "$LINE" >>"$OUT_DIR/servers.log" 2>&1 ||
    { tail -20 "$OUT_DIR/servers.log" >&2; return 1; }
  # shellcheck disable=SC1091
  . "$RUN_DIR/env.sh"
  STORE=$RUN_DIR/broker-a/store
  BROKER_PID=$(cat "$RUN_DIR/broker-a/pid")
}

stop_servers() {
  servers_stop
  rm -rf "$RUN_DIR"
}

# produce FILE ARGS...: rmqbench produce with ARGS, its output in FILE
# and its report lines shown as they come.
produce() {
  file=$1; shift
  "$RMQBENCH_BIN" produce -n "$NAMESRV_ADDR" -rocketmq-header -progress 10s "$@" 2>&1 |
    tee "$file" | sed -n -e "s/^/  [producer] /p" >&2
}

# fill_backlog IMPL MB: the backlog, then the filler.
fill_backlog() {
  out=$(RMQ_LINE=$LINE sh "$ROOT/compat/mqadmin.sh" updateTopic -n "$NAMESRV_ADDR" -c "$CLUSTER_NAME" \
    -t Backlog -r "$QUEUES" -w "$QUEUES" 2>&1)
  echo "$out" | grep -q success || { echo "$out" >&2; log "mqadmin updateTopic Backlog failed"; return 1; }
  n=$(($2 * 1048576 / BODY))
  log "[$1] backlog: $n messages of $BODY bytes ($2 MiB) to Backlog, no consumer"
  produce "$OUT_DIR/$1-$2-fill.out" -t Backlog -s "$BODY" -w "$THREADS" -count "$n" || return 1
  label broker="$1" backlogMB="$2" phase=fill <"$OUT_DIR/$1-$2-fill.out" >>"$RESULTS"
  log "[$1] filler: $FILLER_MB MiB in $FILLER_BODY-byte messages to BacklogFiller"
  produce "$OUT_DIR/$1-$2-filler.out" -t BacklogFiller -s "$FILLER_BODY" -w 4 \
    -count $((FILLER_MB * 1048576 / FILLER_BODY)) -timeout 10s
}

# make_cold IMPL MB: restart broker-a with its store out of the page cache.
make_cold() {
  log "[$1] stopping the broker, dropping its store from the page cache, starting it again"
  servers stop-broker a >>"$OUT_DIR/servers.log" || return 1
  "$RMQBENCH_BIN" dropcache -dir "$STORE" | label broker="$1" backlogMB="$2" at=stopped >>"$RESULTS"
  servers start-broker a >>"$OUT_DIR/servers.log" || return 1
  BROKER_PID=$(cat "$RUN_DIR/broker-a/pid")
  "$RMQBENCH_BIN" dropcache -dir "$STORE" | label broker="$1" backlogMB="$2" at=boot >>"$RESULTS"
  "$RMQBENCH_BIN" dropcache -dir "$STORE/commitlog" -report >"$OUT_DIR/$1-$2-cold.out"
  sed -n "/^dropcache:/s/^/  /p" "$OUT_DIR/$1-$2-cold.out" >&2
  label broker="$1" backlogMB="$2" at=cold <"$OUT_DIR/$1-$2-cold.out" >>"$RESULTS"
}

# alone IMPL MB: the live producer without a consumer.
alone() {
  log "[$1] alone: $RATE msg/s for ${PHASE_SECS}s, no consumer"
  produce "$OUT_DIR/$1-$2-alone.out" -t Backlog -s "$BODY" -w "$LIVE_THREADS" -rate "$RATE" -d "${PHASE_SECS}s" || return 1
  label broker="$1" backlogMB="$2" phase=alone <"$OUT_DIR/$1-$2-alone.out" >>"$RESULTS"
}

# catchup IMPL MB: a new group reads the backlog from its first offset
# while the live producer sends.
catchup() {
  impl=$1 mb=$2
  cfile=$OUT_DIR/$impl-$mb-consumer.out pfile=$OUT_DIR/$impl-$mb-catchup.out
  "$RMQBENCH_BIN" proc -pid "$BROKER_PID" | label broker="$impl" backlogMB="$mb" at=before >>"$RESULTS"
  "$RMQBENCH_BIN" proc -pid "$BROKER_PID" -watch 200ms >"$OUT_DIR/watch.out" &
  watch=$!
  log "[$impl] catchup: a new group from the first offset, $RATE msg/s sent meanwhile"
  "$RMQBENCH_BIN" consume -n "$NAMESRV_ADDR" -t Backlog -g "backlog_${impl}_$mb" -from first -until-caught-up \
    -rocketmq-header -d "$CATCHUP_TIMEOUT" -progress 10s >"$cfile" 2>&1 &
  consumer=$!
  BG_PIDS="$watch $consumer"
  until grep -q "consume: started" "$cfile" 2>/dev/null; do
    kill -0 "$consumer" 2>/dev/null || { tail -20 "$cfile" >&2; log "the consumer exited"; return 1; }
    sleep 0.1
  done
  "$RMQBENCH_BIN" produce -n "$NAMESRV_ADDR" -rocketmq-header -progress 10s -t Backlog -s "$BODY" \
    -w "$LIVE_THREADS" -rate "$RATE" -d 24h >"$pfile" 2>&1 &
  producer=$!
  BG_PIDS="$watch $consumer $producer"
  tail -f "$cfile" --pid "$consumer" 2>/dev/null | sed -n -E "/^\[|caught up|consume: received/s/^/  [consumer] /p" >&2
  wait "$consumer"
  kill -TERM "$producer" "$watch" 2>/dev/null
  wait "$producer"
  wait "$watch"
  BG_PIDS=""
  "$RMQBENCH_BIN" proc -pid "$BROKER_PID" | label broker="$impl" backlogMB="$mb" at=after >>"$RESULTS"
  label broker="$impl" backlogMB="$mb" at=watch <"$OUT_DIR/watch.out" >>"$RESULTS"
  label broker="$impl" backlogMB="$mb" phase=catchup <"$cfile" >>"$RESULTS"
  label broker="$impl" backlogMB="$mb" phase=catchup <"$pfile" >>"$RESULTS"
  sed -n -e "/^produce: sent/s/^/  [producer] /p" "$pfile" >&2
}

# skip IMPL MB REASON: the table shows REASON instead of the point's figures.
skip() {
  printf '{"kind":"skip","broker":"%s","backlogMB":"%s","reason":"%s"}\n' "$1" "$2" "$3" >>"$RESULTS"
  log "[$1] the $2 MiB point: skipped: $3"
}

# load IMPL MB AT: the machine's load averages (1, 5 and 15 minutes) as a
# result line: the figures of a shared machine mean little without them.
load() {
  read -r l1 l5 l15 _ </proc/loadavg
  printf '{"kind":"load","broker":"%s","backlogMB":"%s","at":"%s","load1":%s,"load5":%s,"load15":%s}\n' \
    "$1" "$2" "$3" "$l1" "$l5" "$l15" >>"$RESULTS"
  log "[$1] load average $l1 $l5 $l15"
}

# point IMPL MB: one backlog size against IMPL's servers.
point() {
  mkdir -p "$(dirname "$RUN_DIR")"
  free=$(df -Pm "$(dirname "$RUN_DIR")" | awk 'NR == 2 { print $4 }')
  if [ "$free" -lt $(($2 + FILLER_MB + MIN_FREE_MB)) ]; then
    skip "$1" "$2" "only $free MB free on the disk of $RUN_DIR"
    return
  fi
  if start_servers "$1" && fill_backlog "$1" "$2" && make_cold "$1" "$2" && alone "$1" "$2" && catchup "$1" "$2"; then
    load "$1" "$2" catchup
    stop_servers
    return
  fi
  for pid in $BG_PIDS; do kill -TERM "$pid" 2>/dev/null; done
  BG_PIDS=""
  skip "$1" "$2" "failed (see $OUT_DIR)"
  servers_stop
}

prepare
for mb in $BACKLOGS_MB; do
  for impl in $IMPLS; do
    if [ "$impl" = go ] && { [ -z "${RMQGO_BROKER_BIN:-}" ] || [ ! -x "$RMQGO_BROKER_BIN" ]; }; then
      skip go "$mb" "no RMQGO_BROKER_BIN"
      continue
    fi
    point "$impl" "$mb"
  done
done

case $LINE in 4) jver=4.9.7 ;; *) jver=5.3.3 ;; esac
{
  echo
  echo "Brokers: java = Java $jver name server + broker; go = this project's. Backlog of ${BODY}-byte bodies on $QUEUES queues,"
  echo "then ${FILLER_MB} MiB of filler; broker restarted with its store dropped from the page cache; live sends at $RATE msg/s"
  echo "($LIVE_THREADS senders) for ${PHASE_SECS}s alone, then during the catch-up of a new group from the first offset."
  echo
  "$RMQBENCH_BIN" backlog-table <"$RESULTS"
} | tee "$OUT_DIR/table.md"
