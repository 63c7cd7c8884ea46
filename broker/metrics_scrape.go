package broker

// One scrape: the recorded instruments (metrics.go) and the gauges read
// now, in the Prometheus text of the Java broker's exporter. The consumer
// gauges are ConsumerLagCalculator's: for every subscription group whose
// consumers are online, each topic they subscribe to (not retry topics)
// that the broker has and may read or write, summed over the topic's
// write queues:
//
//	lag_messages       from the committed offset (or the max) to the max
//	lag_latency        now - store time of the first unconsumed message
//	inflight_messages  from the committed offset to the last pull's next
//	queueing_latency   now - store time of the first message not pulled
//	ready_messages     from the last pull's next offset to the max
//
// each count estimated through the group's tag filter as
// estimateAccumulation (on by default) does: at most 20,000 units are
// scanned (maxConsumeQueueScan), or until 5,000 match
// (sampleCountThreshold), and the matches scaled to the range.

import (
	"strconv"
	"strings"
	"time"

	"github.com/rmqgo/rmqgo/internal/promtext"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// The gauges, read when scraped.
var (
	famWatermark       = promtext.Family{Name: "rocketmq_processor_watermark", Kind: promtext.Gauge}
	famPermission      = promtext.Family{Name: "rocketmq_broker_permission", Kind: promtext.Gauge}
	famTopicNumber     = promtext.Family{Name: "rocketmq_topic_number", Kind: promtext.Gauge}
	famGroupNumber     = promtext.Family{Name: "rocketmq_consumer_group_number", Kind: promtext.Gauge}
	famProducerConns   = promtext.Family{Name: "rocketmq_producer_connections", Kind: promtext.Gauge}
	famConsumerConns   = promtext.Family{Name: "rocketmq_consumer_connections", Kind: promtext.Gauge}
	famLagMessages     = promtext.Family{Name: "rocketmq_consumer_lag_messages", Kind: promtext.Gauge}
	famLagLatency      = promtext.Family{Name: "rocketmq_consumer_lag_latency", Kind: promtext.Gauge, Unit: "milliseconds"}
	famInflight        = promtext.Family{Name: "rocketmq_consumer_inflight_messages", Kind: promtext.Gauge}
	famQueueingLatency = promtext.Family{Name: "rocketmq_consumer_queueing_latency", Kind: promtext.Gauge, Unit: "milliseconds"}
	famReady           = promtext.Family{Name: "rocketmq_consumer_ready_messages", Kind: promtext.Gauge}
	famStorageSize     = promtext.Family{Name: "rocketmq_storage_size", Kind: promtext.Gauge, Unit: "bytes"}
	famFlushBehind     = promtext.Family{Name: "rocketmq_storage_flush_behind_bytes", Kind: promtext.Gauge, Unit: "bytes"}
	famDispatchBehind  = promtext.Family{Name: "rocketmq_storage_dispatch_behind_bytes", Kind: promtext.Gauge, Unit: "bytes"}
	famReserveTime     = promtext.Family{Name: "rocketmq_storage_message_reserve_time", Kind: promtext.Gauge, Unit: "milliseconds"}
	famTimerEnqLag     = promtext.Family{Name: "rocketmq_timer_enqueue_lag", Kind: promtext.Gauge}
	famTimerEnqLatency = promtext.Family{Name: "rocketmq_timer_enqueue_latency", Kind: promtext.Gauge, Unit: "milliseconds"}
	famTimerDeqLag     = promtext.Family{Name: "rocketmq_timer_dequeue_lag", Kind: promtext.Gauge}
	famTimerDeqLatency = promtext.Family{Name: "rocketmq_timer_dequeue_latency", Kind: promtext.Gauge, Unit: "milliseconds"}
	famTimerSnapshot   = promtext.Family{Name: "rocketmq_timer_message_snapshot", Kind: promtext.Gauge}
	famPopOffsetBuffer = promtext.Family{Name: "rocketmq_pop_offset_buffer_size", Kind: promtext.Gauge}
	famPopCkBuffer     = promtext.Family{Name: "rocketmq_pop_checkpoint_buffer_size", Kind: promtext.Gauge}
	famPopReviveLag    = promtext.Family{Name: "rocketmq_pop_revive_lag", Kind: promtext.Gauge, Unit: "milliseconds"}
	famPopReviveLat    = promtext.Family{Name: "rocketmq_pop_revive_latency", Kind: promtext.Gauge, Unit: "milliseconds"}
)

// Scan limits of estimateMessageCount and the timer's distribution
// (MessageStoreConfig's 5.3.3 defaults: maxConsumeQueueScan,
// sampleCountThreshold, timerMetricSmallThreshold's bounds).
const (
	maxConsumeQueueScan  = 20000
	sampleCountThreshold = 5000
)

var timerBoundsSec = []int64{5, 60, 300, 900, 3600, 14400, 28800, 86400}

// processorPools maps the processor label to the pool serving it; the
// processors this broker has no pool for (async_put, ack, lite_pull,
// reply: lite pulls are served by the pull pool) read 0.
var processorPools = []struct {
	name string
	pool poolKind
	none bool
}{
	{"send", sendPool, false}, {"async_put", 0, true}, {"pull", pullPool, false}, {"ack", 0, true},
	{"query_message", queryPool, false}, {"client_manager", clientPool, false}, {"heartbeat", heartbeatPool, false},
	{"lite_pull", 0, true}, {"transaction", endTxPool, false}, {"consumer_manager", consumerPool, false},
	{"admin", adminPool, false}, {"reply", 0, true},
}

// metricsStore is what the gauges read of the store.
type metricsStore interface {
	queueBounds
	queueWalker
	StoreTimeAt(topic string, queueID int32, offset int64) int64
	CommitLogMaxOffset() int64
	DispatchedOffset() int64
	UnflushedBytes() int64
}

// metricsSources is what a scrape reads beyond the instruments.
type metricsSources struct {
	line     line
	settings *liveSettings
	topics   *topicTable
	groups   *groupTable
	clients  *clientTable
	offsets  *offsetTable
	store    metricsStore
	timer    *timerService
	// queued is how many requests wait in a pool (main and VIP servers).
	queued func(poolKind) int
	// earliest is the store time of the oldest message, <= 0 for none.
	earliest func() int64
	// reviveQueues is reviveQueueNum: the POP revive queues.
	reviveQueues int32
}

// scrape writes the whole text.
func (m *brokerMetrics) scrape(src *metricsSources) []byte {
	set := src.settings.load()
	now := m.now()
	w := promtext.NewWriter(metricsScope, commonLabels(set), now.UnixMilli())
	m.writeRecorded(w)
	src.writeBrokerGauges(w, set)
	src.writeConnections(w)
	src.writeConsumerGauges(w, set, now.UnixMilli())
	src.writeStoreGauges(w, set, now.UnixMilli())
	return w.Bytes()
}

// commonLabels are the labels of every series: metricsLabel's pairs,
// aggregation with metricsInDelta, and the broker's identity.
func commonLabels(set *settings) []promtext.Label {
	c := set.Broker
	var ls []promtext.Label
	for _, kv := range strings.Split(c.MetricsLabel, ",") {
		k, v, ok := strings.Cut(kv, ":")
		if kv == "" || !ok || strings.Contains(v, ":") {
			continue
		}
		ls = append(ls, promtext.Label{Name: k, Value: v})
	}
	if c.MetricsInDelta {
		ls = append(ls, promtext.Label{Name: "aggregation", Value: "delta"})
	}
	return append(ls, promtext.Label{Name: "node_type", Value: "broker"},
		promtext.Label{Name: "cluster", Value: c.BrokerClusterName}, promtext.Label{Name: "node_id", Value: c.BrokerName})
}

// writeRecorded writes the counters and histograms.
func (m *brokerMetrics) writeRecorded(w *promtext.Writer) {
	writeVec(w, famMessagesIn, m.in, inKey.labels, func(s *inSeries) float64 { return float64(s.msgs.Load()) })
	writeVec(w, famThroughputIn, m.in, inKey.labels, func(s *inSeries) float64 { return float64(s.bytes.Load()) })
	writeHists(w, famMessageSize, m.in, inKey.labels, func(s *inSeries) *promtext.Hist { return s.size })
	writeVec(w, famMessagesOut, m.out, outKey.labels, func(s *outSeries) float64 { return float64(s.msgs.Load()) })
	writeVec(w, famThroughputOut, m.out, outKey.labels, func(s *outSeries) float64 { return float64(s.bytes.Load()) })
	count := func(c *promtext.Count) float64 { return float64(c.Load()) }
	writeVec(w, famSendToDLQ, m.dlq, outKey.labels, count)
	writeVec(w, famCommits, m.commits, topicKey.labels, count)
	writeVec(w, famRollbacks, m.rollbacks, topicKey.labels, count)
	self := func(h *promtext.Hist) *promtext.Hist { return h }
	writeHists(w, famFinishLatency, m.finish, topicKey.labels, self)
	writeHists(w, famRPCLatency, m.rpc, rpcKey.labels, self)
}

// writeVec writes a counter family, if it has a series.
func writeVec[K comparable, V any](w *promtext.Writer, f promtext.Family, v *promtext.Vec[K, V], labels func(K) []promtext.Label, value func(*V) float64) {
	if v.Len() == 0 {
		return
	}
	w.Family(f)
	v.Each(func(k K, x *V) { w.Sample(f, labels(k), value(x)) })
}

// writeHists writes a histogram family, if it has a series.
func writeHists[K comparable, V any](w *promtext.Writer, f promtext.Family, v *promtext.Vec[K, V], labels func(K) []promtext.Label, hist func(*V) *promtext.Hist) {
	if v.Len() == 0 {
		return
	}
	w.Family(f)
	v.Each(func(k K, x *V) { w.Hist(f, labels(k), hist(x)) })
}

func (k inKey) labels() []promtext.Label {
	if k.overflow {
		return promtext.Overflow
	}
	return []promtext.Label{{Name: "topic", Value: k.topic}, {Name: "message_type", Value: k.msgType},
		{Name: "is_system", Value: strconv.FormatBool(k.system)}}
}

func (k outKey) labels() []promtext.Label {
	if k.overflow {
		return promtext.Overflow
	}
	return []promtext.Label{{Name: "topic", Value: k.topic}, {Name: "consumer_group", Value: k.group},
		{Name: "is_system", Value: strconv.FormatBool(k.system)}}
}

func (k topicKey) labels() []promtext.Label {
	if k.overflow {
		return promtext.Overflow
	}
	return []promtext.Label{{Name: "topic", Value: k.topic}}
}

func (k rpcKey) labels() []promtext.Label {
	if k.overflow {
		return promtext.Overflow
	}
	return []promtext.Label{{Name: "protocol_type", Value: protocolRemoting},
		{Name: "request_code", Value: codeDesc(remoting.RequestCode(k.code).String(), k.code)},
		{Name: "response_code", Value: codeDesc(remoting.ResponseCode(k.respCode).String(), k.respCode)},
		{Name: "is_long_polling", Value: strconv.FormatBool(k.longPolling)}, {Name: "result", Value: k.result}}
}

// codeDesc is getRequestCodeDesc / getResponseCodeDesc: the constant's
// name in lower case, or the number.
func codeDesc(name string, code int32) string {
	if strings.HasPrefix(name, "UNKNOWN(") {
		return strconv.Itoa(int(code))
	}
	return strings.ToLower(name)
}

// writeBrokerGauges writes the pool, permission and table gauges.
func (src *metricsSources) writeBrokerGauges(w *promtext.Writer, set *settings) {
	w.Family(famWatermark)
	for _, p := range processorPools {
		n := 0
		if !p.none {
			n = src.queued(p.pool)
		}
		w.Sample(famWatermark, []promtext.Label{{Name: "processor", Value: p.name}}, float64(n))
	}
	gauge(w, famPermission, nil, float64(set.Broker.BrokerPermission))
	topics, _ := src.topics.snapshot()
	gauge(w, famTopicNumber, nil, float64(len(topics)))
	groups, _ := src.groups.snapshot()
	gauge(w, famGroupNumber, nil, float64(len(groups)))
}

// gauge writes a family of one series.
func gauge(w *promtext.Writer, f promtext.Family, labels []promtext.Label, v float64) {
	w.Family(f)
	w.Sample(f, labels, v)
}

// writeConnections writes the producer and consumer connection gauges
// (only while there are connections, as Java's callbacks record none).
func (src *metricsSources) writeConnections(w *promtext.Writer) {
	producers, consumers := src.clients.connectionCounts()
	version := func(v int32) string { return strings.ToLower(remoting.VersionName(v)) }
	if len(producers) > 0 {
		w.Family(famProducerConns)
		for k, n := range producers {
			w.Sample(famProducerConns, []promtext.Label{{Name: "language", Value: strings.ToLower(k.language.String())},
				{Name: "version", Value: version(k.version)}, {Name: "protocol_type", Value: protocolRemoting}}, float64(n))
		}
	}
	if len(consumers) > 0 {
		w.Family(famConsumerConns)
		for k, n := range consumers {
			w.Sample(famConsumerConns, []promtext.Label{{Name: "consumer_group", Value: k.group},
				{Name: "language", Value: strings.ToLower(k.language.String())}, {Name: "version", Value: version(k.version)},
				{Name: "consume_mode", Value: consumeModeLabel(k.consumeType)}, {Name: "protocol_type", Value: protocolRemoting},
				{Name: "is_system", Value: strconv.FormatBool(isSysGroup(k.group))}}, float64(n))
		}
	}
}

// consumeModeLabel is ConsumeType.getTypeCN in lower case.
func consumeModeLabel(consumeType string) string {
	switch consumeType {
	case "CONSUME_ACTIVELY":
		return "pull"
	case "CONSUME_PASSIVELY":
		return "push"
	case "CONSUME_POP":
		return "pop"
	}
	return strings.ToLower(consumeType)
}

// lagFigures are one group's figures on one topic.
type lagFigures struct {
	group, topic                           string
	lag, inflight, ready                   int64
	earliestUnconsumed, earliestUnpulledAt int64
}

// writeConsumerGauges writes the five consumer gauges.
func (src *metricsSources) writeConsumerGauges(w *promtext.Writer, set *settings, nowMs int64) {
	figs := src.lagFigures(set)
	if len(figs) == 0 {
		return
	}
	since := func(ts int64) float64 {
		if ts == 0 {
			return 0
		}
		return float64(nowMs - ts)
	}
	for _, g := range []struct {
		f     promtext.Family
		value func(lagFigures) float64
	}{
		{famLagMessages, func(x lagFigures) float64 { return float64(x.lag) }},
		{famLagLatency, func(x lagFigures) float64 { return since(x.earliestUnconsumed) }},
		{famInflight, func(x lagFigures) float64 { return float64(x.inflight) }},
		{famQueueingLatency, func(x lagFigures) float64 { return since(x.earliestUnpulledAt) }},
		{famReady, func(x lagFigures) float64 { return float64(x.ready) }},
	} {
		w.Family(g.f)
		for _, x := range figs {
			w.Sample(g.f, []promtext.Label{{Name: "consumer_group", Value: x.group}, {Name: "topic", Value: x.topic},
				{Name: "is_retry", Value: "false"}, {Name: "is_system", Value: strconv.FormatBool(src.isSystem(x.topic, x.group))}}, g.value(x))
		}
	}
}

// isSystem is BrokerMetricsManager.isSystem.
func (src *metricsSources) isSystem(topic, group string) bool {
	return src.line.IsSystemTopic(topic) || isSysGroup(group)
}

// lagFigures is processAllGroup with the three calculations.
func (src *metricsSources) lagFigures(set *settings) []lagFigures {
	groups, _ := src.groups.snapshot()
	var out []lagFigures
	for name := range groups {
		g, _, online := src.clients.group(name)
		if !online {
			continue
		}
		for topic, sub := range g.subs {
			if isRetryTopic(topic) {
				continue
			}
			tc, ok := src.topics.get(topic)
			if !ok || tc.Perm&set.Broker.BrokerPermission&(protocol.PermRead|protocol.PermWrite) == 0 {
				continue
			}
			out = append(out, src.topicFigures(name, topic, tc.WriteQueueNums, tagFilter(sub)))
		}
	}
	return out
}

// topicFigures sums a group's figures over a topic's queues.
func (src *metricsSources) topicFigures(group, topic string, queues int32, filter store.TagFilter) lagFigures {
	x := lagFigures{group: group, topic: topic}
	unconsumed, unpulled := int64(-1), int64(-1)
	for q := range queues {
		maxOff := max(src.store.MaxOffset(topic, q), 0)
		committed := src.offsets.query(group, topic, q)
		pulled := src.offsets.queryPull(group, topic, q)
		consumer := committed
		if consumer < 0 {
			consumer = maxOff
		}
		x.lag += src.estimate(topic, q, consumer, maxOff, filter)
		unconsumed = earliest(unconsumed, src.storeTime(topic, q, consumer))
		pull := max(pulled, 0)
		commit := committed
		if commit < 0 {
			commit = pull
		}
		x.inflight += src.estimate(topic, q, commit, pull, filter)
		unpulled = earliest(unpulled, src.storeTime(topic, q, pull))
		ready := pulled
		if ready < 0 {
			ready = maxOff
		}
		x.ready += src.estimate(topic, q, ready, maxOff, filter)
	}
	x.earliestUnconsumed, x.earliestUnpulledAt = max(unconsumed, 0), max(unpulled, 0)
	return x
}

// storeTime is getStoreTimeStamp: the store time of the message at a
// queue offset, -1 when there is none.
func (src *metricsSources) storeTime(topic string, q int32, off int64) int64 {
	if off < 0 {
		return -1
	}
	if ts := src.store.StoreTimeAt(topic, q, off); ts > 0 {
		return ts
	}
	return -1
}

// earliest is the smaller of two times, -1 standing for none.
func earliest(a, b int64) int64 {
	switch {
	case a < 0:
		return b
	case b < 0:
		return a
	}
	return min(a, b)
}

// estimate is calculateMessageCount: to - from, or through a tag filter
// the matching units, sampled past the scan limits and scaled.
func (src *metricsSources) estimate(topic string, q int32, from, to int64, filter store.TagFilter) int64 {
	if to <= from {
		return 0
	}
	if filter == nil {
		return to - from
	}
	var raw, match int64
	sampled := false
	_ = src.store.WalkQueueFrom(topic, q, from, func(off int64, u store.QueueUnit) error {
		if off >= to {
			return store.ErrStopWalk
		}
		raw++
		if filter(u.TagsCode) {
			match++
		}
		if raw >= maxConsumeQueueScan || match > sampleCountThreshold {
			sampled = true
			return store.ErrStopWalk
		}
		return nil
	})
	if sampled {
		return match * (to - from) / raw
	}
	return match
}

// writeStoreGauges writes the storage, timer and POP gauges.
func (src *metricsSources) writeStoreGauges(w *promtext.Writer, set *settings, nowMs int64) {
	local := []promtext.Label{{Name: "storage_type", Value: "local"}, {Name: "storage_medium", Value: "disk"}}
	if total, free, _, err := store.DiskSpace(set.Store.StorePathRootDir); err == nil && total > 0 {
		gauge(w, famStorageSize, local, float64(total-free))
	}
	gauge(w, famFlushBehind, local, float64(src.store.UnflushedBytes()))
	gauge(w, famDispatchBehind, local, float64(max(src.store.CommitLogMaxOffset()-src.store.DispatchedOffset(), 0)))
	if t := src.earliest(); t > 0 {
		gauge(w, famReserveTime, local, float64(nowMs-t))
	}
	src.writeTimerGauges(w, local, nowMs)
	gauge(w, famPopOffsetBuffer, nil, 0)
	gauge(w, famPopCkBuffer, nil, 0)
	for _, f := range []promtext.Family{famPopReviveLag, famPopReviveLat} {
		w.Family(f)
		for q := range src.reviveQueues {
			w.Sample(f, []promtext.Label{{Name: "queue_id", Value: strconv.Itoa(int(q))}}, 0)
		}
	}
}

// writeTimerGauges writes the timer wheel's gauges.
func (src *metricsSources) writeTimerGauges(w *promtext.Writer, local []promtext.Label, nowMs int64) {
	v := src.timer.view(nowMs, timerBoundsSec)
	enqLag := max(src.store.MaxOffset(timerTopic, 0)-v.scanned, 0)
	var enqLatency int64
	if ts := src.storeTime(timerTopic, 0, v.scanned); enqLag > 0 && ts > 0 {
		enqLatency = max(nowMs-ts, 0)
	}
	gauge(w, famTimerEnqLag, local, float64(enqLag))
	gauge(w, famTimerEnqLatency, local, float64(enqLatency))
	gauge(w, famTimerDeqLag, local, float64(v.due))
	var deqLatency int64
	if v.oldestDue > 0 {
		deqLatency = nowMs - v.oldestDue
	}
	gauge(w, famTimerDeqLatency, local, float64(deqLatency))
	w.Family(famTimerSnapshot)
	for i, b := range timerBoundsSec {
		labels := append(local[:len(local):len(local)], promtext.Label{Name: "timer_bound_s", Value: strconv.FormatInt(b, 10)})
		w.Sample(famTimerSnapshot, labels, float64(v.within[i]))
	}
}

// scrapeTimeout bounds how long a scrape may take to be written.
const scrapeTimeout = 10 * time.Second
