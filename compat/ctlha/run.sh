#!/bin/sh
# Runs a compat/ctlha main class with rocketmq-client and rocketmq-tools 5.3.3 (POSIX sh):
#
#   sh compat/ctlha/run.sh 5 ControllerHa -scenario leader-and-master|partition -n <namesrv> ...   (see ControllerHa.java)
#   sh compat/ctlha/run.sh 5 build
#
# The client side of compat/controller-ha-suite.sh. The first run, and any run
# after src/ or pom.xml changed, does `mvn compile dependency:build-classpath`
# into target/line5/; later runs start java directly. The client logs go to
# HATOOL_HOME/logs (default target/home), which is also user.home. JAVA_HEAP
# (default "-Xms128m -Xmx512m") and JAVA_OPTS add JVM flags; MVN names Maven.
set -eu
DIR=$(cd "$(dirname "$0")" && pwd)
JAVA_HEAP=${JAVA_HEAP:--Xms128m -Xmx512m}
HATOOL_HOME=${HATOOL_HOME:-$DIR/target/home}
# shellcheck disable=SC2034 # read by java-tool-lib.sh
JT_SHARED_SRC="$DIR/../testsupport/src"
# shellcheck source=compat/java-tool-lib.sh
. "$DIR/../java-tool-lib.sh"
[ "${1:-}" = 5 ] || java_tool_usage
java_tool_prepare ctlha "$DIR" "ControllerHa" "$@"
shift 2
java_tool_exec_client ctlha "$HATOOL_HOME" "$@"
