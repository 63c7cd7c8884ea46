#!/bin/sh
# mqadmin 5.3.3's controller commands against the Java 5.3.3 controller and
# against ours (bin/rmqgo-controller), side by side: outputs masked, diffed
# command by command (POSIX sh).
#
#   sh compat/mqadmin-controller-compare.sh                 # java, then go; compared
#   sh compat/mqadmin-controller-compare.sh java java-2     # the reference twice: is the masking right?
#   MQCC_RUN=go sh compat/mqadmin-controller-compare.sh     # our side again, the java outputs kept
#   MQCC_RUN= sh compat/mqadmin-controller-compare.sh       # only compare what is there
#
# Arguments: the two sides compared, A then B (default "java go"); a side is
# java or go, optionally with a suffix (java-2): the controller
# implementation (CONTROLLER_IMPL of controller-suite.sh). MQCC_RUN: the
# sides run (default both). For each side run, compat/controller-suite.sh
# start (RUN_DIR OUT/run-SIDE) starts a name server (Java 5.3.3), one
# controller (java: ControllerStartup 5.3.3; go: RMQGO_CONTROLLER_BIN,
# default bin/rmqgo-controller) and the brokers of CONTROLLER_BROKERS
# (default "java java"; go brokers need RMQGO_BROKER_BIN), all of broker
# set broker-a; waits until a master is elected, the SyncStateSet has both
# brokers and the name server routes both; then runs the STEPS below through
# compat/mqadmin.sh (RMQ_LINE=5; mqa of mqadmin-lib.sh, which appends
# -n NAMESRV); stops everything (also on exit, trap).
#
# Ports (first choice; the same on both sides): MQCC_NAMESRV_PORT 24576,
# MQCC_CONTROLLER_PORT 24578, MQCC_BROKER_PORT 24611 (broker i at
# +10*(i-1); each uses port-2..port+1). MQADMIN_TIMEOUT (120 s) bounds one
# mqadmin call, MQCC_WAIT (60 s) each wait. Output (MQCC_OUT, default
# /tmp/mqadmin-controller-compare):
#
#   SIDE/NN-step.out       raw output (stdout+stderr, then rc=N) of each step
#   SIDE/NN-step.masked    after mask_entry below
#   SIDE/wait-*.out        the last poll of each wait (not compared)
#   SIDE/ids.txt           broker index, address and controller id, first master
#   diff/step.diff         diff -u A B of the masked outputs (kept when they differ)
#   run-SIDE/              the servers' RUN_DIR (logs, stores, controller.conf)
#
# Steps (CTRL the controller, the "slave" is the broker not master at first,
# OLD the first master):
#   getControllerMetaData -a CTRL
#   getSyncStateSet -a CTRL -b broker-a; the same with -c DefaultCluster
#   getBrokerEpoch -c DefaultCluster; -b broker-a   (from the brokers, routed by the name server)
#   getControllerConfig -a CTRL
#   updateControllerConfig -k enableElectUncleanMaster -v true; getControllerConfig again;
#     the controller's configStorePath file (controller.properties) after it
#   updateControllerConfig -k configStorePath (black-listed: refused); -k configBlackList (too)
#   cleanBrokerMetadata -bn broker-a -b <slave id> while it lives (refused: still alive)
#   electMaster -c DefaultCluster -bn broker-a -b <slave id> (designated election); then waits
#     until the SyncStateSet is the new master and both again and the name server routes the
#     new master as brokerId 0; getSyncStateSet -b; getBrokerEpoch -c
#   electMaster -b <new master id> (the master already)
#   kill-broker OLD (SIGKILL); waits until the controller lists it alive=false and the
#     SyncStateSet is the new master alone; getSyncStateSet -b
#   cleanBrokerMetadata -bn broker-a -b <OLD id>; getSyncStateSet -b; getSyncStateSet -c
#
# Masked (mask_entry), each with its reason; nothing else is:
#   1. mqadmin.sh's "resolving rocketmq-tools" note and colour escapes: not
#      mqadmin's output (a first run resolves the classpath).
#   2. The side's RUN_DIR in paths (controllerStorePath, configStorePath,
#      rocketmqHome of getControllerConfig and controller.properties) ->
#      <RUN_DIR>: each side has its own run directory.
#   3. Addresses: the first-choice ports are used on both sides, so they stay
#      as they are; only if a port was busy and controller-suite.sh picked
#      another is the actual address rewritten to the first-choice one. A
#      broker's address is rewritten to the first-choice address of the
#      broker index equal to its controller id (read from the broker's own
#      store/brokerIdentity, else from the first SyncStateSet): which broker
#      registers first, and so gets id 1, is a race of the brokers' start,
#      not of the controller. ids.txt keeps the real mapping.
#   4. org.apache.rocketmq.common.JraftConfig@<identity hash> -> @<HASH>
#      (getControllerConfig's jraftConfig, an Object.toString, differs per JVM).
#   5. Dates and epoch milliseconds (<DATE>, <MILLIS>), as mask_generic does;
#      none seen in these outputs so far.
#   6. getControllerConfig: lines sorted. Java prints its Properties in
#      Hashtable order, which follows the key set (capacity, hashes): ours can
#      only print the same order once it has the same keys. The key set and the
#      values stay as they are. (controller.properties is not sorted: Java
#      writes it sorted by key, a fixed order.)
#   7. getBrokerEpoch: its blocks (one per broker) sorted by #brokerAddr, after
#      mask 3: mqadmin prints them in the order of the name server's route
#      (by address), which mask 3 may have rewritten; nothing of the controller.
# Not masked: the Java-only keys of getControllerConfig (isProcessReadEvent,
# jraftConfig, the NettyServerConfig fields...) - a missing or extra key of
# ours is a difference to see.
#
# Last line: "mqadmin-controller-compare: N of M commands differ"; exit 1
# when any differ (or a side did not run through).
# The checks of poll, mask_entry and addr_map are called indirectly.
# shellcheck disable=SC2317
set -u

COMPAT_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$COMPAT_DIR/.." && pwd)
# shellcheck disable=SC2034 # LINE, LOG_TAG and CLIENTS_PID are read by mqadmin-lib.sh
LINE=5
# shellcheck disable=SC2034
LOG_TAG=mqadmin-controller-compare
OUT=${MQCC_OUT:-/tmp/mqadmin-controller-compare}
MQADMIN_TIMEOUT=${MQADMIN_TIMEOUT:-120}
WAIT_SECS=${MQCC_WAIT:-60}
CMP_A=${1:-java}
CMP_B=${2:-go}
RUN_SIDES=${MQCC_RUN-$CMP_A $CMP_B}
CONTROLLER_BROKERS=${CONTROLLER_BROKERS:-java java}
RMQGO_CONTROLLER_BIN=${RMQGO_CONTROLLER_BIN:-$ROOT/bin/rmqgo-controller}
NS_PORT=${MQCC_NAMESRV_PORT:-24576}
CTRL_PORT=${MQCC_CONTROLLER_PORT:-24578}
BR_PORT=${MQCC_BROKER_PORT:-24611}
CLUSTER=DefaultCluster
BNAME=broker-a
ROW_WIDTH=36
export CONTROLLER_BROKERS RMQGO_CONTROLLER_BIN
[ -n "${RMQGO_BROKER_BIN:-}" ] && export RMQGO_BROKER_BIN

STEPS="getControllerMetaData getSyncStateSet-b getSyncStateSet-c getBrokerEpoch-c getBrokerEpoch-b
getControllerConfig updateControllerConfig getControllerConfig-updated controllerProperties-updated
updateControllerConfig-blackListed updateControllerConfig-blackList cleanBrokerMetadata-alive
electMaster getSyncStateSet-elected getBrokerEpoch-elected electMaster-current
killBroker getSyncStateSet-dead cleanBrokerMetadata getSyncStateSet-cleaned getSyncStateSet-c-cleaned"

# log, mqa, wait_for, mask_generic, sort_body, compare_entry
# shellcheck source=compat/mqadmin-lib.sh
. "$COMPAT_DIR/mqadmin-lib.sh"

side_impl() {
  case $1 in
    java | java-*) echo java ;;
    go | go-*) echo go ;;
    *) return 1 ;;
  esac
}
for s in $CMP_A $CMP_B $RUN_SIDES; do
  side_impl "$s" >/dev/null || { echo "usage: $0 [SIDE_A [SIDE_B]]; a side: java|go[-suffix], not '$s'" >&2; exit 2; }
  if [ "$(side_impl "$s")" = go ] && [ ! -x "$RMQGO_CONTROLLER_BIN" ]; then
    log "$RMQGO_CONTROLLER_BIN missing: make build first (or RMQGO_CONTROLLER_BIN)"
    exit 2
  fi
done

# stop_side (replaces mqadmin-lib.sh's): the side's servers down.
RUN_DIR=""
# shellcheck disable=SC2034
CLIENTS_PID=""
stop_side() {
  if [ -n "$RUN_DIR" ]; then
    RUN_DIR=$RUN_DIR sh "$COMPAT_DIR/controller-suite.sh" stop >>"$RUN_DIR.stop.log" 2>&1
    RUN_DIR=""
  fi
}
trap stop_side EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ctl DIR NAME ARGS...: one mqadmin controller command (mqa adds -n NAMESRV).
ctl() {
  d=$1 f=$2; shift 2
  mqa "$d" "$f" "$@"
}

# poll DIR NAME CHECK ARGS...: runs the mqadmin command ARGS into
# DIR/wait-NAME.out until the function CHECK FILE succeeds or WAIT_SECS pass.
poll() {
  d=$1 w=$2 check=$3; shift 3
  deadline=$(($(date +%s) + WAIT_SECS))
  while :; do
    mqa "$d" "wait-$w" "$@"
    "$check" "$d/wait-$w.out" && return 0
    if [ "$(date +%s)" -ge "$deadline" ]; then
      log "$SIDE: timed out ($WAIT_SECS s) waiting for $w (last poll: $d/wait-$w.out)"
      return 1
    fi
    sleep 1
  done
}

# field FILE NAME: the value of "#NAME<tab>value" in an mqadmin output.
field() { sed -n "s/^#$2[[:space:]]*//p" "$1" | head -n 1; }

# The checks of poll: FILE is one output of the command polled.
ssset_full() { # a master and all brokers in the SyncStateSet
  [ "$(field "$1" SyncStateSetNums)" = "$NBROKERS" ] && [ -n "$(field "$1" MasterBrokerId)" ]
}
route_full() { # the name server routes every broker, one as brokerId 0
  [ "$(grep -c '^#brokerAddr' "$1")" = "$NBROKERS" ] && grep -q "^#brokerId[[:space:]]*0$" "$1"
}
elected() { # the designated broker is master and the SyncStateSet full again
  [ "$(field "$1" MasterBrokerId)" = "$SLAVE_ID" ] && [ "$(field "$1" SyncStateSetNums)" = "$NBROKERS" ]
}
routed_new() { # the name server routes the new master as brokerId 0, the old under its id
  [ "$(grep -c '^#brokerAddr' "$1")" = "$NBROKERS" ] &&
    awk -v a="$SLAVE_ADDR" -v o="$OLD_ADDR" -v oid="$OLD_ID" '
      /^#brokerAddr/ { addr = $2 }
      /^#brokerId/ { if (addr == a && $2 == "0") m = 1; if (addr == o && $2 == oid) s = 1 }
      END { exit !(m && s) }' "$1"
}
seen_dead() { # the controller lists the old master alive=false, the SyncStateSet the new master alone
  grep -q "brokerId=$OLD_ID, brokerAddress='[^']*', alive=false" "$1" &&
    [ "$(field "$1" SyncStateSetNums)" = "$((NBROKERS - 1))" ]
}

# broker_id I: broker I's controller id, from its store/brokerIdentity
# (clusterName#brokerName#id), else from the SyncStateSet of wait-ssset.out.
broker_id() {
  f=$RUN_DIR/broker-$1/store/brokerIdentity
  id=""
  [ -s "$f" ] && id=$(sed -n 's/.*#\([0-9][0-9]*\)$/\1/p' "$f" | head -n 1)
  if [ -z "$id" ]; then
    eval "a=\$BROKER_$1_ADDR"
    # shellcheck disable=SC2154
    id=$(sed -n "s/.*brokerId=\([0-9]*\), brokerAddress='$a'.*/\1/p" "$SIDE_DIR/wait-ssset.out" | head -n 1)
  fi
  echo "$id"
}

# run_side SIDE: servers up, waits, steps, servers down.
run_side() {
  SIDE=$1
  SIDE_DIR=$OUT/$SIDE
  d=$SIDE_DIR
  rm -rf "$d" "$OUT/run-$SIDE" "$OUT/run-$SIDE.stop.log"
  mkdir -p "$d"
  impl=$(side_impl "$SIDE")
  log "$SIDE: starting name server, controller $impl, brokers '$CONTROLLER_BROKERS'"
  RUN_DIR=$OUT/run-$SIDE
  RUN_DIR=$RUN_DIR CONTROLLER_IMPL=$impl NAMESRV_IMPL=java \
    NAMESRV_PORT=$NS_PORT CONTROLLER_PORT=$CTRL_PORT BROKER_PORT=$BR_PORT \
    sh "$COMPAT_DIR/controller-suite.sh" start >"$d/setup-servers.out" 2>&1 ||
    { log "$SIDE: servers did not start; see $d/setup-servers.out"; cat "$d/setup-servers.out" >&2; return 1; }
  # shellcheck disable=SC1091
  . "$RUN_DIR/env.sh"
  NBROKERS=$CONTROLLER_BROKER_COUNT
  C=$CONTROLLER_ADDR
  OLD_ID="" SLAVE_ID="" OLD_ADDR="" SLAVE_ADDR=""
  poll "$d" ssset ssset_full getSyncStateSet -a "$C" -b "$BNAME" || return 1
  poll "$d" route route_full getBrokerEpoch -c "$CLUSTER" || return 1
  MASTER_ID=$(field "$d/wait-ssset.out" MasterBrokerId)
  # The broker indexes and addresses of the first master (OLD) and of the
  # slave designated by electMaster (the first other broker).
  OLD_IDX="" SLAVE_IDX="" i=1
  : >"$d/ids.txt"
  while [ $i -le "$NBROKERS" ]; do
    id=$(broker_id $i)
    eval "a=\$BROKER_${i}_ADDR"
    eval "BROKER_ID_$i=$id"
    echo "broker-$i $a controllerId=$id" >>"$d/ids.txt"
    if [ "$id" = "$MASTER_ID" ]; then OLD_IDX=$i; elif [ -z "$SLAVE_IDX" ]; then SLAVE_IDX=$i; fi
    i=$((i + 1))
  done
  echo "first master: controllerId=$MASTER_ID (broker-$OLD_IDX)" >>"$d/ids.txt"
  if [ -z "$OLD_IDX" ] || [ -z "$SLAVE_IDX" ]; then
    log "$SIDE: no master and slave among the brokers' ids (master $MASTER_ID; ids.txt)"
    return 1
  fi
  eval "OLD_ID=\$BROKER_ID_$OLD_IDX SLAVE_ID=\$BROKER_ID_$SLAVE_IDX"
  eval "OLD_ADDR=\$BROKER_${OLD_IDX}_ADDR SLAVE_ADDR=\$BROKER_${SLAVE_IDX}_ADDR"
  log "$SIDE: master controllerId $OLD_ID (broker-$OLD_IDX), slave $SLAVE_ID (broker-$SLAVE_IDX)"
  n=0
  for step in $STEPS; do
    n=$((n + 1))
    f=$(printf '%02d-%s' "$n" "$step")
    log "$SIDE: $f"
    run_step "$d" "$f" "$step" || return 1
  done
  stop_side
}

# run_step DIR FILE STEP
run_step() {
  d=$1 f=$2
  case $3 in
    getControllerMetaData) ctl "$d" "$f" getControllerMetaData -a "$C" ;;
    getSyncStateSet-b | getSyncStateSet-elected | getSyncStateSet-dead | getSyncStateSet-cleaned)
      ctl "$d" "$f" getSyncStateSet -a "$C" -b "$BNAME" ;;
    getSyncStateSet-c | getSyncStateSet-c-cleaned) ctl "$d" "$f" getSyncStateSet -a "$C" -c "$CLUSTER" ;;
    getBrokerEpoch-c | getBrokerEpoch-elected) ctl "$d" "$f" getBrokerEpoch -c "$CLUSTER" ;;
    getBrokerEpoch-b) ctl "$d" "$f" getBrokerEpoch -b "$BNAME" ;;
    getControllerConfig | getControllerConfig-updated) ctl "$d" "$f" getControllerConfig -a "$C" ;;
    updateControllerConfig) ctl "$d" "$f" updateControllerConfig -a "$C" -k enableElectUncleanMaster -v true ;;
    controllerProperties-updated)
      # The controller's configStorePath (controller.conf), persisted by the update.
      if [ -f "$RUN_DIR/controller/controller.properties" ]; then
        cp "$RUN_DIR/controller/controller.properties" "$d/$f.out"
      else
        echo "(no $RUN_DIR/controller/controller.properties)" >"$d/$f.out"
      fi ;;
    updateControllerConfig-blackListed) ctl "$d" "$f" updateControllerConfig -a "$C" -k configStorePath -v "$RUN_DIR/elsewhere.properties" ;;
    updateControllerConfig-blackList) ctl "$d" "$f" updateControllerConfig -a "$C" -k configBlackList -v none ;;
    cleanBrokerMetadata-alive) ctl "$d" "$f" cleanBrokerMetadata -a "$C" -c "$CLUSTER" -bn "$BNAME" -b "$SLAVE_ID" ;;
    electMaster)
      ctl "$d" "$f" electMaster -a "$C" -c "$CLUSTER" -bn "$BNAME" -b "$SLAVE_ID"
      poll "$d" elected elected getSyncStateSet -a "$C" -b "$BNAME"
      poll "$d" routed routed_new getBrokerEpoch -c "$CLUSTER"
      ;;
    electMaster-current) ctl "$d" "$f" electMaster -a "$C" -c "$CLUSTER" -bn "$BNAME" -b "$SLAVE_ID" ;;
    killBroker)
      RUN_DIR=$RUN_DIR sh "$COMPAT_DIR/controller-suite.sh" kill-broker "$OLD_IDX" >"$d/$f.log" 2>&1
      # Not compared as such: whether the controller saw the old master die.
      if poll "$d" dead seen_dead getSyncStateSet -a "$C" -b "$BNAME"; then
        echo "the controller lists controllerId=OLD alive=false, the SyncStateSet the new master alone" >"$d/$f.out"
      else
        echo "NOT SEEN within $WAIT_SECS s: controllerId=OLD alive=false with the SyncStateSet the new master alone" >"$d/$f.out"
      fi ;;
    cleanBrokerMetadata) ctl "$d" "$f" cleanBrokerMetadata -a "$C" -c "$CLUSTER" -bn "$BNAME" -b "$OLD_ID" ;;
    *) log "no recipe for $3"; return 1 ;;
  esac
}

# addr_map SIDE: sed expressions rewriting the side's actual addresses to
# the first-choice ones (mask 3), from its run's env.sh and ids.txt.
addr_map() {
  env=$OUT/run-$1/env.sh
  [ -f "$env" ] || return 0
  (
    # shellcheck disable=SC1090
    . "$env"
    printf 's/%s\\b/@NS@/g\n' "$NAMESRV_ADDR"
    printf 's/%s\\b/@CTRL@/g\n' "$CONTROLLER_ADDR"
    while read -r name addr id; do
      case $name in broker-*) ;; *) continue ;; esac
      id=${id#controllerId=}
      case $id in '' | *[!0-9]*) continue ;; esac
      printf 's/%s\\b/@B%s@/g\n' "$addr" "$id"
    done <"$OUT/$1/ids.txt"
    echo "s/@NS@/127.0.0.1:$NS_PORT/g"
    echo "s/@CTRL@/127.0.0.1:$CTRL_PORT/g"
    i=1
    while [ "$i" -le "$CONTROLLER_BROKER_COUNT" ]; do
      echo "s/@B$i@/127.0.0.1:$((BR_PORT + (i - 1) * 10))/g"
      i=$((i + 1))
    done
  )
}

# mask_entry SIDE NAME < raw > masked (compare_entry's hook): masks 1-6.
mask_entry() {
  addr_map "$1" >"$OUT/$1/addr.sed"
  sed -E \
    -e '/^mqadmin\.sh: resolving /d' \
    -e 's/\x1b\[[0-9;]*m//g' \
    -e "s#$OUT/run-$1/#<RUN_DIR>/#g" \
    -e 's/(org\.apache\.rocketmq\.common\.JraftConfig)@[0-9a-f]+/\1@<HASH>/g' \
    -e 's/[0-9]{4}-[0-9]{2}-[0-9]{2}[ T#][0-9]{2}:[0-9]{2}:[0-9]{2}([,.:][0-9]{3})?/<DATE>/g' \
    -e 's/1[0-9]{12}/<MILLIS>/g' |
    sed -f "$OUT/$1/addr.sed" |
    case $2 in
      *-getControllerConfig*) LC_ALL=C sort ;;
      *-getBrokerEpoch*) sort_epoch_blocks ;;
      *) cat ;;
    esac
}

# sort_epoch_blocks: getBrokerEpoch's blocks (one per broker, blank-line
# separated) in the order of their #brokerAddr (mask 7), the rc line last.
sort_epoch_blocks() {
  awk '/^rc=/ { rc = $0; next }
    /^$/ { b++; next }
    { n[b]++; l[b, n[b]] = $0; if ($1 == "#brokerAddr") k[b] = $2 }
    END {
      for (i = 0; i <= b; i++) for (j = 1; j <= n[i]; j++) printf "%s\t%d\t%d\t%s\n", k[i], i, j, l[i, j]
      if (rc != "") printf "~\t0\t0\t%s\n", rc
    }' |
    LC_ALL=C sort -t "$(printf '\t')" -k1,1 -k2,2n -k3,3n |
    awk -F '\t' '{ if (NR > 1 && $2 != pb && $1 != "~") print ""; pb = $2; sub(/^[^\t]*\t[^\t]*\t[^\t]*\t/, ""); print }'
}

mkdir -p "$OUT"
status=0
for side in $RUN_SIDES; do
  run_side "$side" || { log "$side: stopped early"; status=1; stop_side; }
done

mkdir -p "$OUT/diff"
rm -f "$OUT"/diff/*.diff
fails=0 total=0 n=0
printf "%-${ROW_WIDTH}s %s\n" "step ($CMP_A vs $CMP_B)" result
for step in $STEPS; do
  n=$((n + 1))
  f=$(printf '%02d-%s' "$n" "$step")
  total=$((total + 1))
  compare_entry "$f.out" "$f.masked" "$f" || fails=$((fails + 1))
done
for s in $CMP_A $CMP_B; do
  [ -f "$OUT/$s/ids.txt" ] && log "$s: $(tr '\n' ';' <"$OUT/$s/ids.txt")"
done
if [ -f "$OUT/$CMP_A/ids.txt" ] && [ -f "$OUT/$CMP_B/ids.txt" ] &&
  [ "$(tail -n 1 "$OUT/$CMP_A/ids.txt" | cut -d' ' -f3)" != "$(tail -n 1 "$OUT/$CMP_B/ids.txt" | cut -d' ' -f3)" ]; then
  log "note: the first master's controller id differs between the sides (a start race); ids differ in the outputs"
fi
echo "mqadmin-controller-compare: $fails of $total commands differ"
[ $fails -eq 0 ] || status=1
exit $status
