#!/bin/sh
# Regenerates a store written by the real Java broker, with what was sent to
# it and what Java reads back from it, under testdata/store/ (POSIX sh):
#
#   sh compat/store-fixture.sh 4    # Java 4.9.7 servers and client -> testdata/store/java-4.9.7/
#   sh compat/store-fixture.sh 5    # Java 5.3.3 servers and client -> testdata/store/java-5.3.3/
#
# Steps:
#  1. builds compat/storetool for the line (compat/storetool/run.sh);
#  2. starts the Java name server and ONE broker with compat/ref-servers.sh
#     (COMPAT_BROKER_B=0, RUN_DIR=compat/storetool/target/fixture-<line>/run so
#     it never touches a compat suite run in compat/target/run), appending the
#     store settings below to broker.conf through BROKER_CONF_EXTRA: small
#     commitlog files (128 KiB) so the commitlog spans several files, 50 units
#     per consume-queue file, 512 hash slots / 256 entries per index file so
#     several index files roll over, and fast transaction check-backs;
#  3. runs StoreGen against them (every kind of message, see StoreGen.java);
#  4. stops the broker with SIGTERM (ref-servers.sh stop: a clean shutdown, so
#     no abort file) and copies its store/ to testdata/store/java-<ver>/store/,
#     with sent.jsonl and store.properties (the store keys used) beside it;
#  5. runs StoreDump on a temporary copy of that store (start() writes to a
#     store) and saves dump.jsonl, keys.jsonl, queues.jsonl beside it;
#  6. runs StoreCheck: sent vs dumped messages, index lookups, queue counts and
#     the raw files (blank records at commitlog file ends, consume queues and
#     index files that span several files). Its figures are printed last.
#
# It replaces testdata/store/java-<ver>/ entirely. Takes about a minute.
# Exit status: non-zero if any step or check fails. The servers are always
# stopped. MVN and BOOT_TIMEOUT are passed on to the scripts it runs.

set -u
COMPAT_DIR=$(cd "$(dirname "$0")" && pwd)
REPO=$(dirname "$COMPAT_DIR")
LINE=${1:-4}
case $LINE in
  4) VERSION=4.9.7 ;;
  5) VERSION=5.3.3 ;;
  *) echo "usage: $0 [4|5]" >&2; exit 2 ;;
esac
TOOL="sh $COMPAT_DIR/storetool/run.sh $LINE"
OUT=$REPO/testdata/store/java-$VERSION
WORK=$COMPAT_DIR/storetool/target/fixture-$LINE
RUN_DIR=$WORK/run
export RUN_DIR

log() { echo "store-fixture: $*" >&2; }
die() { log "$*"; exit 1; }

# The store keys of the fixture: written to store.properties and appended to
# broker.conf. Sizes must be given to any reader of the store.
STORE_PROPS="mappedFileSizeCommitLog=131072
mappedFileSizeConsumeQueue=1000
maxHashSlotNum=512
maxIndexNum=256
flushDiskType=ASYNC_FLUSH
brokerRole=ASYNC_MASTER
messageDelayLevel=1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h"
if [ "$LINE" = 5 ]; then
  # No timer wheel: its files (timerwheel 38 MB, timerlog 100 MB) stay out.
  STORE_PROPS="$STORE_PROPS
timerWheelEnable=false"
fi
# Broker-only keys: check half messages every second, once 3 s old; 5.x
# batches its transaction op messages, every 3 s by default: 200 ms here, so
# that they are written before a half message is due for a check.
BROKER_PROPS="transactionCheckInterval=1000
transactionTimeOut=3000"
if [ "$LINE" = 5 ]; then
  BROKER_PROPS="$BROKER_PROPS
transactionOpBatchInterval=200"
fi

stop_servers() {
  sh "$COMPAT_DIR/ref-servers.sh" stop
}

$TOOL build || die "storetool did not build"
mkdir -p "$WORK"
trap 'stop_servers' EXIT
trap 'exit 1' INT TERM

log "starting the Java $VERSION name server and broker"
COMPAT_BROKER_B=0 BROKER_CONF_EXTRA="$STORE_PROPS
$BROKER_PROPS" sh "$COMPAT_DIR/ref-servers.sh" start "$LINE" >/dev/null || die "the servers did not start"
. "$RUN_DIR/env.sh"
BROKER_STORE=$RUN_DIR/broker-a/store

log "StoreGen against $NAMESRV_ADDR"
$TOOL StoreGen "$NAMESRV_ADDR" "$WORK/sent.jsonl" || die "StoreGen failed"

log "stopping the servers"
stop_servers
[ -e "$BROKER_STORE/abort" ] && die "the broker left $BROKER_STORE/abort: it did not shut down cleanly"

log "copying the store to $OUT"
rm -rf "$OUT"
mkdir -p "$OUT"
cp -R "$BROKER_STORE" "$OUT/store" || die "copy failed"
cp "$WORK/sent.jsonl" "$OUT/sent.jsonl"
{
  echo "# Store keys of this fixture (java.util.Properties, same keys as broker.conf)."
  echo "# Written by compat/store-fixture.sh $LINE; storePathRootDir is wherever store/ is."
  printf '%s\n' "$STORE_PROPS"
} >"$OUT/store.properties"

log "StoreDump on a copy"
rm -rf "$WORK/dump-copy"
cp -R "$OUT/store" "$WORK/dump-copy"
$TOOL StoreDump "$WORK/dump-copy" "$OUT/store.properties" "$OUT" || die "StoreDump failed"
rm -rf "$WORK/dump-copy"

log "StoreCheck"
$TOOL StoreCheck "$OUT/sent.jsonl" "$OUT" "$OUT/store" "$OUT/store.properties" || die "StoreCheck failed"
log "done: $OUT ($(du -sk "$OUT" | cut -f1) KiB on disk)"
