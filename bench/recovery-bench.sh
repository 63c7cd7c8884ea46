#!/bin/sh
# Crash recovery time, this project's broker beside the Java 4.9.7 broker
# (POSIX sh). For each store size N (GiB, ascending) it:
#
#   1. grows one store with our broker under load (rmqbench produce, 1 KiB
#      bodies, WRITERS senders, 1 GiB commitlog files as Java's default)
#      until the commitlog holds N GiB, then SIGKILLs the broker while the
#      producer is still sending (a crash under load);
#   2. for each of IMPLS (go java; go-cold and java-cold drop the copy from
#      the page cache first, as after a reboot; COLD=1 does it for all):
#      copies the crashed store, syncs the copy,
#      starts that broker on the copy and times it from exec to its
#      "boot success" line (polled every 20 ms), stops it cleanly and
#      deletes the copy;
#   3. goes on to the next size with the same store (name server and
#      broker started again, on fresh ports).
#
# PREFILL=1 grows each size's store but its last LOAD_MB (256) MiB with
# rmqbench store (our store code appending in-process, before the broker
# starts),
# much faster than the broker on a busy machine; the broker then takes the
# load for the rest and is killed under it as above.
#
# It prints one JSON line per boot and a markdown table at the end, with
# what our log says recovery read (scannedBytes of "recovered commitlog")
# and the file the Java store log says it recovered from.
#
#   sh bench/recovery-bench.sh                    # SIZES="1 5 10"
#   SIZES="1 2" IMPLS=go sh bench/recovery-bench.sh
#   FILE_MB=64 SIZES="1 2" sh bench/recovery-bench.sh   # a smoke run: sizes
#                                       # count commitlog files of FILE_MB MiB
#
# Needs RMQGO_NAMESRV_BIN, RMQGO_BROKER_BIN and RMQBENCH_BIN (make build;
# make bench-recovery sets them). Disk: the store plus one copy, so about
# 2 x (largest size + 2) GiB under BENCH_DIR (default a mktemp dir under
# /tmp), all deleted at the end (KEEP=1 keeps them). INPLACE=1 (one of
# IMPLS only) boots on the crashed store itself, no copy: largest size +
# 2 GiB, and the next size grows the store that boot recovered. The servers
# run from BENCH_DIR/run (compat/ref-servers.sh); only processes this
# script started are signalled.
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SIZES=${SIZES:-"1 5 10"}
IMPLS=${IMPLS:-"go java"}
WRITERS=${WRITERS:-64}
BODY=${BODY:-1024}
COLD=${COLD:-0}
KEEP=${KEEP:-0}
PREFILL=${PREFILL:-0}
INPLACE=${INPLACE:-0}
case "$INPLACE $IMPLS" in "1 "*" "*) echo "recovery-bench: INPLACE=1 takes one of IMPLS" >&2; exit 2 ;; esac
LOAD_MB=${LOAD_MB:-256}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-600}
REF_VERSION=${REF_VERSION_4:-4.9.7}
BROKER_JAVA_HEAP=${BROKER_JAVA_HEAP:--Xms256m -Xmx512m -XX:MaxDirectMemorySize=512m}
JAVA_OPENS=${REF_JAVA_FLAGS-"--add-opens=java.base/java.nio=ALL-UNNAMED --add-opens=java.base/jdk.internal.ref=ALL-UNNAMED"}
MVN=${MVN:-mvn}
: "${RMQGO_NAMESRV_BIN:?set RMQGO_NAMESRV_BIN (make build)}"
: "${RMQGO_BROKER_BIN:?set RMQGO_BROKER_BIN (make build)}"
: "${RMQBENCH_BIN:?set RMQBENCH_BIN (make build)}"
BENCH_DIR=${BENCH_DIR:-$(mktemp -d /tmp/rmqgo-recovery-bench.XXXXXX)}
mkdir -p "$BENCH_DIR"
RUN_DIR=$BENCH_DIR/run
RESULTS=$BENCH_DIR/results.jsonl
export RUN_DIR RMQGO_NAMESRV_BIN RMQGO_BROKER_BIN
FILE_MB=${FILE_MB:-1024}
FILE_BYTES=$((FILE_MB * 1048576))
PRODUCER_PID="" TIMED_PID=""
# Every broker keeps every file whatever the disk's fill (the store and its
# copy fill a good part of it; Java's space rule would delete or refuse).
KEEP_FILES="diskMaxUsedSpaceRatio=95
cleanFileForciblyEnable=false"
KEEP_FILES_PROPS="-Drocketmq.broker.diskSpaceWarningLevelRatio=0.99 -Drocketmq.broker.diskSpaceCleanForciblyRatio=0.99"

log() { echo "recovery-bench: $*" >&2; }

cleanup() {
  [ -n "$PRODUCER_PID" ] && kill "$PRODUCER_PID" 2>/dev/null
  [ -n "$TIMED_PID" ] && kill -KILL "$TIMED_PID" 2>/dev/null
  sh "$ROOT/compat/ref-servers.sh" stop >/dev/null 2>&1 || true
  if [ "$KEEP" = 1 ]; then log "kept $BENCH_DIR"; else rm -rf "$BENCH_DIR"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# java_classpath: the cached classpath of the Java servers (as ref-servers.sh
# resolves it).
java_classpath() {
  cpfile=$ROOT/compat/target/cp/servers-$REF_VERSION.cp
  if [ ! -s "$cpfile" ]; then
    mkdir -p "$(dirname "$cpfile")"
    "$MVN" -q -B -Dstyle.color=never -f "$ROOT/compat/reference/pom.xml" -Drmq.server.version="$REF_VERSION" \
      dependency:build-classpath -Dmdep.includeScope=runtime -Dmdep.outputFile="$cpfile" >&2
  fi
  cat "$cpfile"
}

# free_broker_port: a port P with P-2, P and P+1 free (a broker's three),
# a new one for every boot (a port just let go may still be held).
BOOTS=0
free_broker_port() {
  BOOTS=$((BOOTS + 1))
  python3 - "$((23911 + BOOTS * 30))" <<'EOF'
import socket, sys
p = int(sys.argv[1])
while True:
    ok = True
    for q in (p - 2, p, p + 1):
        s = socket.socket()
        try:
            s.bind(("127.0.0.1", q))
        except OSError:
            ok = False
        finally:
            s.close()
    if ok:
        print(p)
        break
    p += 10
EOF
}

# prefill BYTES: grows the store by about BYTES with rmqbench store (this
# project's store code appending in-process, 1 KiB bodies), while no
# broker runs on it.
prefill() {
  [ "$1" -gt 0 ] || return 0
  log "prefilling about $(($1 >> 20)) MiB in-process"
  "$RMQBENCH_BIN" store -dir "$STORE" -threads 4 -body "$BODY" -messages $(($1 / (BODY + 130))) -read=false \
    >>"$BENCH_DIR/prefill.log" 2>&1
}

# start_servers: a name server and our broker-a on the store (fresh ports
# each time: ports a dead broker let go may be taken meanwhile on a shared
# machine).
start_servers() {
  BROKER_CONF_EXTRA="mappedFileSizeCommitLog=$FILE_BYTES
storePathRootDir=$STORE
storePathCommitLog=$STORE/commitlog
$KEEP_FILES" SERVER_JAVA_OPT_EXT="$KEEP_FILES_PROPS" NAMESRV_IMPL=go BROKER_IMPL=go COMPAT_BROKER_B=0 \
    sh "$ROOT/compat/ref-servers.sh" start 4 >/dev/null
  # shellcheck disable=SC1091
  . "$RUN_DIR/env.sh"
}

# produce_until N: our broker takes load until its commitlog holds N files
# (N GiB at the default FILE_MB): the file after N exists once the
# broker writes in file N (it makes the next file ahead, as Java does).
produce_until() {
  n=$1
  next=$(printf '%020d' $(((n + 1) * FILE_BYTES)))
  "$RMQBENCH_BIN" produce -n "$NAMESRV_ADDR" -t RecoveryBench -s "$BODY" -w "$WRITERS" -d 10h -progress 30s \
    >>"$BENCH_DIR/produce.log" 2>&1 &
  PRODUCER_PID=$!
  log "producing until the commitlog reaches $((n * FILE_MB)) MiB (producer pid $PRODUCER_PID)"
  while [ ! -e "$STORE/commitlog/$next" ]; do
    kill -0 "$PRODUCER_PID" 2>/dev/null || { tail -20 "$BENCH_DIR/produce.log" >&2; exit 1; }
    sleep 1
  done
  sleep 2 # into the file, and the flushers mid-way
}

# crash: SIGKILL to broker-a while the producer sends, then stop the producer.
crash() {
  pid=$(cat "$RUN_DIR/broker-a/pid")
  kill -KILL "$pid"
  while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  rm -f "$RUN_DIR/broker-a/pid"
  kill "$PRODUCER_PID" 2>/dev/null || true
  wait "$PRODUCER_PID" 2>/dev/null || true
  PRODUCER_PID=""
  LOAD_TPS=$(grep '"kind":"produce"' "$BENCH_DIR/produce.log" | tail -1 | sed -n 's/.*"tps":\([0-9]*\).*/\1/p')
  log "broker-a (pid $pid) killed under load (${LOAD_TPS:-?} msg/s)"
}

# copy_store DIR COLD: a copy of the crashed store, on disk (and, COLD=1,
# out of the page cache); INPLACE=1 moves the store itself there.
copy_store() {
  rm -rf "$1"
  if [ "$INPLACE" = 1 ]; then mv "$STORE" "$1"; else cp -a "$STORE" "$1"; fi
  sync
  if [ "$2" = 1 ]; then
    find "$1" -type f -print0 | xargs -0 python3 -c '
import os, sys
for f in sys.argv[1:]:
    fd = os.open(f, os.O_RDONLY)
    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    os.close(fd)'
  fi
}

# write_conf DIR STORE PORT: the timed broker's broker.conf.
write_conf() {
  cat >"$1/broker.conf" <<EOF
brokerClusterName=RecoveryBench
brokerName=recovery-bench
brokerId=0
brokerRole=ASYNC_MASTER
flushDiskType=ASYNC_FLUSH
brokerIP1=127.0.0.1
listenPort=$3
namesrvAddr=$NAMESRV_ADDR
autoCreateTopicEnable=true
storePathRootDir=$2
storePathCommitLog=$2/commitlog
mappedFileSizeCommitLog=$FILE_BYTES
$KEEP_FILES
EOF
}

# timed_boot IMPL STORE SIZE COLD: starts IMPL on STORE, prints the seconds
# to its boot line, stops it.
timed_boot() {
  impl=$1 store=$2 size=$3 cold=$4
  dir=$BENCH_DIR/timed-$impl
  rm -rf "$dir"
  mkdir -p "$dir"
  free_broker_port >"$dir/port"
  write_conf "$dir" "$store" "$(cat "$dir/port")"
  files=$(ls "$store/commitlog" | wc -l)
  t0=$(date +%s%N)
  case $impl in
    go)
      (cd "$dir" && exec env ROCKETMQ_HOME="$RUN_DIR/rocketmq-home" JAVA_OPT_EXT="-Duser.home=$dir $KEEP_FILES_PROPS" RMQGO_LINE=4 \
        "$RMQGO_BROKER_BIN" -c "$dir/broker.conf" >"$dir/stdout.log" 2>&1 </dev/null) &
      ;;
    java)
      # shellcheck disable=SC2086
      (cd "$dir" && exec env ROCKETMQ_HOME="$RUN_DIR/rocketmq-home" java $BROKER_JAVA_HEAP $JAVA_OPENS $KEEP_FILES_PROPS \
        -Duser.home="$dir" -cp "$JAVA_CP" org.apache.rocketmq.broker.BrokerStartup -c "$dir/broker.conf" \
        >"$dir/stdout.log" 2>&1 </dev/null) &
      ;;
  esac
  TIMED_PID=$!
  deadline=$(( $(date +%s) + BOOT_TIMEOUT ))
  while ! grep -q "boot success" "$dir/stdout.log" 2>/dev/null; do
    if ! kill -0 "$TIMED_PID" 2>/dev/null || [ "$(date +%s)" -ge "$deadline" ]; then
      log "$impl did not boot on $store"; tail -30 "$dir/stdout.log" >&2; exit 1
    fi
    sleep 0.02
  done
  t1=$(date +%s%N)
  secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", (b - a) / 1e9 }')
  kill -TERM "$TIMED_PID"
  n=0
  while kill -0 "$TIMED_PID" 2>/dev/null && [ $n -lt 900 ]; do sleep 0.1; n=$((n + 1)); done
  kill -KILL "$TIMED_PID" 2>/dev/null || true
  wait "$TIMED_PID" 2>/dev/null || true
  TIMED_PID=""
  scanned="" from=""
  if [ "$impl" = go ]; then
    scanned=$(grep -h 'recovered commitlog' "$dir"/logs/rocketmqlogs/*.log 2>/dev/null |
      sed -n 's/.*"scannedBytes": *\([0-9]*\).*/\1/p' | head -1)
  else
    from=$(grep -h "recover from this mapped file" "$dir"/logs/rocketmqlogs/*.log 2>/dev/null |
      grep -o '[0-9]\{20\}' | head -1)
  fi
  echo "{\"sizeMiB\":$((size * FILE_MB)),\"impl\":\"$impl\",\"cold\":$cold,\"bootSeconds\":$secs,\"commitlogFiles\":$files,\"scannedBytes\":\"${scanned}\",\"javaRecoverFrom\":\"${from}\",\"loadTps\":\"${LOAD_TPS:-}\"}" |
    tee -a "$RESULTS"
}

# table: one row per size and boot, with ours / Java for the same size
# and cache state.
table() {
  echo
  echo "| commitlog (MiB) | load before the kill (msg/s) | broker | page cache | boot after SIGKILL (s) | commitlog read by recovery | / Java |"
  echo "|---|---|---|---|---|---|---|"
  awk '
    function field(name,   re, v) {
      re = "\"" name "\":\"?[^,\"}]*"
      if (!match($0, re)) return ""
      v = substr($0, RSTART, RLENGTH); sub(/^"[^"]*":"?/, "", v); return v
    }
    { n++; size[n] = field("sizeMiB"); impl[n] = field("impl"); cold[n] = field("cold"); secs[n] = field("bootSeconds")
      scanned[n] = field("scannedBytes"); from[n] = field("javaRecoverFrom"); tps[n] = field("loadTps")
      if (impl[n] == "java") java[size[n] "/" cold[n]] = secs[n] }
    END {
      for (i = 1; i <= n; i++) {
        read = impl[i] == "go" ? (scanned[i] == "" ? "-" : sprintf("%.0f MiB", scanned[i] / 1048576)) : (from[i] == "" ? "from the first file" : "from file " from[i])
        j = java[size[i] "/" cold[i]]
        ratio = (impl[i] != "java" && j > 0) ? sprintf("%.2f", secs[i] / j) : "-"
        printf "| %s | %s | %s | %s | %s | %s | %s |\n", size[i], tps[i], impl[i] == "go" ? "ours" : "Java '"$REF_VERSION"'",
          cold[i] == 1 ? "dropped" : "warm", secs[i], read, ratio
      }
    }' "$RESULTS"
}

case " $IMPLS " in *" java "*|*" java-cold "*) JAVA_CP=$(java_classpath) ;; *) JAVA_CP="" ;; esac
: >"$RESULTS"
STORE=$BENCH_DIR/store
mkdir -p "$STORE"
prev=0
for size in $SIZES; do
  if [ "$PREFILL" = 1 ]; then prefill $(((size - prev) * FILE_BYTES - LOAD_MB * 1048576)); fi
  prev=$size
  start_servers
  produce_until "$size"
  crash
  for impl in $IMPLS; do
    cold=$COLD
    case $impl in *-cold) impl=${impl%-cold}; cold=1 ;; esac
    copy_store "$BENCH_DIR/copy" "$cold"
    timed_boot "$impl" "$BENCH_DIR/copy" "$size" "$cold"
    if [ "$INPLACE" = 1 ]; then mv "$BENCH_DIR/copy" "$STORE"; else rm -rf "$BENCH_DIR/copy"; fi
  done
  sh "$ROOT/compat/ref-servers.sh" stop >/dev/null 2>&1 || true
done
table
