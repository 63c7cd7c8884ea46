#!/bin/sh
# Runs the seed document's docker commands (docs/seeds.md, the first note:
# foxiswho/rocketmq:4.8.0) verbatim against localhost/rmqgo:4.8.0, with
# podman standing in for docker, and checks what a user of them would
# (POSIX sh; make image first):
#
#   sh compat/container/seed-test.sh
#
#   1. docker run ... --name rmqnamesrv --net net1 --net-alias rmqserver ... sh mqnamesrv
#   2. docker run ... --name rmqbroker ... -e "NAMESRV_ADDR=rmqserver:9876" ... sh mqbroker -c /home/rocketmq/rocketmq-4.8.0/conf/broker.conf
#   3. both boot; 100 messages sent and consumed through the published ports
#      (bin/rmqbench of this repo on the host, which reaches the broker at
#      the address it registered, its net1 address); the Java compat suite's
#      ProducerSendTest and PushConsumerTest (the 4.9.8 client from Maven
#      Central) pass against the containers; mqadmin clusterList (4.9.8)
#      lists the broker, and so does the image's own (Go) mqadmin run as
#      operators do, docker exec rmqbroker sh mqadmin clusterList, with the
#      same cluster, name, id, address and version columns;
#   4. the logs and the store appear in the host folders mounted at
#      /home/rocketmq/logs and /home/rocketmq/store;
#   5. docker stop rmqbroker (SIGTERM) shuts the broker down cleanly, docker
#      start rmqbroker boots it again on the same store, and the 100
#      messages are all there to consume once more;
#   6. the seed's one-container variant: docker run ... --name rocketmq ...
#      sh mqnamesrv, then docker exec -d rocketmq sed -i '$a listenPort=9911
#      \nbrokerIP1=192.168.56.102...' on the image's broker.conf, then docker
#      exec -d rocketmq sh mqbroker -c ...: the broker boots with the lines
#      sed appended (it registers 192.168.56.102:9911, the seed author's
#      host, which is why no client here can reach it; the malformed
#      mapedFileSizeCommitLog=1024*1024*10 is ignored, as Java ignores it).
#   7. the seed's console, started right after the broker: docker run
#      --name rmqconsole ... --link rmqserver:rmqserver -e "JAVA_OPTS=
#      -Drocketmq.namesrv.addr=rmqserver:9876 ..." -p 8010:8080 with
#      localhost/rmqgo-console:1.0.0 (make image-console) for
#      styletang/rocketmq-console-ng: through the published port 8010 its
#      index page, and GET /cluster/list.query (its cluster page's call)
#      lists broker-a, the seed's broker.conf's brokerName, with its runtime
#      stats (console-lib.sh). Skipped, in one line, without that image.
#
# The only changes to the seed's commands: the image name, and what the
# docker function below does for podman (runc, cgroupfs and ulimits, as this
# machine needs, --net-alias as --network-alias, and no --link: see
# below). net1 is made when missing (podman network create) and
# removed again if this test made it. The host folders are made 0777, as
# the foxiswho README asks (the container runs as uid 3000). The default
# ports (9876, 10909, 10911, 10912) must be free on the host.

set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PODMAN=${PODMAN:-podman --runtime /usr/sbin/runc --cgroup-manager=cgroupfs}

# docker is podman, with the flags this kind of machine needs on a run, and
# docker's --net-alias spelt as podman 4 spells it (--network-alias).
# podman has no --link; on a user-defined network such as net1 docker's
# --link NAME:ALIAS only makes NAME reachable as ALIAS, and the seed links
# rmqserver:rmqserver, a name net1 resolves already (the name server's
# --net-alias): the flag and its value are dropped.
docker() {
  if [ "$1" != run ]; then
    $PODMAN "$@"
    return
  fi
  shift
  link=""
  for a in "$@"; do
    shift
    [ -n "$link" ] && { link=""; continue; }
    [ "$a" = --link ] && { link=1; continue; }
    [ "$a" = --net-alias ] && a=--network-alias
    set -- "$@" "$a"
  done
  $PODMAN run --ulimit nofile=20000:20000 --ulimit nproc=1000:1000 "$@"
}

WORK=$(mktemp -d)
TEST=seed-test
. "$HERE/lib.sh"
. "$HERE/console-lib.sh"
made_net=""

# remove NAME...: removes these containers, those that exist.
remove() {
  for c in "$@"; do
    docker rm -f "$c" >/dev/null 2>&1 || true
  done
}
cleanup() {
  remove rmqconsole rmqbroker rmqnamesrv rocketmq
  [ -n "$made_net" ] && docker network rm net1 >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# waitlog CONTAINER TEXT SECONDS [COUNT]: until the container's output
# holds TEXT COUNT times (default once).
waitlog() {
  i=0
  while [ "$(docker logs "$1" 2>&1 | grep -c "$2")" -lt "${4:-1}" ]; do
    i=$((i + 1))
    [ $i -gt $(($3 * 10)) ] && fail "no \"$2\" from $1 after $3 s"
    sleep 0.1
  done
}

remove rmqconsole rmqbroker rmqnamesrv rocketmq
if ! docker network exists net1; then
  docker network create net1 >/dev/null
  made_net=1
fi
cd "$WORK"
mkdir -m 0777 logs store conf

# The seed's two commands, as written but for the image.
docker run -d -v $(pwd)/logs:/home/rocketmq/logs --name rmqnamesrv --net net1 --net-alias rmqserver -e "JAVA_OPT_EXT=-Xms512M -Xmx512M -Xmn128m" -p 9876:9876 localhost/rmqgo:4.8.0 sh mqnamesrv >/dev/null
docker run -d -v $(pwd)/logs:/home/rocketmq/logs -v $(pwd)/store:/home/rocketmq/store -v $(pwd)/conf:/home/rocketmq/conf --name rmqbroker --net net1 --net-alias rmqbroker -e "NAMESRV_ADDR=rmqserver:9876" -e "JAVA_OPT_EXT=-Xms512M -Xmx512M -Xmn128m" -p 10911:10911 -p 10912:10912 -p 10909:10909 localhost/rmqgo:4.8.0 sh mqbroker -c /home/rocketmq/rocketmq-4.8.0/conf/broker.conf >/dev/null
# The seed's console command, as written but for the image; checked below,
# once the broker has been (it boots meanwhile).
console=""
if console_image localhost/rmqgo-console:1.0.0; then
docker run --name rmqconsole --net net1 --net-alias rmqconsole --link rmqserver:rmqserver -e "JAVA_OPTS=-Drocketmq.namesrv.addr=rmqserver:9876 -Dcom.rocketmq.sendMessageWithVIPChannel=false" -p 8010:8080 -d localhost/rmqgo-console:1.0.0 >/dev/null
console=1
fi

waitlog rmqnamesrv "The Name Server boot success" 30
waitlog rmqbroker "boot success" 30
echo "seed-test: $(docker logs rmqbroker 2>&1 | grep 'boot success' | tail -1)"

send100 SeedTest
consume100 SeedTest seed_test_before
echo "seed-test: 100 messages sent to and consumed from the broker in the container"

broker_addr=$(docker logs rmqbroker 2>&1 | sed -n 's/.*The broker\[broker-a, \([^]]*\)\].*/\1/p' | tail -1)
sh "$ROOT/compat/mqadmin.sh" clusterList -n 127.0.0.1:9876 > clusterlist.out 2>&1
grep -q "broker-a .*$broker_addr" clusterlist.out || fail "mqadmin clusterList does not list broker-a at $broker_addr: $(cat clusterlist.out)"
echo "seed-test: mqadmin clusterList: $(grep "broker-a" clusterlist.out | tr -s ' ')"
# The image's own mqadmin (the Go one), as operators run it: docker exec.
docker exec rmqbroker sh mqadmin clusterList -n rmqserver:9876 > goadmin-clusterlist.out 2>&1 ||
  fail "docker exec rmqbroker sh mqadmin clusterList: $(cat goadmin-clusterlist.out)"
cluster_cols() { sed -n 's/^\(DefaultCluster *[^ ]* *[0-9]* *[^ ]* *[^ ]*\).*/\1/p' "$1"; }
[ -n "$(cluster_cols goadmin-clusterlist.out)" ] && [ "$(cluster_cols clusterlist.out)" = "$(cluster_cols goadmin-clusterlist.out)" ] ||
  fail "docker exec rmqbroker sh mqadmin clusterList differs from Java's mqadmin: $(cat goadmin-clusterlist.out)"
echo "seed-test: docker exec rmqbroker sh mqadmin clusterList: $(grep "broker-a" goadmin-clusterlist.out | tr -s ' ')"
rm -rf "$ROOT/compat/target/surefire-reports"
NAMESRV_ADDR=127.0.0.1:9876 BROKER_ADDR=$broker_addr REF_SERVER_LINE=4 NAMESRV_IMPL=go BROKER_IMPL=go \
  ${MVN:-mvn} -B -ntp -q -Dstyle.color=never -f "$ROOT/compat/pom.xml" test -Dtest='ProducerSendTest,PushConsumerTest' \
  > java.out 2>&1 || fail "the Java clients' tests: $(grep -E 'FAIL|ERROR' java.out | head -20)"
echo "seed-test: Java clients (ProducerSendTest, PushConsumerTest), $(sh "$ROOT/compat/surefire-summary.sh" compat "$ROOT/compat/target/surefire-reports" | tail -1)"

[ -f logs/rocketmqlogs/namesrv.log ] || fail "no logs/rocketmqlogs/namesrv.log in the host folder"
[ -f logs/rocketmqlogs/broker.log ] || fail "no logs/rocketmqlogs/broker.log in the host folder"
[ -f store/commitlog/00000000000000000000 ] || fail "no store/commitlog in the host folder"
[ -d store/consumequeue/SeedTest ] || fail "no store/consumequeue/SeedTest in the host folder"
echo "seed-test: host folders: $(ls logs/rocketmqlogs | tr '\n' ' ')| store: $(ls store | tr '\n' ' ')"

[ -z "$console" ] || console_check 8010 rmqconsole RocketMQ-Dashboard broker-a

docker stop rmqbroker >/dev/null
grep -q "Shutdown hook over" logs/rocketmqlogs/broker.log || fail "docker stop: no clean shutdown in broker.log"
[ ! -f store/abort ] || fail "docker stop left store/abort (not a clean shutdown)"
docker start rmqbroker >/dev/null
waitlog rmqbroker "boot success" 30 2
consume100 SeedTest seed_test_after
echo "seed-test: docker stop shut the broker down cleanly; after docker start the 100 messages were there again"

# The seed's one-container variant, as written but for the image.
remove rmqconsole rmqbroker rmqnamesrv
docker run --name rocketmq --net net1 --net-alias rocketmq -p 9876:9876 -p 9911:9911 -p 9909:9909 -p 9912:9912 -e "JAVA_OPT_EXT=-Xms256M -Xmx256M -Xmn128m" -e "NAMESRV_ADDR=rocketmq:9876" -d localhost/rmqgo:4.8.0 sh mqnamesrv >/dev/null \
&& docker exec -d rocketmq sed -i '$a listenPort=9911\nbrokerIP1=192.168.56.102\nautoCreateTopicEnable=true\nenablePropertyFilter=true\nmapedFileSizeCommitLog=1024*1024*10' /home/rocketmq/rocketmq-4.8.0/conf/broker.conf \
&& docker exec -d rocketmq sh mqbroker -c /home/rocketmq/rocketmq-4.8.0/conf/broker.conf

i=0
until docker exec rocketmq grep -q "boot success" /home/rocketmq/logs/rocketmqlogs/broker.log 2>/dev/null; do
  i=$((i + 1))
  [ $i -gt 300 ] && fail "the one-container variant: no boot line in broker.log after 30 s"
  sleep 0.1
done
boot=$(docker exec rocketmq grep "boot success" /home/rocketmq/logs/rocketmqlogs/broker.log | tail -1)
case $boot in
  *"192.168.56.102:9911"*) ;;
  *) fail "the one-container variant: the broker did not take the lines sed appended: $boot" ;;
esac
echo "seed-test: one-container variant: broker booted as 192.168.56.102:9911 (brokerIP1 and listenPort appended by sed)"
