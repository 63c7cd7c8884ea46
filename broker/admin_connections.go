package broker

// GET_CONSUMER_CONNECTION_LIST (203), GET_PRODUCER_CONNECTION_LIST (204),
// QUERY_TOPIC_CONSUME_BY_WHO (300) and the 5.x QUERY_TOPICS_BY_CONSUMER
// (343) and QUERY_SUBSCRIPTION_BY_CONSUMER (345): AdminBrokerProcessor over
// ConsumerManager, ProducerManager and ConsumerOffsetManager.
//
//   - 203: header consumerGroup; body ConsumerConnection (each connection's
//     clientId, clientAddr, language, version; the group's consumeType,
//     messageModel, consumeFromWhere and subscriptionTable).
//     CONSUMER_NOT_ONLINE "the consumer group[g] not online" when the
//     group has no connection.
//   - 204: header producerGroup; body ProducerConnection. SYSTEM_ERROR
//     "the producer group[g] not exist" when the group has no connection.
//   - 300: header topic; body GroupList: the online groups subscribing the
//     topic and the groups with offsets on it.
//   - 343 (5.x): header group; body TopicList of the topics the group has
//     offsets on, with this broker's address.
//   - 345 (5.x): header group, topic; body QuerySubscriptionResponseBody
//     (subscriptionData left out when the online group does not subscribe
//     the topic).
//
// Differences from Java: the connection set and group lists are written
// sorted rather than in hash order; 345 does not look in 5.x's
// compensation table (the subscriptions of groups that went offline,
// kept for pop consumers).

import (
	"maps"
	"slices"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// connections describes client channels as the admin bodies do.
func connections(chans []clientChannel) []protocol.Connection {
	out := make([]protocol.Connection, 0, len(chans))
	for _, c := range chans {
		out = append(out, protocol.Connection{
			ClientID: c.clientID, ClientAddr: c.ch.RemoteAddr(), Language: c.language.String(), Version: c.version,
		})
	}
	return out
}

// getConsumerConnectionList serves GET_CONSUMER_CONNECTION_LIST.
func (a *statsAdmin) getConsumerConnectionList(req *remoting.Request) *remoting.Command {
	if resp := a.requireFields(req.Cmd, "consumerGroup"); resp != nil {
		return resp
	}
	group := req.Cmd.ExtString("consumerGroup")
	g, chans, ok := a.clients.group(group)
	if !ok {
		return a.reply(req.Cmd, remoting.ConsumerNotOnline, "the consumer group["+group+"] not online")
	}
	body := protocol.ConsumerConnection{
		ConnectionSet: connections(chans), SubscriptionTable: maps.Clone(g.subs),
		ConsumeType: g.consumeType, MessageModel: g.messageModel, ConsumeFromWhere: g.consumeFromWhere,
	}
	return a.replyBody(req.Cmd, body.AppendJSON(nil))
}

// getProducerConnectionList serves GET_PRODUCER_CONNECTION_LIST.
func (a *statsAdmin) getProducerConnectionList(req *remoting.Request) *remoting.Command {
	if resp := a.requireFields(req.Cmd, "producerGroup"); resp != nil {
		return resp
	}
	group := req.Cmd.ExtString("producerGroup")
	chans, ok := a.clients.producerGroup(group)
	if !ok {
		return a.reply(req.Cmd, remoting.SystemError, "the producer group["+group+"] not exist")
	}
	body := protocol.ProducerConnection{ConnectionSet: connections(chans)}
	return a.replyBody(req.Cmd, body.AppendJSON(nil))
}

// queryTopicConsumeByWho serves QUERY_TOPIC_CONSUME_BY_WHO.
func (a *statsAdmin) queryTopicConsumeByWho(req *remoting.Request) *remoting.Command {
	if resp := a.requireFields(req.Cmd, "topic"); resp != nil {
		return resp
	}
	topic := req.Cmd.ExtString("topic")
	set := map[string]bool{}
	for _, g := range a.clients.groupsSubscribing(topic) {
		set[g] = true
	}
	for group, topics := range a.offsets.wrapper().GroupTopicMap() {
		if slices.Contains(topics, topic) {
			set[group] = true
		}
	}
	list := protocol.GroupList{GroupList: slices.Collect(maps.Keys(set))}
	return a.replyBody(req.Cmd, list.AppendJSON(nil))
}

// queryTopicsByConsumer serves the 5.x QUERY_TOPICS_BY_CONSUMER
// (ConsumerOffsetManager.whichTopicByConsumer).
func (a *statsAdmin) queryTopicsByConsumer(req *remoting.Request) *remoting.Command {
	if resp := a.requireFields(req.Cmd, "group"); resp != nil {
		return resp
	}
	topics := a.offsets.wrapper().GroupTopicMap()[req.Cmd.ExtString("group")]
	list := protocol.TopicList{TopicList: topics, BrokerAddr: a.id.brokerAddr()}
	return a.replyBody(req.Cmd, list.AppendJSON(nil))
}

// querySubscriptionByConsumer serves the 5.x QUERY_SUBSCRIPTION_BY_CONSUMER.
func (a *statsAdmin) querySubscriptionByConsumer(req *remoting.Request) *remoting.Command {
	if resp := a.requireFields(req.Cmd, "group", "topic"); resp != nil {
		return resp
	}
	body := protocol.QuerySubscriptionResponseBody{Group: req.Cmd.ExtString("group"), Topic: req.Cmd.ExtString("topic")}
	if _, s, _, ok := a.clients.subscription(body.Group, body.Topic); ok {
		body.SubscriptionData = &s
	}
	return a.replyBody(req.Cmd, body.AppendJSON(nil))
}
