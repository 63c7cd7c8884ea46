#!/bin/sh
# Runs RocksTool (POSIX sh) with rocketmq-common 5.3.3 and rocketmq-rocksdb
# 1.0.2 from Maven Central, the RocksDB of the 5.3.3 broker:
#
#   sh compat/rocksdbtool/run.sh gen  <dir> clean|kill|mixed   # writes a database, prints its keys
#   sh compat/rocksdbtool/run.sh dump <dir>                    # opens a database, prints its keys
#   sh compat/rocksdbtool/run.sh build                         # only build
#
# Printed: one line per key, "<column family>\t<key>\t<value>", the
# families default, kvDataVersion, forbidden in that order, keys as RocksDB
# iterates them. gen's modes: clean ends with ConfigRocksDBStorage.shutdown
# (the memtables flushed to SST files), kill with Runtime.halt after
# flushWAL (the writes only in the WAL, as after kill -9), mixed flushes to
# an SST halfway and halts after more writes (SST and WAL). dump opens the
# database read-write, as the broker does (it may flush or rewrite it).
#
# The first run, and any after src/ or pom.xml changed, runs `mvn compile
# dependency:build-classpath` into target/ (MVN names Maven); later runs
# start java directly. user.home is target/home (RocksDB's LOG goes to
# its logs/rocketmqlogs, as ConfigHelper.getDBLogDir puts it).

set -eu
DIR=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=compat/java-tool-lib.sh
. "$DIR/../java-tool-lib.sh"
[ $# -ge 1 ] || java_tool_usage
OUT=$DIR/target
java_tool_classpath rocksdbtool "$DIR" "$OUT"
[ "$1" = build ] && exit 0
mkdir -p "$OUT/home"
exec java -Xmx256m -Duser.home="$OUT/home" -Drocketmq.log.root="$OUT/home/logs" \
  -cp "$OUT/classes:$(cat "$CP")" org.rmqgo.rocksdbtool.RocksTool "$@"
