#!/bin/sh
# Runs the tests tagged "acl" (POSIX sh): ACL 1.0, requests signed by the Java
# client's AclClientRPCHook and checked by the broker against plain_acl.yml.
# run-suite.sh's servers with a broker of aclEnable=true and compat/acl/
# plain_acl.yml as its ROCKETMQ_HOME/conf/plain_acl.yml, the Java suite alone,
# and only those tests. Every other test sends unsigned requests, so these
# run apart (pom.xml excludes the tag).
#
#   sh compat/acl-suite.sh [4|5]
#
# Line 4: the 4.9.7 broker enforces plain_acl.yml (PlainAccessValidator).
# Line 5: 5.3.3 has no ACL 1.0 (removed in 5.3.3, RIP-77; see compat/acl-facts.md):
# the same broker.conf and file, and the tests prove that nothing is checked.
#
# The broker.conf line (BROKER_CONF_EXTRA, ahead of any given): aclEnable=true.
# PLAIN_ACL_FILE (compat/acl/plain_acl.yml) is the file the broker starts on
# and the tests restore after changing it. NAMESRV_IMPL, BROKER_IMPL,
# RMQGO_*_BIN, MVN_TEST_FLAGS, NAMESRV_PORT, BROKER_PORT and RUN_DIR (default
# compat/target/run-acl) are passed on as run-suite.sh reads them.
# Ends with run-suite.sh's "compat: N passed, ..." line and status.

set -u
COMPAT_DIR=$(cd "$(dirname "$0")" && pwd)
LINE=${1:-4}
BROKER_CONF_EXTRA="aclEnable=true
${BROKER_CONF_EXTRA:-}"
PLAIN_ACL_FILE=${PLAIN_ACL_FILE:-$COMPAT_DIR/acl/plain_acl.yml}
export BROKER_CONF_EXTRA PLAIN_ACL_FILE
RUN_DIR=${RUN_DIR:-$COMPAT_DIR/target/run-acl} COMPAT_CLIENTS="" COMPAT_BROKER_B=0 \
  exec sh "$COMPAT_DIR/run-suite.sh" "$LINE" -Dgroups=acl -Dcompat.excludedGroups=
