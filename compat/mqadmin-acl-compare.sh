#!/bin/sh
# Runs mqadmin's ACL 1.0 commands (rocketmq-tools 4.9.8's MQAdminStartup,
# through compat/mqadmin.sh) against the Java 4.9.7 servers and against ours,
# side by side, with the broker's aclEnable=true; masks the values that
# legitimately differ between two runs, diffs java vs go per command and per
# snapshot of the broker's plain_acl.yml, prints a table and exits 1 when any
# difference is left (POSIX sh).
#
#   sh compat/mqadmin-acl-compare.sh [4]
#
# The 4.x line only: 5.3.3 has no ACL 1.0 (compat/acl-facts.md, section 1).
# mqadmin 4.9.8 has four ACL commands: updateAclConfig, deleteAclConfig,
# clusterAclConfigVersion, updateGlobalWhiteAddr (no getAclConfig or
# getBrokerAclConfig; code 54 has no caller in it).
# Ours: $ROOT/bin/rmqgo-namesrv and rmqgo-broker (make build first).
#
# For each side (java, then go) it starts a name server and broker-a with
# compat/ref-servers.sh (COMPAT_BROKER_B=0, RUN_DIR under the output dir,
# first-choice ports MQACL_NAMESRV_PORT 24876 and MQACL_BROKER_PORT 24911),
# broker.conf line aclEnable=true and PLAIN_ACL_FILE=compat/acl/plain_acl.yml
# (as compat/acl-suite.sh), and runs the STEPS below in order. mqadmin signs
# its requests with the account of a tools.yml: mqadmin.sh copies
# MQADMIN_TOOLS_YML to MQADMIN_HOME/conf/tools.yml, the file 4.9.8's
# MQAdminStartup reads (AclUtils.getAclRPCHook(ROCKETMQ_HOME +
# "/conf/tools.yml"): accessKey, secretKey). Every step runs as the admin
# account RocketMQ/12345678 but the refusal steps: a wrong secret, no
# tools.yml (unsigned), an unknown accessKey, a non-admin account (aclNormal)
# on an admin-only code; the last step is signed as the admin again. After
# each step that writes the ACL file, the broker's plain_acl.yml
# (RUN_DIR/rocketmq-home/conf/plain_acl.yml) is copied next to its output as
# NN-step.yml and compared too.
#
# Masked (mqadmin-lib.sh mask_generic): ports, dates (clusterAclConfigVersion's
# #AclLastUpdateTime), epoch milliseconds (the yml's dataVersion timestamp),
# the RUN_DIR in paths (the #AclFilePath column), the 4.9.7/4.9.8 version
# names; and, on the Java side only, the 4.9.7 line numbers of the
# PlainPermissionManager frame in a refusal's remark, rewritten to 4.9.8's
# (one line down, acl-facts.md section 4: ours speaks as 4.9.8).
#
# Output, kept for inspection, in compat/target/mqadmin-acl-compare-4/:
#   java/NN-step.out, go/NN-step.out     raw output (stdout+stderr)
#   java/NN-step.yml, go/NN-step.yml     the broker's plain_acl.yml after it
#   java/*.masked, go/*.masked           after masking
#   diff/step.diff, diff/step.yml.diff   diff -u java go of the masked
#   run-java/, run-go/                   the servers' RUN_DIRs (logs)
#   tools/*.yml                          the tools.yml of each account
#
# The servers it started are always stopped (trap). MQADMIN_TIMEOUT (120)
# bounds each mqadmin call, in seconds. MQACL_SIDES="go" re-runs only our
# side and compares with the Java outputs kept from an earlier run;
# MQACL_SIDES="" only compares the outputs there are.
set -u

LINE=${1:-4}
case $LINE in
  4) ;;
  5) echo "$0: 5.3.3 has no ACL 1.0 (compat/acl-facts.md); the 4.x line only" >&2; exit 2 ;;
  *) echo "usage: $0 [4]" >&2; exit 2 ;;
esac
COMPAT_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$COMPAT_DIR/.." && pwd)
OUT=$COMPAT_DIR/target/mqadmin-acl-compare-$LINE
MQADMIN_TIMEOUT=${MQADMIN_TIMEOUT:-120}

# Accounts: ADMIN is in compat/acl/plain_acl.yml (admin: true), NORMAL too
# (admin: false); USER1 and USER2 are made and deleted by the steps.
ADMIN_AK=RocketMQ ADMIN_SK=12345678
NORMAL_AK=aclNormal NORMAL_SK=aclNormal123
USER1=mqaAclUser1
USER2=mqaAclUser2
NOBODY=mqaNobody1

# The compared steps, in the order they run (name = the file name). Those
# in YML_STEPS also have the broker's plain_acl.yml compared.
STEPS="clusterAclConfigVersion updateAclConfig-b updateAclConfig-c
clusterAclConfigVersion-c clusterAclConfigVersion-b updateAclConfig-update
updateGlobalWhiteAddr-b updateGlobalWhiteAddr-c deleteAclConfig-b deleteAclConfig-c
deleteAclConfig-unknown updateAclConfig-short topicList-wrongSecret
getBrokerConfig-wrongSecret getBrokerConfig-unsigned getBrokerConfig-unknownKey
updateTopic-notAdmin clusterAclConfigVersion-final"
YML_STEPS="updateAclConfig-b updateAclConfig-c updateAclConfig-update
updateGlobalWhiteAddr-b updateGlobalWhiteAddr-c deleteAclConfig-b deleteAclConfig-c
deleteAclConfig-unknown updateAclConfig-short clusterAclConfigVersion-final"

LOG_TAG=mqadmin-acl-compare
ROW_WIDTH=34
# log, stop_side, mqa, wait_for, mask_generic, mask_line, sort_body, compare_entry
# shellcheck source=compat/mqadmin-lib.sh
. "$COMPAT_DIR/mqadmin-lib.sh"

for b in rmqgo-namesrv rmqgo-broker; do
  [ -x "$ROOT/bin/$b" ] || { log "$ROOT/bin/$b missing: run make build first"; exit 2; }
done

RUN_DIR=""
CLIENTS_PID=""
trap stop_side EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The tools.yml of each identity (MQADMIN_TOOLS_YML; empty: none, unsigned).
TOOLS=$OUT/tools
mkdir -p "$TOOLS"
printf 'accessKey: %s\nsecretKey: %s\n' "$ADMIN_AK" "$ADMIN_SK" >"$TOOLS/admin.yml"
printf 'accessKey: %s\nsecretKey: %s\n' "$ADMIN_AK" wrongSecret1 >"$TOOLS/wrong-secret.yml"
printf 'accessKey: %s\nsecretKey: %s\n' "$NOBODY" mqaNobody123 >"$TOOLS/unknown-key.yml"
printf 'accessKey: %s\nsecretKey: %s\n' "$NORMAL_AK" "$NORMAL_SK" >"$TOOLS/normal.yml"
MQADMIN_TOOLS_YML=$TOOLS/admin.yml
MQADMIN_HOME=""
export MQADMIN_TOOLS_YML MQADMIN_HOME

# as_identity IDENTITY: the tools.yml of the next mqa calls (admin, wrong-secret,
# unknown-key, normal; unsigned: none).
as_identity() {
  if [ "$1" = unsigned ]; then MQADMIN_TOOLS_YML=""; else MQADMIN_TOOLS_YML=$TOOLS/$1.yml; fi
}

# run_side java|go: servers up, steps run, servers down.
run_side() {
  side=$1
  dir=$OUT/$side
  rm -rf "$dir" "$OUT/run-$side"
  mkdir -p "$dir"
  RUN_DIR=$OUT/run-$side
  # The side's own mqadmin home: its conf/tools.yml is switched per step.
  MQADMIN_HOME=$dir/mqadmin-home
  as_identity admin
  log "$side: starting servers (line $LINE, aclEnable=true)"
  if [ "$side" = java ]; then impl=java; else impl=go; fi
  BROKER_CONF_EXTRA="aclEnable=true" PLAIN_ACL_FILE=$COMPAT_DIR/acl/plain_acl.yml \
    RUN_DIR=$RUN_DIR NAMESRV_IMPL=$impl BROKER_IMPL=$impl COMPAT_BROKER_B=0 \
    RMQGO_NAMESRV_BIN=$ROOT/bin/rmqgo-namesrv RMQGO_BROKER_BIN=$ROOT/bin/rmqgo-broker \
    NAMESRV_PORT=${MQACL_NAMESRV_PORT:-24876} BROKER_PORT=${MQACL_BROKER_PORT:-24911} \
    sh "$COMPAT_DIR/ref-servers.sh" start "$LINE" >"$dir/setup-servers.out" 2>&1 ||
    { log "$side: servers did not start; see $dir/setup-servers.out"; cat "$dir/setup-servers.out" >&2; return 1; }
  # shellcheck disable=SC1091
  . "$RUN_DIR/env.sh"
  [ -n "${BROKER_PLAIN_ACL_FILE:-}" ] || { log "$side: env.sh has no BROKER_PLAIN_ACL_FILE"; return 1; }
  n=0
  for step in $STEPS; do
    n=$((n + 1))
    f=$(printf '%02d-%s' "$n" "$step")
    log "$side: $f"
    run_step "$dir" "$f" "$step" || return 1
    case " $(echo $YML_STEPS) " in
      *" $step "*) cp "$BROKER_PLAIN_ACL_FILE" "$dir/$f.yml" ;;
    esac
  done
  stop_side
}

# run_step DIR FILE STEP: one step (its identity, then the command).
run_step() {
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

# mask_entry SIDE NAME < raw > masked: compare_entry's masking of one output
# (NAME: a step, or step.yml for a plain_acl.yml snapshot).
mask_entry() {
  mask_generic |
    sed -E -e 's#/mqadmin-acl-compare-[45]/run-(java|go)/#/mqadmin-acl-compare-LINE/run-SIDE/#g' |
    mask_line | mask_step "$2" | mask_side "$1" "$2"
}

# mask_step NAME: what is volatile in one step's output.
mask_step() {
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

# mask_side SIDE NAME: the Java broker is 4.9.7, ours 4.9.8: a refusal's
# remark ends with the PlainPermissionManager frame that threw, one line
# further down in 4.9.8 (acl-facts.md section 4). The Java side's 4.9.7
# line numbers are rewritten to 4.9.8's; nothing else is.
mask_side() {
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

compare() {
  mkdir -p "$OUT/diff" "$OUT/java" "$OUT/go"
  rm -f "$OUT"/diff/*.diff
  fails=0
  total=0
  n=0
  printf "%-${ROW_WIDTH}s %s\n" "step" "result"
  for step in $STEPS; do
    n=$((n + 1))
    f=$(printf '%02d-%s' "$n" "$step")
    total=$((total + 1))
    compare_entry "$f.out" "$f.masked" "$step" || fails=$((fails + 1))
    case " $(echo $YML_STEPS) " in
      *" $step "*)
        total=$((total + 1))
        compare_entry "$f.yml" "$f.yml.masked" "$step.yml" || fails=$((fails + 1)) ;;
    esac
  done
  echo "mqadmin-acl-compare line $LINE: $fails of $total outputs differ (outputs in $OUT)"
  [ "$fails" = 0 ]
}

mkdir -p "$OUT"
status=0
for side in ${MQACL_SIDES-java go}; do
  run_side "$side" || { log "$side: stopped early"; status=1; stop_side; }
done
compare || status=1
exit $status
