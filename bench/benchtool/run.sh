#!/bin/sh
# Runs bench/benchtool's Producer or Consumer, the work-alikes of Apache
# RocketMQ's benchmark tools, with rocketmq-client of one line (POSIX sh):
#
#   sh bench/benchtool/run.sh 4|5 Producer -n <namesrv> [-t topic] [-s bodySize] [-w threads] [-q messages]
#   sh bench/benchtool/run.sh 4|5 Consumer -n <namesrv> [-t topic] [-g group] [-w threads]
#   sh bench/benchtool/run.sh 4|5 build
#
# Line 4 is rocketmq-client 4.9.7 (Maven profile rmq4), line 5 is 5.3.3
# (rmq5). The first run, and any run after src/ or pom.xml changed, does
# `mvn compile dependency:build-classpath` into target/line<N>/; later runs
# start java directly. stdout carries only the tools' own lines; the client
# logs go to BENCH_HOME/logs (default target/home), which is also user.home.
# JAVA_HEAP (default "-Xms256m -Xmx512m") and JAVA_OPTS add JVM flags; MVN
# names Maven.
set -eu
DIR=$(cd "$(dirname "$0")" && pwd)
JAVA_HEAP=${JAVA_HEAP:--Xms256m -Xmx512m}
JAVA_OPTS=${JAVA_OPTS:-}
BENCH_HOME=${BENCH_HOME:-$DIR/target/home}

usage() {
  sed -n '5,7p' "$0" | sed 's/^# *//' >&2
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
  Producer|Consumer|build) ;;
  *) usage ;;
esac

OUT=$DIR/target/line$LINE
JT_SHARED_SRC="$DIR/../../compat/testsupport/src"
. "$DIR/../../compat/java-tool-lib.sh"
# shellcheck disable=SC2086
java_tool_classpath benchtool "$DIR" "$OUT" $PROFILE

[ "$CLASS" = build ] && exit 0

mkdir -p "$BENCH_HOME/logs"
# shellcheck disable=SC2086
exec java $JAVA_HEAP $JAVA_OPTS \
  -Duser.home="$BENCH_HOME" \
  -Drocketmq.client.logRoot="$BENCH_HOME/logs" \
  -Drocketmq.client.logLevel=WARN \
  -cp "$OUT/classes:$(cat "$CP")" "org.rmqgo.benchtool.$CLASS" "$@"
