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
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// statsAdmin serves the codes mqadmin and the dashboard read a broker's
// state with: these statistics, consume stats (admin_consumer.go), topic
// stats and the offset documents (admin_offsets.go), consume time spans
// (admin_time_span.go) and client connections (admin_connections.go).
type statsAdmin struct {
	replier
	line     line
	log      *zap.Logger
	now      func() time.Time
	settings *liveSettings
	id       *identity
	store    statsStore
	topics   *topicTable
	groups   *groupTable
	offsets  *offsetTable
	clients  *clientTable
	schedule *scheduleService
	stats    *brokerStats
}

// statsStore is what the statistics read of the store: queue bounds and
// store times.
type statsStore interface {
	queueBounds
	queueTimes
}

// viewBrokerStatsData serves VIEW_BROKER_STATS_DATA.
func (a *statsAdmin) viewBrokerStatsData(req *remoting.Request) *remoting.Command {
	name, key := req.Cmd.ExtString("statsName"), req.Cmd.ExtString("statsKey")
	it := a.stats.item(name, key)
	if it == nil {
		return a.reply(req.Cmd, remoting.SystemError, fmt.Sprintf("The stats <%s> <%s> not exist", name, key))
	}
	data := it.data()
	return a.replyBody(req.Cmd, data.AppendJSON(nil))
}

// getBrokerConsumeStats serves GET_BROKER_CONSUME_STATS.
func (a *statsAdmin) getBrokerConsumeStats(req *remoting.Request) *remoting.Command {
	onlyOrder := req.Cmd.ExtBool("isOrder")
	groups, _ := a.groups.snapshot()
	list := protocol.ConsumeStatsList{BrokerAddr: a.id.brokerAddr()}
	for _, group := range slices.Sorted(maps.Keys(groups)) {
		entry := protocol.GroupConsumeStats{Group: group, Stats: []protocol.ConsumeStats{}}
		for _, topic := range a.offsets.topicsOfGroup(group) {
			tc, ok := a.topics.get(topic)
			if !ok || (onlyOrder && !tc.Order) || a.clients.skipsTopic(group, topic) {
				continue
			}
			stats := a.groupTopicStats(group, topic, tc.WriteQueueNums)
			list.TotalDiff += stats.TotalDiff()
			list.TotalInflightDiff += stats.InflightDiff()
			entry.Stats = append(entry.Stats, stats)
		}
		list.Groups = append(list.Groups, entry)
	}
	return a.replyBody(req.Cmd, list.AppendJSON(nil, a.line.Line))
}

// groupTopicStats is a group's ConsumeStats on the first queues of a
// topic.
func (a *statsAdmin) groupTopicStats(group, topic string, queues int32) protocol.ConsumeStats {
	stats := protocol.ConsumeStats{OffsetTable: make(map[protocol.MessageQueue]protocol.OffsetWrapper, queues)}
	brokerName := a.settings.load().Broker.BrokerName
	for q := range queues {
		mq := protocol.MessageQueue{Topic: topic, BrokerName: brokerName, QueueID: q}
		stats.OffsetTable[mq] = a.offsetWrapper(group, topic, q)
	}
	stats.ConsumeTps = a.stats.groupGetTps(group, topic)
	return stats
}
