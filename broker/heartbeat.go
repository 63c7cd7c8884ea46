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
// The proxy of the process registers its gRPC clients over in-process
// connections (remoting.InProcess), one per client: as Java's local proxy
// registers them with isNotifyConsumerIdsChangedEnable=false, their
// registrations notify no one and they are not notified (they rebalance
// nothing: they POP).
//
// UNREGISTER_CLIENT header: clientID, producerGroup, consumerGroup.
// GET_CONSUMER_LIST_BY_GROUP header: consumerGroup; response body
// {"consumerIdList":[...]}, or SYSTEM_ERROR "no consumer for this group, g".

import (
	"errors"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/internal/sql92"
	"github.com/rmqgo/rmqgo/remoting"
)

// clientService serves the heartbeats and the other client-management
// codes, and the queue locks of orderly consumers.
type clientService struct {
	replier
	log      *zap.Logger
	now      func() time.Time
	settings *liveSettings
	clients  *clientTable
	groups   *groupTable
	topics   *topicTable
	filters  *filterTable
	locks    *queueLocks
	// notify tells a group's connections that its members changed.
	notify func(group string, chans []*remoting.Channel)
}

// heartbeat serves HEART_BEAT.
func (s *clientService) heartbeat(req *remoting.Request) *remoting.Command {
	hb, err := protocol.DecodeHeartbeatData(req.Cmd.Body)
	if hb == nil {
		return s.reply(req.Cmd, remoting.SystemError, "heartbeat body: "+err.Error())
	}
	if err != nil {
		s.log.Warn("heartbeat: groups left out, the others registered", zap.String("clientId", hb.ClientID),
			zap.String("remote", req.Ch.RemoteAddr()), zap.Error(err))
	}
	info := clientChannel{ch: req.Ch, clientID: hb.ClientID, language: req.Cmd.Language, version: req.Cmd.Version, lastUpdate: s.now()}
	for i := range hb.ConsumerDataSet {
		s.registerConsumer(&hb.ConsumerDataSet[i], info)
	}
	for _, p := range hb.ProducerDataSet {
		s.clients.registerProducer(p.GroupName, info)
	}
	return s.replyOK(req.Cmd)
}

// registerConsumer handles one ConsumerData of a heartbeat.
func (s *clientService) registerConsumer(cd *consumerData, info clientChannel) {
	notifyEnabled := true
	if gc, ok := s.groups.find(cd.GroupName); ok {
		notifyEnabled = gc.NotifyConsumerIDsChangedEnable
		var sysFlag int32
		if cd.UnitMode {
			sysFlag = protocol.TopicSysFlagUnitSub
		}
		s.topics.createForRetry(retryTopic(cd.GroupName), gc.RetryQueueNums, protocol.PermWrite|protocol.PermRead, sysFlag)
	}
	changed, notify := s.clients.registerConsumer(cd, info)
	s.filters.register(cd.GroupName, cd.SubscriptionDataSet)
	if changed {
		s.log.Info("registerConsumer info changed", zap.String("group", cd.GroupName), zap.String("clientId", info.clientID))
		if notifyEnabled && !info.ch.InProcess() {
			s.notify(cd.GroupName, notify)
		}
	}
}

// idsChangedNotifier sends NOTIFY_CONSUMER_IDS_CHANGED, oneway, to each
// connection of a group whose members changed
// (Broker2Client.notifyConsumerIdsChanged), unless the group turned it off.
type idsChangedNotifier struct {
	log     *zap.Logger
	version int32
	groups  *groupTable
}

// notify tells chans that the members of group changed.
func (n *idsChangedNotifier) notify(group string, chans []*remoting.Channel) {
	if gc, ok := n.groups.get(group); ok && !gc.NotifyConsumerIDsChangedEnable {
		return
	}
	for _, ch := range chans {
		if ch.InProcess() {
			continue
		}
		req := remoting.NewRequest(remoting.NotifyConsumerIdsChanged, map[string]string{"consumerGroup": group})
		req.Version = n.version
		if err := ch.InvokeOneway(req); err != nil {
			n.log.Debug("notifyConsumerIdsChanged failed", zap.String("group", group), zap.String("remote", ch.RemoteAddr()), zap.Error(err))
		}
	}
}

// unregisterClient serves UNREGISTER_CLIENT.
func (s *clientService) unregisterClient(req *remoting.Request) *remoting.Command {
	if g := req.Cmd.ExtString("producerGroup"); g != "" {
		s.clients.unregisterProducer(g, req.Ch)
	}
	if g := req.Cmd.ExtString("consumerGroup"); g != "" {
		left, gone := s.clients.unregisterConsumer(g, req.Ch)
		if gone {
			s.filters.unregister(g)
		}
		if len(left) > 0 {
			s.notify(g, left)
		}
	}
	return s.replyOK(req.Cmd)
}

// checkClientConfig serves CHECK_CLIENT_CONFIG: a TAG subscription is
// always fine; SQL92 needs enablePropertyFilter and an expression that
// compiles.
func (s *clientService) checkClientConfig(req *remoting.Request) *remoting.Command {
	body, err := protocol.DecodeCheckClientRequestBody(req.Cmd.Body)
	if err != nil {
		return s.reply(req.Cmd, remoting.SystemError, err.Error())
	}
	if body == nil || body.SubscriptionData == nil {
		// Java reads the subscription's type without a null check
		return s.reply(req.Cmd, remoting.SystemError, nullPointerRemark)
	}
	t := body.SubscriptionData.ExpressionType
	if t == "" || t == expressionTypeTag {
		return s.replyOK(req.Cmd)
	}
	if !s.settings.load().Broker.EnablePropertyFilter {
		return s.reply(req.Cmd, remoting.SystemError, "The broker does not support consumer to filter message by "+t)
	}
	if _, err := s.filters.compile(body.SubscriptionData.SubString); err != nil {
		s.log.Warn("Client filter message, but failed to compile expression", zap.String("group", body.Group),
			zap.String("expression", body.SubscriptionData.SubString), zap.Error(err))
		return s.reply(req.Cmd, remoting.SubscriptionParseFailed, javaErrorText(err))
	}
	return s.replyOK(req.Cmd)
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
func (s *clientService) getConsumerListByGroup(req *remoting.Request) *remoting.Command {
	group := req.Cmd.ExtString("consumerGroup")
	ids := s.clients.consumerIDs(group)
	if ids == nil {
		if _, _, ok := s.clients.group(group); !ok {
			s.log.Warn("getConsumerGroupInfo failed", zap.String("group", group), zap.String("remote", req.Ch.RemoteAddr()))
		}
		return s.reply(req.Cmd, remoting.SystemError, "no consumer for this group, "+group)
	}
	body, _ := jsonAPI.Marshal(struct {
		ConsumerIDList []string `json:"consumerIdList"`
	}{ids})
	return s.replyBody(req.Cmd, body)
}
