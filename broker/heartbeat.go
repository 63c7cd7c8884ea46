package broker

// HEART_BEAT (34), UNREGISTER_CLIENT (35), CHECK_CLIENT_CONFIG (46) and
// GET_CONSUMER_LIST_BY_GROUP (38): ClientManageProcessor and
// ConsumerManageProcessor.
//
// HEART_BEAT body: protocol.HeartbeatData, read as fastjson reads it. For
// every consumer group the broker
// finds (or creates, when autoCreateSubscriptionGroup) the group, creates
// its %RETRY% topic with the group's retryQueueNums (registering it with
// the name servers at once), and records the connection and the
// subscriptions; a change in members or topics sends
// NOTIFY_CONSUMER_IDS_CHANGED to the group. Response: SUCCESS, no body.
//
// UNREGISTER_CLIENT header: clientID, producerGroup, consumerGroup.
// GET_CONSUMER_LIST_BY_GROUP header: consumerGroup; response body
// {"consumerIdList":[...]}, or SYSTEM_ERROR "no consumer for this group, g".

import (
	"errors"
	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/internal/sql92"
	"github.com/rmqgo/rmqgo/remoting"
)

// clientHandlers are the codes of the client-management pool.
func (b *Broker) clientHandlers() map[remoting.RequestCode]remoting.Handler {
	return map[remoting.RequestCode]remoting.Handler{
		remoting.UnregisterClient:  b.unregisterClient,
		remoting.CheckClientConfig: b.checkClientConfig,
	}
}

// heartbeat serves HEART_BEAT.
func (b *Broker) heartbeat(req *remoting.Request) *remoting.Command {
	hb, err := protocol.DecodeHeartbeatData(req.Cmd.Body)
	if hb == nil {
		return b.response(req.Cmd, remoting.SystemError, "heartbeat body: "+err.Error())
	}
	if err != nil {
		b.log.Warn("heartbeat: groups left out, the others registered", zap.String("clientId", hb.ClientID),
			zap.String("remote", req.Ch.RemoteAddr()), zap.Error(err))
	}
	info := clientChannel{ch: req.Ch, clientID: hb.ClientID, language: req.Cmd.Language, version: req.Cmd.Version, lastUpdate: b.now()}
	for i := range hb.ConsumerDataSet {
		b.registerConsumer(&hb.ConsumerDataSet[i], info)
	}
	for _, p := range hb.ProducerDataSet {
		b.clients.registerProducer(p.GroupName, info)
	}
	return b.response(req.Cmd, remoting.Success, "")
}

// registerConsumer handles one ConsumerData of a heartbeat.
func (b *Broker) registerConsumer(cd *consumerData, info clientChannel) {
	notifyEnabled := true
	if gc, ok := b.groups.find(cd.GroupName); ok {
		notifyEnabled = gc.NotifyConsumerIDsChangedEnable
		var sysFlag int32
		if cd.UnitMode {
			sysFlag = protocol.TopicSysFlagUnitSub
		}
		if _, created := b.topics.createForRetry(retryTopic(cd.GroupName), gc.RetryQueueNums, protocol.PermWrite|protocol.PermRead, sysFlag); created {
			b.reg.topicChanged()
		}
	}
	changed, notify := b.clients.registerConsumer(cd, info)
	b.filters.register(cd.GroupName, cd.SubscriptionDataSet)
	if changed {
		b.log.Info("registerConsumer info changed", zap.String("group", cd.GroupName), zap.String("clientId", info.clientID))
		if notifyEnabled {
			b.notifyConsumerIdsChanged(cd.GroupName, notify)
		}
	}
}

// notifyConsumerIdsChanged sends NOTIFY_CONSUMER_IDS_CHANGED, oneway, to
// each connection of a group (Broker2Client.notifyConsumerIdsChanged).
func (b *Broker) notifyConsumerIdsChanged(group string, chans []*remoting.Channel) {
	if gc, ok := b.groups.get(group); ok && !gc.NotifyConsumerIDsChangedEnable {
		return
	}
	for _, ch := range chans {
		req := remoting.NewRequest(remoting.NotifyConsumerIdsChanged, map[string]string{"consumerGroup": group})
		req.Version = b.version
		if err := ch.InvokeOneway(req); err != nil {
			b.log.Debug("notifyConsumerIdsChanged failed", zap.String("group", group), zap.String("remote", ch.RemoteAddr()), zap.Error(err))
		}
	}
}

// unregisterClient serves UNREGISTER_CLIENT.
func (b *Broker) unregisterClient(req *remoting.Request) *remoting.Command {
	if g := req.Cmd.ExtString("producerGroup"); g != "" {
		b.clients.unregisterProducer(g, req.Ch)
	}
	if g := req.Cmd.ExtString("consumerGroup"); g != "" {
		left, gone := b.clients.unregisterConsumer(g, req.Ch)
		if gone {
			b.filters.unregister(g)
		}
		if len(left) > 0 {
			b.notifyConsumerIdsChanged(g, left)
		}
	}
	return b.response(req.Cmd, remoting.Success, "")
}

// checkClientConfig serves CHECK_CLIENT_CONFIG: a TAG subscription is
// always fine; SQL92 needs enablePropertyFilter and an expression that
// compiles.
func (b *Broker) checkClientConfig(req *remoting.Request) *remoting.Command {
	body, err := protocol.DecodeCheckClientRequestBody(req.Cmd.Body)
	if err != nil {
		return b.response(req.Cmd, remoting.SystemError, err.Error())
	}
	t := body.SubscriptionData.ExpressionType
	if t == "" || t == expressionTypeTag {
		return b.response(req.Cmd, remoting.Success, "")
	}
	if !b.opts.Configs.Broker.EnablePropertyFilter {
		return b.response(req.Cmd, remoting.SystemError, "The broker does not support consumer to filter message by "+t)
	}
	if _, err := b.filters.compile(body.SubscriptionData.SubString); err != nil {
		b.log.Warn("Client filter message, but failed to compile expression", zap.String("group", body.Group),
			zap.String("expression", body.SubscriptionData.SubString), zap.Error(err))
		return b.response(req.Cmd, remoting.SubscriptionParseFailed, javaErrorText(err))
	}
	return b.response(req.Cmd, remoting.Success, "")
}

// javaErrorText is what Java's MQFilterException.getMessage says of a
// compile error: the cause's toString.
func javaErrorText(err error) string {
	var e *sql92.Error
	if errors.As(err, &e) {
		return e.JavaText()
	}
	return err.Error()
}

// getConsumerListByGroup serves GET_CONSUMER_LIST_BY_GROUP.
func (b *Broker) getConsumerListByGroup(req *remoting.Request) *remoting.Command {
	group := req.Cmd.ExtString("consumerGroup")
	ids := b.clients.consumerIDs(group)
	if ids == nil {
		if _, _, ok := b.clients.group(group); !ok {
			b.log.Warn("getConsumerGroupInfo failed", zap.String("group", group), zap.String("remote", req.Ch.RemoteAddr()))
		}
		return b.response(req.Cmd, remoting.SystemError, "no consumer for this group, "+group)
	}
	body, _ := jsonAPI.Marshal(struct {
		ConsumerIDList []string `json:"consumerIdList"`
	}{ids})
	resp := b.response(req.Cmd, remoting.Success, "")
	resp.Body = body
	return resp
}
