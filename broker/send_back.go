package broker

// CONSUMER_SEND_MSG_BACK (36): a consumer could not consume a message
// (RECONSUME_LATER, an exception) and hands it back:
// SendMessageProcessor.asyncConsumerSendMsgBack (4.x),
// AbstractSendMessageProcessor.consumerSendMsgBack (5.x).
//
// Header: offset (Long, req: the message's commitlog offset), group (req),
// delayLevel (Integer, req: 0 = the broker picks 3 + reconsumeTimes, < 0 =
// straight to the dead letters), originMsgId, originTopic, unitMode,
// maxReconsumeTimes (honoured from clients at V3_4_9 and above; else the
// group's retryMaxTimes), bname.
//
// The message is read back by its commitlog offset and written again
// (same body, flag, sysFlag, born time and host, properties) with
// reconsumeTimes + 1, RETRY_TOPIC = its first topic, ORIGIN_MESSAGE_ID =
// the first offset message id, WAIT=false, DELAY = the level: into
// %RETRY%group (a random one of the group's retryQueueNums queues, by way of
// the delay levels), or once reconsumeTimes reached the maximum into
// %DLQ%group queue 0 with DELAY=0. The client reads the retry topic and
// puts the first topic back from RETRY_TOPIC.
//
// Response: SUCCESS (also when the group has no retry queues: the message
// is dropped, as Java does); SUBSCRIPTION_GROUP_NOT_EXIST, NO_PERMISSION,
// or SYSTEM_ERROR "look message by offset failed, N" / the put status.
// A client whose call fails sends the message itself (SEND_MESSAGE_V2 to
// the retry topic), which the send path handles.

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// dlqQueueNums is MixAll.DLQ_NUMS_PER_GROUP.
const dlqQueueNums = 1

// sendBackHeader is ConsumerSendMsgBackRequestHeader.
type sendBackHeader struct {
	offset            int64
	group             string
	delayLevel        int32
	unitMode          bool
	maxReconsumeTimes int32 // -1 when absent
}

func parseSendBackHeader(cmd *remoting.Command) (sendBackHeader, error) {
	h := sendBackHeader{group: cmd.ExtString("group"), unitMode: cmd.ExtBool("unitMode"), maxReconsumeTimes: -1}
	var err error
	if h.offset, err = cmd.ExtInt64("offset"); err != nil {
		return h, err
	}
	if _, ok := cmd.Ext("group"); !ok {
		return h, fmt.Errorf("%w: group", remoting.ErrMissingField)
	}
	if h.delayLevel, err = cmd.ExtInt32("delayLevel"); err != nil {
		return h, err
	}
	if cmd.Version >= protocol.VersionV3_4_9 {
		h.maxReconsumeTimes = cmd.ExtInt32Or("maxReconsumeTimes", -1)
	}
	return h, nil
}

// consumerSendMsgBack serves CONSUMER_SEND_MSG_BACK.
func (s *sendService) consumerSendMsgBack(req *remoting.Request) *remoting.Command {
	h, err := parseSendBackHeader(req.Cmd)
	if err != nil {
		return s.replyHeaderError(req.Cmd, err)
	}
	gc, ok := s.groups.find(h.group)
	if !ok {
		return s.reply(req.Cmd, remoting.SubscriptionGroupNotExist, "subscription group not exist, "+h.group+" "+s.line.faq())
	}
	if c := s.settings.load().Broker; c.BrokerPermission&protocol.PermWrite == 0 {
		return s.reply(req.Cmd, remoting.NoPermission, "the broker["+c.BrokerIP1+"] sending message is forbidden")
	}
	if gc.RetryQueueNums <= 0 {
		return s.replyOK(req.Cmd)
	}
	var sysFlag int32
	if h.unitMode {
		sysFlag = protocol.TopicSysFlagUnitSub
	}
	topic := retryTopic(h.group)
	tc, _ := s.topics.createForRetry(topic, gc.RetryQueueNums, protocol.PermWrite|protocol.PermRead, sysFlag)
	if tc.TopicName == "" {
		return s.reply(req.Cmd, remoting.SystemError, "topic["+topic+"] not exist")
	}
	if tc.Perm&protocol.PermWrite == 0 {
		return s.reply(req.Cmd, remoting.NoPermission, "the topic["+topic+"] sending message is forbidden")
	}
	rec, err := s.store.LookMessage(h.offset)
	if err != nil {
		return s.reply(req.Cmd, remoting.SystemError, fmt.Sprintf("look message by offset failed, %d", h.offset))
	}
	maxTimes := gc.RetryMaxTimes
	if h.maxReconsumeTimes >= 0 {
		maxTimes = h.maxReconsumeTimes
	}
	m, f := s.sendBackMessage(&rec, h, topic, rand.Int32N(gc.RetryQueueNums), maxTimes)
	if f != nil {
		return s.replyFailure(req.Cmd, f)
	}
	if strings.HasPrefix(m.Topic, DLQGroupTopicPrefix) {
		origin := req.Cmd.ExtString("originTopic")
		s.metrics.sentToDLQ(origin, h.group, s.line.IsSystemTopic(origin))
	}
	if res := s.store.PutMessage(m); res.Status != store.PutOK {
		return s.reply(req.Cmd, remoting.SystemError, res.Status.String())
	}
	s.stats.sentBack(h.group, firstTopic(&rec))
	return s.replyOK(req.Cmd)
}

// sendBackMessage builds the message to put for a handed-back record: to
// the retry topic through the delay levels, or to the dead letters.
func (s *sendService) sendBackMessage(rec *store.Record, h sendBackHeader, topic string, queueID, maxTimes int32) (*store.Message, *failure) {
	props := parseProps(string(rec.Properties), s.line)
	if _, ok := props.get(propRetryTopic); !ok {
		props.set(propRetryTopic, rec.Topic)
	}
	props.set(propWait, "false")
	if rec.ReconsumeTimes >= maxTimes || h.delayLevel < 0 {
		topic, queueID = dlqTopic(h.group), 0
		tc, _ := s.topics.createForRetry(topic, dlqQueueNums, protocol.PermWrite|protocol.PermRead, 0)
		if tc.TopicName == "" {
			return nil, &failure{remoting.SystemError, "topic[" + topic + "] not exist"}
		}
		props.set(propDelayLevel, "0")
	} else {
		level := h.delayLevel
		if level == 0 {
			level = 3 + rec.ReconsumeTimes
		}
		props.set(propDelayLevel, itoa(level))
	}
	if origin, _ := props.get(propOriginMsgID); origin == "" {
		props.set(propOriginMsgID, rec.MsgID())
	}
	m := &store.Message{
		Topic: topic, QueueID: queueID, Flag: rec.Flag, SysFlag: rec.SysFlag, Body: rec.Body,
		Properties: props.encode(s.line), BornTimestamp: rec.BornTimestamp, BornHost: rec.BornHost,
		StoreHost: rec.StoreHost, ReconsumeTimes: rec.ReconsumeTimes + 1,
	}
	if s.line.sendBackStampsOwnHost() {
		m.StoreHost = s.id.storeHost()
	}
	s.redirects.toScheduleTopic(m, props)
	return m, nil
}
