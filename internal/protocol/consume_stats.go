package protocol

import (
	"slices"
	"strconv"
	"strings"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// MessageQueue is one queue of a topic on a broker.
//
// JSON (wire format: do not change), also as a map key (fastjson writes
// object keys as objects, which is not standard JSON):
//
//	{"brokerName":"broker-a","queueId":0,"topic":"T"}
type MessageQueue struct {
	Topic      string `json:"topic"`
	BrokerName string `json:"brokerName"`
	QueueID    int32  `json:"queueId"`
}

// AppendJSON appends the fastjson form.
func (q MessageQueue) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	dst = fastjson.AppendStringField(dst, "brokerName", q.BrokerName, fastjson.Fastjson)
	dst = fastjson.AppendIntField(dst, "queueId", int64(q.QueueID), fastjson.Fastjson)
	dst = fastjson.AppendStringField(dst, "topic", q.Topic, fastjson.Fastjson)
	return append(dst, '}')
}

// sortedQueues lists a queue-keyed map's keys by topic, broker and queue
// id (Java writes hash order; readers do not care).
func sortedQueues[V any](m map[MessageQueue]V) []MessageQueue {
	queues := make([]MessageQueue, 0, len(m))
	for q := range m {
		queues = append(queues, q)
	}
	slices.SortFunc(queues, func(a, b MessageQueue) int {
		if c := strings.Compare(a.Topic, b.Topic); c != 0 {
			return c
		}
		if c := strings.Compare(a.BrokerName, b.BrokerName); c != 0 {
			return c
		}
		return int(a.QueueID - b.QueueID)
	})
	return queues
}

// ResetOffsetBody is the body of INVOKE_BROKER_TO_RESET_OFFSET's answer
// and of RESET_CONSUMER_CLIENT_OFFSET: the offset of every queue.
//
// JSON (wire format: do not change):
//
//	{"offsetTable":{{"brokerName":"b","queueId":0,"topic":"T"}:5,...}}
type ResetOffsetBody struct {
	OffsetTable map[MessageQueue]int64
}

// AppendJSON appends the fastjson form.
func (r *ResetOffsetBody) AppendJSON(dst []byte) []byte {
	dst = fastjson.AppendField(append(dst, '{'), "offsetTable")
	dst = append(dst, '{')
	for _, q := range sortedQueues(r.OffsetTable) {
		dst = q.AppendJSON(fastjson.Comma(dst))
		dst = strconv.AppendInt(append(dst, ':'), r.OffsetTable[q], 10)
	}
	return append(dst, '}', '}')
}

// OffsetWrapper is a consumer group's position on one queue.
//
// JSON (wire format: do not change); pullOffset is 5.x's:
//
//	{"brokerOffset":10,"consumerOffset":7,"lastTimestamp":1700000000000[,"pullOffset":0]}
type OffsetWrapper struct {
	BrokerOffset   int64
	ConsumerOffset int64
	PullOffset     int64
	LastTimestamp  int64
}

// ConsumeStats is the body of GET_CONSUME_STATS: a group's offsets on
// every queue of its topics on one broker, and its consume rate.
//
// JSON (wire format: do not change):
//
//	{"consumeTps":0.0,"offsetTable":{{MessageQueue}:{OffsetWrapper},...}}
type ConsumeStats struct {
	ConsumeTps  float64
	OffsetTable map[MessageQueue]OffsetWrapper
}

// AppendJSON appends the fastjson form of line, queues sorted by topic
// and queue id (Java writes hash order; readers do not care).
func (s *ConsumeStats) AppendJSON(dst []byte, line Line) []byte {
	dst = append(dst, '{')
	dst = fastjson.AppendField(dst, "consumeTps")
	dst = fastjson.AppendJavaDouble(dst, s.ConsumeTps)
	dst = fastjson.AppendField(dst, "offsetTable")
	dst = append(dst, '{')
	for _, q := range sortedQueues(s.OffsetTable) {
		w := s.OffsetTable[q]
		dst = q.AppendJSON(fastjson.Comma(dst))
		dst = append(dst, ':', '{')
		dst = fastjson.AppendIntField(dst, "brokerOffset", w.BrokerOffset, fastjson.Fastjson)
		dst = fastjson.AppendIntField(dst, "consumerOffset", w.ConsumerOffset, fastjson.Fastjson)
		dst = fastjson.AppendIntField(dst, "lastTimestamp", w.LastTimestamp, fastjson.Fastjson)
		if line >= Line5 {
			dst = fastjson.AppendIntField(dst, "pullOffset", w.PullOffset, fastjson.Fastjson)
		}
		dst = append(dst, '}')
	}
	return append(dst, '}', '}')
}
