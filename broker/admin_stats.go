package broker

// VIEW_BROKER_STATS_DATA (315): AdminBrokerProcessor.ViewBrokerStatsData.
// Header: statsName (TOPIC_PUT_NUMS, GROUP_GET_NUMS, ... see
// broker_stats.go), statsKey (a topic, topic@group or the cluster name).
// Body: protocol.BrokerStatsData, the item's sum, tps and avgpt over the
// last minute, hour and day. SYSTEM_ERROR "The stats <name> <key> not
// exist" when nothing was recorded under that name and key (or the name is
// one this broker does not keep).
//
// GET_BROKER_CONSUME_STATS (317): fetchAllConsumeStatsInBroker (mqadmin
// brokerConsumeStats, the exporter). Header: isOrder (only order topics
// when true). Body: protocol.ConsumeStatsList: for every subscription group,
// one ConsumeStats per topic it has offsets on, over the topic's write
// queues (GET_CONSUME_STATS counts read queues), consumeTps the group's
// pull TPS of the topic, and the total lag; 5.x adds totalInflightDiff
// (pull offset minus consumer offset; the pull offsets are left 0 here, as
// Java leaves them, so it is minus the sum of the consumer offsets). Topics the broker does
// not have, and topics an online group does not subscribe, are left out.
//
// Both codes exist in 4.9.x and 5.x.

import (
	"fmt"
	"maps"
	"slices"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// statsHandlers are the statistics and remaining admin codes (issue 6),
// all served on the admin pool.
func (b *Broker) statsHandlers() map[remoting.RequestCode]remoting.Handler {
	return map[remoting.RequestCode]remoting.Handler{
		remoting.ViewBrokerStatsData:             b.viewBrokerStatsData,
		remoting.GetBrokerConsumeStats:           b.getBrokerConsumeStats,
		remoting.QueryConsumeTimeSpan:            b.queryConsumeTimeSpan,
		remoting.CloneGroupOffset:                b.cloneGroupOffset,
		remoting.CleanExpiredConsumequeue:        b.cleanExpiredConsumeQueue,
		remoting.CleanUnusedTopic:                b.cleanUnusedTopic,
		remoting.InvokeBrokerToGetConsumerStatus: b.getConsumerStatus,
	}
}

// viewBrokerStatsData serves VIEW_BROKER_STATS_DATA.
func (b *Broker) viewBrokerStatsData(req *remoting.Request) *remoting.Command {
	name, key := req.Cmd.ExtString("statsName"), req.Cmd.ExtString("statsKey")
	it := b.brokerStats.item(name, key)
	if it == nil {
		return b.response(req.Cmd, remoting.SystemError, fmt.Sprintf("The stats <%s> <%s> not exist", name, key))
	}
	data := it.data()
	resp := b.response(req.Cmd, remoting.Success, "")
	resp.Body = data.AppendJSON(nil)
	return resp
}

// getBrokerConsumeStats serves GET_BROKER_CONSUME_STATS.
func (b *Broker) getBrokerConsumeStats(req *remoting.Request) *remoting.Command {
	onlyOrder := req.Cmd.ExtBool("isOrder")
	groups, _ := b.groups.snapshot()
	list := protocol.ConsumeStatsList{BrokerAddr: b.brokerAddr()}
	for _, group := range slices.Sorted(maps.Keys(groups)) {
		entry := protocol.GroupConsumeStats{Group: group, Stats: []protocol.ConsumeStats{}}
		for _, topic := range b.offsets.topicsOfGroup(group) {
			tc, ok := b.topics.get(topic)
			if !ok || (onlyOrder && !tc.Order) || b.groupSkipsTopic(group, topic) {
				continue
			}
			stats := b.groupTopicStats(group, topic, tc.WriteQueueNums)
			list.TotalDiff += stats.TotalDiff()
			list.TotalInflightDiff += stats.InflightDiff()
			entry.Stats = append(entry.Stats, stats)
		}
		list.Groups = append(list.Groups, entry)
	}
	resp := b.response(req.Cmd, remoting.Success, "")
	resp.Body = list.AppendJSON(nil, b.opts.Line)
	return resp
}

// groupSkipsTopic is the "consumer group does not subscribe this topic"
// rule: the group is online with subscriptions, none of them the topic.
func (b *Broker) groupSkipsTopic(group, topic string) bool {
	g, _, online := b.clients.group(group)
	_, subscribed := g.subs[topic]
	return online && len(g.subs) > 0 && !subscribed
}

// groupTopicStats is a group's ConsumeStats on the first queues of a
// topic.
func (b *Broker) groupTopicStats(group, topic string, queues int32) protocol.ConsumeStats {
	stats := protocol.ConsumeStats{OffsetTable: make(map[protocol.MessageQueue]protocol.OffsetWrapper, queues)}
	for q := range queues {
		mq := protocol.MessageQueue{Topic: topic, BrokerName: b.opts.Configs.Broker.BrokerName, QueueID: q}
		stats.OffsetTable[mq] = b.offsetWrapper(group, topic, q)
	}
	stats.ConsumeTps = b.brokerStats.groupGetTps(group, topic)
	return stats
}
