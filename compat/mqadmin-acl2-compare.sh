#!/bin/sh
# Runs mqadmin 5.3.3's ACL 2.0 commands (createUser, updateUser, deleteUser,
# getUser, listUser, createAcl, updateAcl, deleteAcl, getAcl, listAcl, through
# compat/mqadmin.sh) against the Java 5.3.3 servers and against ours, side by
# side, with the broker's ACL 2.0 on as compat/acl2-suite.sh turns it on
# (super user acl2Root/acl2Root123); masks what legitimately differs between
# two runs (mqadmin-lib.sh mask_generic: ports, dates), diffs java vs go per
# command, prints a table and exits 1 when any difference is left (POSIX sh).
#
#   sh compat/mqadmin-acl2-compare.sh
#
# mqadmin signs with the account of MQADMIN_TOOLS_YML (mqadmin.sh copies it to
# its conf/tools.yml): the super user but for the refusal steps (a wrong
# secret, unsigned, a normal user asking for the users). Ours:
# $ROOT/bin/rmqgo-namesrv and rmqgo-broker (make build first). First-choice
# ports MQACL2_NAMESRV_PORT 25876 and MQACL2_BROKER_PORT 25911. Output in
# compat/target/mqadmin-acl2-compare/ (java/, go/, diff/, run-java/, run-go/).
# MQACL_SIDES="go" re-runs only our side against the Java outputs kept.
set -u

LINE=5
COMPAT_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$COMPAT_DIR/.." && pwd)
OUT=$COMPAT_DIR/target/mqadmin-acl2-compare
MQADMIN_TIMEOUT=${MQADMIN_TIMEOUT:-120}
ROOT_USER=acl2Root ROOT_PW=acl2Root123
USER1=mqaUser1 USER1_PW=mqaUser1pw
USER2=mqaUser2

STEPS="createUser-b createUser-c createUser-existing getUser listUser listUser-filter
updateUser getUser-2 createAcl-b createAcl-c createAcl-ghost createAcl-badIp getAcl
listAcl listAcl-filter updateAcl getAcl-updated deleteAcl-resource getAcl-deleted
listUser-normal getBrokerConfig-wrongSecret getBrokerConfig-unsigned deleteAcl-all
deleteAcl-none deleteUser listUser-final"

LOG_TAG=mqadmin-acl2-compare
ROW_WIDTH=30
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

TOOLS=$OUT/tools
mkdir -p "$TOOLS"
printf 'accessKey: %s\nsecretKey: %s\n' "$ROOT_USER" "$ROOT_PW" >"$TOOLS/root.yml"
printf 'accessKey: %s\nsecretKey: %s\n' "$ROOT_USER" wrongSecret1 >"$TOOLS/wrong-secret.yml"
printf 'accessKey: %s\nsecretKey: %s\n' "$USER1" "$USER1_PW" >"$TOOLS/normal.yml"
MQADMIN_TOOLS_YML=$TOOLS/root.yml
MQADMIN_HOME=""
export MQADMIN_TOOLS_YML MQADMIN_HOME

as_identity() {
  if [ "$1" = unsigned ]; then MQADMIN_TOOLS_YML=""; else MQADMIN_TOOLS_YML=$TOOLS/$1.yml; fi
}

run_side() {
  side=$1
  dir=$OUT/$side
  rm -rf "$dir" "$OUT/run-$side"
  mkdir -p "$dir"
  RUN_DIR=$OUT/run-$side
  MQADMIN_HOME=$dir/mqadmin-home
  log "$side: starting servers (line 5, ACL 2.0)"
  BROKER_CONF_EXTRA="authenticationEnabled=true
authorizationEnabled=true
authenticationMetadataProvider=org.apache.rocketmq.auth.authentication.provider.LocalAuthenticationMetadataProvider
authorizationMetadataProvider=org.apache.rocketmq.auth.authorization.provider.LocalAuthorizationMetadataProvider
initAuthenticationUser={\"username\":\"$ROOT_USER\",\"password\":\"$ROOT_PW\"}" \
    RUN_DIR=$RUN_DIR NAMESRV_IMPL=$side BROKER_IMPL=$side COMPAT_BROKER_B=0 \
    RMQGO_NAMESRV_BIN=$ROOT/bin/rmqgo-namesrv RMQGO_BROKER_BIN=$ROOT/bin/rmqgo-broker \
    NAMESRV_PORT=${MQACL2_NAMESRV_PORT:-25876} BROKER_PORT=${MQACL2_BROKER_PORT:-25911} \
    sh "$COMPAT_DIR/ref-servers.sh" start "$LINE" >"$dir/setup-servers.out" 2>&1 ||
    { log "$side: servers did not start; see $dir/setup-servers.out"; cat "$dir/setup-servers.out" >&2; return 1; }
  # shellcheck disable=SC1091
  . "$RUN_DIR/env.sh"
  n=0
  for step in $STEPS; do
    n=$((n + 1))
    f=$(printf '%02d-%s' "$n" "$step")
    log "$side: $f"
    run_step "$dir" "$f" "$step" || return 1
  done
  stop_side
}

run_step() {
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

# mask_entry SIDE NAME < raw > masked.
mask_entry() {
  mask_generic | sed -E -e 's#/mqadmin-acl2-compare/run-(java|go)/#/mqadmin-acl2-compare/run-SIDE/#g'
}

compare() {
  mkdir -p "$OUT/diff" "$OUT/java" "$OUT/go"
  rm -f "$OUT"/diff/*.diff
  fails=0 total=0 n=0
  printf "%-${ROW_WIDTH}s %s\n" "step" "result"
  for step in $STEPS; do
    n=$((n + 1))
    f=$(printf '%02d-%s' "$n" "$step")
    total=$((total + 1))
    compare_entry "$f.out" "$f.masked" "$step" || fails=$((fails + 1))
  done
  echo "mqadmin-acl2-compare: $fails of $total outputs differ (outputs in $OUT)"
  [ "$fails" = 0 ]
}

mkdir -p "$OUT"
status=0
for side in ${MQACL_SIDES-java go}; do
  run_side "$side" || { log "$side: stopped early"; status=1; stop_side; }
done
compare || status=1
exit $status
