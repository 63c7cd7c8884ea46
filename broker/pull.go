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
// maxOffset. Codes: SUCCESS with the stored records as the body (sent
// straight from the mapped commitlog), PULL_NOT_FOUND, PULL_RETRY_IMMEDIATELY,
// PULL_OFFSET_MOVED, or the permission and subscription errors with Java's
// remarks. A pull that finds nothing and carries the suspend flag is parked
// (long polling, see pull_holds.go) and answered when a message arrives or
// its time is up.
// PULL_OFFSET_MOVED also writes an OFFSET_MOVED_EVENT message (offset_moved.go).

import (
	"fmt"
	"slices"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// PullSysFlag bits (wire values: do not change).
const (
	pullFlagCommitOffset = 1 << 0
	pullFlagSuspend      = 1 << 1
	pullFlagSubscription = 1 << 2
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

// pullMessage serves PULL_MESSAGE from a client.
func (b *Broker) pullMessage(req *remoting.Request) *remoting.Command {
	return b.processPull(req, true)
}

// processPull runs a pull; allowSuspend is false when a parked pull is
// re-run, which must answer now.
func (b *Broker) processPull(req *remoting.Request, allowSuspend bool) *remoting.Command {
	h, err := parsePullHeader(req.Cmd)
	if err != nil {
		return b.headerError(req, err)
	}
	resp := b.response(req.Cmd, remoting.Success, "")
	gc, sub, fail := b.checkPull(req, h)
	if fail != nil {
		return b.fail(resp, fail)
	}
	props, fail := b.sqlFilter(h, sub)
	if fail != nil {
		return b.fail(resp, fail)
	}
	if off, ok := b.offsets.takeReset(h.group, h.topic, h.queueID); ok {
		return b.pullReset(resp, h, off)
	}
	res := b.store.GetMessagesMatching(h.topic, h.queueID, h.queueOffset, int(h.maxMsgNums), tagFilter(sub), props)
	resp.SetExt("nextBeginOffset", itoa(res.NextBeginOffset))
	resp.SetExt("minOffset", itoa(res.MinOffset))
	resp.SetExt("maxOffset", itoa(res.MaxOffset))
	resp.SetExt("suggestWhichBrokerId", itoa(b.suggestBroker(gc, res)))
	code := pullStatusCode(res.Status, h.queueOffset)
	resp.Code = int32(code)
	if code == remoting.PullOffsetMoved {
		b.offsetMovedEvent(h, res.NextBeginOffset)
		b.log.Warn("PULL_OFFSET_MOVED:correction offset", zap.String("group", h.group), zap.String("topic", h.topic),
			zap.Int32("queueId", h.queueID), zap.Int64("requestOffset", h.queueOffset), zap.Int64("newOffset", res.NextBeginOffset))
	}
	b.offsets.commitPull(h.group, h.topic, h.queueID, res.NextBeginOffset)
	if allowSuspend && h.sysFlag&pullFlagCommitOffset != 0 {
		b.offsets.commit(h.group, h.topic, h.queueID, h.commitOffset)
	}
	switch {
	case code == remoting.Success:
		b.brokerStats.pulled(h.group, h.topic, h.queueID, len(res.Messages), res.TotalBytes, req.Arrived)
		b.sendPullBody(req, resp, res)
		return nil
	case code == remoting.PullNotFound && allowSuspend && h.sysFlag&pullFlagSuspend != 0:
		res.Release()
		b.holds.park(req, h, sub, b.pollingTime(h))
		return nil
	}
	res.Release()
	return resp
}

// pullReset answers a pull of a queue whose offset an operator reset (5.x
// server-side reset, OFFSET_RESET): PULL_OFFSET_MOVED to the new offset,
// which the client adopts.
func (b *Broker) pullReset(resp *remoting.Command, h *pullHeader, offset int64) *remoting.Command {
	resp.Code = int32(remoting.PullOffsetMoved)
	resp.SetExt("nextBeginOffset", itoa(offset))
	resp.SetExt("minOffset", itoa(b.store.MinOffset(h.topic, h.queueID)))
	resp.SetExt("maxOffset", itoa(b.store.MaxOffset(h.topic, h.queueID)))
	resp.SetExt("suggestWhichBrokerId", itoa(protocol.MasterID))
	b.log.Info("The queue under pulling was previously reset", zap.String("group", h.group), zap.String("topic", h.topic),
		zap.Int32("queueId", h.queueID), zap.Int64("offset", offset))
	b.offsetMovedEvent(h, offset)
	return resp
}

// pollingTime is how long a parked pull waits: the client's suspend
// timeout with long polling, shortPollingTimeMills without.
func (b *Broker) pollingTime(h *pullHeader) time.Duration {
	if !b.opts.Configs.Broker.LongPollingEnable {
		return ms(b.opts.Configs.Broker.ShortPollingTimeMills)
	}
	return h.suspendTimeout
}

// sendPullBody writes the response with the records as its body, from
// the mapped files, and releases them once written.
func (b *Broker) sendPullBody(req *remoting.Request, resp *remoting.Command, res *store.GetResult) {
	resp.Opaque = req.Cmd.Opaque
	parts := make([][]byte, len(res.Messages))
	for i, m := range res.Messages {
		parts[i] = m.Data
	}
	if err := req.Ch.SendParts(resp, parts, res.Release); err != nil {
		b.log.Debug("pull response not sent", zap.String("remote", req.Ch.RemoteAddr()), zap.Error(err))
	}
}

// suggestBroker is the suggestWhichBrokerId rule: the master unless
// slaveReadEnable lets a slow reader go to a slave.
func (b *Broker) suggestBroker(gc protocol.SubscriptionGroupConfig, res *store.GetResult) int64 {
	if !b.opts.Configs.Broker.SlaveReadEnable {
		return protocol.MasterID
	}
	if res.SuggestPullingFromSlave {
		return gc.WhichBrokerWhenConsumeSlowly
	}
	return gc.BrokerID
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
func (b *Broker) checkPull(req *remoting.Request, h *pullHeader) (protocol.SubscriptionGroupConfig, subscriptionData, *sendFailure) {
	var sub subscriptionData
	c := b.opts.Configs.Broker
	if c.BrokerPermission&protocol.PermRead == 0 {
		return protocol.SubscriptionGroupConfig{}, sub, &sendFailure{remoting.NoPermission, "the broker[" + c.BrokerIP1 + "] pulling message is forbidden"}
	}
	gc, ok := b.groups.find(h.group)
	if !ok {
		return gc, sub, &sendFailure{remoting.SubscriptionGroupNotExist, "subscription group [" + h.group + "] does not exist, " + b.faq()}
	}
	if !gc.ConsumeEnable {
		return gc, sub, &sendFailure{remoting.NoPermission, "subscription group no permission, " + h.group}
	}
	tc, ok := b.topics.get(h.topic)
	if !ok {
		b.log.Error("the topic not exist", zap.String("topic", h.topic), zap.String("consumer", req.Ch.RemoteAddr()))
		return gc, sub, &sendFailure{remoting.TopicNotExist, "topic[" + h.topic + "] not exist, apply first please! " + b.faq()}
	}
	if tc.Perm&protocol.PermRead == 0 {
		return gc, sub, &sendFailure{remoting.NoPermission, "the topic[" + h.topic + "] pulling message is forbidden"}
	}
	if h.queueID < 0 || h.queueID >= tc.ReadQueueNums {
		return gc, sub, &sendFailure{remoting.SystemError, fmt.Sprintf("queueId[%d] is illegal, topic:[%s] topicConfig.readQueueNums:[%d] consumer:[%s]",
			h.queueID, h.topic, tc.ReadQueueNums, req.Ch.RemoteAddr())}
	}
	var fail *sendFailure
	if h.sysFlag&pullFlagSubscription != 0 {
		var err error
		if sub, err = buildSubscription(h.topic, h.subscription, h.expressionType); err != nil {
			return gc, sub, &sendFailure{remoting.SubscriptionParseFailed, "parse the consumer's subscription failed"}
		}
	} else if gc, sub, fail = b.registeredSubscription(gc, h); fail != nil {
		return gc, sub, fail
	}
	return gc, sub, nil
}

// sqlFilter finds the SQL92 filter of a pull (nil for a TAG
// subscription): the pull's own expression, or the one the group's
// heartbeats registered.
func (b *Broker) sqlFilter(h *pullHeader, sub subscriptionData) (store.PropertyFilter, *sendFailure) {
	t := sub.ExpressionType
	if t == "" || t == expressionTypeTag {
		return nil, nil
	}
	if !b.opts.Configs.Broker.EnablePropertyFilter {
		return nil, &sendFailure{remoting.SystemError, "The broker does not support consumer to filter message by " + t}
	}
	if h.sysFlag&pullFlagSubscription != 0 {
		expr, err := b.filters.compile(sub.SubString)
		if err != nil {
			return nil, &sendFailure{remoting.SubscriptionParseFailed, javaErrorText(err)}
		}
		return propertyFilter(expr), nil
	}
	f, ok := b.filters.get(h.topic, h.group)
	if !ok {
		return nil, &sendFailure{remoting.FilterDataNotExist, "The broker's consumer filter data is not exist!Your expression may be wrong!"}
	}
	if f.data.ClientVersion < h.subVersion {
		return nil, &sendFailure{remoting.FilterDataNotLatest, "the consumer's consumer filter data not latest"}
	}
	return propertyFilter(f.expr), nil
}

// registeredSubscription finds the subscription a pull without one uses.
func (b *Broker) registeredSubscription(gc protocol.SubscriptionGroupConfig, h *pullHeader) (protocol.SubscriptionGroupConfig, subscriptionData, *sendFailure) {
	model, sub, online, subscribed := b.clients.subscription(h.group, h.topic)
	if !online {
		return gc, subscriptionData{}, &sendFailure{remoting.SubscriptionNotExist, "the consumer's group info not exist" + b.faq()}
	}
	if !gc.ConsumeBroadcastEnable && model == modelBroadcasting {
		return gc, subscriptionData{}, &sendFailure{remoting.NoPermission, "the consumer group[" + h.group + "] can not consume by broadcast way"}
	}
	if !subscribed {
		return gc, sub, &sendFailure{remoting.SubscriptionNotExist, "the consumer's subscription not exist" + b.faq()}
	}
	if sub.SubVersion < h.subVersion {
		return gc, sub, &sendFailure{remoting.SubscriptionNotLatest, "the consumer's subscription not latest"}
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
