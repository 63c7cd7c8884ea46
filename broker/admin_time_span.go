package broker

// QUERY_CONSUME_TIME_SPAN (303): AdminBrokerProcessor.queryConsumeTimeSpan
// (mqadmin's queryConsumeTimeSpan, the dashboard's consumer detail).
//
// Header: topic, group. Body: protocol.QueryConsumeTimeSpanBody, for each
// write queue of the topic: the store times of its first and last
// messages (-1 when none), of the last message the group consumed (the
// first message's when the group has committed nothing), and, when the
// group is behind, delayTime = now minus the store time of the next
// message to consume (now + 1 when that message is gone). TOPIC_NOT_EXIST
// "topic[T] not exist" for an unknown topic. Same in 4.9.x and 5.x.

import (
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// queryConsumeTimeSpan serves QUERY_CONSUME_TIME_SPAN.
func (a *statsAdmin) queryConsumeTimeSpan(req *remoting.Request) *remoting.Command {
	topic, group := req.Cmd.ExtString("topic"), req.Cmd.ExtString("group")
	tc, ok := a.topics.get(topic)
	if !ok {
		return a.reply(req.Cmd, remoting.TopicNotExist, "topic["+topic+"] not exist")
	}
	body := protocol.QueryConsumeTimeSpanBody{Spans: make([]protocol.QueueTimeSpan, 0, tc.WriteQueueNums)}
	for q := range tc.WriteQueueNums {
		body.Spans = append(body.Spans, a.queueTimeSpan(topic, group, q))
	}
	return a.replyBody(req.Cmd, body.AppendJSON(nil))
}

// queueTimeSpan is one queue's line.
func (a *statsAdmin) queueTimeSpan(topic, group string, q int32) protocol.QueueTimeSpan {
	s := protocol.QueueTimeSpan{
		Queue:        protocol.MessageQueue{Topic: topic, BrokerName: a.settings.load().Broker.BrokerName, QueueID: q},
		MinTimeStamp: a.store.EarliestMessageTime(topic, q),
	}
	maxOffset := a.store.MaxOffset(topic, q)
	s.MaxTimeStamp = a.store.StoreTimeAt(topic, q, maxOffset-1)
	consumed := a.offsets.query(group, topic, q)
	s.ConsumedAt = s.MinTimeStamp
	if consumed > 0 {
		s.ConsumedAt = a.store.StoreTimeAt(topic, q, consumed-1)
	}
	if consumed < maxOffset {
		s.DelayTime = a.now().UnixMilli() - a.store.StoreTimeAt(topic, q, consumed)
	}
	return s
}
