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
func (b *Broker) getConsumerConnectionList(req *remoting.Request) *remoting.Command {
	if resp := b.requiredFields(req.Cmd, "consumerGroup"); resp != nil {
		return resp
	}
	group := req.Cmd.ExtString("consumerGroup")
	g, chans, ok := b.clients.group(group)
	if !ok {
		return b.response(req.Cmd, remoting.ConsumerNotOnline, "the consumer group["+group+"] not online")
	}
	body := protocol.ConsumerConnection{
		ConnectionSet: connections(chans), SubscriptionTable: maps.Clone(g.subs),
		ConsumeType: g.consumeType, MessageModel: g.messageModel, ConsumeFromWhere: g.consumeFromWhere,
	}
	return b.jsonResponse(req.Cmd, body.AppendJSON(nil))
}

// getProducerConnectionList serves GET_PRODUCER_CONNECTION_LIST.
func (b *Broker) getProducerConnectionList(req *remoting.Request) *remoting.Command {
	if resp := b.requiredFields(req.Cmd, "producerGroup"); resp != nil {
		return resp
	}
	group := req.Cmd.ExtString("producerGroup")
	chans, ok := b.clients.producerGroup(group)
	if !ok {
		return b.response(req.Cmd, remoting.SystemError, "the producer group["+group+"] not exist")
	}
	body := protocol.ProducerConnection{ConnectionSet: connections(chans)}
	return b.jsonResponse(req.Cmd, body.AppendJSON(nil))
}

// queryTopicConsumeByWho serves QUERY_TOPIC_CONSUME_BY_WHO.
func (b *Broker) queryTopicConsumeByWho(req *remoting.Request) *remoting.Command {
	if resp := b.requiredFields(req.Cmd, "topic"); resp != nil {
		return resp
	}
	topic := req.Cmd.ExtString("topic")
	set := map[string]bool{}
	for _, g := range b.clients.groupsSubscribing(topic) {
		set[g] = true
	}
	for group, topics := range b.offsets.wrapper().GroupTopicMap() {
		if slices.Contains(topics, topic) {
			set[group] = true
		}
	}
	list := protocol.GroupList{GroupList: slices.Collect(maps.Keys(set))}
	return b.jsonResponse(req.Cmd, list.AppendJSON(nil))
}

// queryTopicsByConsumer serves the 5.x QUERY_TOPICS_BY_CONSUMER
// (ConsumerOffsetManager.whichTopicByConsumer).
func (b *Broker) queryTopicsByConsumer(req *remoting.Request) *remoting.Command {
	if resp := b.requiredFields(req.Cmd, "group"); resp != nil {
		return resp
	}
	topics := b.offsets.wrapper().GroupTopicMap()[req.Cmd.ExtString("group")]
	list := protocol.TopicList{TopicList: topics, BrokerAddr: b.brokerAddr()}
	return b.jsonResponse(req.Cmd, list.AppendJSON(nil))
}

// querySubscriptionByConsumer serves the 5.x QUERY_SUBSCRIPTION_BY_CONSUMER.
func (b *Broker) querySubscriptionByConsumer(req *remoting.Request) *remoting.Command {
	if resp := b.requiredFields(req.Cmd, "group", "topic"); resp != nil {
		return resp
	}
	body := protocol.QuerySubscriptionResponseBody{Group: req.Cmd.ExtString("group"), Topic: req.Cmd.ExtString("topic")}
	if _, s, _, ok := b.clients.subscription(body.Group, body.Topic); ok {
		body.SubscriptionData = &s
	}
	return b.jsonResponse(req.Cmd, body.AppendJSON(nil))
}
