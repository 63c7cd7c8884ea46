# What compat/controller-suite.sh (one controller on loopback) and
# compat/controller-ha-suite.sh (three, in network namespaces) both do with
# their servers (POSIX sh, sourced after ref-servers.sh's functions, not
# run): broker_count, check_broker_words, write_controller_conf,
# write_controller_broker_conf, spawn_controller_in and spawn_broker_in
# (both through spawn_server_in).
# Each spawn takes an optional PREFIX, the words that run the server (ip
# netns exec NS for the namespaces), and gives the server what
# ref-servers.sh gives its own: ROCKETMQ_HOME, -Duser.home=DIR (Java) or
# JAVA_OPT_EXT=-Duser.home=DIR (go, with RMQGO_LINE=5), and
# SERVER_JAVA_OPT_EXT.

# broker_count: the number of words in CONTROLLER_BROKERS.
broker_count() {
  # shellcheck disable=SC2086
  set -- $CONTROLLER_BROKERS
  echo $#
}

# check_broker_words MIN MAX: CONTROLLER_BROKERS has MIN to MAX words, each
# java or go (go needs RMQGO_BROKER_BIN); else die.
check_broker_words() {
  n=$(broker_count)
  { [ "$n" -ge "$1" ] && [ "$n" -le "$2" ]; } ||
    die "CONTROLLER_BROKERS needs $1 to $2 words (java|go), not '$CONTROLLER_BROKERS'"
  for b in $CONTROLLER_BROKERS; do
    case $b in
      java) ;;
      go) [ -x "${RMQGO_BROKER_BIN:-}" ] || die "a go broker needs RMQGO_BROKER_BIN (executable), not '${RMQGO_BROKER_BIN:-}'" ;;
      *) die "CONTROLLER_BROKERS: each word java or go, not '$b'" ;;
    esac
  done
}

# write_controller_conf DIR PEERS SELF: DIR/controller.conf of DLedger
# group1 with controllerDLegerPeers PEERS and self id SELF, its store and
# config file in DIR (+ CONTROLLER_CONF_EXTRA lines).
write_controller_conf() {
  mkdir -p "$1"
  {
    echo "controllerDLegerGroup=group1"
    echo "controllerDLegerPeers=$2"
    echo "controllerDLegerSelfId=$3"
    echo "controllerStorePath=$1/DLedgerController"
    echo "configStorePath=$1/controller.properties"
    echo "rocketmqHome=$ROCKETMQ_HOME_DIR"
    if [ -n "${CONTROLLER_CONF_EXTRA:-}" ]; then printf '%s\n' "$CONTROLLER_CONF_EXTRA"; fi
  } >"$1/controller.conf"
}

# write_controller_broker_conf DIR PORT NAMESRV CONTROLLERS IP_LINES: the
# broker.conf of a controller-mode broker of broker-a in DIR on PORT (HA on
# PORT+1), with the name server NAMESRV, controllerAddr CONTROLLERS, the
# lines IP_LINES (brokerIP1=..., bindAddress=...) and allAckInSyncStateSet
# (+ BROKER_CONF_EXTRA lines).
write_controller_broker_conf() {
  mkdir -p "$1"
  cat >"$1/broker.conf" <<CONF
brokerClusterName=$CLUSTER_NAME
brokerName=broker-a
# Overwritten at run time: 0 as master, the controller id as slave.
brokerId=-1
brokerRole=SLAVE
flushDiskType=ASYNC_FLUSH
$5
listenPort=$2
haListenPort=$(($2 + 1))
namesrvAddr=$3
storePathRootDir=$1/store
storePathCommitLog=$1/store/commitlog
mappedFileSizeCommitLog=1048576
enableControllerMode=true
controllerAddr=$4
# A send is acknowledged once every member of the SyncStateSet has it.
allAckInSyncStateSet=true
syncBrokerMetadataPeriod=1000
checkSyncStateSetPeriod=1000
CONF
  if [ -n "${BROKER_CONF_EXTRA:-}" ]; then printf '%s\n' "$BROKER_CONF_EXTRA" >>"$1/broker.conf"; fi
}

# spawn_server_in DIR IMPL NAME [PREFIX...]: server NAME (controller or
# broker) on DIR/NAME.conf: java runs its Startup class (ControllerStartup,
# BrokerStartup) with that server's heap and flags and its logback file, go
# runs RMQGO_CONTROLLER_BIN or RMQGO_BROKER_BIN. (Its variables are ss_*:
# a sourced function's variables are the caller's too.)
spawn_server_in() {
  ss_dir=$1 ss_impl=$2 ss_name=$3
  shift 3
  case $ss_name in
    controller) ss_jvm="$CONTROLLER_JAVA_HEAP $CONTROLLER_JAVA_FLAGS" ss_main=org.apache.rocketmq.controller.ControllerStartup ss_bin=${RMQGO_CONTROLLER_BIN:-} ;;
    broker) ss_jvm="$BROKER_JAVA_HEAP $JAVA_FLAGS" ss_main=org.apache.rocketmq.broker.BrokerStartup ss_bin=${RMQGO_BROKER_BIN:-} ;;
  esac
  case $ss_impl in
    java)
      # shellcheck disable=SC2086
      spawn "$ss_dir" "$@" env ROCKETMQ_HOME="$ROCKETMQ_HOME_DIR" \
        java $ss_jvm $SERVER_JAVA_OPT_EXT -Duser.home="$ss_dir" -Drmq.logback.configurationFile=rmq.$ss_name.logback.xml \
        -cp "$(cat "$SERVER_CP")" "$ss_main" -c "$ss_dir/$ss_name.conf"
      ;;
    go)
      spawn "$ss_dir" "$@" env ROCKETMQ_HOME="$ROCKETMQ_HOME_DIR" JAVA_OPT_EXT="-Duser.home=$ss_dir $SERVER_JAVA_OPT_EXT" \
        RMQGO_LINE=5 "$ss_bin" -c "$ss_dir/$ss_name.conf"
      ;;
  esac
}

# spawn_controller_in DIR IMPL [PREFIX...]: the stand-alone controller.
spawn_controller_in() {
  ss_dir=$1 ss_impl=$2
  shift 2
  spawn_server_in "$ss_dir" "$ss_impl" controller "$@"
}

# spawn_broker_in DIR IMPL [PREFIX...]: a broker.
spawn_broker_in() {
  ss_dir=$1 ss_impl=$2
  shift 2
  spawn_server_in "$ss_dir" "$ss_impl" broker "$@"
}
