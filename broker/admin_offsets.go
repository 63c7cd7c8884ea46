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
func (a *statsAdmin) getTopicStatsInfo(req *remoting.Request) *remoting.Command {
	if resp := a.requireFields(req.Cmd, "topic"); resp != nil {
		return resp
	}
	topic := req.Cmd.ExtString("topic")
	tc, ok := a.topics.get(topic)
	if !ok {
		return a.reply(req.Cmd, remoting.TopicNotExist, "topic["+topic+"] not exist")
	}
	queues := a.line.statsQueueCount(tc.ReadQueueNums, tc.WriteQueueNums)
	brokerName := a.settings.load().Broker.BrokerName
	stats := protocol.TopicStatsTable{OffsetTable: make(map[protocol.MessageQueue]protocol.TopicOffset, queues)}
	for q := range queues {
		mq := protocol.MessageQueue{Topic: topic, BrokerName: brokerName, QueueID: q}
		stats.OffsetTable[mq] = a.topicOffset(topic, q)
	}
	return a.replyBody(req.Cmd, stats.AppendJSON(nil, a.line.Line))
}

// topicOffset is one queue's line of the topic stats.
func (a *statsAdmin) topicOffset(topic string, q int32) protocol.TopicOffset {
	o := protocol.TopicOffset{MinOffset: max(a.store.MinOffset(topic, q), 0), MaxOffset: max(a.store.MaxOffset(topic, q), 0)}
	if o.MaxOffset > 0 {
		o.LastUpdateTimestamp = a.store.StoreTimeAt(topic, q, o.MaxOffset-1)
	}
	return o
}

// getAllConsumerOffset serves GET_ALL_CONSUMER_OFFSET.
func (a *statsAdmin) getAllConsumerOffset(req *remoting.Request) *remoting.Command {
	return a.replyBody(req.Cmd, a.offsets.wrapper().AppendJSON(nil, a.line.Line))
}

// getAllDelayOffset serves GET_ALL_DELAY_OFFSET.
func (a *statsAdmin) getAllDelayOffset(req *remoting.Request) *remoting.Command {
	return a.replyBody(req.Cmd, a.schedule.wrapper().AppendJSON(nil, a.line.Line))
}

// wrapper returns a copy of the delivery progress with its version, as
// delayOffset.json holds it.
func (s *scheduleService) wrapper() *protocol.DelayOffsetSerializeWrapper {
	s.mu.Lock()
	defer s.mu.Unlock()
	return &protocol.DelayOffsetSerializeWrapper{DataVersion: s.version, OffsetTable: maps.Clone(s.offsets)}
}
