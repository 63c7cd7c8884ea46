#!/bin/sh
# Runs the tests tagged "ha" (HaSuiteTest, POSIX sh) against a master and its
# slave in any mix of implementations (issue 15):
#
#   MASTER_IMPL=java SLAVE_IMPL=java sh compat/ha-suite.sh 4   # the reference; or 5
#   MASTER_IMPL=go   SLAVE_IMPL=java sh compat/ha-suite.sh 4   # needs RMQGO_BROKER_BIN
#
# run-suite.sh's servers with COMPAT_SLAVE=1 (broker-a and its slave,
# brokerId=1, brokerRole=SLAVE, the master's addresses learnt from the name
# server), no broker-b, the Java suite alone, only the "ha" tests. Every
# broker.conf gets slaveReadEnable=true (a 5.x slave refuses pulls without
# it). The tests stop and start the master and the slave with
# ref-servers.sh stop-broker / start-broker.
#
# NAMESRV_IMPL (java), RMQGO_*_BIN, MVN_TEST_FLAGS and RUN_DIR (default
# compat/target/run-ha-$MASTER_IMPL-$SLAVE_IMPL) are passed on as
# run-suite.sh reads them. Ends with run-suite.sh's "compat: N passed, ..."
# line and status.

set -u
COMPAT_DIR=$(cd "$(dirname "$0")" && pwd)
LINE=${1:-4}
[ $# -gt 0 ] && shift
MASTER_IMPL=${MASTER_IMPL:-java}
SLAVE_IMPL=${SLAVE_IMPL:-java}
BROKER_CONF_EXTRA="slaveReadEnable=true
${BROKER_CONF_EXTRA:-}"
export BROKER_CONF_EXTRA SLAVE_IMPL
BROKER_IMPL=$MASTER_IMPL COMPAT_SLAVE=1 COMPAT_BROKER_B=0 COMPAT_CLIENTS="" \
  RUN_DIR=${RUN_DIR:-$COMPAT_DIR/target/run-ha-$MASTER_IMPL-$SLAVE_IMPL} \
  exec sh "$COMPAT_DIR/run-suite.sh" "$LINE" -Dgroups=ha -Dcompat.excludedGroups= "$@"
