package broker

// GET_CONSUME_STATS (208): AdminBrokerProcessor.getConsumeStats.
//
// Header: consumerGroup, topic (optional: every topic the group has
// offsets on). Body: protocol.ConsumeStats, for every readable queue of
// each topic the broker's max offset, the group's committed offset (0 when
// none) and the store time of the last consumed message; consumeTps is the
// sum over the topics of the group's pull TPS over the last minute
// (GROUP_GET_NUMS of topic@group, see broker_stats.go). A topic the
// broker does not have, or one the online group does not subscribe, is
// left out.

import (
	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// getConsumeStats serves GET_CONSUME_STATS.
func (a *statsAdmin) getConsumeStats(req *remoting.Request) *remoting.Command {
	group := req.Cmd.ExtString("consumerGroup")
	topics := []string{req.Cmd.ExtString("topic")}
	if topics[0] == "" {
		topics = a.offsets.topicsOfGroup(group)
	}
	brokerName := a.settings.load().Broker.BrokerName
	stats := &protocol.ConsumeStats{OffsetTable: map[protocol.MessageQueue]protocol.OffsetWrapper{}}
	for _, topic := range topics {
		tc, ok := a.topics.get(topic)
		if !ok {
			a.log.Warn("consumeStats, topic config not exist", zap.String("topic", topic))
			continue
		}
		if a.clients.skipsTopic(group, topic) {
			a.log.Warn("consumeStats, the consumer group not subscribe this topic", zap.String("group", group), zap.String("topic", topic))
			continue
		}
		for q := range tc.ReadQueueNums {
			stats.OffsetTable[protocol.MessageQueue{Topic: topic, BrokerName: brokerName, QueueID: q}] = a.offsetWrapper(group, topic, q)
		}
		stats.ConsumeTps += a.stats.groupGetTps(group, topic)
	}
	return a.replyBody(req.Cmd, stats.AppendJSON(nil, a.line.Line))
}

// offsetWrapper is one queue's line of the stats.
func (a *statsAdmin) offsetWrapper(group, topic string, q int32) protocol.OffsetWrapper {
	w := protocol.OffsetWrapper{BrokerOffset: max(a.store.MaxOffset(topic, q), 0), ConsumerOffset: max(a.offsets.query(group, topic, q), 0)}
	// 5.x: in flight is pullOffset - consumerOffset, never below 0
	w.PullOffset = max(w.ConsumerOffset, a.offsets.queryPull(group, topic, q))
	if w.ConsumerOffset > 0 {
		if ts := a.store.StoreTimeAt(topic, q, w.ConsumerOffset-1); ts > 0 {
			w.LastTimestamp = ts
		}
	}
	return w
}
