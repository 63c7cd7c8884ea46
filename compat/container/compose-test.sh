#!/bin/sh
# Brings up the compose files of distribution/compose/ with podman-compose
# and checks each deployment (POSIX sh; make image first):
#
#   sh compat/container/compose-test.sh
#
# For seed-4.8.0.yml and apache-5.3.3.yml in turn: the folders their
# comments ask for, `podman-compose up -d` of the name server, the broker
# and the console (localhost/rmqgo-console:1.0.0 for seed-4.8.0.yml, :2.1.0
# for apache-5.3.3.yml: make image-console; without its image a console is
# left out, saying so in one line), each from a copy of the file in a
# folder of its own (a compose file's relative paths are its folder's), the
# healthchecks pass (podman healthcheck run: podman runs them on a timer
# only under systemd), 100 messages sent and consumed through the published
# ports, the broker's logs and store in the mounted folders, for
# apache-5.3.3.yml its proxy (sh mqproxy) and 100 messages sent and one
# received through the proxy's published gRPC port, the console's
# index page and its cluster page's call (GET /cluster/list.query, listing
# broker-a) through its published port (console-lib.sh), then
# `podman-compose down`. podman-compose runs plain podman, so the runtime,
# cgroup manager and ulimits this machine needs come from a containers.conf
# of the test's own (CONTAINERS_CONF). The default ports must be free.
# Last, the entrypoint's controller role: localhost/rmqgo:5.3.3 started with
# `controller -c` and the release's conf/controller/controller-standalone.conf
# (one DLedger peer n0 on 9878; with no file a controller refuses to start,
# as Java's does) boots its controller, and localhost/rmqgo:4.9.8 refuses
# the role.

set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
WORK=$(mktemp -d)
cat > "$WORK/containers.conf" <<'CONF'
[containers]
default_ulimits = ["nofile=20000:20000", "nproc=1000:1000"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
CONF
CONTAINERS_CONF=$WORK/containers.conf
export CONTAINERS_CONF
TEST=compose-test
. "$HERE/lib.sh"
. "$HERE/console-lib.sh"
project=""
file=""
down() {
  [ -n "$project" ] && (cd "$WORK/$project" && podman-compose -p "$project" -f "$file" down >/dev/null 2>&1) || true
  project=""
}
trap 'down; podman rm -f rmqcontroller >/dev/null 2>&1; rm -rf "$WORK"' EXIT

# healthy CONTAINER: until its healthcheck passes (30 s).
healthy() {
  i=0
  until podman healthcheck run "$1" >/dev/null 2>&1; do
    i=$((i + 1))
    [ $i -gt 60 ] && fail "$1's healthcheck does not pass"
    sleep 0.5
  done
}

# up FILE NAMESRV BROKER LOGDIR STOREDIR [CONSOLE CONTAINER IMAGE PORT TITLE]:
# one deployment, checked; with the console service CONSOLE (its
# container_name, image, published port and page title) when IMAGE is here.
up() {
  project=rmqgo-$(basename "$1" .yml | tr . -)
  mkdir -p "$WORK/$project"
  cd "$WORK/$project"
  # A compose file's relative paths are its folder's: run a copy here.
  cp "$ROOT/distribution/compose/$1" .
  file=$WORK/$project/$1
  TEST="compose-test ($1)"
  console=""
  [ -z "${6:-}" ] || ! console_image "$8" || console=$6
  # shellcheck disable=SC2086 # PROXY_SERVICE and console are empty or one service
  podman-compose -p "$project" -f "$file" up -d "$2" "$3" $PROXY_SERVICE $console > up.out 2>&1 || fail "podman-compose up: $(tail -5 up.out)"
  healthy rmqnamesrv
  healthy rmqbroker
  i=0
  until grep -q "boot success" "$4/rocketmqlogs/broker.log" 2>/dev/null; do
    i=$((i + 1))
    [ $i -gt 300 ] && fail "no boot line in $4/rocketmqlogs/broker.log"
    sleep 0.1
  done
  send100 ComposeTest
  consume100 ComposeTest compose_test
  [ -d "$5/consumequeue/ComposeTest" ] || fail "no consume queue of ComposeTest in $5"
  echo "compose-test: $1: healthy, 100 messages through $(sed -n 's/.*The broker\[\([^]]*\)\].*/\1/p' "$4/rocketmqlogs/broker.log" | tail -1), logs and store in the mounted folders"
  [ -z "$PROXY_SERVICE" ] || proxy_check "$1"
  if [ -n "$console" ]; then
    console_check "$9" "$7" "${10}" broker-a
    healthy "$7"
    echo "compose-test: $1: the console ($6, $8) healthy"
  fi
  down
}

# proxy_check FILE: the proxy service (rmqproxy) healthy, 100 messages sent
# through its published gRPC port (rmqbench grpc-produce, as 5.x Producers),
# a gRPC client's route, send, receive and ack (rmqbench grpc-idle's check),
# and its log in the mounted folder.
proxy_check() {
  healthy rmqproxy
  "$RMQBENCH" grpc-produce -proxy 127.0.0.1:8081 -t ComposeTest -count 100 -w 4 -progress 0 > "$WORK/grpc.out" 2>&1 ||
    fail "rmqbench grpc-produce: $(cat "$WORK/grpc.out")"
  grep -q '"messages":100,"failed":0' "$WORK/grpc.out" || fail "100 messages not all sent over gRPC: $(cat "$WORK/grpc.out")"
  "$RMQBENCH" grpc-idle -proxy 127.0.0.1:8081 -t ComposeTest -c 1 -d 1s -settle 0s > "$WORK/grpc-check.out" 2>&1 ||
    fail "rmqbench grpc-idle: $(cat "$WORK/grpc-check.out")"
  grep -q '"checkOk":true' "$WORK/grpc-check.out" || fail "route, send, receive, ack over gRPC: $(cat "$WORK/grpc-check.out")"
  grep -q "rocketmq-proxy startup successfully" proxy/logs/rocketmqlogs/proxy.log 2>/dev/null ||
    fail "no boot line in proxy/logs/rocketmqlogs/proxy.log"
  echo "compose-test: $1: the proxy (rmqproxy) healthy, 100 messages sent and one received and acked over gRPC on 8081"
}

PROXY_SERVICE=
mkdir -p "$WORK/rmqgo-seed-4-8-0" && (cd "$WORK/rmqgo-seed-4-8-0" && mkdir -m 0777 logs store conf)
up seed-4.8.0.yml rmqserver rmqbroker logs store rmqconsole rmqconsole localhost/rmqgo-console:1.0.0 8010 RocketMQ-Dashboard
d=$WORK/rmqgo-apache-5-3-3
mkdir -p "$d/data/namesrv" "$d/data/broker"
(cd "$d" && mkdir -m 0777 data/namesrv/logs data/broker/logs data/broker/store data/broker/conf proxy proxy/logs proxy/conf &&
  printf 'brokerClusterName = DefaultCluster\nbrokerName = broker-a\nbrokerId = 0\n' > data/broker/conf/broker.conf &&
  echo '{"rocketMQClusterName": "DefaultCluster"}' > proxy/conf/rmq-proxy.json)
PROXY_SERVICE=proxy
up apache-5.3.3.yml namesrv broker data/broker/logs data/broker/store dashboard rmqdashboard localhost/rmqgo-console:2.1.0 8082 "RocketMQ Dashboard"

# controller_check: the 5.x image's controller role boots a controller;
# the 4.x image has none and says so.
controller_check() {
  TEST="compose-test (controller role)"
  podman rm -f rmqcontroller >/dev/null 2>&1 || true
  podman run -d --name rmqcontroller localhost/rmqgo:5.3.3 \
    controller -c /home/rocketmq/rocketmq-5.3.3/conf/controller/controller-standalone.conf > "$WORK/ctl.out" 2>&1 ||
    fail "podman run localhost/rmqgo:5.3.3 controller: $(cat "$WORK/ctl.out")"
  i=0
  until podman logs rmqcontroller 2>&1 | grep -q "The Controller Server boot success"; do
    i=$((i + 1))
    [ $i -gt 150 ] && fail "no boot line from the controller: $(podman logs rmqcontroller 2>&1 | tail -5)"
    sleep 0.2
  done
  podman rm -f rmqcontroller >/dev/null 2>&1
  if podman run --rm localhost/rmqgo:4.9.8 controller > "$WORK/ctl4.out" 2>&1; then
    fail "localhost/rmqgo:4.9.8 ran a controller"
  fi
  grep -q "a 4.x image has no controller" "$WORK/ctl4.out" || fail "4.9.8's controller role: $(cat "$WORK/ctl4.out")"
  echo "compose-test: the controller role: localhost/rmqgo:5.3.3 boots its controller, localhost/rmqgo:4.9.8 has none"
}
controller_check
