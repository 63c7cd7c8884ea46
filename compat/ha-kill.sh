#!/bin/sh
# The kill test of replication (issue 15): a SYNC_MASTER with
# flushDiskType=SYNC_FLUSH and its slave; a Java producer (rocketmq-client
# from Maven Central, compat/hatool HaKill) streams synchronous sends and
# records every message answered SEND_OK; the master is SIGKILLed at a
# random moment of the stream; with the master down, a Java pull consumer
# must read every acknowledged message back from the slave (same message id,
# queue offset and body); then the master starts again on its store for the
# next round. ROUNDS rounds in a row.
#
#   MASTER_IMPL=java SLAVE_IMPL=java sh compat/ha-kill.sh   # the reference
#   MASTER_IMPL=go   SLAVE_IMPL=go   sh compat/ha-kill.sh   # ours (and the two mixes)
#   ROUNDS=2 MASTER_IMPL=go SLAVE_IMPL=go sh compat/ha-kill.sh
#
# A SYNC_MASTER answers SEND_OK only once the slave has the message (Java's
# GroupCommitService + HAService.GroupTransferService), so nothing
# acknowledged may be missing from the slave. Prints a line per round, then
#   ha-kill <master> master + <slave> slave: rounds R, acked A, lost L, time T s
# and exits 0 when L is 0 (1 when something was lost, 2 when the harness
# failed: a server did not start, the master never became writable).
#
# Servers: compat/ref-servers.sh with COMPAT_SLAVE=1 (name server
# NAMESRV_IMPL, java by default; broker-a the master, MASTER_IMPL;
# broker-a-slave, SLAVE_IMPL), line 4 (Java 4.9.7 servers, rocketmq-client
# 4.9.8) unless LINE=5. The master's broker.conf gets brokerRole=SYNC_MASTER
# and flushDiskType=SYNC_FLUSH (BROKER_A_CONF_EXTRA); every broker gets 16
# MiB commitlog files, so that the rounds cross file boundaries. Kill:
# `ref-servers.sh stop-broker a --kill` (SIGKILL, waits until the process is
# gone); start: `ref-servers.sh start-broker a` (same conf and store, waits
# for the boot line).
#
# Environment (defaults in brackets): ROUNDS [100], SENDERS [4] (threads of
# synchronous sends), BODY [128], KILL_MIN_MS [200] and KILL_MAX_MS [2000]
# (the kill comes uniformly at random this long after the round's first
# ack), SEED [random; printed], RUN_DIR
# [compat/target/ha-kill-$MASTER_IMPL-$SLAVE_IMPL] (servers; the tool's
# acked.tsv, lost.tsv and servers.log go to RUN_DIR.out), NAMESRV_PORT
# [24876], BROKER_PORT [24911], SLAVE_PORT [24921], RMQGO_BROKER_BIN /
# RMQGO_NAMESRV_BIN (built binaries), LINE [4], SLAVE_TOPIC_MS [20000] (how
# long to wait for the slave to copy the topic from its master before asking
# the slave to create it; compat/hatool/SlaveTopic.java).
#
# MASTER_ROLE [SYNC_MASTER] and MASTER_FLUSH [SYNC_FLUSH] change the
# master's brokerRole and flushDiskType: MASTER_ROLE=ASYNC_MASTER is the
# control that shows the test sees a loss (an ASYNC_MASTER acknowledges
# before the slave has the message, so a kill loses some acks).

set -u
COMPAT_DIR=$(cd "$(dirname "$0")" && pwd)
MASTER_IMPL=${MASTER_IMPL:-java}
SLAVE_IMPL=${SLAVE_IMPL:-java}
NAMESRV_IMPL=${NAMESRV_IMPL:-java}
ROUNDS=${ROUNDS:-100}
MASTER_ROLE=${MASTER_ROLE:-SYNC_MASTER}
MASTER_FLUSH=${MASTER_FLUSH:-SYNC_FLUSH}
LINE=${LINE:-4}
RUN_DIR=${RUN_DIR:-$COMPAT_DIR/target/ha-kill-$MASTER_IMPL-$SLAVE_IMPL}
OUT_DIR=$RUN_DIR.out
SEED=${SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
export RUN_DIR NAMESRV_IMPL

log() { echo "ha-kill: $*" >&2; }
stop() { sh "$COMPAT_DIR/ref-servers.sh" stop; }

sh "$COMPAT_DIR/disk-room.sh" ha-kill "$RUN_DIR" || exit 2
sh "$COMPAT_DIR/hatool/run.sh" "$LINE" build || exit 2
rm -rf "$OUT_DIR"
mkdir -p "$OUT_DIR"

NAMESRV_PORT=${NAMESRV_PORT:-24876} BROKER_PORT=${BROKER_PORT:-24911} SLAVE_PORT=${SLAVE_PORT:-24921} \
  BROKER_IMPL=$MASTER_IMPL SLAVE_IMPL=$SLAVE_IMPL COMPAT_SLAVE=1 COMPAT_BROKER_B=0 \
  BROKER_CONF_EXTRA="mappedFileSizeCommitLog=16777216" \
  BROKER_A_CONF_EXTRA="brokerRole=$MASTER_ROLE
flushDiskType=$MASTER_FLUSH" \
  sh "$COMPAT_DIR/ref-servers.sh" start "$LINE" >/dev/null || exit 2
trap stop EXIT
. "$RUN_DIR/env.sh"
log "master $BROKER_ADDR ($MASTER_IMPL, $MASTER_ROLE, $MASTER_FLUSH), slave $SLAVE_ADDR ($SLAVE_IMPL), name server $NAMESRV_ADDR ($NAMESRV_IMPL)"

servers="RUN_DIR='$RUN_DIR' sh '$COMPAT_DIR/ref-servers.sh'"
HATOOL_HOME=$OUT_DIR/home sh "$COMPAT_DIR/hatool/run.sh" "$LINE" HaKill -n "$NAMESRV_ADDR" \
  -label "$MASTER_IMPL master + $SLAVE_IMPL slave" -rounds "$ROUNDS" -w "${SENDERS:-4}" -s "${BODY:-128}" \
  -slaveTopicMs "${SLAVE_TOPIC_MS:-20000}" -killMinMs "${KILL_MIN_MS:-200}" -killMaxMs "${KILL_MAX_MS:-2000}" -seed "$SEED" -out "$OUT_DIR" \
  -slave "$SLAVE_ADDR" -kill "$servers stop-broker a --kill" -start "$servers start-broker a"
rc=$?
[ "$rc" = 0 ] || log "exit $rc; outputs in $OUT_DIR (lost.tsv, servers.log) and $RUN_DIR"
exit $rc
