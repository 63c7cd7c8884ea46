#!/bin/sh
# Controller mode (RIP-44, 5.3.3): one name server, one stand-alone
# controller (a single DLedger peer) and N brokers of one broker set,
# broker-a, in controller mode; then the Java tests tagged "controller"
# (ControllerModeTest: registration and controller ids, a master SIGKILLed
# under synchronous sends and the election that follows, the old master back
# as a slave with the new master's commitlog); always stops everything (POSIX sh).
#
#   CONTROLLER_IMPL=java CONTROLLER_BROKERS="java java" sh compat/controller-suite.sh   # the reference
#   CONTROLLER_BROKERS="java java java" sh compat/controller-suite.sh                   # three brokers
#   CONTROLLER_IMPL=go RMQGO_CONTROLLER_BIN=$PWD/bin/rmqgo-controller sh compat/controller-suite.sh
#   CONTROLLER_BROKERS="go java" RMQGO_BROKER_BIN=$PWD/bin/rmqgo-broker sh compat/controller-suite.sh
#   sh compat/controller-suite.sh run -Dtest=ControllerModeTest#...   # extra arguments go to Maven
#
# Subcommands (all read RUN_DIR; the tests call them through
# CONTROLLER_SUITE_SCRIPT and COMPAT_RUN_DIR of RUN_DIR/env.sh):
#   run [mvn args...]   (the default) start, mvn -Prmq5 -Dgroups=controller, stop
#   start               only start the servers; prints env.sh (. RUN_DIR/env.sh)
#   stop                SIGTERM to the brokers, then the controller and the name server
#   status              which of them run, their pids, env.sh
#   kill-broker N       SIGKILL to broker N (1..N, CONTROLLER_BROKERS order), waits until it is gone
#   stop-broker N       SIGTERM to broker N, waits until it is gone (SIGKILL after 90 s)
#   start-broker N [java|go]   starts broker N again on its broker.conf and store, waits for its boot line
#   pid NAME            prints the pid of namesrv, controller or broker N (exit 1 if it does not run)
#
# Servers (each in RUN_DIR/<name>, its user.home, with its conf, stdout.log and pid):
#   namesrv      NAMESRV_IMPL=java|go (default java) on NAMESRV_PORT (first choice 24876)
#   controller   CONTROLLER_IMPL=java|go (default java) on CONTROLLER_PORT (24878), with
#                controller.conf: controllerDLegerGroup=group1,
#                controllerDLegerPeers=n0-127.0.0.1:<port>, controllerDLegerSelfId=n0,
#                controllerStorePath=<dir>/DLedgerController,
#                configStorePath=<dir>/controller.properties, rocketmqHome=RUN_DIR/rocketmq-home
#                (+ CONTROLLER_CONF_EXTRA lines). java runs
#                org.apache.rocketmq.controller.ControllerStartup -c controller.conf (rocketmq-controller
#                5.3.3, on the broker's classpath); go runs $RMQGO_CONTROLLER_BIN -c controller.conf.
#                Both must print "The Controller Server boot success". java-namesrv and
#                go-namesrv run the controller inside a name server of its own instead
#                (NamesrvStartup / $RMQGO_NAMESRV_BIN -c controller.conf with
#                enableControllerInNamesrv=true and that name server's listenPort,
#                EMBEDDING_NAMESRV_PORT, 24879): "The ControllerManager boot success".
#   broker-1..N  one per word of CONTROLLER_BROKERS (java|go; default "java java"), brokerName
#                broker-a, on BROKER_PORT (24911), +10, +20 ... (each uses port-2, port and
#                port+1 = haListenPort), broker.conf with enableControllerMode=true,
#                controllerAddr, brokerId=-1, brokerRole=SLAVE, its own store,
#                mappedFileSizeCommitLog=1048576, allAckInSyncStateSet=true,
#                syncBrokerMetadataPeriod=1000, checkSyncStateSetPeriod=1000
#                (+ BROKER_CONF_EXTRA lines). java runs BrokerStartup -c broker.conf, go runs
#                $RMQGO_BROKER_BIN -c broker.conf; both print "boot success".
# Every go server gets ROCKETMQ_HOME, JAVA_OPT_EXT=-Duser.home=<its dir> and RMQGO_LINE=5, as
# ref-servers.sh gives them; every Java one ROCKETMQ_HOME and -Duser.home=<its dir>.
#
# With controllerType=jRaft and the jRaft keys in CONTROLLER_CONF_EXTRA (jRaftGroupId,
# jRaftServerId, jRaftInitConf, jRaftControllerRPCAddr=127.0.0.1:<CONTROLLER_PORT>) the
# controller runs on those keys (JRaftController; ours: Raft on jRaftServerId's port).
#
# env.sh: NAMESRV_ADDR, CONTROLLER_ADDR, CONTROLLER_GROUP / CONTROLLER_LEADER_ID /
# CONTROLLER_PEER (what getControllerMetaData must answer), CLUSTER_NAME, BROKER_NAME (broker-a),
# CONTROLLER_BROKER_COUNT, BROKER_<i>_ADDR, BROKER_<i>_STORE, BROKER_<i>_IMPL, BROKER_ADDR
# (broker 1's), CONTROLLER_IMPL, CONTROLLER_SUITE_SCRIPT, COMPAT_RUN_DIR.
#
# RUN_DIR: compat/target/run-controller-<impl>-<brokers>; MVN_TEST_FLAGS (-B -ntp),
# BOOT_TIMEOUT (180 s per server), CONTROLLER_JAVA_HEAP (-Xms128m -Xmx256m), the heaps and
# ports of ref-servers.sh. Ends with "compat: N passed, N failed, N skipped" and Maven's status.

set -u
COMPAT_DIR=$(cd "$(dirname "$0")" && pwd)
SUITE_SCRIPT=$COMPAT_DIR/controller-suite.sh
CONTROLLER_IMPL=${CONTROLLER_IMPL:-java}
CONTROLLER_BROKERS=${CONTROLLER_BROKERS:-java java}
RUN_DIR=${RUN_DIR:-$COMPAT_DIR/target/run-controller-$CONTROLLER_IMPL-$(echo "$CONTROLLER_BROKERS" | tr ' ' '-')}
export RUN_DIR
CONTROLLER_JAVA_HEAP=${CONTROLLER_JAVA_HEAP:--Xms128m -Xmx256m}
# Hessian's SerializerFactory (reached from ReplicasInfoManager) prints eight
# InaccessibleObjectException traces on Java 17 without it; harmless either way.
CONTROLLER_JAVA_FLAGS=${CONTROLLER_JAVA_FLAGS---add-opens=java.base/java.lang=ALL-UNNAMED}

# ref-servers.sh's functions: port picking, classpath, spawn, boot wait, signals.
# shellcheck disable=SC2034 # read by ref-servers.sh
REF_SERVERS_LIB=1
# shellcheck source=/dev/null
. "$COMPAT_DIR/ref-servers.sh"
# broker_count, the conf writers and spawns it shares with controller-ha-suite.sh.
# shellcheck source=compat/controller-lib.sh
. "$COMPAT_DIR/controller-lib.sh"
log() { echo "controller-suite: $*" >&2; }
# shellcheck disable=SC2034 # read by ref-servers.sh's functions
LINE=5
line_vars

check_controller_impls() {
  case $NAMESRV_IMPL in
    java) ;;
    go) [ -x "${RMQGO_NAMESRV_BIN:-}" ] || die "NAMESRV_IMPL=go needs RMQGO_NAMESRV_BIN (executable)" ;;
    *) die "NAMESRV_IMPL must be java or go, not $NAMESRV_IMPL" ;;
  esac
  case $CONTROLLER_IMPL in
    java | java-namesrv) ;;
    go) [ -x "${RMQGO_CONTROLLER_BIN:-}" ] || die "CONTROLLER_IMPL=go needs RMQGO_CONTROLLER_BIN (executable)" ;;
    go-namesrv) [ -x "${RMQGO_NAMESRV_BIN:-}" ] || die "CONTROLLER_IMPL=go-namesrv needs RMQGO_NAMESRV_BIN (executable)" ;;
    *) die "CONTROLLER_IMPL must be java, go, java-namesrv or go-namesrv, not $CONTROLLER_IMPL" ;;
  esac
  check_broker_words 2 99
}

start_controller() {
  dir=$RUN_DIR/controller
  write_controller_conf "$dir" "n0-127.0.0.1:$CONTROLLER_PORT" n0
  case $CONTROLLER_IMPL in
    *-namesrv)
      # the controller inside a name server of its own (enableControllerInNamesrv),
      # configured from the name server's file, as cluster-3n-namesrv-plugin does
      {
        echo "listenPort=$EMBEDDING_NAMESRV_PORT"
        echo "enableControllerInNamesrv=true"
        echo "kvConfigPath=$dir/kvConfig.json"
      } >>"$dir/controller.conf"
      ;;
  esac
  case $CONTROLLER_IMPL in
    java-namesrv)
      # shellcheck disable=SC2086
      launch controller "$dir" "The ControllerManager boot success" \
        env ROCKETMQ_HOME="$ROCKETMQ_HOME_DIR" \
        java $CONTROLLER_JAVA_HEAP $CONTROLLER_JAVA_FLAGS $SERVER_JAVA_OPT_EXT -Duser.home="$dir" \
        -Drmq.logback.configurationFile=rmq.namesrv.logback.xml \
        -cp "$(cat "$SERVER_CP")" org.apache.rocketmq.namesrv.NamesrvStartup -c "$dir/controller.conf"
      ;;
    go-namesrv)
      launch controller "$dir" "The ControllerManager boot success" \
        env ROCKETMQ_HOME="$ROCKETMQ_HOME_DIR" JAVA_OPT_EXT="-Duser.home=$dir $SERVER_JAVA_OPT_EXT" RMQGO_LINE=5 \
        "$RMQGO_NAMESRV_BIN" -c "$dir/controller.conf"
      ;;
    java | go)
      spawn_controller_in "$dir" "$CONTROLLER_IMPL"
      wait_boot controller "$(cat "$dir/pid")" "$dir/stdout.log" "The Controller Server boot success"
      ;;
  esac
}

# controller_identity: the lines of env.sh that say how the controller names
# itself in getControllerMetaData: DLedger's group1, n0 and peer n0:<addr>,
# or, with the jRaft keys in CONTROLLER_CONF_EXTRA (controllerType=jRaft),
# jRaftGroupId, jRaftServerId and the controller address (JRaftController's
# answer).
controller_identity() {
  jraft_key() { printf '%s\n' "${CONTROLLER_CONF_EXTRA:-}" | sed -n "s/^$1[[:space:]]*=[[:space:]]*//p" | tail -1; }
  if [ "$(jraft_key controllerType)" = jRaft ]; then
    echo "CONTROLLER_GROUP=$(jraft_key jRaftGroupId); export CONTROLLER_GROUP"
    echo "CONTROLLER_LEADER_ID=$(jraft_key jRaftServerId); export CONTROLLER_LEADER_ID"
    echo "CONTROLLER_PEER=127.0.0.1:$CONTROLLER_PORT; export CONTROLLER_PEER"
  else
    echo "CONTROLLER_GROUP=group1; export CONTROLLER_GROUP"
    echo "CONTROLLER_LEADER_ID=n0; export CONTROLLER_LEADER_ID"
    echo "CONTROLLER_PEER=n0:127.0.0.1:$CONTROLLER_PORT; export CONTROLLER_PEER"
  fi
}

# write_suite_broker_conf I PORT: RUN_DIR/broker-I/broker.conf, on loopback.
write_suite_broker_conf() {
  write_controller_broker_conf "$RUN_DIR/broker-$1" "$2" "127.0.0.1:$NAMESRV_PORT" "127.0.0.1:$CONTROLLER_PORT" \
    "brokerIP1=127.0.0.1
bindAddress=127.0.0.1"
}

wait_controller_broker() {
  wait_boot "broker-$1" "$(cat "$RUN_DIR/broker-$1/pid")" "$RUN_DIR/broker-$1/stdout.log" "boot success"
}

stop_controller_all() {
  [ -d "$RUN_DIR" ] || return 0
  for d in "$RUN_DIR"/broker-*; do [ -d "$d" ] && signal_one "$d"; done
  for d in "$RUN_DIR"/broker-*; do [ -d "$d" ] && reap_one "$d"; done
  for d in controller namesrv; do
    signal_one "$RUN_DIR/$d"
    reap_one "$RUN_DIR/$d"
  done
  return 0
}

start_controller_all() {
  check_controller_impls
  stop_controller_all
  rm -rf "$RUN_DIR"
  mkdir -p "$RUN_DIR"
  ROCKETMQ_HOME_DIR=$RUN_DIR/rocketmq-home
  mkdir -p "$ROCKETMQ_HOME_DIR/conf"
  case " $NAMESRV_IMPL $CONTROLLER_IMPL $CONTROLLER_BROKERS " in
    *" java "* | *" java-namesrv "*) SERVER_CP=$(server_classpath "$SERVER_VERSION") || exit 1 ;;
  esac
  pick NAMESRV_PORT "${NAMESRV_PORT:-24876}" 0
  pick CONTROLLER_PORT "${CONTROLLER_PORT:-24878}" 0
  pick EMBEDDING_NAMESRV_PORT "${EMBEDDING_NAMESRV_PORT:-24879}" 0
  n=$(broker_count)
  bport0=${BROKER_PORT:-24911}
  i=1
  while [ $i -le "$n" ]; do
    pick port "$((bport0 + (i - 1) * 10))" -2 0 1
    # shellcheck disable=SC2154 # pick sets port
    eval "BROKER_PORT_$i=$port"
    i=$((i + 1))
  done
  log "name server $(impl_desc "$NAMESRV_IMPL") on 127.0.0.1:$NAMESRV_PORT;" \
    "controller $(impl_desc "$CONTROLLER_IMPL") on 127.0.0.1:$CONTROLLER_PORT; brokers: $CONTROLLER_BROKERS"
  start_namesrv || { stop_controller_all; exit 1; }
  start_controller || { stop_controller_all; exit 1; }
  i=1
  for impl in $CONTROLLER_BROKERS; do
    eval "port=\$BROKER_PORT_$i"
    log "broker-$i: $(impl_desc "$impl") on 127.0.0.1:$port"
    write_suite_broker_conf $i "$port"
    spawn_broker_in "$RUN_DIR/broker-$i" "$impl"
    i=$((i + 1))
  done
  i=1
  while [ $i -le "$n" ]; do
    wait_controller_broker $i || { stop_controller_all; exit 1; }
    i=$((i + 1))
  done
  {
    echo "# written by compat/controller-suite.sh start; source it: . $RUN_DIR/env.sh"
    echo "NAMESRV_ADDR=127.0.0.1:$NAMESRV_PORT; export NAMESRV_ADDR"
    echo "CONTROLLER_ADDR=127.0.0.1:$CONTROLLER_PORT; export CONTROLLER_ADDR"
    controller_identity
    echo "CLUSTER_NAME=$CLUSTER_NAME; export CLUSTER_NAME"
    echo "BROKER_NAME=broker-a; export BROKER_NAME"
    echo "BROKER_ADDR=127.0.0.1:$BROKER_PORT_1; export BROKER_ADDR"
    echo "CONTROLLER_BROKER_COUNT=$n; export CONTROLLER_BROKER_COUNT"
    i=1
    for impl in $CONTROLLER_BROKERS; do
      eval "port=\$BROKER_PORT_$i"
      echo "BROKER_${i}_ADDR=127.0.0.1:$port; export BROKER_${i}_ADDR"
      echo "BROKER_${i}_STORE=$RUN_DIR/broker-$i/store; export BROKER_${i}_STORE"
      echo "BROKER_${i}_IMPL=$impl; export BROKER_${i}_IMPL"
      i=$((i + 1))
    done
    echo "NAMESRV_IMPL=$NAMESRV_IMPL; export NAMESRV_IMPL"
    echo "CONTROLLER_IMPL=$CONTROLLER_IMPL; export CONTROLLER_IMPL"
    echo "CONTROLLER_BROKERS='$CONTROLLER_BROKERS'; export CONTROLLER_BROKERS"
    echo "REF_SERVER_LINE=5; export REF_SERVER_LINE"
    echo "REF_SERVER_VERSION=$SERVER_VERSION; export REF_SERVER_VERSION"
    echo "COMPAT_RUN_DIR=$RUN_DIR; export COMPAT_RUN_DIR"
    echo "CONTROLLER_SUITE_SCRIPT=$SUITE_SCRIPT; export CONTROLLER_SUITE_SCRIPT"
    echo "SERVER_JAVA_OPT_EXT='$SERVER_JAVA_OPT_EXT'; export SERVER_JAVA_OPT_EXT"
    case " $CONTROLLER_BROKERS " in
      *" go "*) echo "RMQGO_BROKER_BIN=$RMQGO_BROKER_BIN; export RMQGO_BROKER_BIN" ;;
    esac
  } >"$RUN_DIR/env.sh"
  cat "$RUN_DIR/env.sh"
}

# broker_index N: checks N names a broker of the run (env.sh loaded).
broker_index() {
  case ${1:-} in
    '' | *[!0-9]*) die "which broker? a number 1..${CONTROLLER_BROKER_COUNT:-N} (got '${1:-}')" ;;
  esac
  { [ "$1" -ge 1 ] && [ "$1" -le "$CONTROLLER_BROKER_COUNT" ]; } || die "no broker $1 (1..$CONTROLLER_BROKER_COUNT)"
  [ -f "$RUN_DIR/broker-$1/broker.conf" ] || die "no $RUN_DIR/broker-$1/broker.conf"
}

load_controller_run() {
  [ -f "$RUN_DIR/env.sh" ] || die "no $RUN_DIR/env.sh; start the servers first"
  # shellcheck disable=SC1091
  . "$RUN_DIR/env.sh"
  ROCKETMQ_HOME_DIR=$RUN_DIR/rocketmq-home
}

start_broker_again() {
  idx=$1 impl=${2:-}
  dir=$RUN_DIR/broker-$idx
  [ -n "$impl" ] || eval "impl=\$BROKER_${idx}_IMPL"
  case $impl in
    java) SERVER_CP=$(server_classpath "$SERVER_VERSION") || exit 1 ;;
    go) [ -x "${RMQGO_BROKER_BIN:-}" ] || die "RMQGO_BROKER_BIN=${RMQGO_BROKER_BIN:-} is not executable" ;;
    *) die "start-broker: java or go, not '$impl'" ;;
  esac
  if [ -f "$dir/pid" ] && is_ours "$(cat "$dir/pid")" "$dir"; then die "broker-$idx runs already (pid $(cat "$dir/pid"))"; fi
  n=1
  while [ -e "$dir/stdout.log.$n" ]; do n=$((n + 1)); done
  if [ -f "$dir/stdout.log" ]; then mv "$dir/stdout.log" "$dir/stdout.log.$n"; fi
  log "broker-$idx: starting $(impl_desc "$impl") again on its store"
  spawn_broker_in "$RUN_DIR/broker-$idx" "$impl"
  wait_controller_broker "$idx" || exit 1
}

status_controller_all() {
  for d in "$RUN_DIR"/namesrv "$RUN_DIR"/controller "$RUN_DIR"/broker-*; do
    [ -f "$d/pid" ] || continue
    pid=$(cat "$d/pid")
    if is_ours "$pid" "$d"; then echo "$(basename "$d"): running, pid $pid"; else echo "$(basename "$d"): not running"; fi
  done
  [ -f "$RUN_DIR/env.sh" ] && cat "$RUN_DIR/env.sh"
  return 0
}

run_suite() {
  trap stop_controller_all EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
  start_controller_all >/dev/null || { log "the servers did not start (logs under $RUN_DIR/)"; exit 1; }
  # shellcheck disable=SC1091
  . "$RUN_DIR/env.sh"
  log "controller $CONTROLLER_IMPL at $CONTROLLER_ADDR, brokers '$CONTROLLER_BROKERS' of broker-a," \
    "name server $NAMESRV_IMPL at $NAMESRV_ADDR; RUN_DIR=$RUN_DIR"
  rm -rf "$COMPAT_DIR/target/surefire-reports"
  # shellcheck disable=SC2086
  "$MVN" ${MVN_TEST_FLAGS:--B -ntp} -Dstyle.color=never -f "$COMPAT_DIR/pom.xml" -Prmq5 test \
    -Dgroups=controller -Dcompat.excludedGroups= "$@"
  status=$?
  # Stopped before the summary, so that the summary is the last line.
  stop_controller_all
  trap - EXIT
  sh "$COMPAT_DIR/surefire-summary.sh" compat "$COMPAT_DIR/target/surefire-reports" || [ $status -ne 0 ] || status=1
  exit $status
}

cmd=${1:-run}
[ $# -gt 0 ] && shift
case $cmd in
  run) run_suite "$@" ;;
  -*) run_suite "$cmd" "$@" ;;
  start) start_controller_all ;;
  stop) stop_controller_all ;;
  status) status_controller_all ;;
  kill-broker | stop-broker)
    load_controller_run
    broker_index "${1:-}"
    dir=$RUN_DIR/broker-$1
    [ -f "$dir/pid" ] || { log "broker-$1 does not run"; exit 0; }
    if [ "$cmd" = kill-broker ]; then
      log "broker-$1: SIGKILL to pid $(cat "$dir/pid")"
      kill_one "$dir" || exit 1
    else
      log "broker-$1: SIGTERM to pid $(cat "$dir/pid")"
      signal_one "$dir"
      reap_one "$dir"
    fi
    ;;
  start-broker)
    load_controller_run
    broker_index "${1:-}"
    start_broker_again "$1" "${2:-}"
    ;;
  pid)
    load_controller_run
    case ${1:-} in
      namesrv | controller) d=$RUN_DIR/$1 ;;
      *) broker_index "${1:-}"; d=$RUN_DIR/broker-$1 ;;
    esac
    [ -f "$d/pid" ] && is_ours "$(cat "$d/pid")" "$d" || exit 1
    cat "$d/pid"
    ;;
  *)
    echo "usage: $0 [run [mvn args...]] | start | stop | status | kill-broker|stop-broker N | start-broker N [java|go] | pid namesrv|controller|N" >&2
    exit 2
    ;;
esac
