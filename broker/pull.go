package broker

// PULL_MESSAGE (11) and LITE_PULL_MESSAGE (361, 5.x lite pull consumers,
// the same header and answers): PullMessageProcessor.
//
// Request header: consumerGroup, topic, queueId, queueOffset, maxMsgNums,
// sysFlag (1 commit offset, 2 suspend, 4 subscription, 8 class filter),
// commitOffset, suspendTimeoutMillis, subscription, subVersion,
// expressionType.
//
// Response header: suggestWhichBrokerId, nextBeginOffset, minOffset,
// maxOffset (5.x also topicSysFlag, groupSysFlag); the remark is the
// store's GetMessageStatus name (FOUND, NO_MATCHED_MESSAGE...). Codes: SUCCESS with the stored records as the body (sent
// straight from the mapped commitlog), PULL_NOT_FOUND, PULL_RETRY_IMMEDIATELY,
// PULL_OFFSET_MOVED, or the permission and subscription errors with Java's
// remarks. A pull that finds nothing and carries the suspend flag is parked
// (long polling, see pull_holds.go) and answered when a message arrives or
// its time is up.
// PULL_OFFSET_MOVED also writes an OFFSET_MOVED_EVENT message (offset_moved.go).
// On a slave: pull_slave.go.

import (
	"fmt"
	"slices"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// pullHeader is PullMessageRequestHeader.
type pullHeader struct {
	group          string
	topic          string
	queueID        int32
	queueOffset    int64
	maxMsgNums     int32
	sysFlag        int32
	commitOffset   int64
	suspendTimeout time.Duration
	subscription   string
	subVersion     int64
	expressionType string
}

func parsePullHeader(cmd *remoting.Command) (*pullHeader, error) {
	h := &pullHeader{group: cmd.ExtString("consumerGroup"), topic: cmd.ExtString("topic"),
		subscription: cmd.ExtString("subscription"), expressionType: cmd.ExtString("expressionType")}
	var err error
	if h.queueID, err = cmd.ExtInt32("queueId"); err != nil {
		return nil, err
	}
	if h.queueOffset, err = cmd.ExtInt64("queueOffset"); err != nil {
		return nil, err
	}
	if h.maxMsgNums, err = cmd.ExtInt32("maxMsgNums"); err != nil {
		return nil, err
	}
	if h.sysFlag, err = cmd.ExtInt32("sysFlag"); err != nil {
		return nil, err
	}
	if h.commitOffset, err = cmd.ExtInt64("commitOffset"); err != nil {
		return nil, err
	}
	susp, err := cmd.ExtInt64("suspendTimeoutMillis")
	if err != nil {
		return nil, err
	}
	h.suspendTimeout = ms(susp)
	if h.subVersion, err = cmd.ExtInt64("subVersion"); err != nil {
		return nil, err
	}
	return h, nil
}

// pullService serves pulls: PullMessageProcessor, with the hold table of
// long polling (pull_holds.go).
type pullService struct {
	replier
	line     line
	log      *zap.Logger
	now      func() time.Time
	settings *liveSettings
	id       *identity
	store    pullStore
	topics   *topicTable
	groups   *groupTable
	clients  *clientTable
	filters  *filterTable
	offsets  *offsetTable
	holds    *pullHolds
	stats    *brokerStats
	metrics  *brokerMetrics
}

// pullMessage serves PULL_MESSAGE and LITE_PULL_MESSAGE from a client.
func (s *pullService) pullMessage(req *remoting.Request) *remoting.Command {
	return s.processPull(req, true)
}

// rerunPull serves a parked pull that a message or its time woke; it
// answers now.
func (s *pullService) rerunPull(req *remoting.Request) *remoting.Command {
	return s.processPull(req, false)
}

// processPull runs a pull; allowSuspend is false when a parked pull is
// re-run, which must answer now.
func (s *pullService) processPull(req *remoting.Request, allowSuspend bool) *remoting.Command {
	set := s.settings.load()
	if s.rejectsPulls(set) {
		return s.reply(req.Cmd, remoting.SystemBusy, rejectRequestRemark)
	}
	h, err := parsePullHeader(req.Cmd)
	if err != nil {
		return s.replyHeaderError(req.Cmd, err)
	}
	resp := s.replyOK(req.Cmd)
	gc, sub, f := s.checkPull(req, h, set)
	if f != nil {
		return fail(resp, f)
	}
	props, f := s.sqlFilter(h, sub, set)
	if f != nil {
		return fail(resp, f)
	}
	if off, ok := s.offsets.takeReset(h.group, h.topic, h.queueID); ok {
		return s.pullReset(resp, h, off)
	}
	res := s.store.GetMessagesMatching(h.topic, h.queueID, h.queueOffset, int(h.maxMsgNums), tagFilter(sub), props)
	resp.SetExt("nextBeginOffset", itoa(res.NextBeginOffset))
	resp.SetExt("minOffset", itoa(res.MinOffset))
	resp.SetExt("maxOffset", itoa(res.MaxOffset))
	suggest := suggestBroker(gc, res, set)
	if s.line.answersPullSysFlags() {
		tc, _ := s.topics.get(h.topic)
		resp.SetExt("topicSysFlag", itoa(tc.TopicSysFlag))
		resp.SetExt("groupSysFlag", itoa(gc.GroupSysFlag))
	}
	code := pullStatusCode(res.Status, h.queueOffset)
	code, suggest = s.slaveAnswer(code, suggest, gc, res, set)
	resp.SetExt("suggestWhichBrokerId", itoa(suggest))
	resp.Code = int32(code)
	resp.SetRemark(res.Status.String())
	if code == remoting.PullOffsetMoved {
		s.offsetMovedEvent(h, res.NextBeginOffset)
		s.log.Warn("PULL_OFFSET_MOVED:correction offset", zap.String("group", h.group), zap.String("topic", h.topic),
			zap.Int32("queueId", h.queueID), zap.Int64("requestOffset", h.queueOffset), zap.Int64("newOffset", res.NextBeginOffset))
	}
	s.offsets.commitPull(h.group, h.topic, h.queueID, res.NextBeginOffset)
	if allowSuspend && h.sysFlag&protocol.PullFlagCommitOffset != 0 && s.commitsPullOffsets(set) {
		s.offsets.commit(h.group, h.topic, h.queueID, h.commitOffset)
	}
	switch {
	case code == remoting.Success:
		s.stats.pulled(h.group, h.topic, h.queueID, len(res.Messages), res.TotalBytes, req.Arrived)
		s.metrics.pulled(h.topic, h.group, s.line.IsSystemTopic(h.topic), len(res.Messages), res.TotalBytes)
		sendRecords(s.log, req, resp, res)
		return nil
	case code == remoting.PullNotFound && allowSuspend && h.sysFlag&protocol.PullFlagSuspend != 0:
		res.Release()
		s.holds.park(req, h, sub, pollingTime(h, set))
		return nil
	}
	res.Release()
	return resp
}

// pullReset answers a pull of a queue whose offset an operator reset (5.x
// server-side reset, OFFSET_RESET): PULL_OFFSET_MOVED to the new offset,
// which the client adopts.
func (s *pullService) pullReset(resp *remoting.Command, h *pullHeader, offset int64) *remoting.Command {
	resp.Code = int32(remoting.PullOffsetMoved)
	resp.SetExt("nextBeginOffset", itoa(offset))
	resp.SetExt("minOffset", itoa(s.store.MinOffset(h.topic, h.queueID)))
	resp.SetExt("maxOffset", itoa(s.store.MaxOffset(h.topic, h.queueID)))
	resp.SetExt("suggestWhichBrokerId", itoa(protocol.MasterID))
	s.log.Info("The queue under pulling was previously reset", zap.String("group", h.group), zap.String("topic", h.topic),
		zap.Int32("queueId", h.queueID), zap.Int64("offset", offset))
	s.offsetMovedEvent(h, offset)
	return resp
}

// pollingTime is how long a parked pull waits: the client's suspend
// timeout with long polling, shortPollingTimeMills without.
func pollingTime(h *pullHeader, set *settings) time.Duration {
	if !set.Broker.LongPollingEnable {
		return set.ShortPolling
	}
	return h.suspendTimeout
}

// sendRecords writes the response with the records as its body, from
// the mapped files, and releases them once written (pulls and message
// queries).
func sendRecords(log *zap.Logger, req *remoting.Request, resp *remoting.Command, res *store.GetResult) {
	resp.Opaque = req.Cmd.Opaque
	parts := make([][]byte, len(res.Messages))
	for i, m := range res.Messages {
		parts[i] = m.Data
	}
	if err := req.SendParts(resp, parts, res.Release); err != nil {
		log.Debug("records not sent", zap.String("remote", req.Ch.RemoteAddr()), zap.Error(err))
	}
}

// pullStatusCode maps a store status to the response code.
func pullStatusCode(s store.GetStatus, requested int64) remoting.ResponseCode {
	switch s {
	case store.GetFound:
		return remoting.Success
	case store.GetMessageWasRemoving, store.GetNoMatchedMessage:
		return remoting.PullRetryImmediately
	case store.GetNoMatchedLogicQueue, store.GetNoMessageInQueue:
		if requested != 0 {
			return remoting.PullOffsetMoved
		}
		return remoting.PullNotFound
	case store.GetOffsetFoundNull, store.GetOffsetOverflowOne:
		return remoting.PullNotFound
	case store.GetOffsetOverflowBadly, store.GetOffsetTooSmall:
		return remoting.PullOffsetMoved
	}
	return remoting.SystemError
}

// checkPull checks permissions, the group, the topic and the queue, and
// finds the subscription: from the header when the subscription flag is
// set, else the one the group's heartbeats registered.
func (s *pullService) checkPull(req *remoting.Request, h *pullHeader, set *settings) (protocol.SubscriptionGroupConfig, subscriptionData, *failure) {
	var sub subscriptionData
	c := set.Broker
	if c.BrokerPermission&protocol.PermRead == 0 {
		return protocol.SubscriptionGroupConfig{}, sub, &failure{remoting.NoPermission, "the broker[" + c.BrokerIP1 + "] pulling message is forbidden"}
	}
	gc, ok := s.groups.find(h.group)
	if !ok {
		return gc, sub, &failure{remoting.SubscriptionGroupNotExist, "subscription group [" + h.group + "] does not exist, " + s.line.faq()}
	}
	if !gc.ConsumeEnable {
		return gc, sub, &failure{remoting.NoPermission, "subscription group no permission, " + h.group}
	}
	tc, ok := s.topics.get(h.topic)
	if !ok {
		s.log.Error("the topic not exist", zap.String("topic", h.topic), zap.String("consumer", req.Ch.RemoteAddr()))
		return gc, sub, &failure{remoting.TopicNotExist, "topic[" + h.topic + "] not exist, apply first please! " + s.line.faq()}
	}
	if tc.Perm&protocol.PermRead == 0 {
		return gc, sub, &failure{remoting.NoPermission, "the topic[" + h.topic + "] pulling message is forbidden"}
	}
	if h.queueID < 0 || h.queueID >= tc.ReadQueueNums {
		return gc, sub, &failure{remoting.SystemError, fmt.Sprintf("queueId[%d] is illegal, topic:[%s] topicConfig.readQueueNums:[%d] consumer:[%s]",
			h.queueID, h.topic, tc.ReadQueueNums, req.Ch.RemoteAddr())}
	}
	var f *failure
	if h.sysFlag&protocol.PullFlagSubscription != 0 {
		var err error
		if sub, err = buildSubscription(h.topic, h.subscription, h.expressionType); err != nil {
			return gc, sub, &failure{remoting.SubscriptionParseFailed, "parse the consumer's subscription failed"}
		}
	} else if gc, sub, f = s.registeredSubscription(gc, h); f != nil {
		return gc, sub, f
	}
	return gc, sub, nil
}

// sqlFilter finds the SQL92 filter of a pull (nil for a TAG
// subscription): the pull's own expression, or the one the group's
// heartbeats registered.
func (s *pullService) sqlFilter(h *pullHeader, sub subscriptionData, set *settings) (store.PropertyFilter, *failure) {
	t := sub.ExpressionType
	if t == "" || t == expressionTypeTag {
		return nil, nil
	}
	if !set.Broker.EnablePropertyFilter {
		return nil, &failure{remoting.SystemError, "The broker does not support consumer to filter message by " + t}
	}
	if h.sysFlag&protocol.PullFlagSubscription != 0 {
		expr, err := s.filters.compile(sub.SubString)
		if err != nil {
			return nil, &failure{remoting.SubscriptionParseFailed, javaErrorText(err)}
		}
		return propertyFilter(expr), nil
	}
	f, ok := s.filters.get(h.topic, h.group)
	if !ok {
		return nil, &failure{remoting.FilterDataNotExist, "The broker's consumer filter data is not exist!Your expression may be wrong!"}
	}
	if f.data.ClientVersion < h.subVersion {
		return nil, &failure{remoting.FilterDataNotLatest, "the consumer's consumer filter data not latest"}
	}
	return propertyFilter(f.expr), nil
}

// registeredSubscription finds the subscription a pull without one uses.
func (s *pullService) registeredSubscription(gc protocol.SubscriptionGroupConfig, h *pullHeader) (protocol.SubscriptionGroupConfig, subscriptionData, *failure) {
	model, sub, online, subscribed := s.clients.subscription(h.group, h.topic)
	if !online {
		return gc, subscriptionData{}, &failure{remoting.SubscriptionNotExist, "the consumer's group info not exist" + s.line.faq()}
	}
	if !gc.ConsumeBroadcastEnable && model == modelBroadcasting {
		return gc, subscriptionData{}, &failure{remoting.NoPermission, "the consumer group[" + h.group + "] can not consume by broadcast way"}
	}
	if !subscribed {
		return gc, sub, &failure{remoting.SubscriptionNotExist, "the consumer's subscription not exist" + s.line.faq()}
	}
	if sub.SubVersion < h.subVersion {
		return gc, sub, &failure{remoting.SubscriptionNotLatest, "the consumer's subscription not latest"}
	}
	return gc, sub, nil
}

// tagFilter is ExpressionMessageFilter.isMatchedByConsumeQueue for tag
// subscriptions: everything for "*" (or a non-tag expression, which this
// broker does not filter), else the tag hashes of the expression.
func tagFilter(sub subscriptionData) store.TagFilter {
	if sub.ClassFilterMode || sub.SubString == subAll || sub.SubString == "" ||
		sub.ExpressionType != "" && sub.ExpressionType != expressionTypeTag {
		return nil
	}
	codes := slices.Clone(sub.CodeSet)
	return func(tagsCode int64) bool {
		return slices.Contains(codes, int32(tagsCode))
	}
}
