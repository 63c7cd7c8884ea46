#!/bin/sh
# Proves that ACL 2.0 users and ACLs move between the Java 5.3.3 broker and
# ours with the store directory, both ways (issue 17), (POSIX sh):
#
#   sh compat/acl2-rocksdb.sh
#
#  1. RocksDB level: internal/rocksdb's TestJava* tests with
#     RMQGO_ROCKSDBTOOL=compat/rocksdbtool/run.sh: Java's ConfigRocksDBStorage
#     (rocketmq-common 5.3.3, rocketmq-rocksdb 1.0.2) writes databases (clean
#     shutdown, kill, kill after a flush), ours reads them equal, rewrites
#     them, and Java reads the same keys back; Java opens a new one of ours.
#  2. Broker level, one store (ref-servers.sh restart-broker a java|go):
#     the Java broker (ACL 2.0 with the Local metadata providers) creates a
#     super user, a normal user and its ACL, and is KILLED (its writes only
#     in RocksDB's WAL); ours starts on the store: listUser/listAcl show
#     them and the Java-made super user's signature is accepted; ours
#     creates a user and an ACL entry and stops; the Java broker starts on
#     the store and lists everything, the Go-made user signs; Java stops
#     cleanly (its writes flushed to SST files) and ours lists them again.
#
# Ours: $ROOT/bin/rmqgo-namesrv and rmqgo-broker (make build first). Ports:
# ACL2RDB_NAMESRV_PORT (27076), ACL2RDB_BROKER_PORT (27011; ref-servers.sh
# also takes the port below and above). Output in
# compat/target/acl2-rocksdb/ (one file per mqadmin step).
# ACL2RDB_FIXTURE=DIR also copies the killed Java broker's config/users and
# config/acls to DIR (internal/auth/testdata/java-broker, read by
# internal/auth's tests; compat/fixtures.sh rocksdb sets it). Prints
# "acl2-rocksdb: N checks, M failed (S s)" and exits 1 on any failure.
set -u

COMPAT_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$COMPAT_DIR/.." && pwd)
OUT=$COMPAT_DIR/target/acl2-rocksdb
RUN_DIR=$OUT/run
MQADMIN_TIMEOUT=${MQADMIN_TIMEOUT:-120}
LINE=5
ROOT_USER=acl2Root ROOT_PW=acl2Root123
START=$(date +%s)
CHECKS=0 FAILED=0

log() { echo "acl2-rocksdb: $*" >&2; }
check() { # check COMMAND...: runs one check named CHECK_NAME, counts it
  CHECKS=$((CHECKS + 1))
  if "$@"; then log "ok   $CHECK_NAME"; else log "FAIL $CHECK_NAME"; FAILED=$((FAILED + 1)); fi
}

for b in rmqgo-namesrv rmqgo-broker; do
  [ -x "$ROOT/bin/$b" ] || { log "$ROOT/bin/$b missing: run make build first"; exit 2; }
done
rm -rf "$OUT"
mkdir -p "$OUT/tools"

# 1. RocksDB level.
CHECK_NAME="rocksdb: Java's ConfigRocksDBStorage and internal/rocksdb agree both ways"
check sh -c "cd '$ROOT' && RMQGO_ROCKSDBTOOL='$COMPAT_DIR/rocksdbtool/run.sh' go test -count=1 -v -run 'TestJava' ./internal/rocksdb/ >'$OUT/rocksdb-test.out' 2>&1"
grep -E '^(=== RUN|--- |    java_test|ok|FAIL)' "$OUT/rocksdb-test.out" >&2

# 2. Broker level.
servers() { RUN_DIR=$RUN_DIR sh "$COMPAT_DIR/ref-servers.sh" "$@" >>"$OUT/servers.out" 2>&1; }
trap 'servers stop' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
for id in root:$ROOT_USER:$ROOT_PW java:rdbJava:rdbJava123 go:rdbGo:rdbGo1234; do
  IFS=: read -r name ak sk <<EOT
$id
EOT
  printf 'accessKey: %s\nsecretKey: %s\n' "$ak" "$sk" >"$OUT/tools/$name.yml"
done
MQADMIN_HOME=$OUT/mqadmin-home
RMQGO_NAMESRV_BIN=$ROOT/bin/rmqgo-namesrv RMQGO_BROKER_BIN=$ROOT/bin/rmqgo-broker
export MQADMIN_HOME RMQGO_NAMESRV_BIN RMQGO_BROKER_BIN

# mqa AS STEP ARGS...: mqadmin 5.3.3 signed as AS (root, java, go), output in OUT/STEP.out.
mqa() {
  as=$1 step=$2; shift 2
  MQADMIN_TOOLS_YML=$OUT/tools/$as.yml RMQ_LINE=$LINE timeout "$MQADMIN_TIMEOUT" \
    sh "$COMPAT_DIR/mqadmin.sh" "$@" -n "$NAMESRV_ADDR" >"$OUT/$step.out" 2>&1
}
# has STEP WORD...: the output of STEP holds every WORD.
has() {
  f=$OUT/$1.out; shift
  for w in "$@"; do grep -q -- "$w" "$f" || { log "$f lacks '$w':"; sed 's/^/    /' "$f" >&2; return 1; }; done
}
# lacks STEP WORD...: the output of STEP holds no WORD.
lacks() {
  f=$OUT/$1.out; shift
  for w in "$@"; do if grep -q -- "$w" "$f"; then log "$f has '$w'"; return 1; fi; done
}

log "Java 5.3.3 name server and broker, ACL 2.0 on"
BROKER_CONF_EXTRA="authenticationEnabled=true
authorizationEnabled=true
authenticationMetadataProvider=org.apache.rocketmq.auth.authentication.provider.LocalAuthenticationMetadataProvider
authorizationMetadataProvider=org.apache.rocketmq.auth.authorization.provider.LocalAuthorizationMetadataProvider
initAuthenticationUser={\"username\":\"$ROOT_USER\",\"password\":\"$ROOT_PW\"}" \
  NAMESRV_IMPL=java BROKER_IMPL=java COMPAT_BROKER_B=0 \
  NAMESRV_PORT=${ACL2RDB_NAMESRV_PORT:-27076} BROKER_PORT=${ACL2RDB_BROKER_PORT:-27011} \
  servers start "$LINE" || { log "servers did not start; see $OUT/servers.out"; exit 1; }
# shellcheck disable=SC1091
. "$RUN_DIR/env.sh"
B=$BROKER_ADDR

mqa root 01-java-createUser-super createUser -b "$B" -u rdbJava -p rdbJava123 -t Super
mqa root 02-java-createUser-normal createUser -b "$B" -u rdbNormal -p rdbNormal123 -t Normal
mqa root 03-java-createAcl createAcl -b "$B" -s User:rdbNormal -r Topic:RdbTopic -a Pub,Sub -i 10.10.0.0/16 -d Allow
CHECK_NAME="java: users and ACL created"
check has 03-java-createAcl "success"

log "Java broker KILLED, ours starts on its store"
servers stop-broker a --kill
if [ -n "${ACL2RDB_FIXTURE:-}" ]; then
  # The databases as the killed Java broker left them, for internal/auth's tests.
  rm -rf "$ACL2RDB_FIXTURE"
  mkdir -p "$ACL2RDB_FIXTURE"
  cp -a "$RUN_DIR/broker-a/store/config/users" "$RUN_DIR/broker-a/store/config/acls" "$ACL2RDB_FIXTURE/"
  rm -f "$ACL2RDB_FIXTURE/users/LOCK" "$ACL2RDB_FIXTURE/acls/LOCK"
  sed -i "s|db_log_dir=$(cd "$COMPAT_DIR/.." && pwd)/|db_log_dir=|" "$ACL2RDB_FIXTURE"/*/OPTIONS-*
  log "fixture: $ACL2RDB_FIXTURE"
fi
servers start-broker a go || { log "ours did not start; see $OUT/servers.out"; exit 1; }
mqa root 04-go-listUser listUser -b "$B"
CHECK_NAME="go lists the users Java made (from the WAL)"
check has 04-go-listUser rdbJava rdbNormal "$ROOT_USER"
mqa root 05-go-listAcl listAcl -b "$B"
CHECK_NAME="go lists the ACL Java made"
check has 05-go-listAcl User:rdbNormal Topic:RdbTopic 10.10.0.0/16
mqa java 06-go-listUser-as-rdbJava listUser -b "$B"
CHECK_NAME="go accepts the signature of the super user Java made"
check has 06-go-listUser-as-rdbJava rdbNormal
mqa root 07-go-createUser createUser -b "$B" -u rdbGo -p rdbGo1234 -t Super
mqa root 08-go-updateAcl updateAcl -b "$B" -s User:rdbNormal -r Group:RdbGroup -a Sub -d Deny

log "ours stopped, the Java broker starts on the store"
servers restart-broker a java || { log "Java did not start; see $OUT/servers.out"; exit 1; }
mqa root 09-java-listUser listUser -b "$B"
CHECK_NAME="java lists the users of both"
check has 09-java-listUser rdbJava rdbNormal rdbGo "$ROOT_USER"
mqa root 10-java-getAcl getAcl -b "$B" -s User:rdbNormal
CHECK_NAME="java reads the ACL both wrote"
check has 10-java-getAcl Topic:RdbTopic Group:RdbGroup Deny 10.10.0.0/16
mqa go 11-java-listUser-as-rdbGo listUser -b "$B"
CHECK_NAME="java accepts the signature of the super user ours made"
check has 11-java-listUser-as-rdbGo rdbJava
mqa root 12-java-deleteUser deleteUser -b "$B" -u rdbJava

log "Java broker stopped cleanly, ours starts on the store"
servers restart-broker a go || { log "ours did not start; see $OUT/servers.out"; exit 1; }
mqa go 13-go-listUser-as-rdbGo listUser -b "$B"
CHECK_NAME="go lists the users after Java's clean stop (SST files)"
check has 13-go-listUser-as-rdbGo rdbGo rdbNormal "$ROOT_USER"
CHECK_NAME="go honours the user Java deleted"
check lacks 13-go-listUser-as-rdbGo rdbJava
mqa root 14-go-getAcl getAcl -b "$B" -s User:rdbNormal
CHECK_NAME="go reads the ACL after Java's clean stop"
check has 14-go-getAcl Topic:RdbTopic Group:RdbGroup

log "$CHECKS checks, $FAILED failed ($(($(date +%s) - START)) s); outputs in $OUT"
echo "acl2-rocksdb: $CHECKS checks, $FAILED failed ($(($(date +%s) - START)) s)"
[ "$FAILED" = 0 ]
