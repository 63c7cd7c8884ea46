#!/bin/sh
# Scrapes the Prometheus exporter (metricsExporterType=PROM) of the Java
# 5.3.3 broker and of ours after the same workload, and compares what a
# Grafana dashboard or an alert reads: the metric names, their label sets,
# and the values of the counters that follow what the clients did.
#
#   sh compat/metrics-compare.sh            # both brokers, one after the other
#   IMPLS=go sh compat/metrics-compare.sh   # ours only (no Java)
#
# The workload (rmqbench, JSON headers, the 5.x line): 500 messages of 128
# bytes to MetricsTopic, consumed by group metrics_cg from the first
# offset; then a consumer of metrics_cg2 stays connected (long polling
# from the last offset) while 300 more are sent, and the exporter is
# scraped with it connected. Each scrape is kept in
# compat/target/metrics/<impl>.prom; the comparison is printed:
#
#   names: java N, go N, only in java: ..., only in go: ...
#   label sets that differ: ... (or none)
#
# and the script fails when a counter differs from what the clients had
# acknowledged, or a name or label set of the Java scrape is missing from
# ours (past KNOWN_ABSENT below, each a documented difference of
# broker/metrics.go).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=$ROOT/compat/target/metrics
mkdir -p "$OUT"
IMPLS=${IMPLS:-java go}
PORT_BASE=${PORT_BASE:-26000}
# POP's scan-time histogram: this broker has no POP scan loop.
KNOWN_ABSENT="rocketmq_pop_buffer_scan_time_consume_milliseconds"

BENCH=$OUT/rmqbench
(cd "$ROOT" && go build -o "$BENCH" ./cmd/rmqbench)
if echo "$IMPLS" | grep -q go; then
  (cd "$ROOT" && go build -o "$OUT/rmqgo-broker" ./cmd/rmqgo-broker && go build -o "$OUT/rmqgo-namesrv" ./cmd/rmqgo-namesrv)
fi

# run IMPL: servers of that implementation, the workload, the scrape.
run() {
  impl=$1
  run_dir=$OUT/run-$impl
  metrics_port=$((PORT_BASE + 557))
  export RUN_DIR=$run_dir COMPAT_BROKER_B=0 NAMESRV_IMPL=$impl BROKER_IMPL=$impl \
    NAMESRV_PORT=$((PORT_BASE + 876)) BROKER_PORT=$((PORT_BASE + 911)) \
    RMQGO_BROKER_BIN=$OUT/rmqgo-broker RMQGO_NAMESRV_BIN=$OUT/rmqgo-namesrv \
    BROKER_CONF_EXTRA="metricsExporterType=PROM
metricsPromExporterHost=127.0.0.1
metricsPromExporterPort=$metrics_port"
  sh "$ROOT/compat/ref-servers.sh" start 5 > "$OUT/$impl-servers.log" 2>&1 || {
    cat "$OUT/$impl-servers.log"
    return 1
  }
  . "$run_dir/env.sh"
  ns=127.0.0.1:$NAMESRV_PORT
  # the broker's boot line comes before its first registration: wait (at
  # most 60 s) until the name server routes TBW102, which the producer
  # sends the first messages of a new topic on
  i=0
  until "$BENCH" route -n "$ns" -t TBW102 -count 1 -c 1 -progress 0 > /dev/null 2>&1; do
    i=$((i + 1))
    [ $i -lt 600 ] || { echo "the name server never routed TBW102 ($impl)"; return 1; }
    sleep 0.1
  done
  "$BENCH" produce -n "$ns" -t MetricsTopic -s 128 -count 500 -w 4 -progress 0 > "$OUT/$impl-produce.out"
  sent1=$(sent "$OUT/$impl-produce.out")
  "$BENCH" consume -n "$ns" -t MetricsTopic -g metrics_cg -from first -count "$sent1" -d 60s -progress 0 > "$OUT/$impl-consume.out"
  "$BENCH" consume -n "$ns" -t MetricsTopic -g metrics_cg2 -from first -d 120s -progress 0 > "$OUT/$impl-consume2.out" &
  consumer=$!
  "$BENCH" produce -n "$ns" -t MetricsTopic -s 128 -count 300 -w 1 -progress 0 > "$OUT/$impl-produce2.out"
  total=$((sent1 + $(sent "$OUT/$impl-produce2.out")))
  echo "$sent1 $total" > "$OUT/$impl.sent"
  # scrape once the connected consumer has had every message, while its
  # connection is still up (it heartbeats until it is stopped)
  i=0
  until curl -sf "http://127.0.0.1:$metrics_port/metrics" > "$OUT/$impl.prom" &&
    grep -q "rocketmq_messages_out_total{.*consumer_group=\"metrics_cg2\".*} $total.0 " "$OUT/$impl.prom"; do
    i=$((i + 1))
    [ $i -lt 600 ] || { echo "metrics_cg2 never reached $total messages out ($impl)"; break; }
    sleep 0.1
  done
  kill "$consumer" 2> /dev/null || true
  wait "$consumer" 2> /dev/null || true
  sh "$ROOT/compat/ref-servers.sh" stop > /dev/null 2>&1 || true
}

# sent FILE: how many messages a produce run had acknowledged.
sent() {
  sed -n 's/.*"messages":\([0-9]*\),"failed".*/\1/p' "$1"
}

# shape FILE: "name label,label,..." per series, sorted and unique.
shape() {
  grep -v '^#' "$1" | sed -E 's/^([^{ ]+)\{([^}]*)\}.*/\1 \2/' |
    awk '{n=$1; l=$2; gsub(/="[^"]*"/, "", l); print n, l}' | sort -u
}

# counter FILE NAME MATCH: the value of the series of NAME whose labels
# contain MATCH, summed.
counter() {
  grep "^$2{" "$1" | grep "$3" | awk '{s+=$2} END {printf "%d", s}'
}

for impl in $IMPLS; do
  run "$impl"
done

for impl in $IMPLS; do
  shape "$OUT/$impl.prom" > "$OUT/$impl.shape"
  cut -d' ' -f1 "$OUT/$impl.shape" | sort -u > "$OUT/$impl.names"
  echo "$impl: $(wc -l < "$OUT/$impl.names") names, $(wc -l < "$OUT/$impl.shape") name/label sets;" \
    "MetricsTopic messages in $(counter "$OUT/$impl.prom" rocketmq_messages_in_total 'topic="MetricsTopic"')," \
    "out $(counter "$OUT/$impl.prom" rocketmq_messages_out_total 'topic="MetricsTopic"')," \
    "bytes in $(counter "$OUT/$impl.prom" rocketmq_throughput_in_total 'topic="MetricsTopic"')"
done
status=0
for impl in $IMPLS; do
  read -r sent1 total < "$OUT/$impl.sent"
  for check in "rocketmq_messages_in_total topic=\"MetricsTopic\" $total" \
    "rocketmq_messages_out_total consumer_group=\"metrics_cg\" $sent1" \
    "rocketmq_messages_out_total consumer_group=\"metrics_cg2\" $total"; do
    set -- $check
    got=$(counter "$OUT/$impl.prom" "$1" "$2")
    if [ "$got" != "$3" ]; then
      echo "FAIL: $impl: $1 $2: $got, the clients had $3 acknowledged"
      status=1
    fi
  done
done
case "$IMPLS" in *java*go*) ;; *) exit $status ;; esac

echo "names only in java: $(comm -23 "$OUT/java.names" "$OUT/go.names" | tr '\n' ' ')"
echo "names only in go:   $(comm -13 "$OUT/java.names" "$OUT/go.names" | tr '\n' ' ')"
echo "label sets only in java:"
comm -23 "$OUT/java.shape" "$OUT/go.shape" | sed 's/^/  /'
echo "label sets only in go:"
comm -13 "$OUT/java.shape" "$OUT/go.shape" | sed 's/^/  /'
missing=$(comm -23 "$OUT/java.shape" "$OUT/go.shape" | grep -v -E "^($KNOWN_ABSENT)[ _]" || true)
if [ -n "$missing" ]; then
  echo "FAIL: series of the Java broker missing from ours:"
  echo "$missing"
  status=1
fi
# bytes per message: the stored records are the same size on both
for m in rocketmq_throughput_in_total rocketmq_throughput_out_total; do
  for impl in java go; do
    read -r sent1 total < "$OUT/$impl.sent"
    echo "$impl $m per message: $(($(counter "$OUT/$impl.prom" $m 'consumer_group="metrics_cg2"\|message_type=') / total))"
  done
done
exit $status
