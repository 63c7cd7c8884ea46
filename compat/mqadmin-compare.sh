#!/bin/sh
# Runs mqadmin commands (rocketmq-tools' MQAdminStartup, through
# compat/mqadmin.sh) against the Java reference servers and against ours,
# side by side, masks the values that legitimately differ between two runs,
# diffs java vs go per command, prints a table and exits 1 when any
# difference is left (POSIX sh). Three sets of commands, one per mode:
#
#   sh compat/mqadmin-compare.sh 4|5          # the common commands (make compat-mqadmin)
#   sh compat/mqadmin-compare.sh --acl1 [4]   # ACL 1.0 (make compat-mqadmin-acl)
#   sh compat/mqadmin-compare.sh --acl2 [5]   # ACL 2.0 (make compat-mqadmin-acl2)
#
# Line 4: Java servers 4.9.7 and mqadmin 4.9.8; line 5: 5.3.3 and 5.3.3.
# Ours: $ROOT/bin/rmqgo-namesrv and rmqgo-broker (make build first). For
# each side (java, then go) it starts a name server and broker-a with
# compat/ref-servers.sh (COMPAT_BROKER_B=0, RUN_DIR under the output dir,
# first-choice ports per mode, below), builds the same state and runs the
# same steps in the same order. The servers it started are always stopped
# (trap). MQADMIN_TIMEOUT (120) bounds each mqadmin call, in seconds.
#
# The common commands (no flag; outputs in compat/target/mqadmin-compare-LINE/,
# ports MQA_NAMESRV_PORT 25876 and MQA_BROKER_PORT 26911):
#
#   topic MqaTopic (4 queues), 4 messages with keys mqaKey0..3 and tag TagA,
#   pinned to queues 0..3 of broker-a (mqadmin sendMessage -b -i); a running
#   producer (group MqaProducer) and push consumer (group MqaConsumer) from
#   MqadminClients.java (compat/src/test/java, run in the java launcher's
#   source-file mode on mqadmin's classpath), waited for by polling its
#   output for READY (all messages consumed, offsets committed, both
#   connections listed by the broker); then the commands of STEPS below.
#
#   java/NN-command.out, go/NN-command.out     raw output (stdout+stderr)
#   java/*.masked, go/*.masked                 after mask_common()
#   diff/command.diff                          diff -u java go of the masked
#   run-java/, run-go/                         the servers' RUN_DIRs (logs)
#   setup-*.out, clients.log                   per side, in java/ and go/
#
# MQA_SIDES="go" re-runs only our side and compares with the Java outputs
# kept from an earlier run; MQA_SIDES="" only compares the outputs there are.
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
#
# --acl1: mqadmin 4.9.8's ACL 1.0 commands with the broker's aclEnable=true,
# the 4.x line only: 5.3.3 has no ACL 1.0 (compat/acl-facts.md, section 1).
# mqadmin 4.9.8 has four ACL commands: updateAclConfig, deleteAclConfig,
# clusterAclConfigVersion, updateGlobalWhiteAddr (no getAclConfig or
# getBrokerAclConfig; code 54 has no caller in it). Ports
# MQACL_NAMESRV_PORT 24876 and MQACL_BROKER_PORT 24911; broker.conf line
# aclEnable=true and PLAIN_ACL_FILE=compat/acl/plain_acl.yml (as
# compat/acl-suite.sh). mqadmin signs its requests with the account of a
# tools.yml: mqadmin.sh copies MQADMIN_TOOLS_YML to MQADMIN_HOME/conf/tools.yml,
# the file 4.9.8's MQAdminStartup reads (AclUtils.getAclRPCHook(ROCKETMQ_HOME +
# "/conf/tools.yml"): accessKey, secretKey). Every step runs as the admin
# account RocketMQ/12345678 but the refusal steps: a wrong secret, no
# tools.yml (unsigned), an unknown accessKey, a non-admin account (aclNormal)
# on an admin-only code; the last step is signed as the admin again. After
# each step that writes the ACL file, the broker's plain_acl.yml
# (RUN_DIR/rocketmq-home/conf/plain_acl.yml) is copied next to its output as
# NN-step.yml and compared too. Masked besides mask_generic: the RUN_DIR in
# paths (the #AclFilePath column), the 4.9.7/4.9.8 version names; and, on
# the Java side only, the 4.9.7 line numbers of the PlainPermissionManager
# frame in a refusal's remark, rewritten to 4.9.8's (one line down,
# acl-facts.md section 4: ours speaks as 4.9.8). Output in
# compat/target/mqadmin-acl-compare-4/:
#
#   java/NN-step.out, go/NN-step.out     raw output (stdout+stderr)
#   java/NN-step.yml, go/NN-step.yml     the broker's plain_acl.yml after it
#   java/*.masked, go/*.masked           after masking
#   diff/step.diff, diff/step.yml.diff   diff -u java go of the masked
#   run-java/, run-go/                   the servers' RUN_DIRs (logs)
#   tools/*.yml                          the tools.yml of each account
#
# --acl2: mqadmin 5.3.3's ACL 2.0 commands (createUser, updateUser,
# deleteUser, getUser, listUser, createAcl, updateAcl, deleteAcl, getAcl,
# listAcl) against the Java 5.3.3 servers and ours, with the broker's ACL
# 2.0 on as compat/acl2-suite.sh turns it on (super user
# acl2Root/acl2Root123); masked with mask_generic (ports, dates). mqadmin
# signs with the account of MQADMIN_TOOLS_YML: the super user but for the
# refusal steps (a wrong secret, unsigned, a normal user asking for the
# users). Ports MQACL2_NAMESRV_PORT 25876 and MQACL2_BROKER_PORT 25911.
# Output in compat/target/mqadmin-acl2-compare/ (java/, go/, diff/,
# run-java/, run-go/, tools/).
#
# With --acl1 and --acl2, MQACL_SIDES="go" re-runs only our side against
# the Java outputs kept (MQACL_SIDES="": only compares).
set -u

usage() {
  echo "usage: $0 4|5 | --acl1 [4] | --acl2 [5]" >&2
  exit 2
}
MODE=common
case ${1:-} in
  --acl1) MODE=acl1; shift ;;
  --acl2) MODE=acl2; shift ;;
esac
case $MODE in
  common) LINE=${1:-} ;;
  acl1) LINE=${1:-4} ;;
  acl2) LINE=${1:-5} ;;
esac
case $MODE:$LINE in
  common:4|common:5|acl1:4|acl2:5) ;;
  acl1:5) echo "$0: 5.3.3 has no ACL 1.0 (compat/acl-facts.md); --acl1 is the 4.x line only" >&2; exit 2 ;;
  acl2:4) echo "$0: ACL 2.0 is 5.3.3's; --acl2 is the 5.x line only" >&2; exit 2 ;;
  *) usage ;;
esac
COMPAT_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$COMPAT_DIR/.." && pwd)
MQADMIN_TIMEOUT=${MQADMIN_TIMEOUT:-120}
MQADMIN_IMPL=${MQADMIN_IMPL:-java}
[ "$MODE" = common ] || MQADMIN_IMPL=java

# Per mode: the log prefix, the outputs' dir, the width of the table's name
# column, the sides run by default and the variable that overrides them,
# the servers' first-choice ports and broker.conf additions, the steps in
# the order they run (name = the file name) and those after which the
# broker's plain_acl.yml is compared too (YML_STEPS).
YML_STEPS=""
case $MODE in
  common)
    LOG_TAG=mqadmin-compare
    OUT=$COMPAT_DIR/target/mqadmin-compare-$LINE
    ROW_WIDTH=22 ROW_HEAD=command SUMMARY="mqadmin-compare line $LINE" WHAT=commands
    if [ "$MQADMIN_IMPL" = go ]; then SIDES=${MQA_SIDES-java goadmin-java goadmin-go}; else SIDES=${MQA_SIDES-java go}; fi
    NS_PORT=${MQA_NAMESRV_PORT:-25876} BR_PORT=${MQA_BROKER_PORT:-26911}
    CONF_EXTRA=${BROKER_CONF_EXTRA:-} ACL_FILE=${PLAIN_ACL_FILE:-} SERVERS_NOTE="line $LINE"
    TOPIC=MqaTopic
    DEL_TOPIC=MqaTopicDel
    CGROUP=MqaConsumer
    PGROUP=MqaProducer
    SUB_GROUP=MqaSubGroup
    DEL_GROUP=MqaSubGroupDel
    MESSAGES=4
    STEPS="updateTopic topicList topicRoute topicStatus topicClusterList updateSubGroup
sendMessage consumerProgress consumerConnection producerConnection consumerStatus
queryMsgByKey queryMsgByUniqueKey queryMsgByOffset queryMsgById printMsg consumeMessage
resetOffsetByTime getBrokerConfig updateBrokerConfig brokerStatus clusterList statsAll
clusterRT deleteSubGroup deleteTopic" ;;
  acl1)
    LOG_TAG=mqadmin-acl-compare
    OUT=$COMPAT_DIR/target/mqadmin-acl-compare-$LINE
    ROW_WIDTH=34 ROW_HEAD=step SUMMARY="mqadmin-acl-compare line $LINE" WHAT=outputs
    SIDES=${MQACL_SIDES-java go}
    NS_PORT=${MQACL_NAMESRV_PORT:-24876} BR_PORT=${MQACL_BROKER_PORT:-24911}
    CONF_EXTRA="aclEnable=true" ACL_FILE=$COMPAT_DIR/acl/plain_acl.yml SERVERS_NOTE="line $LINE, aclEnable=true"
    # Accounts: ADMIN is in compat/acl/plain_acl.yml (admin: true), NORMAL too
    # (admin: false); USER1 and USER2 are made and deleted by the steps.
    ADMIN_AK=RocketMQ ADMIN_SK=12345678
    NORMAL_AK=aclNormal NORMAL_SK=aclNormal123
    USER1=mqaAclUser1
    USER2=mqaAclUser2
    NOBODY=mqaNobody1
    STEPS="clusterAclConfigVersion updateAclConfig-b updateAclConfig-c
clusterAclConfigVersion-c clusterAclConfigVersion-b updateAclConfig-update
updateGlobalWhiteAddr-b updateGlobalWhiteAddr-c deleteAclConfig-b deleteAclConfig-c
deleteAclConfig-unknown updateAclConfig-short topicList-wrongSecret
getBrokerConfig-wrongSecret getBrokerConfig-unsigned getBrokerConfig-unknownKey
updateTopic-notAdmin clusterAclConfigVersion-final"
    YML_STEPS="updateAclConfig-b updateAclConfig-c updateAclConfig-update
updateGlobalWhiteAddr-b updateGlobalWhiteAddr-c deleteAclConfig-b deleteAclConfig-c
deleteAclConfig-unknown updateAclConfig-short clusterAclConfigVersion-final" ;;
  acl2)
    LOG_TAG=mqadmin-acl2-compare
    OUT=$COMPAT_DIR/target/mqadmin-acl2-compare
    ROW_WIDTH=30 ROW_HEAD=step SUMMARY="mqadmin-acl2-compare" WHAT=outputs
    SIDES=${MQACL_SIDES-java go}
    NS_PORT=${MQACL2_NAMESRV_PORT:-25876} BR_PORT=${MQACL2_BROKER_PORT:-25911}
    ROOT_USER=acl2Root ROOT_PW=acl2Root123
    USER1=mqaUser1 USER1_PW=mqaUser1pw
    USER2=mqaUser2
    CONF_EXTRA="authenticationEnabled=true
authorizationEnabled=true
authenticationMetadataProvider=org.apache.rocketmq.auth.authentication.provider.LocalAuthenticationMetadataProvider
authorizationMetadataProvider=org.apache.rocketmq.auth.authorization.provider.LocalAuthorizationMetadataProvider
initAuthenticationUser={\"username\":\"$ROOT_USER\",\"password\":\"$ROOT_PW\"}"
    ACL_FILE="" SERVERS_NOTE="line 5, ACL 2.0"
    STEPS="createUser-b createUser-c createUser-existing getUser listUser listUser-filter
updateUser getUser-2 createAcl-b createAcl-c createAcl-ghost createAcl-badIp getAcl
listAcl listAcl-filter updateAcl getAcl-updated deleteAcl-resource getAcl-deleted
listUser-normal getBrokerConfig-wrongSecret getBrokerConfig-unsigned deleteAcl-all
deleteAcl-none deleteUser listUser-final" ;;
esac

# log, stop_side, mqa, wait_for, mask_generic, mask_line, sort_body, compare_entry
# shellcheck source=compat/mqadmin-lib.sh
. "$COMPAT_DIR/mqadmin-lib.sh"

for b in rmqgo-namesrv rmqgo-broker $([ "$MQADMIN_IMPL" = go ] && echo rmqadmin); do
  [ -x "$ROOT/bin/$b" ] || { log "$ROOT/bin/$b missing: run make build first"; exit 2; }
done

RUN_DIR=""
CLIENTS_PID=""
trap stop_side EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The ACL modes' identities: a tools.yml each (MQADMIN_TOOLS_YML; empty:
# none, unsigned), switched per step by as_identity (admin or root,
# wrong-secret, unknown-key, normal; unsigned: none).
if [ "$MODE" != common ]; then
  TOOLS=$OUT/tools
  mkdir -p "$TOOLS"
  if [ "$MODE" = acl1 ]; then
    printf 'accessKey: %s\nsecretKey: %s\n' "$ADMIN_AK" "$ADMIN_SK" >"$TOOLS/admin.yml"
    printf 'accessKey: %s\nsecretKey: %s\n' "$ADMIN_AK" wrongSecret1 >"$TOOLS/wrong-secret.yml"
    printf 'accessKey: %s\nsecretKey: %s\n' "$NOBODY" mqaNobody123 >"$TOOLS/unknown-key.yml"
    printf 'accessKey: %s\nsecretKey: %s\n' "$NORMAL_AK" "$NORMAL_SK" >"$TOOLS/normal.yml"
    MQADMIN_TOOLS_YML=$TOOLS/admin.yml
  else
    printf 'accessKey: %s\nsecretKey: %s\n' "$ROOT_USER" "$ROOT_PW" >"$TOOLS/root.yml"
    printf 'accessKey: %s\nsecretKey: %s\n' "$ROOT_USER" wrongSecret1 >"$TOOLS/wrong-secret.yml"
    printf 'accessKey: %s\nsecretKey: %s\n' "$USER1" "$USER1_PW" >"$TOOLS/normal.yml"
    MQADMIN_TOOLS_YML=$TOOLS/root.yml
  fi
  MQADMIN_HOME=""
  export MQADMIN_TOOLS_YML MQADMIN_HOME
fi

as_identity() {
  if [ "$1" = unsigned ]; then MQADMIN_TOOLS_YML=""; else MQADMIN_TOOLS_YML=$TOOLS/$1.yml; fi
}

# run_side java|go|goadmin-java|goadmin-go: servers up (java, goadmin-java:
# the Java ones), state built, steps run (goadmin-: with our mqadmin where
# it has them), servers down.
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
  case $side in
    java|goadmin-java) impl=java ;;
    *) impl=go ;;
  esac
  if [ "$MODE" != common ]; then
    # The side's own mqadmin home: its conf/tools.yml is switched per step.
    MQADMIN_HOME=$dir/mqadmin-home
    [ "$MODE" = acl1 ] && as_identity admin
  fi
  log "$side: starting servers ($SERVERS_NOTE)"
  BROKER_CONF_EXTRA=$CONF_EXTRA PLAIN_ACL_FILE=$ACL_FILE \
    RUN_DIR=$RUN_DIR NAMESRV_IMPL=$impl BROKER_IMPL=$impl COMPAT_BROKER_B=0 \
    RMQGO_NAMESRV_BIN=$ROOT/bin/rmqgo-namesrv RMQGO_BROKER_BIN=$ROOT/bin/rmqgo-broker \
    NAMESRV_PORT=$NS_PORT BROKER_PORT=$BR_PORT \
    sh "$COMPAT_DIR/ref-servers.sh" start "$LINE" >"$dir/setup-servers.out" 2>&1 ||
    { log "$side: servers did not start; see $dir/setup-servers.out"; cat "$dir/setup-servers.out" >&2; return 1; }
  # shellcheck disable=SC1091
  . "$RUN_DIR/env.sh"
  case $MODE in
    # Both brokers make their transaction half topic at their first check,
    # transactionCheckInterval (1 s) after boot: topicList waits for it
    # rather than race it (our mqadmin starts in milliseconds, Java's in
    # seconds).
    common) wait_topic "$dir" RMQ_SYS_TRANS_HALF_TOPIC || return 1 ;;
    acl1) [ -n "${BROKER_PLAIN_ACL_FILE:-}" ] || { log "$side: env.sh has no BROKER_PLAIN_ACL_FILE"; return 1; } ;;
  esac
  n=0
  for step in $STEPS; do
    n=$((n + 1))
    f=$(printf '%02d-%s' "$n" "$step")
    log "$side: $f"
    "run_step_$MODE" "$dir" "$f" "$step" || return 1
    if is_yml_step "$step"; then cp "$BROKER_PLAIN_ACL_FILE" "$dir/$f.yml"; fi
  done
  stop_side
}

# is_yml_step STEP: whether STEP is one of YML_STEPS.
is_yml_step() {
  case " $(echo $YML_STEPS) " in
    *" $1 "*) return 0 ;;
  esac
  return 1
}

# mask_entry SIDE NAME < raw > masked: compare_entry's masking of one
# output (NAME: a step, or step.yml for a plain_acl.yml snapshot).
mask_entry() {
  case $MODE in
    common) mask_common "$2" | mask_side_common "$1" "$2" ;;
    acl1)
      mask_generic |
        sed -E -e 's#/mqadmin-acl-compare-[45]/run-(java|go)/#/mqadmin-acl-compare-LINE/run-SIDE/#g' |
        mask_line | mask_step_acl1 "$2" | mask_side_acl1 "$1" "$2" ;;
    acl2) mask_generic | sed -E -e 's#/mqadmin-acl2-compare/run-(java|go)/#/mqadmin-acl2-compare/run-SIDE/#g' ;;
  esac
}

# compare: each step's masked outputs (and plain_acl.yml snapshots) of the
# java and go sides diffed, a table, a count.
compare() {
  mkdir -p "$OUT/diff"
  rm -f "$OUT"/diff/*.diff
  fails=0 total=0 n=0
  printf "%-${ROW_WIDTH}s %s\n" "$ROW_HEAD" "result"
  for step in $STEPS; do
    n=$((n + 1))
    f=$(printf '%02d-%s' "$n" "$step")
    total=$((total + 1))
    compare_entry "$f.out" "$f.masked" "$step" || fails=$((fails + 1))
    if is_yml_step "$step"; then
      total=$((total + 1))
      compare_entry "$f.yml" "$f.yml.masked" "$step.yml" || fails=$((fails + 1))
    fi
  done
  echo "$SUMMARY: $fails of $total $WHAT differ (outputs in $OUT)"
  [ "$fails" = 0 ]
}

# ---- The common commands (no flag).

# run_step_common DIR FILE COMMAND: the state each command needs, then the command.
run_step_common() {
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

# mask_common COMMAND < raw > masked: replaces what differs between any two runs,
# whichever servers answer (mask_generic, and the servers' RUN_DIR in paths).
# Each rule says why it is volatile.
mask_common() {
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

# mask_side_common SIDE COMMAND: one known bug of the Java side. 5.3.3's
# ConsumerManager files a subscription's topic where its group belongs
# (topicGroupTable), so QUERY_TOPIC_CONSUME_BY_WHO answers a group named
# after the topic: queryMsgByUniqueKey and queryMsgByOffset print a
# MessageTrack for group MqaTopic (a failed lookup of %RETRY%MqaTopic),
# statsAll a row "MqaTopic MqaTopic". Upstream fixed it after 5.3.3
# (apache/rocketmq #9352, #9443); ours answers the real groups only. The
# phantom group's lines are dropped from the Java output; the rest of those
# commands is compared as is.
mask_side_common() {
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
    for cmd in $STEPS; do
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

# ---- --acl1: ACL 1.0.

# run_step_acl1 DIR FILE STEP: one step (its identity, then the command).
run_step_acl1() {
  d=$1 f=$2
  as_identity admin
  case $3 in
    clusterAclConfigVersion|clusterAclConfigVersion-c|clusterAclConfigVersion-final)
      mqa "$d" "$f" clusterAclConfigVersion -c "$CLUSTER_NAME" ;;
    clusterAclConfigVersion-b)
      mqa "$d" "$f" clusterAclConfigVersion -b "$BROKER_ADDR" ;;
    updateAclConfig-b)
      mqa "$d" "$f" updateAclConfig -b "$BROKER_ADDR" -a "$USER1" -s mqaAclUser1secret \
        -w '192.168.1.*' -i DENY -u SUB -t 'MqaTopicA=PUB,MqaTopicB=PUB|SUB' -g MqaGroupA=SUB -m false ;;
    updateAclConfig-c)
      mqa "$d" "$f" updateAclConfig -c "$CLUSTER_NAME" -a "$USER2" -s mqaAclUser2secret \
        -i PUB -u SUB -m true ;;
    updateAclConfig-update)
      # USER1 again, other values and fewer keys (no -w, -g, -m).
      mqa "$d" "$f" updateAclConfig -b "$BROKER_ADDR" -a "$USER1" -s mqaAclUser1secret2 \
        -i SUB -u DENY -t 'MqaTopicA=SUB,MqaTopicC=DENY' ;;
    updateGlobalWhiteAddr-b)
      # Not 127.0.0.1: the refusal steps must stay refused.
      mqa "$d" "$f" updateGlobalWhiteAddr -b "$BROKER_ADDR" -g '10.10.103.*,192.168.0.*,172.16.0.*' ;;
    updateGlobalWhiteAddr-c)
      mqa "$d" "$f" updateGlobalWhiteAddr -c "$CLUSTER_NAME" -g '10.10.103.*,192.168.0.*' ;;
    deleteAclConfig-b) mqa "$d" "$f" deleteAclConfig -b "$BROKER_ADDR" -a "$USER2" ;;
    deleteAclConfig-c) mqa "$d" "$f" deleteAclConfig -c "$CLUSTER_NAME" -a "$USER1" ;;
    deleteAclConfig-unknown) mqa "$d" "$f" deleteAclConfig -b "$BROKER_ADDR" -a "$NOBODY" ;;
    updateAclConfig-short)
      # A secret of 3 characters: refused (Java wants more than 6).
      mqa "$d" "$f" updateAclConfig -b "$BROKER_ADDR" -a mqaShort1 -s 123 ;;
    topicList-wrongSecret)
      # The name server checks nothing: listed although wrongly signed.
      as_identity wrong-secret
      mqa "$d" "$f" topicList ;;
    getBrokerConfig-wrongSecret)
      as_identity wrong-secret
      mqa "$d" "$f" getBrokerConfig -b "$BROKER_ADDR" ;;
    getBrokerConfig-unsigned)
      as_identity unsigned
      mqa "$d" "$f" getBrokerConfig -b "$BROKER_ADDR" ;;
    getBrokerConfig-unknownKey)
      as_identity unknown-key
      mqa "$d" "$f" getBrokerConfig -b "$BROKER_ADDR" ;;
    updateTopic-notAdmin)
      # UPDATE_AND_CREATE_TOPIC (17) is admin-only; aclNormal is not admin.
      as_identity normal
      mqa "$d" "$f" updateTopic -b "$BROKER_ADDR" -t MqaAclTopic ;;
    *) log "no recipe for $3"; return 1 ;;
  esac
}

# mask_step_acl1 NAME: what is volatile in one step's output.
mask_step_acl1() {
  case $1 in
    updateAclConfig-*)
      # updateAclConfig prints the PlainAccessConfig it sent with
      # Object.toString (4.9.8's has no toString): the identity hash code.
      sed -E 's/(org\.apache\.rocketmq\.common\.PlainAccessConfig@)[0-9a-f]+/\1<HASH>/' ;;
    topicList-*)
      # The name server's topic set in hash order (mqadmin-compare.sh's topicList).
      sort ;;
    *) cat ;;
  esac
}

# mask_side_acl1 SIDE NAME: the Java broker is 4.9.7, ours 4.9.8: a refusal's
# remark ends with the PlainPermissionManager frame that threw, one line
# further down in 4.9.8 (acl-facts.md section 4). The Java side's 4.9.7
# line numbers are rewritten to 4.9.8's; nothing else is.
mask_side_acl1() {
  if [ "$1" != java ]; then
    cat
    return
  fi
  sed -E \
    -e 's/(PlainPermissionManager\.checkPerm\(PlainPermissionManager\.java:)580\)/\1581)/g' \
    -e 's/(PlainPermissionManager\.checkPerm\(PlainPermissionManager\.java:)605\)/\1606)/g' \
    -e 's/(PlainPermissionManager\.checkPerm\(PlainPermissionManager\.java:)610\)/\1611)/g' \
    -e 's/(PlainPermissionManager\.validate\(PlainPermissionManager\.java:)663\)/\1664)/g' \
    -e 's/(PlainPermissionManager\.validate\(PlainPermissionManager\.java:)667\)/\1668)/g' \
    -e 's/(PlainPermissionManager\.validate\(PlainPermissionManager\.java:)674\)/\1675)/g' \
    -e 's/(PlainPermissionManager\.validate\(PlainPermissionManager\.java:)683\)/\1684)/g'
}

# ---- --acl2: ACL 2.0.

# run_step_acl2 DIR FILE STEP: one step (its identity, then the command).
run_step_acl2() {
  d=$1 f=$2 b=$BROKER_ADDR c=$CLUSTER_NAME
  as_identity root
  case $3 in
    createUser-b) mqa "$d" "$f" createUser -b "$b" -u "$USER1" -p "$USER1_PW" ;;
    createUser-c) mqa "$d" "$f" createUser -c "$c" -u "$USER2" -p mqaUser2pw -t Normal ;;
    createUser-existing) mqa "$d" "$f" createUser -b "$b" -u "$USER1" -p other123 ;;
    getUser) mqa "$d" "$f" getUser -b "$b" -u "$USER1" ;;
    listUser) mqa "$d" "$f" listUser -b "$b" ;;
    listUser-filter) mqa "$d" "$f" listUser -c "$c" -f User2 ;;
    updateUser) mqa "$d" "$f" updateUser -b "$b" -u "$USER2" -s disable ;;
    getUser-2) mqa "$d" "$f" getUser -c "$c" -u "$USER2" ;;
    createAcl-b) mqa "$d" "$f" createAcl -b "$b" -s "User:$USER1" -r Topic:MqaTopicA,Group:MqaGroupA -a Pub,Sub -d Allow ;;
    createAcl-c) mqa "$d" "$f" createAcl -c "$c" -s "User:$USER1" -r 'Topic:MqaTopicB*' -a Pub -i 10.10.0.0/16 -d Deny ;;
    createAcl-ghost) mqa "$d" "$f" createAcl -b "$b" -s User:mqaGhost -r Topic:MqaTopicA -a Pub -d Allow ;;
    createAcl-badIp) mqa "$d" "$f" createAcl -b "$b" -s "User:$USER1" -r Topic:MqaTopicA -a Pub -i '10.10.0.*' -d Allow ;;
    getAcl|getAcl-updated|getAcl-deleted) mqa "$d" "$f" getAcl -b "$b" -s "User:$USER1" ;;
    listAcl) mqa "$d" "$f" listAcl -b "$b" ;;
    listAcl-filter) mqa "$d" "$f" listAcl -c "$c" -s "$USER1" -r MqaTopicB ;;
    updateAcl) mqa "$d" "$f" updateAcl -b "$b" -s "User:$USER1" -r Topic:MqaTopicA -a Sub -d Deny ;;
    deleteAcl-resource) mqa "$d" "$f" deleteAcl -b "$b" -s "User:$USER1" -r Topic:MqaTopicA ;;
    listUser-normal) as_identity normal; mqa "$d" "$f" listUser -b "$b" ;;
    getBrokerConfig-wrongSecret) as_identity wrong-secret; mqa "$d" "$f" getBrokerConfig -b "$b" ;;
    getBrokerConfig-unsigned) as_identity unsigned; mqa "$d" "$f" getBrokerConfig -b "$b" ;;
    deleteAcl-all) mqa "$d" "$f" deleteAcl -b "$b" -s "User:$USER1" ;;
    deleteAcl-none) mqa "$d" "$f" deleteAcl -b "$b" -s "User:$USER1" ;;
    deleteUser) mqa "$d" "$f" deleteUser -c "$c" -u "$USER2" ;;
    listUser-final) mqa "$d" "$f" listUser -b "$b" ;;
    *) log "no recipe for $3"; return 1 ;;
  esac
}

mkdir -p "$OUT"
status=0
for side in $SIDES; do
  run_side "$side" || { log "$side: stopped early"; status=1; stop_side; }
done
if [ "$MQADMIN_IMPL" = go ]; then
  compare_goadmin || status=1
  compare_help || status=1
else
  compare || status=1
fi
exit $status
