#!/bin/sh
# Controller high availability (RIP-44, 5.3.3): three controllers in one
# DLedger/Raft group (controllerDLegerPeers n0/n1/n2), a name server and 2 or 3
# brokers of broker set broker-a in controller mode (allAckInSyncStateSet=true,
# controllerAddr listing the three controllers), under synchronous producers;
# two scenarios (POSIX sh, run as root: it makes network namespaces):
#
#   leader-and-master  SIGKILL to the controller leader (getControllerMetaData) and to
#                      the master broker at the same moment: the two controllers left
#                      elect a new Raft leader, it elects a new master (masterEpoch + 1)
#                      among the surviving brokers, sends resume, every SEND_OK is read
#                      back from the new master; then the killed controller and broker
#                      start again: the broker rejoins as a slave with the master's
#                      commitlog (byte for byte up to the common max offset), the
#                      controller rejoins (its getControllerMetaData names the leader).
#   partition          the master broker cut off (iptables DROP inside its network
#                      namespace) from the controllers and the other brokers, while
#                      producers run (some of them keep the old route and go on sending
#                      to the old master): a new master is elected; no split brain (no
#                      SEND_OK from the old master for a send begun after the cut); the
#                      partition healed, the old master becomes a slave, truncates what
#                      it wrote alone and matches the master's commitlog; every SEND_OK
#                      is read back from the final master.
#
#   CONTROLLER_IMPL=java CONTROLLER_BROKERS="java java java" sh compat/controller-ha-suite.sh   # the reference
#   CONTROLLER_IMPL=go CONTROLLER_BROKERS="go go go" sh compat/controller-ha-suite.sh           # ours (bin/)
#   sh compat/controller-ha-suite.sh run partition        # one scenario (default: both, in this order:
#                                                          # leader-and-master partition)
#
# Each scenario starts its servers afresh (RUN_DIR = BASE_RUN_DIR-<scenario>), runs the Java tool
# compat/ctlha (ControllerHa, rocketmq-client and rocketmq-tools 5.3.3 from Maven Central), stops
# everything, and prints
#   controller-ha <scenario> <ctl> controllers + <brokers>: ... ok|FAILED (reason)
# The summary lines are printed again at the end; the exit status is 1 when a scenario failed, 2
# when the harness failed (a server did not start).
#
# Topology (so that a partition cuts exactly the master from the controllers and the slaves, and
# the test itself still reaches it): a bridge rmqha<K> in the root network namespace holds
# 10.213.<K>.1 (the name server and the test's clients); network namespace rmqha<K>-c holds the
# three controllers at 10.213.<K>.2 (ports CTL_PORT, +10, +20); each broker i runs in namespace
# rmqha<K>-b<i> at 10.213.<K>.<10+i> (brokerIP1), each connected to the bridge by a veth pair. K is
# the first number whose bridge can be created (so runs side by side do not clash). A cut of
# broker i is, inside rmqha<K>-b<i>, an iptables chain RMQHA_CUT (jumped to from INPUT and OUTPUT)
# that DROPs everything from and to the controllers' address and the other brokers' addresses;
# the heal flushes it. The name server and the clients keep reaching the old master.
#
# Subcommands (all read RUN_DIR; the tool calls them through -suite):
#   run [scenario...]       (the default) see above
#   start | stop | status   the servers of RUN_DIR (start prints env.sh)
#   kill NAME...            SIGKILL at once to every NAME (controller-I, broker-I), waits until gone
#   start-controller I | start-broker I   starts it again on its conf and store, waits for its boot line
#   cut I | heal I          partition broker I / heal it (heal prints the dropped packet counters)
#
# Environment [defaults]: CONTROLLER_IMPL [java], CONTROLLER_BROKERS ["java java java"; 2 or 3
# words java|go], NAMESRV_IMPL [java], RMQGO_CONTROLLER_BIN / RMQGO_BROKER_BIN / RMQGO_NAMESRV_BIN
# [bin/rmqgo-*], BASE_RUN_DIR [compat/target/run-controller-ha-<ctl>-<brokers>], NAMESRV_PORT
# [27876], CTL_PORT [27878], BROKER_PORT [27911] (first choices; free ones are picked), BOOT_TIMEOUT
# [180], CONTROLLER_JAVA_HEAP [-Xms128m -Xmx256m], BROKER_JAVA_HEAP, BROKER_CONF_EXTRA /
# CONTROLLER_CONF_EXTRA (more lines), SENDERS [3], STALE_SENDERS [2], JAVA_HEAP of the tool.
# Outputs: RUN_DIR/ (one folder per server, its user.home: logs/rocketmqlogs/controller.log,
# broker.log; stdout.log) and RUN_DIR.out/ (acked.tsv, tool.log, servers.log, summary.txt).

set -u
COMPAT_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT_DIR=$(cd "$COMPAT_DIR/.." && pwd)
SELF=$COMPAT_DIR/controller-ha-suite.sh
CONTROLLER_IMPL=${CONTROLLER_IMPL:-java}
CONTROLLER_BROKERS=${CONTROLLER_BROKERS:-java java java}
NAMESRV_IMPL=${NAMESRV_IMPL:-java}
RMQGO_CONTROLLER_BIN=${RMQGO_CONTROLLER_BIN:-$ROOT_DIR/bin/rmqgo-controller}
RMQGO_BROKER_BIN=${RMQGO_BROKER_BIN:-$ROOT_DIR/bin/rmqgo-broker}
RMQGO_NAMESRV_BIN=${RMQGO_NAMESRV_BIN:-$ROOT_DIR/bin/rmqgo-namesrv}
BASE_RUN_DIR=${BASE_RUN_DIR:-$COMPAT_DIR/target/run-controller-ha-$CONTROLLER_IMPL-$(echo "$CONTROLLER_BROKERS" | tr ' ' '-')}
RUN_DIR=${RUN_DIR:-$BASE_RUN_DIR}
export RUN_DIR CONTROLLER_IMPL CONTROLLER_BROKERS NAMESRV_IMPL RMQGO_CONTROLLER_BIN RMQGO_BROKER_BIN RMQGO_NAMESRV_BIN
CONTROLLER_JAVA_HEAP=${CONTROLLER_JAVA_HEAP:--Xms128m -Xmx256m}
CONTROLLER_JAVA_FLAGS=${CONTROLLER_JAVA_FLAGS---add-opens=java.base/java.lang=ALL-UNNAMED}

# ref-servers.sh's functions: port picking, classpath, spawn, boot wait, signals.
# shellcheck disable=SC2034 # read by ref-servers.sh
REF_SERVERS_LIB=1
# shellcheck source=/dev/null
. "$COMPAT_DIR/ref-servers.sh"
# broker_count, the conf writers and spawns it shares with controller-suite.sh.
# shellcheck source=compat/controller-lib.sh
. "$COMPAT_DIR/controller-lib.sh"
log() { echo "controller-ha: $*" >&2; }
die() { log "$*"; exit 2; }
# shellcheck disable=SC2034 # read by ref-servers.sh's functions
LINE=5
line_vars

check_impls_ha() {
  [ "$(id -u)" = 0 ] || die "needs root (network namespaces, iptables)"
  for c in ip iptables; do command -v $c >/dev/null 2>&1 || die "needs $c"; done
  case $NAMESRV_IMPL in
    java) ;;
    go) [ -x "$RMQGO_NAMESRV_BIN" ] || die "NAMESRV_IMPL=go needs RMQGO_NAMESRV_BIN (executable), not $RMQGO_NAMESRV_BIN" ;;
    *) die "NAMESRV_IMPL must be java or go" ;;
  esac
  case $CONTROLLER_IMPL in
    java) ;;
    go) [ -x "$RMQGO_CONTROLLER_BIN" ] || die "CONTROLLER_IMPL=go needs RMQGO_CONTROLLER_BIN (executable), not $RMQGO_CONTROLLER_BIN" ;;
    *) die "CONTROLLER_IMPL must be java or go" ;;
  esac
  check_broker_words 2 3
}

# ---------------------------------------------------------------------------------------------
# the network

# net_up: the bridge, the controllers' namespace and one per broker; writes RUN_DIR/net.env.
net_up() {
  k=1
  while :; do
    [ $k -le 250 ] || die "no free bridge name rmqha1..rmqha250"
    if ! ip netns list 2>/dev/null | grep -q "^rmqha$k-" && ! ip route 2>/dev/null | grep -q "^10\.213\.$k\." &&
      ip link add "rmqha$k" type bridge 2>/dev/null; then
      break
    fi
    k=$((k + 1))
  done
  NET_K=$k NET_BR=rmqha$k NET_SUB=10.213.$k
  echo "NET_K=$NET_K NET_BR=$NET_BR NET_SUB=$NET_SUB NET_BROKERS=$(broker_count)" >"$RUN_DIR/net.env"
  ip addr add "$NET_SUB.1/24" dev "$NET_BR" && ip link set "$NET_BR" up || return 1
  add_ns "$NET_BR-c" "$NET_SUB.2" "rha${k}c" || return 1
  i=1
  while [ $i -le "$(broker_count)" ]; do
    add_ns "$NET_BR-b$i" "$NET_SUB.$((10 + i))" "rha${k}b$i" || return 1
    i=$((i + 1))
  done
  log "network: bridge $NET_BR $NET_SUB.1 (name server, clients), $NET_BR-c $NET_SUB.2 (controllers)," \
    "$NET_BR-b<i> $NET_SUB.1<i> (broker i)"
}

# add_ns NS IP VETH: namespace NS with eth0 = IP/24, its peer VETH on the bridge.
add_ns() {
  ip netns add "$1" &&
    ip link add "$3" type veth peer name "$3p" &&
    ip link set "$3p" netns "$1" &&
    ip link set "$3" master "$NET_BR" &&
    ip link set "$3" up &&
    ip -n "$1" link set "$3p" name eth0 &&
    ip -n "$1" addr add "$2/24" dev eth0 &&
    ip -n "$1" link set eth0 up &&
    ip -n "$1" link set lo up
}

load_net() {
  [ -f "$RUN_DIR/net.env" ] || return 1
  # shellcheck disable=SC1091
  . "$RUN_DIR/net.env"
}

# net_down: deletes the namespaces, veths and the bridge of RUN_DIR/net.env (servers stopped first).
net_down() {
  load_net || return 0
  i=1
  while [ $i -le "$NET_BROKERS" ]; do
    ip netns del "$NET_BR-b$i" 2>/dev/null
    ip link del "rha${NET_K}b$i" 2>/dev/null
    i=$((i + 1))
  done
  ip netns del "$NET_BR-c" 2>/dev/null
  ip link del "rha${NET_K}c" 2>/dev/null
  ip link del "$NET_BR" 2>/dev/null
  rm -f "$RUN_DIR/net.env"
  return 0
}

# cut I / heal I: the RMQHA_CUT chain of broker I's namespace.
cut_broker() {
  load_net || die "no network of $RUN_DIR"
  ns=$NET_BR-b$1
  ipt() { ip netns exec "$ns" iptables -w "$@"; }
  ipt -N RMQHA_CUT 2>/dev/null
  ipt -F RMQHA_CUT || return 1
  ipt -C INPUT -j RMQHA_CUT 2>/dev/null || ipt -I INPUT 1 -j RMQHA_CUT || return 1
  ipt -C OUTPUT -j RMQHA_CUT 2>/dev/null || ipt -I OUTPUT 1 -j RMQHA_CUT || return 1
  peers="$NET_SUB.2"
  j=1
  while [ $j -le "$NET_BROKERS" ]; do
    [ $j = "$1" ] || peers="$peers $NET_SUB.$((10 + j))"
    j=$((j + 1))
  done
  for p in $peers; do
    ipt -A RMQHA_CUT -s "$p" -j DROP && ipt -A RMQHA_CUT -d "$p" -j DROP || return 1
  done
  log "cut: broker-$1 ($NET_SUB.$((10 + $1))) drops everything from and to $peers"
}

heal_broker() {
  load_net || die "no network of $RUN_DIR"
  ns=$NET_BR-b$1
  log "heal: broker-$1; dropped by the cut: $(ip netns exec "$ns" iptables -w -L RMQHA_CUT -v -n -x 2>/dev/null |
    awk 'NR > 2 { printf "%s%s pkts %s %s", sep, $1, ($8 == "0.0.0.0/0" ? "to" : "from"), ($8 == "0.0.0.0/0" ? $9 : $8); sep = ", " }')"
  ip netns exec "$ns" iptables -w -F RMQHA_CUT
}

# ---------------------------------------------------------------------------------------------
# the servers

start_namesrv_ha() {
  dir=$RUN_DIR/namesrv
  mkdir -p "$dir"
  printf 'listenPort=%s\nbindAddress=%s\n' "$NAMESRV_PORT" "$NET_SUB.1" >"$dir/namesrv.properties"
  case $NAMESRV_IMPL in
    java)
      # shellcheck disable=SC2086
      spawn "$dir" env ROCKETMQ_HOME="$ROCKETMQ_HOME_DIR" \
        java $NAMESRV_JAVA_HEAP $JAVA_FLAGS -Duser.home="$dir" -Drmq.logback.configurationFile=rmq.namesrv.logback.xml \
        -cp "$(cat "$SERVER_CP")" org.apache.rocketmq.namesrv.NamesrvStartup -c "$dir/namesrv.properties"
      ;;
    go)
      spawn "$dir" env ROCKETMQ_HOME="$ROCKETMQ_HOME_DIR" JAVA_OPT_EXT="-Duser.home=$dir" RMQGO_LINE=5 \
        "$RMQGO_NAMESRV_BIN" -c "$dir/namesrv.properties"
      ;;
  esac
}

# controller_port I (0..2)
controller_port() { echo $((CTL_PORT + 10 * $1)); }

# write_ha_controller_conf I: controller I of the three (n0 n1 n2, in the
# controllers' namespace).
write_ha_controller_conf() {
  write_controller_conf "$RUN_DIR/controller-$1" \
    "n0-$NET_SUB.2:$(controller_port 0);n1-$NET_SUB.2:$(controller_port 1);n2-$NET_SUB.2:$(controller_port 2)" "n$1"
}

# spawn_controller I IMPL: in the controllers' namespace.
spawn_controller() {
  spawn_controller_in "$RUN_DIR/controller-$1" "$2" ip netns exec "$NET_BR-c"
}

# write_broker_conf I PORT: broker I's, on its own address.
write_broker_conf() {
  write_controller_broker_conf "$RUN_DIR/broker-$1" "$2" "$NET_SUB.1:$NAMESRV_PORT" \
    "$NET_SUB.2:$(controller_port 0);$NET_SUB.2:$(controller_port 1);$NET_SUB.2:$(controller_port 2)" \
    "brokerIP1=$NET_SUB.$((10 + $1))"
}

# spawn_broker_ha I IMPL: in broker I's namespace.
spawn_broker_ha() {
  spawn_broker_in "$RUN_DIR/broker-$1" "$2" ip netns exec "$NET_BR-b$1"
}

wait_server() {
  wait_boot "$1" "$(cat "$RUN_DIR/$1/pid")" "$RUN_DIR/$1/stdout.log" "$2"
}

stop_ha_all() {
  [ -d "$RUN_DIR" ] || return 0
  for d in "$RUN_DIR"/broker-*; do [ -d "$d" ] && signal_one "$d"; done
  for d in "$RUN_DIR"/broker-*; do [ -d "$d" ] && reap_one "$d"; done
  for d in "$RUN_DIR"/controller-*; do [ -d "$d" ] && signal_one "$d"; done
  for d in "$RUN_DIR"/controller-*; do [ -d "$d" ] && reap_one "$d"; done
  signal_one "$RUN_DIR/namesrv"
  reap_one "$RUN_DIR/namesrv"
  net_down
  return 0
}

start_ha_all() {
  check_impls_ha
  stop_ha_all
  rm -rf "$RUN_DIR"
  mkdir -p "$RUN_DIR"
  ROCKETMQ_HOME_DIR=$RUN_DIR/rocketmq-home
  mkdir -p "$ROCKETMQ_HOME_DIR/conf"
  case " $NAMESRV_IMPL $CONTROLLER_IMPL $CONTROLLER_BROKERS " in
    *" java "*) SERVER_CP=$(server_classpath "$SERVER_VERSION") || exit 2 ;;
  esac
  net_up || { log "the network could not be set up"; stop_ha_all; exit 2; }
  pick NAMESRV_PORT "${NAMESRV_PORT:-27876}" 0
  pick CTL_PORT "${CTL_PORT:-27878}" 0 10 20
  n=$(broker_count)
  bport0=${BROKER_PORT:-27911}
  i=1
  while [ $i -le "$n" ]; do
    pick port "$((bport0 + (i - 1) * 10))" -2 0 1
    # shellcheck disable=SC2154 # pick sets port
    eval "BROKER_PORT_$i=$port"
    i=$((i + 1))
  done
  log "name server $(impl_desc "$NAMESRV_IMPL") on $NET_SUB.1:$NAMESRV_PORT; controllers $(impl_desc "$CONTROLLER_IMPL")" \
    "on $NET_SUB.2:$(controller_port 0),$(controller_port 1),$(controller_port 2); brokers: $CONTROLLER_BROKERS"
  start_namesrv_ha
  wait_server namesrv "The Name Server boot success" || { stop_ha_all; exit 2; }
  for c in 0 1 2; do
    write_ha_controller_conf $c
    spawn_controller $c "$CONTROLLER_IMPL"
  done
  for c in 0 1 2; do
    wait_server controller-$c "The Controller Server boot success" || { stop_ha_all; exit 2; }
  done
  i=1
  for impl in $CONTROLLER_BROKERS; do
    eval "port=\$BROKER_PORT_$i"
    log "broker-$i: $(impl_desc "$impl") on $NET_SUB.$((10 + i)):$port"
    write_broker_conf $i "$port"
    spawn_broker_ha $i "$impl"
    i=$((i + 1))
  done
  i=1
  while [ $i -le "$n" ]; do
    wait_server broker-$i "boot success" || { stop_ha_all; exit 2; }
    i=$((i + 1))
  done
  {
    echo "# written by compat/controller-ha-suite.sh start; source it: . $RUN_DIR/env.sh"
    echo "NAMESRV_ADDR=$NET_SUB.1:$NAMESRV_PORT; export NAMESRV_ADDR"
    echo "CONTROLLER_ADDRS='$NET_SUB.2:$(controller_port 0);$NET_SUB.2:$(controller_port 1);$NET_SUB.2:$(controller_port 2)'; export CONTROLLER_ADDRS"
    echo "CLUSTER_NAME=$CLUSTER_NAME; export CLUSTER_NAME"
    echo "BROKER_NAME=broker-a; export BROKER_NAME"
    echo "CONTROLLER_BROKER_COUNT=$n; export CONTROLLER_BROKER_COUNT"
    addrs="" stores=""
    i=1
    for impl in $CONTROLLER_BROKERS; do
      eval "port=\$BROKER_PORT_$i"
      echo "BROKER_${i}_ADDR=$NET_SUB.$((10 + i)):$port; export BROKER_${i}_ADDR"
      echo "BROKER_${i}_STORE=$RUN_DIR/broker-$i/store; export BROKER_${i}_STORE"
      echo "BROKER_${i}_IMPL=$impl; export BROKER_${i}_IMPL"
      addrs=${addrs:+$addrs,}$NET_SUB.$((10 + i)):$port
      stores=${stores:+$stores,}$RUN_DIR/broker-$i/store
      i=$((i + 1))
    done
    echo "BROKER_ADDRS=$addrs; export BROKER_ADDRS"
    echo "BROKER_STORES=$stores; export BROKER_STORES"
    echo "NAMESRV_IMPL=$NAMESRV_IMPL; export NAMESRV_IMPL"
    echo "CONTROLLER_IMPL=$CONTROLLER_IMPL; export CONTROLLER_IMPL"
    echo "CONTROLLER_BROKERS='$CONTROLLER_BROKERS'; export CONTROLLER_BROKERS"
    echo "COMPAT_RUN_DIR=$RUN_DIR; export COMPAT_RUN_DIR"
  } >"$RUN_DIR/env.sh"
  cat "$RUN_DIR/env.sh"
}

load_ha_run() {
  [ -f "$RUN_DIR/env.sh" ] || die "no $RUN_DIR/env.sh; start the servers first"
  # shellcheck disable=SC1091
  . "$RUN_DIR/env.sh"
  ROCKETMQ_HOME_DIR=$RUN_DIR/rocketmq-home
  load_net || die "no $RUN_DIR/net.env"
}

# kill_many NAME...: SIGKILL to all of them in one kill(1), then waits until each is gone.
kill_many() {
  pids="" dirs=""
  for name in "$@"; do
    d=$RUN_DIR/$name
    [ -f "$d/pid" ] || { log "$name does not run"; continue; }
    pid=$(cat "$d/pid")
    if is_ours "$pid" "$d"; then pids="$pids $pid"; dirs="$dirs $d"; else log "$name (pid $pid) is not ours"; fi
  done
  [ -n "$pids" ] || return 0
  # shellcheck disable=SC2086
  kill -KILL $pids
  log "SIGKILL to$pids ($*) at $(date +%H:%M:%S.%N | cut -c1-12)"
  for d in $dirs; do
    pid=$(cat "$d/pid")
    n=0
    while ! exited "$pid" && [ $n -lt 200 ]; do sleep 0.1; n=$((n + 1)); done
    exited "$pid" || { log "$(basename "$d") (pid $pid) still there after SIGKILL"; return 1; }
    rm -f "$d/pid"
  done
  log "gone:$pids"
}

# start_again NAME: controller-I or broker-I on its conf and store (stdout.log kept as stdout.log.N).
start_server_again() {
  name=$1 dir=$RUN_DIR/$1
  [ -d "$dir" ] || die "no $dir"
  if [ -f "$dir/pid" ] && is_ours "$(cat "$dir/pid")" "$dir"; then die "$name runs already (pid $(cat "$dir/pid"))"; fi
  n=1
  while [ -e "$dir/stdout.log.$n" ]; do n=$((n + 1)); done
  if [ -f "$dir/stdout.log" ]; then mv "$dir/stdout.log" "$dir/stdout.log.$n"; fi
  case $name in
    controller-*)
      [ "$CONTROLLER_IMPL" = java ] && SERVER_CP=$(server_classpath "$SERVER_VERSION")
      spawn_controller "${name#controller-}" "$CONTROLLER_IMPL"
      wait_server "$name" "The Controller Server boot success"
      ;;
    broker-*)
      idx=${name#broker-}
      eval "impl=\$BROKER_${idx}_IMPL"
      [ "$impl" = java ] && SERVER_CP=$(server_classpath "$SERVER_VERSION")
      spawn_broker_ha "$idx" "$impl"
      wait_server "$name" "boot success"
      ;;
    *) die "start: controller-I or broker-I, not $name" ;;
  esac
}

status_ha_all() {
  for d in "$RUN_DIR"/namesrv "$RUN_DIR"/controller-* "$RUN_DIR"/broker-*; do
    [ -f "$d/pid" ] || continue
    pid=$(cat "$d/pid")
    if is_ours "$pid" "$d"; then echo "$(basename "$d"): running, pid $pid"; else echo "$(basename "$d"): not running"; fi
  done
  [ -f "$RUN_DIR/net.env" ] && cat "$RUN_DIR/net.env"
  [ -f "$RUN_DIR/env.sh" ] && cat "$RUN_DIR/env.sh"
  return 0
}

# ---------------------------------------------------------------------------------------------
# the scenarios

run_scenario() {
  scenario=$1
  RUN_DIR=$BASE_RUN_DIR-$scenario
  export RUN_DIR
  out=$RUN_DIR.out
  rm -rf "$out"
  mkdir -p "$out"
  label="$CONTROLLER_IMPL controllers + $CONTROLLER_BROKERS"
  t0=$(date +%s)
  if ! (start_ha_all >"$out/start.log" 2>&1); then
    cat "$out/start.log" >&2
    stop_ha_all >/dev/null 2>&1
    echo "controller-ha $scenario $label: FAILED (the servers did not start; $out/start.log)" | tee "$out/summary.txt"
    return 2
  fi
  # shellcheck disable=SC1091
  . "$RUN_DIR/env.sh"
  log "$scenario: $label; RUN_DIR=$RUN_DIR (started in $(($(date +%s) - t0)) s)"
  HATOOL_HOME=$out/home JAVA_HEAP=${JAVA_HEAP:--Xms128m -Xmx768m} sh "$COMPAT_DIR/ctlha/run.sh" 5 ControllerHa \
    -scenario "$scenario" -n "$NAMESRV_ADDR" -controllers "$CONTROLLER_ADDRS" -brokers "$BROKER_ADDRS" \
    -stores "$BROKER_STORES" -b "$BROKER_NAME" -suite "$SELF" -runDir "$RUN_DIR" -out "$out" -label "$label" \
    -w "${SENDERS:-3}" -stale "${STALE_SENDERS:-2}" -othersMustCatchUp "${OTHERS_MUST_CATCH_UP:-false}" 2>&1 | tee "$out/tool.log"
  [ -s "$out/summary.txt" ] || echo "controller-ha $scenario $label: FAILED (the tool wrote no summary; $out/tool.log)" >"$out/summary.txt"
  log "$scenario: stopping the servers"
  stop_ha_all >>"$out/stop.log" 2>&1
  log "$scenario: $(($(date +%s) - t0)) s in all"
  grep -q ' ok$' "$out/summary.txt"
}

run_all() {
  [ $# -gt 0 ] || set -- leader-and-master partition
  for s in "$@"; do
    case $s in
      leader-and-master | partition) ;;
      *) die "no scenario '$s' (leader-and-master, partition)" ;;
    esac
  done
  check_impls_ha
  sh "$COMPAT_DIR/ctlha/run.sh" 5 build || exit 2
  status=0
  summaries=""
  # An interrupted run stops the servers of the scenario under way (RUN_DIR) and its network.
  trap 'stop_ha_all >/dev/null 2>&1' EXIT
  for s in "$@"; do
    run_scenario "$s"
    rc=$?
    if [ $rc = 2 ]; then status=2; elif [ $rc != 0 ] && [ $status = 0 ]; then status=1; fi
    summaries="$summaries $BASE_RUN_DIR-$s.out/summary.txt"
  done
  echo
  # shellcheck disable=SC2086
  cat $summaries
  trap - EXIT
  exit $status
}

cmd=${1:-run}
[ $# -gt 0 ] && shift
case $cmd in
  run) trap 'exit 130' INT; trap 'exit 143' TERM; run_all "$@" ;;
  start) start_ha_all ;;
  stop) stop_ha_all ;;
  status) status_ha_all ;;
  kill) load_ha_run; kill_many "$@" ;;
  start-controller) load_ha_run; start_server_again "controller-${1:?which controller, 0..2}" ;;
  start-broker) load_ha_run; start_server_again "broker-${1:?which broker, 1..N}" ;;
  cut) load_ha_run; cut_broker "${1:?which broker}" ;;
  heal) load_ha_run; heal_broker "${1:?which broker}" ;;
  *)
    echo "usage: $0 [run [leader-and-master] [partition]] | start | stop | status | kill NAME... |" \
      "start-controller I | start-broker I | cut I | heal I" >&2
    exit 2
    ;;
esac
