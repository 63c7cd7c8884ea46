#!/bin/sh
# Runs the tests tagged "retention" (POSIX sh): run-suite.sh's servers with a
# broker that deletes every commitlog file but the newest as soon as it can,
# the Java suite alone, and only those tests. The rest of the suite must
# never see such a broker, so these run apart (pom.xml excludes the tag).
#
#   sh compat/retention-suite.sh [4|5]
#
# The broker.conf lines (BROKER_CONF_EXTRA, ahead of any given):
#   mappedFileSizeCommitLog=131072   files of 128 KiB
#   fileReservedTime=0               no file is kept for its age
#   deleteWhen=00;01;...;23          every hour is a delete hour
#   cleanResourceInterval=1000       the cleaner runs every second (Java's
#                                    first run is a minute after start)
# NAMESRV_IMPL, BROKER_IMPL, RMQGO_*_BIN, MVN_TEST_FLAGS and RUN_DIR (default
# compat/target/run-retention) are passed on as run-suite.sh reads them.
# Ends with run-suite.sh's "compat: N passed, ..." line and status.

set -u
COMPAT_DIR=$(cd "$(dirname "$0")" && pwd)
LINE=${1:-4}
HOURS=$(i=0; while [ $i -lt 24 ]; do printf '%02d' $i; [ $i -lt 23 ] && printf ';'; i=$((i + 1)); done)
BROKER_CONF_EXTRA="mappedFileSizeCommitLog=131072
fileReservedTime=0
deleteWhen=$HOURS
cleanResourceInterval=1000
${BROKER_CONF_EXTRA:-}"
export BROKER_CONF_EXTRA
RUN_DIR=${RUN_DIR:-$COMPAT_DIR/target/run-retention} COMPAT_CLIENTS="" COMPAT_BROKER_B=0 \
  exec sh "$COMPAT_DIR/run-suite.sh" "$LINE" -Dgroups=retention -Dcompat.excludedGroups=
