#!/bin/sh
# Replication proof: a master and its slave in any mix of implementations,
# N messages sent to the master, then the slave's commitlog must equal the
# master's byte for byte (Java's DefaultHAService protocol, issue 15).
#
#   MASTER_IMPL=java SLAVE_IMPL=java sh compat/ha-pair.sh   # the reference
#   MASTER_IMPL=go   SLAVE_IMPL=java sh compat/ha-pair.sh
#   MASTER_IMPL=java SLAVE_IMPL=go   sh compat/ha-pair.sh
#
# It starts a name server (NAMESRV_IMPL, java by default), broker-a (the
# master, MASTER_ROLE: ASYNC_MASTER by default, or SYNC_MASTER) and
# broker-a-slave (brokerId=1, brokerRole=SLAVE, no haMasterAddress: it
# learns the master's HA address from the name server) with
# compat/ref-servers.sh (COMPAT_SLAVE=1), line 4 (Java 4.9.7) unless
# LINE=5, 1 MiB commitlog files so that the messages fill several; sends one
# message and waits until the slave has it (an empty slave starts at the
# master's last file), then N (20000) messages of 128 bytes with rmqbench
# produce; waits until both brokers report the same commitLogMaxOffset
# (GET_BROKER_RUNTIME_INFO through mqadmin brokerStatus); compares every commitlog file with cmp (a file on
# one side only must be all zeros: the next file made ahead); stops the
# servers. Exit 0 when the logs are equal.
#
# RUN_DIR (compat/target/ha-$MASTER_IMPL-$SLAVE_IMPL), ports NAMESRV_PORT
# (23876), BROKER_PORT (23911), SLAVE_PORT (23921), RMQGO_BROKER_BIN /
# RMQGO_NAMESRV_BIN / RMQBENCH_BIN (built binaries), SYNC_TIMEOUT (120 s).

set -u
COMPAT_DIR=$(cd "$(dirname "$0")" && pwd)
MASTER_IMPL=${MASTER_IMPL:-java}
MASTER_ROLE=${MASTER_ROLE:-ASYNC_MASTER}
SLAVE_IMPL=${SLAVE_IMPL:-java}
N=${N:-20000}
LINE=${LINE:-4}
SYNC_TIMEOUT=${SYNC_TIMEOUT:-120}
RUN_DIR=${RUN_DIR:-$COMPAT_DIR/target/ha-$MASTER_IMPL-$SLAVE_IMPL}
RMQBENCH_BIN=${RMQBENCH_BIN:-rmqbench}
export RUN_DIR

log() { echo "ha-pair: $*" >&2; }
stop() { sh "$COMPAT_DIR/ref-servers.sh" stop; }

NAMESRV_PORT=${NAMESRV_PORT:-23876} BROKER_PORT=${BROKER_PORT:-23911} SLAVE_PORT=${SLAVE_PORT:-23921} \
  BROKER_IMPL=$MASTER_IMPL SLAVE_IMPL=$SLAVE_IMPL COMPAT_SLAVE=1 COMPAT_BROKER_B=0 \
  BROKER_CONF_EXTRA="mappedFileSizeCommitLog=1048576" BROKER_A_CONF_EXTRA="brokerRole=$MASTER_ROLE" \
  sh "$COMPAT_DIR/ref-servers.sh" start "$LINE" >/dev/null || exit 1
. "$RUN_DIR/env.sh"
trap stop EXIT

# max_offset ADDR: the broker's commitLogMaxOffset.
max_offset() {
  RMQ_LINE=$LINE sh "$COMPAT_DIR/mqadmin.sh" brokerStatus -n "$NAMESRV_ADDR" -b "$1" 2>/dev/null |
    awk '$1 == "commitLogMaxOffset" { print $NF }'
}

# send COUNT: COUNT messages to the master with rmqbench.
send() {
  "$RMQBENCH_BIN" produce -n "$NAMESRV_ADDR" -t HaPairTopic -count "$1" -w 16 -progress 0 >"$RUN_DIR/produce.log" 2>&1 ||
    { log "rmqbench produce failed:"; tail -20 "$RUN_DIR/produce.log" >&2; exit 1; }
  grep '^produce:' "$RUN_DIR/produce.log" >&2
}

# send_first: one message, again every second while the master refuses it
# (a SYNC_MASTER answers SLAVE_NOT_AVAILABLE until its slave is connected,
# which a Java slave is only some seconds after its start), up to
# SYNC_TIMEOUT.
send_first() {
  deadline=$(( $(date +%s) + SYNC_TIMEOUT ))
  until "$RMQBENCH_BIN" produce -n "$NAMESRV_ADDR" -t HaPairTopic -count 1 -w 1 -progress 0 >"$RUN_DIR/produce.log" 2>&1; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      log "the master refused the first message for ${SYNC_TIMEOUT}s:"; tail -5 "$RUN_DIR/produce.log" >&2; exit 1
    fi
    sleep 1
  done
  grep '^produce:' "$RUN_DIR/produce.log" >&2
}

# wait_synced: until both report the same commitLogMaxOffset (in $m).
wait_synced() {
  deadline=$(( $(date +%s) + SYNC_TIMEOUT ))
  while :; do
    m=$(max_offset "$BROKER_ADDR") s=$(max_offset "$SLAVE_ADDR")
    log "commitLogMaxOffset master=$m slave=$s"
    [ -n "$m" ] && [ "$m" != 0 ] && [ "$m" = "$s" ] && return 0
    if [ "$(date +%s)" -ge "$deadline" ]; then log "the slave did not catch up within ${SYNC_TIMEOUT}s"; exit 1; fi
    sleep 2
  done
}

# An empty slave asks for offset 0, which the master answers from the start
# of its last file: one message first, so that the slave replicates from
# the first file on (a Java slave reports first after haSendHeartbeatInterval).
log "one message to the master $BROKER_ADDR ($MASTER_IMPL, $MASTER_ROLE), until the slave $SLAVE_ADDR ($SLAVE_IMPL) has it"
send_first
wait_synced
log "sending $N messages"
send "$N"
wait_synced

# same FILE: both sides' copies are equal, or the one side's is all zeros.
fail=0 files=0
for f in $(ls "$MASTER_STORE/commitlog" "$SLAVE_STORE/commitlog" | grep -E '^[0-9]{20}$' | sort -u); do
  a=$MASTER_STORE/commitlog/$f b=$SLAVE_STORE/commitlog/$f
  if [ -f "$a" ] && [ -f "$b" ]; then
    if cmp "$a" "$b" >&2; then echo "cmp $f: equal"; else fail=1; fi
    files=$((files + 1))
  else
    one=$a; [ -f "$one" ] || one=$b
    if cmp -n "$(wc -c <"$one")" "$one" /dev/zero >/dev/null 2>&1; then
      echo "cmp $f: only on one side, all zeros (made ahead)"
    else
      echo "cmp $f: only in $(dirname "$one"), not empty"; fail=1
    fi
  fi
done
if [ "$fail" = 0 ] && [ "$files" -gt 0 ]; then
  echo "ha-pair $MASTER_IMPL master + $SLAVE_IMPL slave: $files commitlog files equal byte for byte, max offset $m"
else
  echo "ha-pair $MASTER_IMPL master + $SLAVE_IMPL slave: commitlogs DIFFER"; exit 1
fi
