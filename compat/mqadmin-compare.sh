#!/bin/sh
# Runs the common mqadmin commands (rocketmq-tools' MQAdminStartup, through
# compat/mqadmin.sh) against the Java reference servers and against ours,
# side by side, masks the values that legitimately differ between two runs,
# diffs java vs go per command, prints a table and exits 1 when any
# difference is left (POSIX sh).
#
#   sh compat/mqadmin-compare.sh 4|5
#
# Line 4: Java servers 4.9.7 and mqadmin 4.9.8; line 5: 5.3.3 and 5.3.3.
# Ours: $ROOT/bin/rmqgo-namesrv and rmqgo-broker (make build first).
#
# For each side (java, then go) it starts a name server and broker-a with
# compat/ref-servers.sh (COMPAT_BROKER_B=0, RUN_DIR under the output dir,
# first-choice ports MQA_NAMESRV_PORT 25876 and MQA_BROKER_PORT 26911),
# builds the same state and runs the same commands in the same order:
#
#   topic MqaTopic (4 queues), 4 messages with keys mqaKey0..3 and tag TagA,
#   pinned to queues 0..3 of broker-a (mqadmin sendMessage -b -i); a running
#   producer (group MqaProducer) and push consumer (group MqaConsumer) from
#   MqadminClients.java (compat/src/test/java, run in the java launcher's
#   source-file mode on mqadmin's classpath), waited for by polling its
#   output for READY (all messages consumed, offsets committed, both
#   connections listed by the broker); then the commands of COMMANDS below.
#
# Output, kept for inspection, in compat/target/mqadmin-compare-LINE/:
#   java/NN-command.out, go/NN-command.out     raw output (stdout+stderr)
#   java/*.masked, go/*.masked                 after mask()
#   diff/command.diff                          diff -u java go of the masked
#   run-java/, run-go/                         the servers' RUN_DIRs (logs)
#   setup-*.out, clients.log                   per side, in java/ and go/
#
# The servers it started are always stopped (trap). MQADMIN_TIMEOUT (120)
# bounds each mqadmin call, in seconds. MQA_SIDES="go" re-runs only our side
# and compares with the Java outputs kept from an earlier run; MQA_SIDES=""
# only compares the outputs there are.
#
# MQADMIN_IMPL=go (make compat-goadmin) proves this project's mqadmin
# (bin/mqadmin over cmd/rmqadmin; make build first) instead: the sides are
# java (Java's mqadmin, Java servers: the reference), goadmin-java (our
# mqadmin, Java servers) and goadmin-go (our mqadmin, our servers). On the
# goadmin sides the commands our mqadmin has (GOADMIN_COMMANDS in
# mqadmin-lib.sh) run with it, the others, which build the state, with
# Java's; the GOADMIN_COMMANDS outputs of each goadmin side are diffed
# against the java side's (diff/goadmin-java-CMD.diff,
# diff/goadmin-go-CMD.diff), and so is "mqadmin help CMD" of each
# (diff/help-CMD.diff). MQA_SIDES="goadmin-java goadmin-go" reuses the
# java side of an earlier run (either mode: they share OUT).
set -u

LINE=${1:-}
case $LINE in
  4|5) ;;
  *) echo "usage: $0 4|5" >&2; exit 2 ;;
esac
COMPAT_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$COMPAT_DIR/.." && pwd)
OUT=$COMPAT_DIR/target/mqadmin-compare-$LINE
MQADMIN_TIMEOUT=${MQADMIN_TIMEOUT:-120}
TOPIC=MqaTopic
DEL_TOPIC=MqaTopicDel
CGROUP=MqaConsumer
PGROUP=MqaProducer
SUB_GROUP=MqaSubGroup
DEL_GROUP=MqaSubGroupDel
MESSAGES=4

# The compared commands, in the order they run (name = the file name).
COMMANDS="updateTopic topicList topicRoute topicStatus topicClusterList updateSubGroup
sendMessage consumerProgress consumerConnection producerConnection consumerStatus
queryMsgByKey queryMsgByUniqueKey queryMsgByOffset queryMsgById printMsg consumeMessage
resetOffsetByTime getBrokerConfig updateBrokerConfig brokerStatus clusterList statsAll
clusterRT deleteSubGroup deleteTopic"

LOG_TAG=mqadmin-compare
# log, stop_side, mqa, wait_for, mask_generic, mask_line, sort_body, compare_entry
# shellcheck source=compat/mqadmin-lib.sh
. "$COMPAT_DIR/mqadmin-lib.sh"

MQADMIN_IMPL=${MQADMIN_IMPL:-java}
for b in rmqgo-namesrv rmqgo-broker $([ "$MQADMIN_IMPL" = go ] && echo rmqadmin); do
  [ -x "$ROOT/bin/$b" ] || { log "$ROOT/bin/$b missing: run make build first"; exit 2; }
done

RUN_DIR=""
CLIENTS_PID=""
trap stop_side EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# run_side java|go|goadmin-java|goadmin-go: servers up (java: the Java
# ones), state built, commands run (goadmin-: with our mqadmin where it
# has them), servers down.
run_side() {
  side=$1
  dir=$OUT/$side
  rm -rf "$dir" "$OUT/run-$side"
  mkdir -p "$dir"
  RUN_DIR=$OUT/run-$side
  case $side in
    goadmin-*) MQA_ADMIN=go ;;
    *) MQA_ADMIN=java ;;
  esac
  log "$side: starting servers (line $LINE)"
  if [ "$side" = java ] || [ "$side" = goadmin-java ]; then
    RUN_DIR=$RUN_DIR NAMESRV_IMPL=java BROKER_IMPL=java COMPAT_BROKER_B=0 \
      NAMESRV_PORT=${MQA_NAMESRV_PORT:-25876} BROKER_PORT=${MQA_BROKER_PORT:-26911} \
      sh "$COMPAT_DIR/ref-servers.sh" start "$LINE" >"$dir/setup-servers.out" 2>&1
  else
    RUN_DIR=$RUN_DIR NAMESRV_IMPL=go BROKER_IMPL=go COMPAT_BROKER_B=0 \
      RMQGO_NAMESRV_BIN=$ROOT/bin/rmqgo-namesrv RMQGO_BROKER_BIN=$ROOT/bin/rmqgo-broker \
      NAMESRV_PORT=${MQA_NAMESRV_PORT:-25876} BROKER_PORT=${MQA_BROKER_PORT:-26911} \
      sh "$COMPAT_DIR/ref-servers.sh" start "$LINE" >"$dir/setup-servers.out" 2>&1
  fi || { log "$side: servers did not start; see $dir/setup-servers.out"; cat "$dir/setup-servers.out" >&2; return 1; }
  # shellcheck disable=SC1091
  . "$RUN_DIR/env.sh"
  # Both brokers make their transaction half topic at their first check,
  # transactionCheckInterval (1 s) after boot: topicList waits for it
  # rather than race it (our mqadmin starts in milliseconds, Java's in
  # seconds).
  wait_topic "$dir" RMQ_SYS_TRANS_HALF_TOPIC || return 1
  n=0
  for cmd in $COMMANDS; do
    n=$((n + 1))
    f=$(printf '%02d-%s' "$n" "$cmd")
    log "$side: $f"
    run_command "$dir" "$f" "$cmd" || return 1
  done
  stop_side
}

# run_command DIR FILE COMMAND: the state each command needs, then the command.
run_command() {
  d=$1 f=$2
  case $3 in
    updateTopic)
      mqa "$d" "$f" updateTopic -c "$CLUSTER_NAME" -t "$TOPIC" -r 4 -w 4
      mqa "$d" setup-updateTopicDel updateTopic -c "$CLUSTER_NAME" -t "$DEL_TOPIC" -r 2 -w 2
      # The broker registers a new topic with the name server after answering.
      wait_route "$d" "$TOPIC" && wait_route "$d" "$DEL_TOPIC" ;;
    topicList) mqa "$d" "$f" topicList ;;
    topicRoute) mqa "$d" "$f" topicRoute -t "$TOPIC" ;;
    topicStatus) mqa "$d" "$f" topicStatus -t "$TOPIC" ;;
    topicClusterList) mqa "$d" "$f" topicClusterList -t "$TOPIC" ;;
    updateSubGroup)
      mqa "$d" "$f" updateSubGroup -c "$CLUSTER_NAME" -g "$SUB_GROUP"
      mqa "$d" setup-updateSubGroupDel updateSubGroup -c "$CLUSTER_NAME" -g "$DEL_GROUP" ;;
    sendMessage)
      i=0
      while [ $i -lt $((MESSAGES - 1)) ]; do
        mqa "$d" "setup-send-$i" sendMessage -t "$TOPIC" -p "mqa body $i" -k "mqaKey$i" -c TagA -b "$BROKER_NAME" -i $i
        i=$((i + 1))
      done
      mqa "$d" "$f" sendMessage -t "$TOPIC" -p "mqa body $i" -k "mqaKey$i" -c TagA -b "$BROKER_NAME" -i $i
      start_clients "$d" ;;
    consumerProgress) mqa "$d" "$f" consumerProgress -g "$CGROUP" ;;
    consumerConnection) mqa "$d" "$f" consumerConnection -g "$CGROUP" ;;
    producerConnection) mqa "$d" "$f" producerConnection -g "$PGROUP" -t "$TOPIC" ;;
    consumerStatus) mqa "$d" "$f" consumerStatus -g "$CGROUP" ;;
    queryMsgByKey) mqa "$d" "$f" queryMsgByKey -t "$TOPIC" -k mqaKey1 ;;
    queryMsgByUniqueKey)
      # The msgId (unique key) that sendMessage printed for the last message.
      uniq=$(sed -n 's/.*SEND_OK *\([0-9A-F]\{32,\}\).*/\1/p' "$d"/*-sendMessage.out | head -1)
      mqa "$d" "$f" queryMsgByUniqueKey -t "$TOPIC" -i "${uniq:-none}" ;;
    queryMsgById)
      # The offset msgId of the message queryMsgByOffset printed.
      oid=$(sed -n 's/^OffsetID: *\([0-9A-F]\{32\}\).*/\1/p' "$d"/*-queryMsgByOffset.out | head -1)
      mqa "$d" "$f" queryMsgById -i "${oid:-none}" ;;
    queryMsgByOffset) mqa "$d" "$f" queryMsgByOffset -t "$TOPIC" -b "$BROKER_NAME" -i 2 -o 0 ;;
    printMsg) mqa "$d" "$f" printMsg -t "$TOPIC" -d true ;;
    consumeMessage) mqa "$d" "$f" consumeMessage -t "$TOPIC" -b "$BROKER_NAME" -i 1 -o 0 -c 1 ;;
    resetOffsetByTime) mqa "$d" "$f" resetOffsetByTime -g "$CGROUP" -t "$TOPIC" -s now ;;
    getBrokerConfig) mqa "$d" "$f" getBrokerConfig -b "$BROKER_ADDR" ;;
    updateBrokerConfig)
      mqa "$d" "$f" updateBrokerConfig -b "$BROKER_ADDR" -k maxMessageSize -v 4194000
      mqa "$d" setup-getBrokerConfig-after getBrokerConfig -b "$BROKER_ADDR" ;;
    brokerStatus) mqa "$d" "$f" brokerStatus -b "$BROKER_ADDR" ;;
    clusterList) mqa "$d" "$f" clusterList ;;
    statsAll) mqa "$d" "$f" statsAll ;;
    clusterRT) cluster_rt "$d" "$f" ;;
    deleteSubGroup) mqa "$d" "$f" deleteSubGroup -c "$CLUSTER_NAME" -g "$DEL_GROUP" ;;
    deleteTopic) mqa "$d" "$f" deleteTopic -c "$CLUSTER_NAME" -t "$DEL_TOPIC" ;;
    *) log "no recipe for $3"; return 1 ;;
  esac
}

# wait_route DIR TOPIC: polls topicRoute until the name server has TOPIC
# (up to 180 s: a loaded machine's JVM broker can take a while).
wait_route() {
  deadline=$(( $(date +%s) + 180 ))
  while :; do
    mqa "$1" setup-route-poll topicRoute -t "$2"
    grep -q '"brokerName"' "$1/setup-route-poll.out" && return 0
    [ "$(date +%s)" -ge "$deadline" ] && { log "no route for $2 after 180s"; return 1; }
    sleep 1
  done
}

# wait_topic DIR TOPIC: polls topicList until the name server lists TOPIC
# (up to 60 s).
wait_topic() {
  deadline=$(( $(date +%s) + 60 ))
  while :; do
    mqa "$1" setup-topic-poll topicList
    grep -q "^$2\$" "$1/setup-topic-poll.out" && return 0
    [ "$(date +%s)" -ge "$deadline" ] && { log "no $2 in topicList after 60s"; return 1; }
    sleep 0.5
  done
}

# start_clients DIR: the online producer and consumer, until READY.
start_clients() {
  cp=$COMPAT_DIR/target/cp/tools-$LINE.cp
  java -Xms64m -Xmx256m -Duser.home="$1/clients-home" -Drocketmq.client.logRoot="$1/clients-home/logs" \
    -cp "$(cat "$cp")" "$COMPAT_DIR/src/test/java/org/rmqgo/compat/MqadminClients.java" \
    "$NAMESRV_ADDR" "$TOPIC" "$CGROUP" "$PGROUP" "$MESSAGES" >"$1/clients.log" 2>&1 &
  CLIENTS_PID=$!
  if ! wait_for "$1/clients.log" '^READY' 180 "$CLIENTS_PID"; then
    log "clients not ready:"; tail -20 "$1/clients.log" >&2
    return 1
  fi
}

# cluster_rt DIR FILE: clusterRT repeats every 10 s until killed; one round
# of 10 sends is all it needs.
cluster_rt() {
  (cd "$1" && exec env RMQ_LINE=$LINE sh "$COMPAT_DIR/mqadmin.sh" clusterRT -a 10 -c "$CLUSTER_NAME" -n "$NAMESRV_ADDR") >"$1/$2.out" 2>&1 &
  rt=$!
  wait_for "$1/$2.out" "^$CLUSTER_NAME " "$MQADMIN_TIMEOUT" "$rt"
  kill -TERM "$rt" 2>/dev/null
  wait "$rt" 2>/dev/null
  echo "rc=killed" >>"$1/$2.out"
}

# mask COMMAND < raw > masked: replaces what differs between any two runs,
# whichever servers answer (mask_generic, and the servers' RUN_DIR in paths).
# Each rule says why it is volatile.
mask() {
  mask_generic |
    sed -E -e 's#/mqadmin-compare-[45]/run-(java|go|goadmin-java|goadmin-go)/#/mqadmin-compare-LINE/run-SIDE/#g' |
    mask_line | mask_command "$1"
}

# mask_command COMMAND: what is volatile in one command's output.
mask_command() {
  case $1 in
    brokerStatus)
      # Rates, latencies, timings, disk figures (the disk is shared, other
      # processes write to it) and uptime: their keys must match, not their
      # values. Our broker reports both spellings of get-transferred TPS on
      # both lines (4.x getTransferedTps, 5.x getTransferredTps) for the
      # dashboards: the other line's spelling is dropped here. The pull
      # pool's queue holds the running consumer's long polls of that
      # instant (0 to 4 here).
      if [ "$LINE" = 4 ]; then other=getTransferredTps; else other=getTransferedTps; fi
      sed -E -e "/^$other /d" \
        -e 's/^(([a-zA-Z]+Tps|runtime|pullThreadPoolQueueSize|commitLogDirCapacity|[a-zA-Z]*DiskRatio[^ ]*|putLatency99|putLatency999|putMessageDistributeTime|[a-zA-Z]+EntireTimeMax|[a-zA-Z]+HeadWaitTimeMills|pageCacheLockTimeMills) *: ).*/\1<VOLATILE>/' ;;
    consumerProgress)
      # The group's pull rate over the broker's last stats window (0.20 or
      # 0.40 from one run of the Java broker to the next).
      sed -E 's/^(Consume TPS: ).*/\1<TPS>/' ;;
    clusterList)
      # InTPS/OutTPS, #Hour (since the earliest message; -1 reads as ~half a
      # million hours) and #SPACE (shared disk) after the version column.
      sed -E 's/^(DefaultCluster +[^ ]+ +[0-9]+ +[^ ]+ +[^ ]+).*$/\1 <TPS-HOUR-SPACE>/' ;;
    clusterRT)
      # The send RT in ms.
      # The send RT in ms (its width moves the next column).
      sed -E 's/^(DefaultCluster +[^ ]+ +)[0-9.]+ +/\1<RT> /' ;;
    getBrokerConfig)
      # mqadmin prints a java.util.Properties in its hash order, which
      # depends on the insertion order (the broker's text order) of keys
      # that share a bucket: sorted, the key sets and values are compared.
      # 4.9.8 (ours) has two keys 4.9.7 lacks.
      sed -E '/^(configBlackList|isScanAvailableNameSrv) +=/d' | sort_body ;;
    topicList)
      # The name server's topic set in hash order (the client's HashSet
      # keeps the server's order for topics that share a bucket; ours sends
      # them sorted): compared sorted.
      sort ;;
    statsAll)
      # Sorted after its header, as topicList. The TPS and 24-hour columns
      # are the broker's sampled stats (a sample every 10 s, the minute
      # window of 6 samples): whether the test's sends still fall in the
      # window depends on how long the commands before took, so a loaded
      # machine printed 0 on one side and the count on the other. Their
      # shape (a figure, a blank, NO_CONSUMER) is compared, the topic,
      # group and accumulation columns as they are.
      sed -E '/^#/!{s/[0-9]+\.[0-9]{2}/<TPS>/g;s/ +<TPS>/ <TPS>/g;s/(<TPS>) +[0-9]+ +([0-9]+|NO_CONSUMER)$/\1 <N> \2/;s/ [0-9]+$/ <N>/;}' | sort_body ;;
    *) cat ;;
  esac
}

# mask_side SIDE COMMAND: one known bug of the Java side. 5.3.3's
# ConsumerManager files a subscription's topic where its group belongs
# (topicGroupTable), so QUERY_TOPIC_CONSUME_BY_WHO answers a group named
# after the topic: queryMsgByUniqueKey and queryMsgByOffset print a
# MessageTrack for group MqaTopic (a failed lookup of %RETRY%MqaTopic),
# statsAll a row "MqaTopic MqaTopic". Upstream fixed it after 5.3.3
# (apache/rocketmq #9352, #9443); ours answers the real groups only. The
# phantom group's lines are dropped from the Java output; the rest of those
# commands is compared as is.
mask_side() {
  if { [ "$1" != java ] && [ "$1" != goadmin-java ]; } || [ "$LINE" != 5 ]; then
    cat
    return
  fi
  case $2 in
    queryMsgByUniqueKey|queryMsgByOffset)
      # The MessageTrack (two lines: the exception's message has a newline)
      # up to the ")]" that ends it.
      # (Java's description ends with the exception's first stack frame,
      # ours, on the goadmin-java side, with the FAQ link: up to the "]".)
      sed -E "/^MessageTrack \[consumerGroup=$TOPIC, /{N;s/^MessageTrack \[consumerGroup=$TOPIC, .*\n[^]]*\]//;/^\$/d;}" ;;
    statsAll) sed -E "/^$TOPIC +$TOPIC /d" ;;
    *) cat ;;
  esac
}

# mask_entry SIDE COMMAND: compare_entry's masking of one output.
mask_entry() {
  mask "$2" | mask_side "$1" "$2"
}

compare() {
  mkdir -p "$OUT/diff"
  rm -f "$OUT"/diff/*.diff
  fails=0
  n=0
  printf '%-22s %s\n' "command" "result"
  for cmd in $COMMANDS; do
    n=$((n + 1))
    f=$(printf '%02d-%s' "$n" "$cmd")
    compare_entry "$f.out" "$f.masked" "$cmd" || fails=$((fails + 1))
  done
  echo "mqadmin-compare line $LINE: $fails of $n commands differ (outputs in $OUT)"
  [ "$fails" = 0 ]
}

# compare_help: "mqadmin help CMD" of each of GOADMIN_COMMANDS, Java's
# and ours, diffed (OUT/help-java, OUT/help-go); prints a count.
compare_help() {
  mkdir -p "$OUT/help-java" "$OUT/help-go"
  same=0 total=0
  for cmd in $GOADMIN_COMMANDS; do
    total=$((total + 1))
    RMQ_LINE=$LINE sh "$COMPAT_DIR/mqadmin.sh" help "$cmd" 2>&1 | mask_generic >"$OUT/help-java/$cmd.out"
    RMQGO_LINE=$LINE sh "$ROOT/bin/mqadmin" help "$cmd" 2>&1 | mask_generic >"$OUT/help-go/$cmd.out"
    if diff -u "$OUT/help-java/$cmd.out" "$OUT/help-go/$cmd.out" >"$OUT/diff/help-$cmd.diff"; then
      rm -f "$OUT/diff/help-$cmd.diff"
      same=$((same + 1))
    else
      echo "help $cmd: DIFFERENT (diff/help-$cmd.diff)"
    fi
  done
  echo "goadmin-compare line $LINE: mqadmin help of $same of $total commands the same as Java's"
  [ "$same" = "$total" ]
}

# compare_goadmin: the GOADMIN_COMMANDS outputs of each goadmin side
# against the java side's, a table per side and a count of the commands
# the same on both.
compare_goadmin() {
  mkdir -p "$OUT/diff"
  rm -f "$OUT"/diff/*.diff
  both=0 total=0
  for b in goadmin-java goadmin-go; do
    echo "our mqadmin on the $( [ "$b" = goadmin-java ] && echo Java || echo Go ) servers vs Java's mqadmin on the Java servers (line $LINE):"
    printf '%-22s %s\n' "command" "result"
    n=0
    for cmd in $COMMANDS; do
      n=$((n + 1))
      goadmin_has "$cmd" || continue
      f=$(printf '%02d-%s' "$n" "$cmd")
      if CMP_B=$b compare_entry "$f.out" "$f.masked" "$cmd"; then
        eval "same_$cmd=\$((\${same_$cmd:-0} + 1))"
      fi
    done
  done
  for cmd in $GOADMIN_COMMANDS; do
    total=$((total + 1))
    eval "s=\${same_$cmd:-0}"
    [ "$s" = 2 ] && both=$((both + 1))
  done
  echo "goadmin-compare line $LINE: $both of $total commands of our mqadmin print the same (masked) as Java's mqadmin, on the Java servers and on ours (outputs in $OUT)"
  [ "$both" = "$total" ]
}

mkdir -p "$OUT"
status=0
if [ "$MQADMIN_IMPL" = go ]; then
  default_sides="java goadmin-java goadmin-go"
else
  default_sides="java go"
fi
for side in ${MQA_SIDES-$default_sides}; do
  run_side "$side" || { log "$side: stopped early"; status=1; stop_side; }
done
if [ "$MQADMIN_IMPL" = go ]; then
  compare_goadmin || status=1
  compare_help || status=1
else
  compare || status=1
fi
exit $status
