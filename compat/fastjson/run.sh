#!/bin/sh
# Starts the fastjson oracle, or the seed generator, with the rocketmq jars and
# the fastjson of one line (POSIX sh):
#
#   sh compat/fastjson/run.sh 4|5            # the oracle: stdin "<Kind>\t<base64>" lines, stdout one answer each
#   sh compat/fastjson/run.sh 4|5 SeedGen    # "<Kind>\t<JSON>" lines written by the real Java classes
#   sh compat/fastjson/run.sh 4|5 build      # only build
#
# Line 4 = rocketmq-remoting + rocketmq-common 4.9.7 (fastjson 1.2.69_noneautotype),
# line 5 = 5.3.3 (fastjson 1.2.83). The first run, and any run after src/ or
# pom.xml changed, does `mvn compile dependency:build-classpath` into
# target/line<N>/ (classes + classpath.txt), with Maven's output on stderr;
# later runs exec java directly. The oracle reads until EOF and flushes
# each answer, so a caller can keep it open and interleave (README.md).
#
# JAVA_OPTS adds JVM flags; MVN names Maven. Logs (WARN and up) go to
# stderr, never to stdout; user.home is target/home.

set -eu
DIR=$(cd "$(dirname "$0")" && pwd)
JAVA_OPTS=${JAVA_OPTS:-}
# shellcheck source=compat/java-tool-lib.sh
. "$DIR/../java-tool-lib.sh"
# The class defaults to Oracle; arguments after it are not used.
[ $# -lt 1 ] || set -- "$1" "${2:-Oracle}"
java_tool_prepare fastjson "$DIR" "Oracle SeedGen" "$@"

mkdir -p "$DIR/target/home/logs"
# -Xss1m: fastjson recurses per nesting level; a fixed stack makes the depth
# at which it overflows the same on every machine.
# shellcheck disable=SC2086
exec java -Xms32m -Xmx256m -Xss1m -XX:+UseSerialGC $JAVA_OPTS \
  -Duser.home="$DIR/target/home" \
  -Drocketmq.log.root="$DIR/target/home/logs" \
  -Drmq.logback.configurationFile="$OUT/classes/rmq.fastjson.logback.xml" \
  -Dlogback.configurationFile="$OUT/classes/rmq.fastjson.logback.xml" \
  -cp "$OUT/classes:$(cat "$CP")" "org.rmqgo.fastjson.$CLASS"
