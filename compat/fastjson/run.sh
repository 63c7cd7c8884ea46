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

usage() {
  sed -n '5,7p' "$0" | sed 's/^# *//' >&2
  exit 2
}
[ $# -ge 1 ] || usage
LINE=$1
CLASS=${2:-Oracle}
case $LINE in
  4) PROFILE="" ;;
  5) PROFILE="-Prmq5" ;;
  *) usage ;;
esac
case $CLASS in
  Oracle|SeedGen|build) ;;
  *) usage ;;
esac

OUT=$DIR/target/line$LINE
. "$DIR/../java-tool-lib.sh"
# shellcheck disable=SC2086
java_tool_classpath fastjson "$DIR" "$OUT" $PROFILE

[ "$CLASS" = build ] && exit 0

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
