#!/bin/sh
# Starts and stops a name server and two brokers on loopback for the compat
# suite (POSIX sh).
#
#   sh compat/ref-servers.sh start [4|5]   # 4: Java servers 4.9.7 (default), 5: 5.3.3
#   sh compat/ref-servers.sh stop
#   sh compat/ref-servers.sh status
#   sh compat/ref-servers.sh restart-broker a   # or b: SIGTERM, wait, start again
#   sh compat/ref-servers.sh restart-broker a java   # ... as the Java (or go) broker, same store
#   sh compat/ref-servers.sh restart-broker a --kill # SIGKILL instead of SIGTERM (a crash)
#   sh compat/ref-servers.sh stop-broker a [--kill]  # only the stop (SIGTERM, or SIGKILL), waits until gone
#   sh compat/ref-servers.sh start-broker a          # only the start, on the same conf and store
#   (a-slave names broker-a's slave of COMPAT_SLAVE=1 in the three)
#
# Which implementation runs each server:
#   NAMESRV_IMPL=java|go   go runs $RMQGO_NAMESRV_BIN -c <namesrv.properties>
#   BROKER_IMPL=java|go    go runs $RMQGO_BROKER_BIN -c <broker.conf>
# The Java servers come from Maven Central (compat/reference/pom.xml). Maven
# Central has no rocketmq-namesrv/-broker 4.9.8, so the 4.x line is 4.9.7.
#
# Ports: NAMESRV_PORT (19876), BROKER_PORT (20911), BROKER_B_PORT (21911) are
# the first choices; a port that is taken moves on by 10 until one is free
# (a broker needs listenPort-2, listenPort and listenPort+1). First choices
# stay below Linux's ephemeral range (32768-60999): there an outgoing
# connection can take a port between this check and the bind (the Java
# broker binds its HA port, listenPort+1, seconds after it starts).
#
# bindAddress=127.0.0.1 keeps the 5.x servers on loopback; 4.9.7 has no such
# key (it ignores it) and binds every interface, as does the 5.x broker's HA
# port. The brokers advertise brokerIP1=127.0.0.1.
#
# Everything lives in RUN_DIR (compat/target/run), wiped on start: one dir per
# server, used as that server's user.home (logs/rocketmqlogs, store/,
# namesrv/kvConfig.json), plus env.sh with the addresses for the tests:
#   . compat/target/run/env.sh
#
# broker-a is the broker the tests use; broker-b (same cluster) exists to be
# stopped by the unregister test (its pid is BROKER_B_PID). COMPAT_BROKER_B=0
# leaves it out. The brokers start side by side once the name server is up.
#
# restart-broker a|b stops that broker with SIGTERM (the clean shutdown;
# SIGKILL after 90 s), waits for it to exit, starts it again with the same
# broker.conf, store and implementation, and waits for its boot line. It reads
# the run's choices (line, BROKER_IMPL, RMQGO_BROKER_BIN) from RUN_DIR/env.sh,
# so it needs only RUN_DIR; the earlier output is kept as stdout.log.1, .2...
# The tests call it through COMPAT_SERVERS_SCRIPT and COMPAT_RUN_DIR (env.sh).
# "slave" names broker-a's slave (COMPAT_SLAVE=1), run as SLAVE_IMPL.
# stop-broker stops a broker the same way and leaves it stopped;
# start-broker starts a stopped one again (compat/ha-suite.sh).
# With --kill it sends SIGKILL instead (no shutdown hook: the broker restarts
# on a store it did not close, as after a crash) and waits for the process to
# be gone before it starts the broker again.
#
# Every generated broker.conf has transactionCheckInterval=1000: the broker
# looks for half messages to check every second instead of every 60 s (4.9.7;
# 30 s on 5.3.3), so that a transaction test sees its check-back within
# transactionTimeOut (Java's default 6 s, which is kept: a half message is
# checked once it is 6 s old) plus a second. BROKER_CONF_EXTRA can override it.
# It also has enablePropertyFilter=true (SQL92 subscriptions, SqlFilterTest) and
# traceTopicEnable=true (the broker makes RMQ_SYS_TRACE_TOPIC at start, for
# MessageTraceTest).
#
# COMPAT_SLAVE=1 adds broker-a's slave (RUN_DIR/broker-a-slave: brokerName
# broker-a, brokerId=1, brokerRole=SLAVE, its own store) on SLAVE_PORT (22911),
# run by SLAVE_IMPL=java|go (default BROKER_IMPL). It learns the master's HA
# address from the name server, as a Java slave without haMasterAddress does.
# env.sh then has SLAVE_ADDR and SLAVE_STORE (compat/ha-pair.sh).
#
# BROKER_A_CONF_EXTRA: lines appended to broker-a's broker.conf only, last
# (e.g. brokerRole=SYNC_MASTER for the master of COMPAT_SLAVE=1: the slave's
# brokerRole=SLAVE must not be overridden; compat/ha-kill.sh).
#
# BROKER_CONF_EXTRA: lines appended to every generated broker.conf, after the
# defaults (java.util.Properties: a later key wins), e.g.
#   BROKER_CONF_EXTRA="mappedFileSizeCommitLog=131072
#   transactionCheckInterval=1000" sh compat/ref-servers.sh start 4
# (compat/store-fixture.sh uses it for small store files).
#
# PLAIN_ACL_FILE: a plain_acl.yml (ACL 1.0) that start copies to
# RUN_DIR/rocketmq-home/conf/plain_acl.yml, the file a 4.x Java broker with
# aclEnable=true reads and watches (ROCKETMQ_HOME/conf/plain_acl.yml; every
# server of the run has ROCKETMQ_HOME=RUN_DIR/rocketmq-home). env.sh then
# exports BROKER_PLAIN_ACL_FILE, that copy's path (compat/acl-suite.sh).
#
# SERVER_JAVA_OPT_EXT: JVM flags (-Dkey=value) given to every server: put on
# the Java servers' command line, and appended to our servers' JAVA_OPT_EXT,
# which they read as the distribution's run scripts pass it to the JVM; e.g.
#   SERVER_JAVA_OPT_EXT=-Dtls.server.mode=enforcing (compat/tls-suite.sh).
# env.sh keeps it, so that restart-broker starts the broker with it again.
#
# PROXY=1 (line 5 only) starts broker-a with the proxy inside it, in local
# mode, as the 5.3.3 distribution's `sh bin/mqbroker -c broker.conf
# --enable-proxy -pc rmq-proxy.json` does: that script runs, instead of
# BrokerStartup, org.apache.rocketmq.proxy.ProxyStartup -pc rmq-proxy.json
# -pm local -bc broker.conf (its -c becomes -bc; the rest of the arguments
# pass through) with -Drmq.logback.configurationFile=rmq.proxy.logback.xml
# (proxy.log and the broker's logs, under user.home as usual). ProxyStartup
# builds the BrokerController from -bc and serves the 5.x clients' gRPC API
# on grpcServerPort and the remoting proxy on remotingListenPort, with the
# broker's own listenPort as without the proxy. The classpath adds
# org.apache.rocketmq:rocketmq-proxy (reference/pom.xml -Pproxy, cached as
# target/cp/servers-<version>-proxy.cp). For BROKER_IMPL=go the broker binary
# gets the same arguments: $RMQGO_BROKER_BIN -c broker.conf --enable-proxy
# -pc rmq-proxy.json. Either must print "rocketmq-proxy startup successfully"
# on its stdout (what ProxyStartup prints; it prints no "boot success" line).
# RUN_DIR/broker-a/rmq-proxy.json has rocketMQClusterName, namesrvAddr,
# proxyMode "local", grpcServerPort (PROXY_PORT, first choice 26081) and
# remotingListenPort (PROXY_PORT+1); PROXY_CONF_EXTRA, a JSON fragment of
# more "key": value pairs, is added to it. Only broker-a runs the proxy
# (broker-b and the slave do not). env.sh then has PROXY=1, PROXY_ADDR
# (127.0.0.1:<grpc port>) and PROXY_REMOTING_ADDR, and restart-broker a
# starts the broker with the proxy again.
#
# PROXY=cluster (line 5 only) runs the proxy as a server of its own in
# front of the brokers, in cluster mode, as the 5.3.3 distribution's
# `sh bin/mqproxy -pc rmq-proxy.json` does: the brokers start without the
# proxy, then, once they are up, the proxy of PROXY_IMPL=java|go (default
# BROKER_IMPL) in RUN_DIR/proxy (its user.home: logs/rocketmqlogs/proxy.log)
# on its own rmq-proxy.json (proxyMode "cluster", the other keys as above,
# PROXY_CONF_EXTRA too): java runs org.apache.rocketmq.proxy.ProxyStartup
# -pc rmq-proxy.json -pm cluster on the proxy classpath with
# rmq.proxy.logback.xml and PROXY_JAVA_HEAP (-Xms128m -Xmx512m); go runs
# $RMQGO_PROXY_BIN (bin/rmqgo-proxy) with the same arguments. Either must
# print "rocketmq-proxy startup successfully". It learns the brokers from
# the name server, as a Java proxy does. env.sh has PROXY=cluster,
# PROXY_IMPL and the same PROXY_PORT, PROXY_ADDR and PROXY_REMOTING_ADDR as
# with PROXY=1 (the remoting port, which remoting clients may take for their
# name server: ProxyRemotingTest). stop stops the proxy first; restart-broker
# leaves it up (it finds the broker again through the name server).
# PROXY2_IMPL=java|go (with PROXY=cluster) starts a second proxy beside it,
# in RUN_DIR/proxy2 on PROXY2_PORT (first choice PROXY_PORT+10) and the next
# port: env.sh then has PROXY2_IMPL, PROXY2_ADDR and PROXY2_REMOTING_ADDR
# (the proxies share their consumers: ProxyPairTest, proxy-pair-suite.sh).
#
# Other knobs: BOOT_TIMEOUT (seconds per server, 180), MVN (mvn),
# REF_VERSION_4 (4.9.7), REF_VERSION_5 (5.3.3),
# NAMESRV_JAVA_HEAP (-Xms128m -Xmx256m), BROKER_JAVA_HEAP (-Xms256m -Xmx512m),
# PROXY_JAVA_HEAP (-Xms128m -Xmx512m).

set -u

COMPAT_DIR=$(cd "$(dirname "$0")" && pwd)
RUN_DIR=${RUN_DIR:-$COMPAT_DIR/target/run}
CP_DIR=$COMPAT_DIR/target/cp
MVN=${MVN:-mvn}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-180}
NAMESRV_IMPL=${NAMESRV_IMPL:-java}
BROKER_IMPL=${BROKER_IMPL:-java}
COMPAT_BROKER_B=${COMPAT_BROKER_B:-1}
COMPAT_SLAVE=${COMPAT_SLAVE:-0}
PROXY=${PROXY:-0}
PROXY_IMPL=${PROXY_IMPL:-$BROKER_IMPL}
SLAVE_IMPL=${SLAVE_IMPL:-$BROKER_IMPL}
CLUSTER_NAME=${CLUSTER_NAME:-DefaultCluster}
SERVER_JAVA_OPT_EXT=${SERVER_JAVA_OPT_EXT:-}
NAMESRV_JAVA_HEAP=${NAMESRV_JAVA_HEAP:--Xms128m -Xmx256m}
BROKER_JAVA_HEAP=${BROKER_JAVA_HEAP:--Xms256m -Xmx512m -XX:MaxDirectMemorySize=512m}
PROXY_JAVA_HEAP=${PROXY_JAVA_HEAP:--Xms128m -Xmx512m}

# Java 17 closes java.base to reflection. The 4.9.7 store's MappedFile.clean()
# calls DirectByteBuffer.attachment()/cleaner() and jdk.internal.ref.Cleaner
# .clean() reflectively; without these two flags the broker's shutdown hook
# dies with InaccessibleObjectException before it unregisters from the name
# server (found by running it). 5.3.3 needs none (it uses
# Unsafe.invokeCleaner on Java 9+). REF_JAVA_FLAGS overrides them.
JAVA17_OPENS_4=${REF_JAVA_FLAGS-"--add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/jdk.internal.ref=ALL-UNNAMED"}
JAVA17_OPENS_5=${REF_JAVA_FLAGS-""}

log() { echo "ref-servers: $*" >&2; }
die() { log "$*"; exit 1; }

# port_in_use PORT: true when a local TCP socket other than a TIME_WAIT one
# (state 06, which SO_REUSEADDR binds over) has PORT as its local port
# (Linux /proc); else a connect probe with bash; else assumes free.
port_in_use() {
  hex=$(printf '%04X' "$1")
  if [ -r /proc/net/tcp ]; then
    cat /proc/net/tcp /proc/net/tcp6 2>/dev/null |
      awk -v h=":$hex" 'substr($2, length($2) - 4) == h && $4 != "06" { found = 1 } END { exit !found }'
    return $?
  fi
  if command -v bash >/dev/null 2>&1; then
    bash -c "exec 3<>/dev/tcp/127.0.0.1/$1" 2>/dev/null
    return $?
  fi
  return 1
}

# free_port FIRST SPAN...: the first of FIRST, FIRST+10, ... such that
# FIRST+d is free for every offset d given.
free_port() {
  p=$1; shift
  tries=0
  while [ $tries -lt 200 ]; do
    ok=1
    for d in "$@"; do
      if port_in_use $((p + d)); then ok=0; break; fi
    done
    if [ $ok = 1 ]; then echo "$p"; return 0; fi
    p=$((p + 10)); tries=$((tries + 1))
  done
  return 1
}

# pick VAR FIRST OFFSET...: sets VAR to a port P found by free_port that
# also clashes with no port picked earlier in this run.
PICKED=""
pick() {
  var=$1 first=$2; shift 2
  p=$first
  while :; do
    p=$(free_port "$p" "$@") || die "no free port near $first"
    clash=0
    for d in "$@"; do
      for q in $PICKED; do [ $((p + d)) = "$q" ] && clash=1; done
    done
    [ $clash = 0 ] && break
    p=$((p + 10))
  done
  for d in "$@"; do PICKED="$PICKED $((p + d))"; done
  eval "$var=$p"
}

# server_classpath VERSION [proxy]: prints the path of the cached classpath
# file (with "proxy": the one that adds rocketmq-proxy).
server_classpath() {
  version=$1
  cpfile=$CP_DIR/servers-$version.cp
  profile=""
  if [ "${2:-}" = proxy ]; then
    cpfile=$CP_DIR/servers-$version-proxy.cp
    profile="-Pproxy"
  fi
  mkdir -p "$CP_DIR"
  if [ ! -s "$cpfile" ] || [ "$COMPAT_DIR/reference/pom.xml" -nt "$cpfile" ]; then
    log "resolving rocketmq-namesrv and rocketmq-broker $version${profile:+ and rocketmq-proxy} from Maven Central"
    # shellcheck disable=SC2086
    "$MVN" -q -B -Dstyle.color=never -f "$COMPAT_DIR/reference/pom.xml" -Drmq.server.version="$version" $profile \
      dependency:build-classpath -Dmdep.includeScope=runtime -Dmdep.outputFile="$cpfile.tmp" >&2 ||
      die "mvn could not resolve the $version servers"
    mv "$cpfile.tmp" "$cpfile"
  fi
  echo "$cpfile"
}

# wait_boot NAME PID LOGFILE PATTERN: polls LOGFILE for PATTERN until
# BOOT_TIMEOUT; fails early when the process dies.
wait_boot() {
  name=$1 pid=$2 file=$3 pattern=$4
  deadline=$(( $(date +%s) + BOOT_TIMEOUT ))
  while :; do
    if grep -q "$pattern" "$file" 2>/dev/null; then
      log "$name up (pid $pid): $(grep "$pattern" "$file" | head -1)"
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      log "$name (pid $pid) exited before booting; last output:"
      tail -40 "$file" >&2
      return 1
    fi
    if [ "$(date +%s)" -ge "$deadline" ]; then
      log "$name did not print '$pattern' within ${BOOT_TIMEOUT}s; last output:"
      tail -40 "$file" >&2
      return 1
    fi
    sleep 0.3
  done
}

# spawn DIR CMD...: runs CMD in the background with cwd DIR, output to
# DIR/stdout.log, pid to DIR/pid.
spawn() {
  dir=$1; shift
  (cd "$dir" && exec "$@" >"$dir/stdout.log" 2>&1 </dev/null) &
  echo "$!" >"$dir/pid"
}

# launch NAME DIR LOGPATTERN CMD...: spawn, then wait for the boot line.
launch() {
  name=$1 dir=$2 pattern=$3; shift 3
  spawn "$dir" "$@"
  wait_boot "$name" "$(cat "$dir/pid")" "$dir/stdout.log" "$pattern"
}

start_namesrv() {
  dir=$RUN_DIR/namesrv
  mkdir -p "$dir"
  cat >"$dir/namesrv.properties" <<EOF
listenPort=$NAMESRV_PORT
bindAddress=127.0.0.1
EOF
  case $NAMESRV_IMPL in
    java)
      cp=$(cat "$SERVER_CP")
      logcfg=""
      [ "$LINE" = 5 ] && logcfg="-Drmq.logback.configurationFile=rmq.namesrv.logback.xml"
      # shellcheck disable=SC2086
      launch namesrv "$dir" "The Name Server boot success" \
        env ROCKETMQ_HOME="$ROCKETMQ_HOME_DIR" \
        java $NAMESRV_JAVA_HEAP $JAVA_FLAGS $SERVER_JAVA_OPT_EXT -Duser.home="$dir" $logcfg \
        -cp "$cp" org.apache.rocketmq.namesrv.NamesrvStartup -c "$dir/namesrv.properties"
      ;;
    go)
      launch namesrv "$dir" "The Name Server boot success" \
        env ROCKETMQ_HOME="$ROCKETMQ_HOME_DIR" JAVA_OPT_EXT="-Duser.home=$dir $SERVER_JAVA_OPT_EXT" RMQGO_LINE="$LINE" \
        "$RMQGO_NAMESRV_BIN" -c "$dir/namesrv.properties"
      ;;
  esac
}

# start_broker NAME PORT: writes NAME's broker.conf and spawns the broker;
# wait_broker NAME waits for it.
start_broker() {
  bname=$1 bport=$2
  dir=$RUN_DIR/$bname
  mkdir -p "$dir"
  cat >"$dir/broker.conf" <<EOF
brokerClusterName=$CLUSTER_NAME
brokerName=${3:-$bname}
brokerId=${4:-0}
brokerRole=${5:-ASYNC_MASTER}
flushDiskType=ASYNC_FLUSH
deleteWhen=04
fileReservedTime=48
brokerIP1=127.0.0.1
bindAddress=127.0.0.1
listenPort=$bport
namesrvAddr=127.0.0.1:$NAMESRV_PORT
autoCreateTopicEnable=true
storePathRootDir=$dir/store
storePathCommitLog=$dir/store/commitlog
mappedFileSizeCommitLog=67108864
# Transaction check-backs within seconds for the transaction tests (see the top of ref-servers.sh).
transactionCheckInterval=1000
# SQL92 subscriptions (MessageSelector.bySql), off by default in Java, for SqlFilterTest.
enablePropertyFilter=true
# The message trace topic (msgTraceTopicName, RMQ_SYS_TRACE_TOPIC) made at start, for MessageTraceTest.
traceTopicEnable=true
EOF
  if [ -n "${BROKER_CONF_EXTRA:-}" ]; then
    printf '%s\n' "$BROKER_CONF_EXTRA" >>"$dir/broker.conf"
  fi
  if [ "$bname" = broker-a ] && [ -n "${BROKER_A_CONF_EXTRA:-}" ]; then
    printf '%s\n' "$BROKER_A_CONF_EXTRA" >>"$dir/broker.conf"
  fi
  if has_proxy "$bname"; then
    write_proxy_conf "$dir" local
  fi
  spawn_broker "$bname"
}

# has_proxy NAME: the broker of RUN_DIR/NAME runs with the proxy (PROXY=1: broker-a).
has_proxy() {
  [ "$PROXY" = 1 ] && [ "$1" = broker-a ]
}

# write_proxy_conf DIR local|cluster [PORT]: DIR/rmq-proxy.json, the proxy's config (ProxyConfig's
# keys), gRPC on PORT (default PROXY_PORT) and remoting on PORT+1.
write_proxy_conf() {
  port=${3:-$PROXY_PORT}
  {
    echo "{"
    echo "  \"rocketMQClusterName\": \"$CLUSTER_NAME\","
    echo "  \"namesrvAddr\": \"127.0.0.1:$NAMESRV_PORT\","
    echo "  \"proxyMode\": \"$2\","
    if [ -n "${PROXY_CONF_EXTRA:-}" ]; then
      printf '%s,\n' "$PROXY_CONF_EXTRA"
    fi
    echo "  \"grpcServerPort\": $port,"
    echo "  \"remotingListenPort\": $((port + 1))"
    echo "}"
  } >"$1/rmq-proxy.json"
}

# spawn_broker NAME: runs the broker of RUN_DIR/NAME on its broker.conf
# (with the proxy, has_proxy, as mqbroker --enable-proxy -pc rmq-proxy.json runs it).
spawn_broker() {
  dir=$RUN_DIR/$1
  if has_proxy "$1"; then
    spawn_broker_proxy "$1"
    return
  fi
  case $BROKER_IMPL in
    java)
      cp=$(cat "$SERVER_CP")
      logcfg=""
      [ "$LINE" = 5 ] && logcfg="-Drmq.logback.configurationFile=rmq.broker.logback.xml"
      # shellcheck disable=SC2086
      spawn "$dir" \
        env ROCKETMQ_HOME="$ROCKETMQ_HOME_DIR" \
        java $BROKER_JAVA_HEAP $JAVA_FLAGS $SERVER_JAVA_OPT_EXT -Duser.home="$dir" $logcfg \
        -cp "$cp" org.apache.rocketmq.broker.BrokerStartup -c "$dir/broker.conf"
      ;;
    go)
      spawn "$dir" \
        env ROCKETMQ_HOME="$ROCKETMQ_HOME_DIR" JAVA_OPT_EXT="-Duser.home=$dir $SERVER_JAVA_OPT_EXT" RMQGO_LINE="$LINE" \
        "$RMQGO_BROKER_BIN" -c "$dir/broker.conf"
      ;;
  esac
}

# spawn_broker_proxy NAME: what the 5.3.3 distribution's mqbroker runs for
# `sh bin/mqbroker -c broker.conf --enable-proxy -pc rmq-proxy.json`
# (ProxyStartup, local mode); ours gets those arguments as they are.
spawn_broker_proxy() {
  dir=$RUN_DIR/$1
  case $BROKER_IMPL in
    java)
      # shellcheck disable=SC2086
      spawn "$dir" \
        env ROCKETMQ_HOME="$ROCKETMQ_HOME_DIR" \
        java $BROKER_JAVA_HEAP $JAVA_FLAGS $SERVER_JAVA_OPT_EXT -Duser.home="$dir" \
        -Drmq.logback.configurationFile=rmq.proxy.logback.xml \
        -cp "$(cat "$PROXY_CP")" org.apache.rocketmq.proxy.ProxyStartup \
        -pc "$dir/rmq-proxy.json" -pm local -bc "$dir/broker.conf"
      ;;
    go)
      spawn "$dir" \
        env ROCKETMQ_HOME="$ROCKETMQ_HOME_DIR" JAVA_OPT_EXT="-Duser.home=$dir $SERVER_JAVA_OPT_EXT" RMQGO_LINE="$LINE" \
        "$RMQGO_BROKER_BIN" -c "$dir/broker.conf" --enable-proxy -pc "$dir/rmq-proxy.json"
      ;;
  esac
}

# start_proxy: the proxy of PROXY=cluster in RUN_DIR/proxy, on its own in
# front of the brokers, as the 5.3.3 distribution's `sh bin/mqproxy -pc
# rmq-proxy.json` runs it (ProxyStartup, cluster mode; -pm says so too);
# ours (rmqgo-proxy, bin/mqproxy's binary) gets the same arguments. Waits
# for its boot line.
# start_proxy [NAME IMPL PORT]: the same for a proxy of IMPL in RUN_DIR/NAME
# on PORT (default: proxy, PROXY_IMPL, PROXY_PORT; proxy2 is PROXY2_IMPL's).
start_proxy() {
  pname=${1:-proxy}
  pimpl=${2:-$PROXY_IMPL}
  dir=$RUN_DIR/$pname
  mkdir -p "$dir"
  write_proxy_conf "$dir" cluster "${3:-$PROXY_PORT}"
  case $pimpl in
    java)
      # The Java proxy exits at start when the name server does not route
      # the cluster's topic yet (HeartbeatSyncer's topic, made on the
      # cluster's brokers): the broker's first registration can come after
      # its boot line. It is started again then, up to 10 times.
      tries=1
      # shellcheck disable=SC2086
      until launch "$pname" "$dir" "rocketmq-proxy startup successfully" \
        env ROCKETMQ_HOME="$ROCKETMQ_HOME_DIR" \
        java $PROXY_JAVA_HEAP $JAVA_FLAGS $SERVER_JAVA_OPT_EXT -Duser.home="$dir" \
        -Drmq.logback.configurationFile=rmq.proxy.logback.xml \
        -cp "$(cat "$PROXY_CP")" org.apache.rocketmq.proxy.ProxyStartup \
        -pc "$dir/rmq-proxy.json" -pm cluster; do
        grep -q 'create system broadcast topic' "$dir/stdout.log" && [ $tries -lt 10 ] || return 1
        log "$pname: the name server does not route the cluster yet; starting the Java proxy again"
        tries=$((tries + 1))
        sleep 2
      done
      ;;
    go)
      launch "$pname" "$dir" "rocketmq-proxy startup successfully" \
        env ROCKETMQ_HOME="$ROCKETMQ_HOME_DIR" JAVA_OPT_EXT="-Duser.home=$dir $SERVER_JAVA_OPT_EXT" RMQGO_LINE="$LINE" \
        "$RMQGO_PROXY_BIN" -pc "$dir/rmq-proxy.json" -pm cluster
      ;;
  esac
}

# The boot line: ProxyStartup prints its own (after the broker's start), not BrokerStartup's.
wait_broker() {
  pattern="boot success"
  has_proxy "$1" && pattern="rocketmq-proxy startup successfully"
  wait_boot "$1" "$(cat "$RUN_DIR/$1/pid")" "$RUN_DIR/$1/stdout.log" "$pattern"
}

# is_ours PID DIR: the process is alive and was started with a file in DIR.
is_ours() {
  kill -0 "$1" 2>/dev/null || return 1
  [ -r "/proc/$1/cmdline" ] || return 0
  tr '\0' ' ' <"/proc/$1/cmdline" | grep -q -F "$2"
}

# signal_one DIR: SIGTERM (the servers' clean shutdown) to the server of DIR
# if it is still the process we started.
signal_one() {
  [ -f "$1/pid" ] || return 0
  pid=$(cat "$1/pid")
  if is_ours "$pid" "$1"; then kill -TERM "$pid" 2>/dev/null; else rm -f "$1/pid"; fi
}

# exited PID: the process has ended: no such process, or a zombie with no
# thread left but its first (then it holds no files, so no lock). Not
# is_ours: a dying process's command line reads empty once its memory is
# released, while its last threads still hold its files (the store's lock
# among them) for as long as a large JVM's unmapping takes. Nor the first
# thread's state alone: it turns zombie as soon as it has exited, while the
# others may still be exiting with the files (CI: acl2-rocksdb "lock
# failed" again after SIGKILL).
exited() {
  [ -r "/proc/$1/stat" ] || return 0
  case $(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1) in
    Z | X | '') [ "$(ls "/proc/$1/task" 2>/dev/null | wc -l)" -le 1 ] && return 0 ;;
  esac
  return 1
}

# kill_one DIR: SIGKILL to the server of DIR if it is still the process we
# started, and waits (up to 60 s) until it has exited.
kill_one() {
  [ -f "$1/pid" ] || return 0
  pid=$(cat "$1/pid")
  if is_ours "$pid" "$1"; then
    kill -KILL "$pid" 2>/dev/null
    n=0
    while ! exited "$pid" && [ $n -lt 200 ]; do sleep 0.3; n=$((n + 1)); done
    if ! exited "$pid"; then log "$(basename "$1") (pid $pid) still there 60s after SIGKILL"; return 1; fi
    log "$(basename "$1") (pid $pid) killed"
  fi
  rm -f "$1/pid"
}

# reap_one DIR: waits for the signalled server of DIR; SIGKILL after 90 s.
reap_one() {
  [ -f "$1/pid" ] || return 0
  pid=$(cat "$1/pid")
  n=0
  while kill -0 "$pid" 2>/dev/null && [ $n -lt 300 ]; do sleep 0.3; n=$((n + 1)); done
  if kill -0 "$pid" 2>/dev/null; then
    log "$(basename "$1") (pid $pid) ignored SIGTERM for 90s; SIGKILL"
    kill -KILL "$pid" 2>/dev/null
  else
    log "$(basename "$1") (pid $pid) stopped"
  fi
  rm -f "$1/pid"
}

stop_all() {
  [ -d "$RUN_DIR" ] || return 0
  # The proxies of PROXY=cluster first, while the brokers they talk to are up.
  for d in "$RUN_DIR"/proxy "$RUN_DIR"/proxy2; do [ -d "$d" ] && signal_one "$d"; done
  for d in "$RUN_DIR"/proxy "$RUN_DIR"/proxy2; do [ -d "$d" ] && reap_one "$d"; done
  # Brokers next (all at once), so that they unregister from a live name server.
  for d in "$RUN_DIR"/broker-*; do [ -d "$d" ] && signal_one "$d"; done
  for d in "$RUN_DIR"/broker-*; do [ -d "$d" ] && reap_one "$d"; done
  signal_one "$RUN_DIR/namesrv"
  reap_one "$RUN_DIR/namesrv"
  return 0
}

status_all() {
  for d in "$RUN_DIR"/namesrv "$RUN_DIR"/broker-* "$RUN_DIR"/proxy "$RUN_DIR"/proxy2; do
    [ -f "$d/pid" ] || continue
    pid=$(cat "$d/pid")
    if is_ours "$pid" "$d"; then echo "$(basename "$d"): running, pid $pid"; else echo "$(basename "$d"): not running"; fi
  done
  [ -f "$RUN_DIR/env.sh" ] && cat "$RUN_DIR/env.sh"
  return 0
}

# check_impls: every chosen implementation can be run, before any starts.
check_impls() {
  case $NAMESRV_IMPL in
    java) ;;
    go)
      [ -n "${RMQGO_NAMESRV_BIN:-}" ] || die "NAMESRV_IMPL=go needs RMQGO_NAMESRV_BIN"
      [ -x "$RMQGO_NAMESRV_BIN" ] || die "RMQGO_NAMESRV_BIN=$RMQGO_NAMESRV_BIN is not executable (make build?)"
      ;;
    *) die "NAMESRV_IMPL must be java or go, not $NAMESRV_IMPL" ;;
  esac
  case $BROKER_IMPL in
    java) ;;
    go)
      [ -n "${RMQGO_BROKER_BIN:-}" ] || die "BROKER_IMPL=go needs RMQGO_BROKER_BIN"
      [ -x "$RMQGO_BROKER_BIN" ] || die "RMQGO_BROKER_BIN=$RMQGO_BROKER_BIN is not executable (make build?)"
      ;;
    *) die "BROKER_IMPL must be java or go, not $BROKER_IMPL" ;;
  esac
  if [ "$COMPAT_SLAVE" = 1 ]; then
    case $SLAVE_IMPL in
      java) ;;
      go) [ -x "${RMQGO_BROKER_BIN:-}" ] || die "SLAVE_IMPL=go needs RMQGO_BROKER_BIN (executable)" ;;
      *) die "SLAVE_IMPL must be java or go, not $SLAVE_IMPL" ;;
    esac
  fi
  case $PROXY in
    0) ;;
    1) [ "$LINE" = 5 ] || die "PROXY=1 needs line 5 (the proxy is 5.x's)" ;;
    cluster)
      [ "$LINE" = 5 ] || die "PROXY=cluster needs line 5 (the proxy is 5.x's)"
      case $PROXY_IMPL in
        java) ;;
        go)
          [ -n "${RMQGO_PROXY_BIN:-}" ] || die "PROXY_IMPL=go needs RMQGO_PROXY_BIN"
          [ -x "$RMQGO_PROXY_BIN" ] || die "RMQGO_PROXY_BIN=$RMQGO_PROXY_BIN is not executable (make build?)"
          ;;
        *) die "PROXY_IMPL must be java or go, not $PROXY_IMPL" ;;
      esac
      ;;
    *) die "PROXY must be 0, 1 or cluster, not $PROXY" ;;
  esac
}

impl_desc() {
  if [ "$1" = java ]; then echo "java $SERVER_VERSION"; else echo "go"; fi
}

# line_vars: SERVER_VERSION and JAVA_FLAGS of LINE.
line_vars() {
  case $LINE in
    4) SERVER_VERSION=${REF_VERSION_4:-4.9.7}; JAVA_FLAGS=$JAVA17_OPENS_4 ;;
    5) SERVER_VERSION=${REF_VERSION_5:-5.3.3}; JAVA_FLAGS=$JAVA17_OPENS_5 ;;
    *) die "line must be 4 or 5, not $LINE" ;;
  esac
}

start_all() {
  line_vars
  check_impls
  stop_all
  rm -rf "$RUN_DIR"
  mkdir -p "$RUN_DIR"
  ROCKETMQ_HOME_DIR=$RUN_DIR/rocketmq-home
  mkdir -p "$ROCKETMQ_HOME_DIR/conf"
  # the 4.x servers read these (our distribution's, which Java's read as its own)
  cp "$COMPAT_DIR"/../distribution/conf-4/logback_namesrv.xml "$COMPAT_DIR"/../distribution/conf-4/logback_broker.xml "$ROCKETMQ_HOME_DIR/conf/"
  if [ -n "${PLAIN_ACL_FILE:-}" ]; then
    cp "$PLAIN_ACL_FILE" "$ROCKETMQ_HOME_DIR/conf/plain_acl.yml" || die "cannot copy PLAIN_ACL_FILE=$PLAIN_ACL_FILE"
  fi

  if [ "$NAMESRV_IMPL" = java ] || [ "$BROKER_IMPL" = java ] || { [ "$COMPAT_SLAVE" = 1 ] && [ "$SLAVE_IMPL" = java ]; }; then
    SERVER_CP=$(server_classpath "$SERVER_VERSION") || exit 1
  fi
  if { [ "$PROXY" = 1 ] && [ "$BROKER_IMPL" = java ]; } || { [ "$PROXY" = cluster ] && [ "$PROXY_IMPL" = java ]; } ||
    [ "${PROXY2_IMPL:-}" = java ]; then
    PROXY_CP=$(server_classpath "$SERVER_VERSION" proxy) || exit 1
  fi

  pick NAMESRV_PORT "${NAMESRV_PORT:-19876}" 0
  pick BROKER_PORT "${BROKER_PORT:-20911}" -2 0 1
  if [ "$COMPAT_BROKER_B" = 1 ]; then
    pick BROKER_B_PORT "${BROKER_B_PORT:-21911}" -2 0 1
  fi
  if [ "$COMPAT_SLAVE" = 1 ]; then
    pick SLAVE_PORT "${SLAVE_PORT:-22911}" -2 0 1
  fi
  if [ "$PROXY" != 0 ]; then
    # grpcServerPort, and remotingListenPort next to it
    pick PROXY_PORT "${PROXY_PORT:-26081}" 0 1
  fi
  if [ -n "${PROXY2_IMPL:-}" ]; then
    [ "$PROXY" = cluster ] || die "PROXY2_IMPL needs PROXY=cluster"
    pick PROXY2_PORT "${PROXY2_PORT:-$((PROXY_PORT + 10))}" 0 1
  fi

  log "name server: $(impl_desc "$NAMESRV_IMPL") on 127.0.0.1:$NAMESRV_PORT; brokers: $(impl_desc "$BROKER_IMPL")"
  if [ "$PROXY" = 1 ]; then
    log "broker-a with the proxy (local mode): gRPC on 127.0.0.1:$PROXY_PORT, remoting proxy on $((PROXY_PORT + 1))"
  elif [ "$PROXY" = cluster ]; then
    log "the proxy (cluster mode): $(impl_desc "$PROXY_IMPL"), gRPC on 127.0.0.1:$PROXY_PORT, remoting proxy on $((PROXY_PORT + 1))"
  fi

  start_namesrv || { stop_all; exit 1; }
  # The brokers boot side by side.
  start_broker broker-a "$BROKER_PORT"
  [ "$COMPAT_BROKER_B" = 1 ] && start_broker broker-b "$BROKER_B_PORT"
  wait_broker broker-a || { stop_all; exit 1; }
  if [ "$COMPAT_BROKER_B" = 1 ]; then
    wait_broker broker-b || { stop_all; exit 1; }
  fi
  if [ "$COMPAT_SLAVE" = 1 ]; then
    log "broker-a's slave: $(impl_desc "$SLAVE_IMPL") on 127.0.0.1:$SLAVE_PORT"
    (BROKER_IMPL=$SLAVE_IMPL; start_broker broker-a-slave "$SLAVE_PORT" broker-a 1 SLAVE)
    wait_broker broker-a-slave || { stop_all; exit 1; }
  fi
  if [ "$PROXY" = cluster ]; then
    start_proxy || { stop_all; exit 1; }
  fi
  if [ -n "${PROXY2_IMPL:-}" ]; then
    log "a second proxy (cluster mode): $(impl_desc "$PROXY2_IMPL"), gRPC on 127.0.0.1:$PROXY2_PORT, remoting proxy on $((PROXY2_PORT + 1))"
    start_proxy proxy2 "$PROXY2_IMPL" "$PROXY2_PORT" || { stop_all; exit 1; }
  fi

  {
    echo "# written by compat/ref-servers.sh start $LINE; source it: . $RUN_DIR/env.sh"
    echo "NAMESRV_ADDR=127.0.0.1:$NAMESRV_PORT; export NAMESRV_ADDR"
    echo "CLUSTER_NAME=$CLUSTER_NAME; export CLUSTER_NAME"
    echo "BROKER_NAME=broker-a; export BROKER_NAME"
    echo "BROKER_ADDR=127.0.0.1:$BROKER_PORT; export BROKER_ADDR"
    if [ "$COMPAT_BROKER_B" = 1 ]; then
      echo "BROKER_B_NAME=broker-b; export BROKER_B_NAME"
      echo "BROKER_B_ADDR=127.0.0.1:$BROKER_B_PORT; export BROKER_B_ADDR"
      echo "BROKER_B_PID=$(cat "$RUN_DIR/broker-b/pid"); export BROKER_B_PID"
    fi
    if [ "$COMPAT_SLAVE" = 1 ]; then
      echo "SLAVE_ADDR=127.0.0.1:$SLAVE_PORT; export SLAVE_ADDR"
      echo "SLAVE_IMPL=$SLAVE_IMPL; export SLAVE_IMPL"
      echo "SLAVE_STORE=$RUN_DIR/broker-a-slave/store; export SLAVE_STORE"
      echo "MASTER_STORE=$RUN_DIR/broker-a/store; export MASTER_STORE"
    fi
    echo "NAMESRV_IMPL=$NAMESRV_IMPL; export NAMESRV_IMPL"
    echo "BROKER_IMPL=$BROKER_IMPL; export BROKER_IMPL"
    echo "REF_SERVER_LINE=$LINE; export REF_SERVER_LINE"
    echo "REF_SERVER_VERSION=$SERVER_VERSION; export REF_SERVER_VERSION"
    echo "COMPAT_RUN_DIR=$RUN_DIR; export COMPAT_RUN_DIR"
    echo "COMPAT_SERVERS_SCRIPT=$COMPAT_DIR/ref-servers.sh; export COMPAT_SERVERS_SCRIPT"
    echo "SERVER_JAVA_OPT_EXT='$SERVER_JAVA_OPT_EXT'; export SERVER_JAVA_OPT_EXT"
    if [ "$PROXY" != 0 ]; then
      echo "PROXY=$PROXY; export PROXY"
      [ "$PROXY" = cluster ] && echo "PROXY_IMPL=$PROXY_IMPL; export PROXY_IMPL"
      echo "PROXY_PORT=$PROXY_PORT; export PROXY_PORT"
      echo "PROXY_ADDR=127.0.0.1:$PROXY_PORT; export PROXY_ADDR"
      echo "PROXY_REMOTING_ADDR=127.0.0.1:$((PROXY_PORT + 1)); export PROXY_REMOTING_ADDR"
    fi
    if [ -n "${PROXY2_IMPL:-}" ]; then
      echo "PROXY2_IMPL=$PROXY2_IMPL; export PROXY2_IMPL"
      echo "PROXY2_ADDR=127.0.0.1:$PROXY2_PORT; export PROXY2_ADDR"
      echo "PROXY2_REMOTING_ADDR=127.0.0.1:$((PROXY2_PORT + 1)); export PROXY2_REMOTING_ADDR"
    fi
    if [ -n "${PLAIN_ACL_FILE:-}" ]; then
      echo "BROKER_PLAIN_ACL_FILE=$ROCKETMQ_HOME_DIR/conf/plain_acl.yml; export BROKER_PLAIN_ACL_FILE"
    fi
    if [ "$BROKER_IMPL" = go ] || { [ "$COMPAT_SLAVE" = 1 ] && [ "$SLAVE_IMPL" = go ]; }; then
      echo "RMQGO_BROKER_BIN=$RMQGO_BROKER_BIN; export RMQGO_BROKER_BIN"
    fi
  } >"$RUN_DIR/env.sh"
  cat "$RUN_DIR/env.sh"
}

# broker_dir_name a|b|a-slave: the folder name of that broker (broker-a,
# broker-b, broker-a-slave); broker-a etc. are taken as well.
broker_dir_name() {
  case ${1:-} in
    a|b|a-slave) echo "broker-$1" ;;
    slave) echo broker-a-slave ;;
    broker-a|broker-b|broker-a-slave) echo "$1" ;;
    *) die "which broker, a, b or a-slave (slave)? (got '${1:-}')" ;;
  esac
}

# load_run BROKERDIR [java|go]: reads the run's choices from RUN_DIR/env.sh
# (they win over this shell's environment) and sets BROKER_IMPL to the
# implementation BROKERDIR runs (SLAVE_IMPL for the slave; an explicit
# java|go wins: the store handover test restarts a broker as the other one
# on the same store, and the next plain restart goes back).
load_run() {
  bname=$1 impl_arg=${2:-}
  dir=$RUN_DIR/$bname
  { [ -f "$RUN_DIR/env.sh" ] && [ -f "$dir/broker.conf" ]; } ||
    die "no $RUN_DIR/env.sh or $dir/broker.conf; start the servers first"
  PROXY=0 # a run with the proxy says so in its env.sh
  # shellcheck disable=SC1091
  . "$RUN_DIR/env.sh"
  if [ "$bname" = broker-a-slave ]; then BROKER_IMPL=${SLAVE_IMPL:-$BROKER_IMPL}; fi
  if [ -n "$impl_arg" ]; then BROKER_IMPL=$impl_arg; fi
  LINE=$REF_SERVER_LINE
  line_vars
  ROCKETMQ_HOME_DIR=$RUN_DIR/rocketmq-home
  case $BROKER_IMPL in
    java)
      SERVER_CP=$(server_classpath "$SERVER_VERSION") || exit 1
      if has_proxy "$bname"; then PROXY_CP=$(server_classpath "$SERVER_VERSION" proxy) || exit 1; fi
      ;;
    go) [ -x "${RMQGO_BROKER_BIN:-}" ] || die "RMQGO_BROKER_BIN=${RMQGO_BROKER_BIN:-} is not executable" ;;
    *) die "BROKER_IMPL must be java or go, not $BROKER_IMPL" ;;
  esac
}

# stop_broker BROKERDIR KILL: SIGTERM (KILL=1: SIGKILL) to that broker if
# it runs, and waits until it is gone.
stop_broker() {
  dir=$RUN_DIR/$1
  [ -f "$dir/pid" ] || return 0
  if [ "$2" = 1 ]; then
    log "$1: SIGKILL to pid $(cat "$dir/pid")"
    kill_one "$dir" || exit 1
  else
    log "$1: SIGTERM to pid $(cat "$dir/pid")"
    signal_one "$dir"
    reap_one "$dir"
  fi
}

# start_again BROKERDIR: starts that broker on its broker.conf and store
# (the earlier output is kept as stdout.log.1, .2...) and waits for its
# boot line; load_run first.
start_again() {
  bname=$1 dir=$RUN_DIR/$1
  if [ -f "$dir/pid" ] && is_ours "$(cat "$dir/pid")" "$dir"; then die "$bname runs already (pid $(cat "$dir/pid"))"; fi
  n=1
  while [ -e "$dir/stdout.log.$n" ]; do n=$((n + 1)); done
  if [ -f "$dir/stdout.log" ]; then mv "$dir/stdout.log" "$dir/stdout.log.$n"; fi
  spawn_broker "$bname"
  wait_broker "$bname" || exit 1
  if [ "$bname" = broker-b ]; then
    pid=$(cat "$dir/pid")
    sed "s/^BROKER_B_PID=[0-9]*;/BROKER_B_PID=$pid;/" "$RUN_DIR/env.sh" >"$RUN_DIR/env.sh.tmp" &&
      mv "$RUN_DIR/env.sh.tmp" "$RUN_DIR/env.sh"
  fi
}

# broker_args CMD a|b|a-slave [java|go] [--kill]: sets bname, impl_arg and
# kill_it from a broker subcommand's arguments.
broker_args() {
  cmd_name=$1; shift
  bname=$(broker_dir_name "${1:-}") || exit 1
  shift
  impl_arg="" kill_it=0
  for a in "$@"; do
    case $a in
      --kill) kill_it=1 ;;
      java|go) impl_arg=$a ;;
      "") ;;
      *) die "$cmd_name: unknown argument '$a' (java, go or --kill)" ;;
    esac
  done
}

# restart_broker a|b|a-slave [java|go] [--kill]: SIGTERM (--kill: SIGKILL)
# to that broker, wait for it to exit, start it again with the same
# broker.conf, store and implementation as the run that RUN_DIR/env.sh
# describes, and wait for its boot line.
restart_broker() {
  broker_args restart-broker "$@"
  load_run "$bname" "$impl_arg"
  stop_broker "$bname" "$kill_it"
  start_again "$bname"
}

# REF_SERVERS_LIB=1: sourced for its functions (compat/controller-suite.sh); no command runs.
[ "${REF_SERVERS_LIB:-0}" = 1 ] && return 0

cmd=${1:-}
case $cmd in
  start) LINE=${2:-4}; start_all ;;
  stop) stop_all ;;
  status) status_all ;;
  restart-broker) shift; restart_broker "$@" ;;
  stop-broker) shift; broker_args stop-broker "$@"; stop_broker "$bname" "$kill_it" ;;
  start-broker) shift; broker_args start-broker "$@"; load_run "$bname" "$impl_arg"; start_again "$bname" ;;
  *) echo "usage: $0 start [4|5] | stop | status | restart-broker|stop-broker|start-broker a|b|a-slave [java|go] [--kill]" >&2; exit 2 ;;
esac
