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
func (b *Broker) getConsumeStats(req *remoting.Request) *remoting.Command {
	group := req.Cmd.ExtString("consumerGroup")
	topics := []string{req.Cmd.ExtString("topic")}
	if topics[0] == "" {
		topics = b.offsets.topicsOfGroup(group)
	}
	g, _, online := b.clients.group(group)
	stats := &protocol.ConsumeStats{OffsetTable: map[protocol.MessageQueue]protocol.OffsetWrapper{}}
	for _, topic := range topics {
		tc, ok := b.topics.get(topic)
		if !ok {
			b.log.Warn("consumeStats, topic config not exist", zap.String("topic", topic))
			continue
		}
		if _, subscribed := g.subs[topic]; online && len(g.subs) > 0 && !subscribed {
			b.log.Warn("consumeStats, the consumer group not subscribe this topic", zap.String("group", group), zap.String("topic", topic))
			continue
		}
		for q := range tc.ReadQueueNums {
			stats.OffsetTable[protocol.MessageQueue{Topic: topic, BrokerName: b.opts.Configs.Broker.BrokerName, QueueID: q}] = b.offsetWrapper(group, topic, q)
		}
		stats.ConsumeTps += b.brokerStats.groupGetTps(group, topic)
	}
	resp := b.response(req.Cmd, remoting.Success, "")
	resp.Body = stats.AppendJSON(nil, b.opts.Line)
	return resp
}

// offsetWrapper is one queue's line of the stats.
func (b *Broker) offsetWrapper(group, topic string, q int32) protocol.OffsetWrapper {
	w := protocol.OffsetWrapper{BrokerOffset: max(b.store.MaxOffset(topic, q), 0), ConsumerOffset: max(b.offsets.query(group, topic, q), 0)}
	// 5.x: in flight is pullOffset - consumerOffset, never below 0
	w.PullOffset = max(w.ConsumerOffset, b.offsets.queryPull(group, topic, q))
	if w.ConsumerOffset > 0 {
		if ts := b.store.StoreTimeAt(topic, q, w.ConsumerOffset-1); ts > 0 {
			w.LastTimestamp = ts
		}
	}
	return w
}
