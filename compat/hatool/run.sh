#!/bin/sh
# Runs a compat/hatool main class with rocketmq-client of one line (POSIX sh):
#
#   sh compat/hatool/run.sh 4|5 HaKill -n <namesrv> -kill <cmd> -start <cmd> [...]   (see HaKill.java)
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
JAVA_OPTS=${JAVA_OPTS:-}
HATOOL_HOME=${HATOOL_HOME:-$DIR/target/home}

usage() {
  sed -n '4,5p' "$0" | sed 's/^# *//' >&2
  exit 2
}
[ $# -ge 2 ] || usage
LINE=$1 CLASS=$2
shift 2
case $LINE in
  4) PROFILE="" ;;
  5) PROFILE="-Prmq5" ;;
  *) usage ;;
esac
case $CLASS in
  HaKill|build) ;;
  *) usage ;;
esac

OUT=$DIR/target/line$LINE
JT_SHARED_SRC="$DIR/../testsupport/src"
. "$DIR/../java-tool-lib.sh"
# shellcheck disable=SC2086
java_tool_classpath hatool "$DIR" "$OUT" $PROFILE

[ "$CLASS" = build ] && exit 0

mkdir -p "$HATOOL_HOME/logs"
# shellcheck disable=SC2086
exec java $JAVA_HEAP $JAVA_OPTS \
  -Duser.home="$HATOOL_HOME" \
  -Drocketmq.client.logRoot="$HATOOL_HOME/logs" \
  -Drocketmq.client.logLevel=WARN \
  -cp "$OUT/classes:$(cat "$CP")" "org.rmqgo.hatool.$CLASS" "$@"
