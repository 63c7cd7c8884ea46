#!/bin/sh
# Two proxies in cluster mode side by side in front of one broker, sharing
# their consumers through DefaultHeartBeatSyncerTopic (the HeartbeatSyncer,
# docs/reference/proxy.md §6.7), as proxies behind one load balancer do
# (POSIX sh): run-suite.sh's servers (line 5) with PROXY=cluster of
# PROXY_IMPL and a second proxy of PROXY2_IMPL (ref-servers.sh), and the
# Java suite's ProxyPairTest: a push consumer of one group on each proxy's
# remoting port; each proxy lists both, they split the queues, and every
# message is consumed once.
#
#   PROXY_IMPL=java PROXY2_IMPL=java NAMESRV_IMPL=java BROKER_IMPL=java sh compat/proxy-pair-suite.sh
#   PROXY_IMPL=java PROXY2_IMPL=go RMQGO_NAMESRV_BIN=... RMQGO_BROKER_BIN=... RMQGO_PROXY_BIN=... sh compat/proxy-pair-suite.sh
#
# NAMESRV_IMPL and BROKER_IMPL default to go, PROXY_IMPL to java and
# PROXY2_IMPL to go (the Java proxy beside ours); first ports 28876 (name
# server), 28911 (broker-a), 28081 and 28091 (the proxies' gRPC ports,
# remoting on the next one); RUN_DIR compat/target/run-proxy-pair. Extra
# arguments go to Maven. Ends with run-suite.sh's "compat: N passed, ..."
# line and its status.

set -u
COMPAT_DIR=$(cd "$(dirname "$0")" && pwd)
NAMESRV_PORT=${NAMESRV_PORT:-28876}
BROKER_PORT=${BROKER_PORT:-28911}
PROXY_PORT=${PROXY_PORT:-28081}
PROXY2_PORT=${PROXY2_PORT:-28091}
NAMESRV_IMPL=${NAMESRV_IMPL:-go}
BROKER_IMPL=${BROKER_IMPL:-go}
PROXY_IMPL=${PROXY_IMPL:-java}
PROXY2_IMPL=${PROXY2_IMPL:-go}
export NAMESRV_PORT BROKER_PORT PROXY_PORT PROXY2_PORT NAMESRV_IMPL BROKER_IMPL PROXY_IMPL PROXY2_IMPL
RUN_DIR=${RUN_DIR:-$COMPAT_DIR/target/run-proxy-pair} COMPAT_CLIENTS="" COMPAT_BROKER_B=0 \
  PROXY=cluster exec sh "$COMPAT_DIR/run-suite.sh" 5 -Dgroups=grpc -Dtest=ProxyPairTest "$@"
