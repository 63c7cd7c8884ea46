package broker

// Metrics as 5.3.3's BrokerMetricsManager exports them with
// metricsExporterType=PROM: Prometheus text on
// http://metricsPromExporterHost:metricsPromExporterPort/metrics (host ""
// means brokerIP1), on both lines, names, units and labels as the Java
// broker's (testdata/metrics holds scrapes of it). Every series carries
// cluster, node_id (brokerName), node_type="broker" and the metricsLabel
// pairs (aggregation="delta" with metricsInDelta).
//
//	recorded as requests are served (metrics.go)
//	rocketmq_messages_in_total, rocketmq_throughput_in_total    topic, message_type, is_system
//	rocketmq_message_size (histogram, 1K 4K 512K 1M 2M 4M)      per stored send: bytes / messages
//	rocketmq_messages_out_total, rocketmq_throughput_out_total  topic, consumer_group, is_system
//	rocketmq_send_to_dlq_messages_total                         topic, consumer_group, is_system
//	rocketmq_commit_messages_total, rocketmq_rollback_messages_total, rocketmq_finish_message_latency (s)  topic
//	rocketmq_rpc_latency (ms; 1 3 5 7 10 100 1000 2000 3000)    protocol_type, request_code, response_code,
//	                                                            is_long_polling, result
//	read when scraped (metrics_scrape.go)
//	rocketmq_processor_watermark          processor   requests waiting in each pool
//	rocketmq_broker_permission, rocketmq_topic_number, rocketmq_consumer_group_number
//	rocketmq_producer_connections         language, version, protocol_type
//	rocketmq_consumer_connections         consumer_group, language, version, consume_mode, protocol_type, is_system
//	rocketmq_consumer_{lag_messages,lag_latency,inflight_messages,queueing_latency,ready_messages}
//	                                      consumer_group, topic, is_retry, is_system
//	rocketmq_storage_{size,flush_behind_bytes,dispatch_behind_bytes,message_reserve_time}
//	rocketmq_timer_{enqueue,dequeue}_{lag,latency}, rocketmq_timer_message_snapshot (timer_bound_s)
//	rocketmq_pop_{offset,checkpoint}_buffer_size, rocketmq_pop_revive_{lag,latency} (queue_id)
//
// Recorded as Java records them: a stored send counts under the topic it
// was written to (a delayed message under SCHEDULE_TOPIC_XXXX, a prepared
// one under RMQ_SYS_TRANS_HALF_TOPIC, and again under its own topic when
// delivered or committed... see scheduleDelivered), sends to retry and DLQ
// topics are not counted in; the message type comes from the properties
// the producer sent (TRAN_MSG, SHARDING_KEY, the delay and timer ones).
//
// Differences: this broker has no POP consumption, so the POP gauges are
// 0 and rocketmq_pop_buffer_scan_time_consume (the time of a scan loop
// Java runs) is not exported; rocketmq_topic_create_execution_time,
// rocketmq_consumer_group_create_execution_time, rocketmq_half_messages,
// rocketmq_timing_messages, the timer counters and
// rocketmq_delay_message_latency are not exported; the OTLP_GRPC and LOG
// exporters are not implemented (a broker.conf that picks one logs so and
// exports nothing, as Java does when its check fails). The RPC latency
// runs until the response is queued to the connection, where Java's runs
// until Netty wrote it.

import (
	"strings"
	"time"

	"github.com/rmqgo/rmqgo/internal/promtext"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// Label names and values (BrokerMetricsConstant, RemotingMetricsConstant).
const (
	metricsScope       = "broker-meter"
	protocolRemoting   = "remoting"
	resultSuccess      = "success"
	resultOneway       = "oneway"
	resultWriteFailed  = "write_channel_failed"
	sysGroupPrefixLow  = "cid_rmq_sys_"
	scheduleGroup      = "SCHEDULE_CONSUMER"
	msgTypeNormal      = "normal"
	msgTypeFifo        = "fifo"
	msgTypeDelay       = "delay"
	msgTypeTransaction = "transaction"
	// properties only the message type reads (MessageConst)
	propShardingKey      = "__SHARDINGKEY"
	propStartDeliverTime = "__STARTDELIVERTIME"
)

// The instruments recorded into as requests are served.
var (
	famMessagesIn    = promtext.Family{Name: "rocketmq_messages_in_total", Kind: promtext.Counter}
	famThroughputIn  = promtext.Family{Name: "rocketmq_throughput_in_total", Kind: promtext.Counter}
	famMessageSize   = promtext.Family{Name: "rocketmq_message_size", Kind: promtext.Histogram, Help: "Incoming messages size"}
	famMessagesOut   = promtext.Family{Name: "rocketmq_messages_out_total", Kind: promtext.Counter}
	famThroughputOut = promtext.Family{Name: "rocketmq_throughput_out_total", Kind: promtext.Counter}
	famSendToDLQ     = promtext.Family{Name: "rocketmq_send_to_dlq_messages_total", Kind: promtext.Counter}
	famCommits       = promtext.Family{Name: "rocketmq_commit_messages_total", Kind: promtext.Counter}
	famRollbacks     = promtext.Family{Name: "rocketmq_rollback_messages_total", Kind: promtext.Counter}
	famFinishLatency = promtext.Family{Name: "rocketmq_finish_message_latency", Kind: promtext.Histogram, Unit: "ms",
		Help: "Transaction finish latency"}
	famRPCLatency = promtext.Family{Name: "rocketmq_rpc_latency", Kind: promtext.Histogram, Unit: "milliseconds", Help: "Rpc latency"}
)

// Histogram bounds of the broker's views.
var (
	messageSizeBuckets   = promtext.Buckets{1 << 10, 4 << 10, 512 << 10, 1 << 20, 2 << 20, 4 << 20}
	rpcLatencyBuckets    = promtext.Buckets{1, 3, 5, 7, 10, 100, 1000, 2000, 3000}
	finishLatencyBuckets = promtext.Buckets{5, 60, 600, 3600, 12 * 3600, 24 * 3600}
)

// inKey labels what producers stored.
type inKey struct {
	topic, msgType string
	system         bool
	overflow       bool
}

// outKey labels what consumers were given (and what went to a DLQ).
type outKey struct {
	topic, group string
	system       bool
	overflow     bool
}

// topicKey labels the transaction counters.
type topicKey struct {
	topic    string
	overflow bool
}

// rpcKey labels one request code's answers.
type rpcKey struct {
	code, respCode int32
	longPolling    bool
	result         string
	overflow       bool
}

// inSeries is the send side of one label set.
type inSeries struct {
	msgs, bytes promtext.Count
	size        *promtext.Hist
}

// outSeries is the consume side of one label set.
type outSeries struct{ msgs, bytes promtext.Count }

// brokerMetrics holds the instruments; a nil *brokerMetrics (metrics
// off) records nothing, at the cost of one comparison.
type brokerMetrics struct {
	now       func() time.Time
	in        *promtext.Vec[inKey, inSeries]
	out       *promtext.Vec[outKey, outSeries]
	dlq       *promtext.Vec[outKey, promtext.Count]
	commits   *promtext.Vec[topicKey, promtext.Count]
	rollbacks *promtext.Vec[topicKey, promtext.Count]
	finish    *promtext.Vec[topicKey, promtext.Hist]
	rpc       *promtext.Vec[rpcKey, promtext.Hist]
}

// newBrokerMetrics returns empty instruments, each bounded to limit
// label sets.
func newBrokerMetrics(now func() time.Time, limit int) *brokerMetrics {
	return &brokerMetrics{
		now: now,
		in: promtext.NewVec(func() *inSeries { return &inSeries{size: promtext.NewHist(messageSizeBuckets)} },
			limit, inKey{overflow: true}),
		out:       promtext.NewVec(func() *outSeries { return new(outSeries) }, limit, outKey{overflow: true}),
		dlq:       promtext.NewVec(func() *promtext.Count { return new(promtext.Count) }, limit, outKey{overflow: true}),
		commits:   promtext.NewVec(func() *promtext.Count { return new(promtext.Count) }, limit, topicKey{overflow: true}),
		rollbacks: promtext.NewVec(func() *promtext.Count { return new(promtext.Count) }, limit, topicKey{overflow: true}),
		finish:    promtext.NewVec(func() *promtext.Hist { return promtext.NewHist(finishLatencyBuckets) }, limit, topicKey{overflow: true}),
		rpc:       promtext.NewVec(func() *promtext.Hist { return promtext.NewHist(rpcLatencyBuckets) }, limit, rpcKey{overflow: true}),
	}
}

// stored counts a stored send (Java's sendOK) written under topic.
func (m *brokerMetrics) stored(topic, msgType string, system bool, res store.PutResult) {
	if m == nil || !putStored(res) || protocol.IsRetryOrDLQTopic(topic) {
		return
	}
	n := int64(max(res.MsgNum, 1))
	s := m.in.Get(inKey{topic: topic, msgType: msgType, system: system})
	s.msgs.Add(n)
	s.bytes.Add(int64(res.WroteBytes))
	s.size.Record(int64(res.WroteBytes) / n)
}

// scheduleDelivered counts a delayed message delivered to its topic: out
// of SCHEDULE_TOPIC_XXXX to SCHEDULE_CONSUMER, and in to its topic as a
// delay message (retry topics included, as Java counts them here).
func (m *brokerMetrics) scheduleDelivered(topic string, system bool, res store.PutResult) {
	if m == nil || !putStored(res) {
		return
	}
	n := int64(max(res.MsgNum, 1))
	o := m.out.Get(outKey{topic: store.ScheduleTopic, group: scheduleGroup, system: true})
	o.msgs.Add(n)
	o.bytes.Add(int64(res.WroteBytes))
	s := m.in.Get(inKey{topic: topic, msgType: msgTypeDelay, system: system})
	s.msgs.Add(n)
	s.bytes.Add(int64(res.WroteBytes))
	s.size.Record(int64(res.WroteBytes) / n)
}

// pulled counts what a pull gave a group.
func (m *brokerMetrics) pulled(topic, group string, system bool, msgs, bytes int) {
	if m == nil || msgs == 0 || protocol.IsRetryOrDLQTopic(topic) {
		return
	}
	s := m.out.Get(outKey{topic: topic, group: group, system: system || isSysGroup(group)})
	s.msgs.Add(int64(msgs))
	s.bytes.Add(int64(bytes))
}

// sentToDLQ counts a message a consumer of group handed back for the
// last time; topic is the retry topic it came back on.
func (m *brokerMetrics) sentToDLQ(topic, group string, system bool) {
	if m == nil {
		return
	}
	m.dlq.Get(outKey{topic: topic, group: group, system: system || isSysGroup(group)}).Add(1)
}

// committed counts a committed prepared message of topic, born at born.
func (m *brokerMetrics) committed(topic string, born int64) {
	if m == nil {
		return
	}
	m.commits.Get(topicKey{topic: topic}).Add(1)
	m.finish.Get(topicKey{topic: topic}).Record((m.now().UnixMilli() - born) / 1000)
}

// rolledBack counts a rolled-back prepared message of topic.
func (m *brokerMetrics) rolledBack(topic string) {
	if m == nil {
		return
	}
	m.rollbacks.Get(topicKey{topic: topic}).Add(1)
}

// observe is the routers' observer: one response written for req.
func (m *brokerMetrics) observe(req *remoting.Request, resp *remoting.Command, err error) {
	result := resultSuccess
	switch {
	case req.Cmd.IsOneway():
		result = resultOneway
	case err != nil:
		result = resultWriteFailed
	}
	k := rpcKey{code: req.Cmd.Code, respCode: resp.Code, longPolling: req.Suspended, result: result}
	m.rpc.Get(k).Record(time.Since(req.Arrived).Milliseconds())
}

// messageType is getMessageType: what the producer's properties make of
// a message.
func messageType(props *msgProps) string {
	if v, _ := props.get(propTransactionPrepared); strings.EqualFold(v, "true") {
		return msgTypeTransaction
	}
	if _, ok := props.get(propShardingKey); ok {
		return msgTypeFifo
	}
	for _, k := range []string{propStartDeliverTime, propDelayLevel, propTimerDeliverMs, propTimerDelaySec, propTimerDelayMs} {
		if _, ok := props.get(k); ok {
			return msgTypeDelay
		}
	}
	return msgTypeNormal
}

// isSysGroup is isSystemGroup: a group named CID_RMQ_SYS_..., in any case.
func isSysGroup(group string) bool {
	return len(group) >= len(sysGroupPrefixLow) && strings.EqualFold(group[:len(sysGroupPrefixLow)], sysGroupPrefixLow)
}
