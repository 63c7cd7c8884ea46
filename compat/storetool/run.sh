#!/bin/sh
# Runs one of the storetool main classes with the rocketmq jars of one line
# (POSIX sh):
#
#   sh compat/storetool/run.sh 4|5 StoreGen   <namesrvAddr> <sent.jsonl>
#   sh compat/storetool/run.sh 4|5 StoreDump  <storeRootDir> <store.properties> <outDir>
#   sh compat/storetool/run.sh 4|5 StoreBench <storeRootDir> <ASYNC_FLUSH|SYNC_FLUSH> <threads> <messages> <bodyBytes>
#   sh compat/storetool/run.sh 4|5 StoreCheck <sent.jsonl> <dumpDir> [<storeRootDir> <store.properties>]
#   sh compat/storetool/run.sh 4|5 build      # only build
#
# Line 4 runs every rocketmq artifact at 4.9.7 (Maven profile rmq4), line 5 at
# 5.3.3 (profile rmq5). The first run, and any run after src/ or pom.xml
# changed, does `mvn compile dependency:build-classpath` into target/line<N>/
# (classes + classpath.txt); later runs start java directly.
#
# JVM flags: line 4 gets --add-opens java.base/java.nio and
# java.base/jdk.internal.ref (the 4.9.7 store unmaps files reflectively on
# shutdown, as the 4.9.7 broker in ref-servers.sh needs); logs (WARN and up)
# go to stderr, never to stdout or ~/logs; user.home is target/home.
# JAVA_HEAP (default "-Xms256m -Xmx1g") and JAVA_OPTS (extra flags) change them.
# MVN (mvn) names Maven.
#
# The same classes also run with `mvn -q -f compat/storetool/pom.xml [-Prmq5]
# compile exec:java -Dexec.mainClass=org.rmqgo.storetool.StoreDump
# -Dexec.args="..."`, but inside Maven's JVM: without the line-4 flags and with
# Maven's logging, so this script is the supported way.

set -eu
DIR=$(cd "$(dirname "$0")" && pwd)
JAVA_HEAP=${JAVA_HEAP:--Xms256m -Xmx1g}
JAVA_OPTS=${JAVA_OPTS:-}
# shellcheck source=compat/java-tool-lib.sh
. "$DIR/../java-tool-lib.sh"
java_tool_prepare storetool "$DIR" "StoreGen StoreDump StoreBench StoreCheck" "$@"
shift 2
case $LINE in
  4) FLAGS="--add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/jdk.internal.ref=ALL-UNNAMED" ;;
  *) FLAGS="" ;;
esac

mkdir -p "$DIR/target/home/logs"
# shellcheck disable=SC2086
exec java $JAVA_HEAP $FLAGS $JAVA_OPTS \
  -Duser.home="$DIR/target/home" \
  -Drocketmq.client.logUseSlf4j=true \
  -Drocketmq.client.logRoot="$DIR/target/home/logs" \
  -Drocketmq.client.logLevel=WARN \
  -Drocketmq.log.root="$DIR/target/home/logs" \
  -Drmq.logback.configurationFile="$OUT/classes/rmq.storetool.logback.xml" \
  -cp "$OUT/classes:$(cat "$CP")" "org.rmqgo.storetool.$CLASS" "$@"
