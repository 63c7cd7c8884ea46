package broker

// GET_TOPIC_STATS_INFO (202), GET_ALL_CONSUMER_OFFSET (43) and
// GET_ALL_DELAY_OFFSET (45): AdminBrokerProcessor.
//
//   - 202: header topic; body TopicStatsTable: for each queue (4.x: the
//     write queues; 5.x: the larger of read and write) its min and max
//     offset (negative read as 0) and the store time of its last message
//     (0 when empty). TOPIC_NOT_EXIST "topic[T] not exist" for a topic the
//     broker does not have.
//   - 43: no header; body the consumerOffset.json document of the line.
//   - 45: no header; body the delayOffset.json document of the line.
//
// Difference from Java: 5.x's topicPutTps is always 0.0 (the broker keeps
// no per-topic put statistics).

import (
	"maps"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// getTopicStatsInfo serves GET_TOPIC_STATS_INFO.
func (b *Broker) getTopicStatsInfo(req *remoting.Request) *remoting.Command {
	if resp := b.requiredFields(req.Cmd, "topic"); resp != nil {
		return resp
	}
	topic := req.Cmd.ExtString("topic")
	tc, ok := b.topics.get(topic)
	if !ok {
		return b.response(req.Cmd, remoting.TopicNotExist, "topic["+topic+"] not exist")
	}
	queues := tc.WriteQueueNums
	if b.opts.Line >= protocol.Line5 {
		queues = max(tc.WriteQueueNums, tc.ReadQueueNums)
	}
	stats := protocol.TopicStatsTable{OffsetTable: make(map[protocol.MessageQueue]protocol.TopicOffset, queues)}
	for q := range queues {
		mq := protocol.MessageQueue{Topic: topic, BrokerName: b.opts.Configs.Broker.BrokerName, QueueID: q}
		stats.OffsetTable[mq] = b.topicOffset(topic, q)
	}
	return b.jsonResponse(req.Cmd, stats.AppendJSON(nil, b.opts.Line))
}

// topicOffset is one queue's line of the topic stats.
func (b *Broker) topicOffset(topic string, q int32) protocol.TopicOffset {
	o := protocol.TopicOffset{MinOffset: max(b.store.MinOffset(topic, q), 0), MaxOffset: max(b.store.MaxOffset(topic, q), 0)}
	if o.MaxOffset > 0 {
		o.LastUpdateTimestamp = b.store.StoreTimeAt(topic, q, o.MaxOffset-1)
	}
	return o
}

// getAllConsumerOffset serves GET_ALL_CONSUMER_OFFSET.
func (b *Broker) getAllConsumerOffset(req *remoting.Request) *remoting.Command {
	return b.jsonResponse(req.Cmd, b.offsets.wrapper().AppendJSON(nil, b.opts.Line))
}

// getAllDelayOffset serves GET_ALL_DELAY_OFFSET.
func (b *Broker) getAllDelayOffset(req *remoting.Request) *remoting.Command {
	return b.jsonResponse(req.Cmd, b.schedule.wrapper().AppendJSON(nil, b.opts.Line))
}

// wrapper returns a copy of the delivery progress with its version, as
// delayOffset.json holds it.
func (s *scheduleService) wrapper() *protocol.DelayOffsetSerializeWrapper {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &protocol.DelayOffsetSerializeWrapper{DataVersion: s.version, OffsetTable: maps.Clone(s.offsets)}
}
