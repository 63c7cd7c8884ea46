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
BENCH_HOME=${BENCH_HOME:-$DIR/target/home}
JT_SHARED_SRC="$DIR/../../compat/testsupport/src"
# shellcheck source=compat/java-tool-lib.sh
. "$DIR/../../compat/java-tool-lib.sh"
java_tool_prepare benchtool "$DIR" "Producer Consumer" "$@"
shift 2
java_tool_exec_client benchtool "$BENCH_HOME" "$@"
