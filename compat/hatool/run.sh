#!/bin/sh
# Runs a compat/hatool main class with rocketmq-client of one line (POSIX sh):
#
#   sh compat/hatool/run.sh 4|5 HaKill -n <namesrv> -kill <cmd> -start <cmd> [...]   (see HaKill.java)
#   sh compat/hatool/run.sh 5 ControllerKill -mode kill|control|stop -n <namesrv> -controller <addr> ...   (see ControllerKill.java)
#   sh compat/hatool/run.sh 4|5 build
#
# Line 4 is rocketmq-client 4.9.8 (Maven profile rmq4), line 5 is 5.3.3
# (rmq5). The first run, and any run after src/ or pom.xml changed, does
# `mvn compile dependency:build-classpath` into target/line<N>/; later runs
# start java directly. The client logs go to HATOOL_HOME/logs (default
# target/home), which is also user.home. JAVA_HEAP (default "-Xms128m
# -Xmx512m") and JAVA_OPTS add JVM flags; MVN names Maven.
set -eu
DIR=$(cd "$(dirname "$0")" && pwd)
JAVA_HEAP=${JAVA_HEAP:--Xms128m -Xmx512m}
HATOOL_HOME=${HATOOL_HOME:-$DIR/target/home}
JT_SHARED_SRC="$DIR/../testsupport/src"
# shellcheck source=compat/java-tool-lib.sh
. "$DIR/../java-tool-lib.sh"
java_tool_prepare hatool "$DIR" "HaKill ControllerKill" "$@"
shift 2
java_tool_exec_client hatool "$HATOOL_HOME" "$@"
