#!/bin/sh
# Unpacks a distribution (make dist) into a temporary folder and runs the
# commands its README gives, as written, from the unpacked folder (POSIX sh):
#
#   sh distribution/dist-test.sh 4|5 [distdir]      # make dist-test runs both
#
#   sh bin/mqnamesrv                                        (port 9876)
#   sh bin/mqbroker -n 127.0.0.1:9876 -c conf/broker.conf   (10911, 10909, 10912)
#   sh bin/mqadmin clusterList -n 127.0.0.1:9876
#
# waits for their boot lines, sends 100 messages and consumes them back with
# bin/rmqbench, checks the broker took conf/broker.conf (brokerName broker-a,
# in its boot line), that the store and logs went where JAVA_OPT_EXT's
# user.home says and that bin/rmqgo-line names the line, stops both with sh
# bin/mqshutdown and waits for the broker's shutdown line. The default ports must be free: the README's
# commands use them. JAVA_OPT_EXT=-Duser.home=<temporary> keeps the store and
# logs out of the real home. Exit status 0 when every step passed.

set -eu
if [ -z "${RMQGO_DIST_TEST_NS:-}" ] && unshare --pid --fork --mount-proc true 2>/dev/null; then
  RMQGO_DIST_TEST_NS=1 exec unshare --pid --fork --mount-proc sh "$0" "$@"
fi
[ -n "${RMQGO_DIST_TEST_NS:-}" ] ||
  echo "dist-test: no PID namespace here (unshare --pid): mqshutdown stops every rmqgo server of the machine" >&2
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LINE=${1:-}
DIST=${2:-$ROOT/dist}
case $LINE in
  4) VERSION=4.9.8 ;;
  5) VERSION=5.3.3 ;;
  *) echo "usage: $0 4|5 [distdir]" >&2; exit 2 ;;
esac
TARBALL=$DIST/rmqgo-$VERSION-bin.tar.gz
[ -f "$TARBALL" ] || { echo "dist-test: no $TARBALL (make dist)" >&2; exit 1; }

WORK=$(mktemp -d)
REL=$WORK/rocketmq-all-$VERSION-bin-release
fail() {
  echo "dist-test $VERSION: FAILED: $*" >&2
  for f in "$WORK"/*.out; do [ -f "$f" ] && { echo "--- $f" >&2; tail -20 "$f" >&2; }; done
  exit 1
}
cleanup() {
  [ -d "$REL" ] && (cd "$REL" && sh bin/mqshutdown broker >/dev/null 2>&1; sh bin/mqshutdown namesrv >/dev/null 2>&1) || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# waitfor FILE TEXT SECONDS: until FILE holds TEXT.
waitfor() {
  i=0
  while ! grep -q "$2" "$1" 2>/dev/null; do
    i=$((i + 1))
    [ $i -gt $(($3 * 10)) ] && fail "no \"$2\" in $1 after $3 s"
    sleep 0.1
  done
}

tar -C "$WORK" -xzf "$TARBALL"
[ -d "$REL" ] || fail "the tarball's top folder is not rocketmq-all-$VERSION-bin-release/"
[ "$(cat "$REL/bin/rmqgo-line")" = "$LINE" ] || fail "bin/rmqgo-line does not say $LINE"
for f in bin/mqnamesrv bin/mqbroker bin/mqshutdown bin/mqadmin conf/broker.conf conf/tools.yml conf/2m-2s-sync/broker-a.properties; do
  [ -f "$REL/$f" ] || fail "no $f"
done
JAVA_OPT_EXT="-Duser.home=$WORK/home"
export JAVA_OPT_EXT
cd "$REL"
sh bin/mqnamesrv > "$WORK/namesrv.out" 2>&1 &
waitfor "$WORK/namesrv.out" "The Name Server boot success" 30
sh bin/mqbroker -n 127.0.0.1:9876 -c conf/broker.conf > "$WORK/broker.out" 2>&1 &
broker_pid=$!
waitfor "$WORK/broker.out" "boot success" 30
grep -q "The broker\[broker-a," "$WORK/broker.out" || fail "the boot line names no broker-a (conf/broker.conf)"

bin/rmqbench produce -n 127.0.0.1:9876 -t DistTest -count 100 -w 4 -progress 0 > "$WORK/produce.out" 2>&1 ||
  fail "rmqbench produce"
grep -q '"messages":100,"failed":0' "$WORK/produce.out" || fail "100 messages not all sent: $(cat "$WORK/produce.out")"
bin/rmqbench consume -n 127.0.0.1:9876 -t DistTest -from first -count 100 -d 60s -progress 0 > "$WORK/consume.out" 2>&1 ||
  fail "rmqbench consume"
grep -q '"messages":100,' "$WORK/consume.out" || fail "100 messages not all consumed: $(cat "$WORK/consume.out")"
[ -f "$WORK/home/store/commitlog/00000000000000000000" ] || fail "no store under the user.home JAVA_OPT_EXT names"
[ -f "$WORK/home/logs/rocketmqlogs/broker.log" ] || fail "no broker.log under ~/logs/rocketmqlogs"
# mqadmin (the Go one): the cluster's row names broker-a and the line's version.
sh bin/mqadmin clusterList -n 127.0.0.1:9876 > "$WORK/mqadmin.out" 2>&1 || fail "mqadmin clusterList"
grep -q "^DefaultCluster .* broker-a .* V$(echo "$VERSION" | tr . _) " "$WORK/mqadmin.out" ||
  fail "mqadmin clusterList has no DefaultCluster broker-a V$VERSION row"

sh bin/mqshutdown broker > "$WORK/shutdown.out" 2>&1 || fail "mqshutdown broker"
i=0
while kill -0 "$broker_pid" 2>/dev/null; do
  i=$((i + 1))
  [ $i -gt 600 ] && fail "the broker did not exit within 60 s of mqshutdown"
  sleep 0.1
done
grep -q "Shutdown hook over" "$WORK/home/logs/rocketmqlogs/broker.log" || fail "no clean shutdown line in broker.log"
sh bin/mqshutdown namesrv >> "$WORK/shutdown.out" 2>&1 || fail "mqshutdown namesrv"
echo "dist-test $VERSION: unpacked, started with the README's commands, 100 sent and 100 consumed, mqadmin clusterList listed broker-a, stopped"
