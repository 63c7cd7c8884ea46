package broker

// RECALL_MESSAGE (370, 5.x): RecallMessageProcessor, and the recall
// handle a send of a timer message is answered with
// (SendMessageProcessor.attachRecallHandle). A producer takes a timer
// message back before its time with the handle; the handle's format is
// drawn in internal/protocol/recall.go.
//
// The handle: a SEND_MESSAGE or SEND_MESSAGE_V2 (not SEND_BATCH_MESSAGE,
// not CONSUMER_SEND_MSG_BACK) whose stored message has TIMER_OUT_MS and a
// REAL_TOPIC that is not a retry topic, that is a timer message the put
// sent to rmq_sys_wheel_timer (timer.go), is answered with the extra field
// recallHandle = {REAL_TOPIC, brokerName, TIMER_OUT_MS + 1, UNIQ_KEY}.
//
// Request header: producerGroup (optional), topic and recallHandle
// (required: SYSTEM_ERROR "the custom field <...> is null"), and bname,
// the handle's broker, which the broker does not read. Every other answer
// carries the extra field MSG_REGION (regionId). In Java's order:
//
//	recallMessageEnable false               NO_PERMISSION "recall failed, operation is forbidden"
//	brokerRole SLAVE                        SLAVE_NOT_AVAILABLE "recall failed, broker service not available"
//	before startAcceptSendRequestTimeStamp  SERVICE_NOT_AVAILABLE "recall failed, broker service not available"
//	brokerPermission without write, and
//	allowRecallWhenBrokerNotWriteable false SERVICE_NOT_AVAILABLE "recall failed, broker service not available"
//	no such topic                           TOPIC_NOT_EXIST "recall failed, the topic[<topic>] not exist"
//	a handle decodeHandle refuses           ILLEGAL_OPERATION "recall handle is invalid"
//	the handle's topic is not the request's ILLEGAL_OPERATION "recall failed, topic not match"
//	the handle's broker is not this one     ILLEGAL_OPERATION "recall failed, broker service not available"
//	the handle's time not ahead, or
//	timerMaxDelaySec or more ahead (or not
//	a number)                               ILLEGAL_OPERATION "recall failed, timestamp invalid"
//
// Then a recall message is put to the handle's topic, queue 0: body "0",
// tag _RECALL_TAG_, TIMER_DEL_UNIQKEY <topic>+<messageId>
// (TimerMessageStore.buildDeleteKey), UNIQ_KEY the message id,
// TIMER_DELIVER_MS the handle's timestamp, BORN_TIMESTAMP, an empty
// TRACE_CONTEXT and PGROUP the producer group. It goes through the put's
// timer branch as any timer message does (toTimerTopic): its time rounds
// down to the recalled message's slot, it is stored in
// rmq_sys_wheel_timer, the timer's enqueue makes it a delete unit of that
// slot (timer_enqueue.go), and when the slot is due the delete unit
// cancels the message of that key (timer_dequeue.go): the recalled message
// stays in the commitlog but never reaches its topic. SUCCESS, with the
// response header msgId the message id, also after a flush or slave
// timeout; a put that fails (the timer wheel off, a time that passed
// meanwhile, the store) is SYSTEM_ERROR "recall failed, execute error". A
// recall of a message already delivered, or of none, also succeeds, and
// does nothing.
//
// Difference from Java: the handle's time is checked against
// timerMaxDelaySec as the broker started with (the bound its timer puts
// follow, timer.go; Java reads the live setting).

import (
	"net/netip"
	"strconv"
	"time"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// Remarks of RECALL_MESSAGE (wire values: do not change).
const (
	remarkRecallForbidden   = "recall failed, operation is forbidden"
	remarkRecallUnavailable = "recall failed, broker service not available"
	remarkRecallTopicMatch  = "recall failed, topic not match"
	remarkRecallTimestamp   = "recall failed, timestamp invalid"
	remarkRecallFailed      = "recall failed, execute error"
)

// recallTag is the recall message's tag (RECALL_MESSAGE_TAG).
const recallTag = "_RECALL_TAG_"

// propTraceContext is MessageConst.PROPERTY_TRACE_CONTEXT, and
// propBornTimestamp PROPERTY_BORN_TIMESTAMP.
const (
	propTraceContext  = "TRACE_CONTEXT"
	propBornTimestamp = "BORN_TIMESTAMP"
)

// recallService serves RECALL_MESSAGE.
type recallService struct {
	replier
	line      line
	now       func() time.Time
	settings  *liveSettings
	id        *identity
	store     messageWriter
	topics    *topicTable
	stats     *brokerStats
	redirects redirects
}

// recallMessage is RecallMessageProcessor.processRequest.
func (s *recallService) recallMessage(req *remoting.Request) *remoting.Command {
	if resp := s.requireFields(req.Cmd, "topic", "recallHandle"); resp != nil {
		return resp
	}
	topic, handle := req.Cmd.ExtString("topic"), req.Cmd.ExtString("recallHandle")
	set := s.settings.load()
	resp := s.replyOK(req.Cmd)
	resp.SetExt(propMsgRegion, set.Broker.RegionId)
	h, f := s.checkRecall(topic, handle, set)
	if f != nil {
		return fail(resp, f)
	}
	group, hasGroup := req.Cmd.Ext("producerGroup")
	m, ok := s.recallMessageOf(h, group, hasGroup, req.Ch.RemoteAddr())
	if !ok {
		return fail(resp, &failure{remoting.SystemError, remarkRecallFailed})
	}
	res := s.store.PutMessage(m)
	if !putStored(res) {
		return fail(resp, &failure{remoting.SystemError, remarkRecallFailed})
	}
	if res.Status == store.PutOK {
		s.stats.stored(m.Topic, res)
	}
	resp.SetExt("msgId", h.MessageID)
	return resp
}

// checkRecall runs the checks before the put, in Java's order, and
// returns the decoded handle.
func (s *recallService) checkRecall(topic, handle string, set *settings) (protocol.RecallHandle, *failure) {
	b := set.Broker
	unavailable := func(code remoting.ResponseCode) *failure { return &failure{code, remarkRecallUnavailable} }
	now := s.now().UnixMilli()
	switch {
	case !b.RecallMessageEnable:
		return protocol.RecallHandle{}, &failure{remoting.NoPermission, remarkRecallForbidden}
	case isSlave(set):
		return protocol.RecallHandle{}, unavailable(remoting.SlaveNotAvailable)
	case now < b.StartAcceptSendRequestTimeStamp:
		return protocol.RecallHandle{}, unavailable(remoting.ServiceNotAvailable)
	case b.BrokerPermission&protocol.PermWrite == 0 && !b.AllowRecallWhenBrokerNotWriteable:
		return protocol.RecallHandle{}, unavailable(remoting.ServiceNotAvailable)
	}
	if _, ok := s.topics.get(topic); !ok {
		return protocol.RecallHandle{}, &failure{remoting.TopicNotExist, "recall failed, the topic[" + topic + "] not exist"}
	}
	h, err := protocol.DecodeRecallHandle(handle)
	switch {
	case err != nil:
		return h, &failure{remoting.IllegalOperation, err.Error()}
	case h.Topic != topic:
		return h, &failure{remoting.IllegalOperation, remarkRecallTopicMatch}
	case h.BrokerName != b.BrokerName:
		return h, &failure{remoting.IllegalOperation, remarkRecallUnavailable}
	}
	at, err := strconv.ParseInt(h.Timestamp, 10, 64)
	if err != nil {
		at = -1 // NumberUtils.toLong's default
	}
	if left := at - now; left <= 0 || left >= s.redirects.timer.maxDelayMs {
		return h, &failure{remoting.IllegalOperation, remarkRecallTimestamp}
	}
	return h, nil
}

// recallMessageOf is buildMessage: the message that cancels the handle's,
// sent through the timer branch of the put as Java's put hook sends it
// (false when that branch refuses it: WHEEL_TIMER_NOT_ENABLE,
// WHEEL_TIMER_MSG_ILLEGAL). Its properties are put in Java's order, into
// the map a new Message makes.
func (s *recallService) recallMessageOf(h protocol.RecallHandle, producerGroup string, hasGroup bool, remote string) (*store.Message, bool) {
	now := s.now().UnixMilli()
	props := newMsgProps(16)
	props.set(propTags, recallTag)
	props.set(propTimerDelUniq, timerDeleteKey(h.Topic, h.MessageID))
	props.set(propUniqKey, h.MessageID)
	props.set(propTimerDeliverMs, h.Timestamp)
	props.set(propBornTimestamp, strconv.FormatInt(now, 10))
	props.set(propTraceContext, "")
	if hasGroup { // a null value is left out of the properties string
		props.set(propProducerGroup, producerGroup)
	}
	bornHost, _ := netip.ParseAddrPort(remote)
	m := &store.Message{Topic: h.Topic, Body: []byte("0"), Properties: props.encode(s.line), BornTimestamp: now,
		BornHost: bornHost, StoreHost: s.id.storeHost()}
	return m, s.redirects.toTimerTopic(m, props) == nil
}

// timerDeleteKey is TimerMessageStore.buildDeleteKey: what a delete unit
// names, and what the dequeue matches against a message's REAL_TOPIC and
// UNIQ_KEY.
func timerDeleteKey(realTopic, uniqKey string) string { return realTopic + "+" + uniqKey }

// recallHandleOf is attachRecallHandle: the handle a send answers with,
// "" when it answers with none (a batch gets none: Java's sendBatchMessage
// never attaches one). props are the stored message's, after the put's
// timer branch.
func recallHandleOf(batch bool, props *msgProps, brokerName string) string {
	if batch {
		return ""
	}
	out, ok := props.get(propTimerOutMs)
	topic, real := props.get(propRealTopic)
	if !ok || !real || isRetryTopic(topic) {
		return ""
	}
	at, err := strconv.ParseInt(out, 10, 64)
	if err != nil {
		// Java's parseLong throws after the message is stored; the send
		// is answered as stored, without a handle
		return ""
	}
	uniq, ok := props.get(propUniqKey)
	if !ok {
		uniq = "null" // String.join of a null
	}
	return protocol.RecallHandle{Topic: topic, BrokerName: brokerName, Timestamp: strconv.FormatInt(at+1, 10),
		MessageID: uniq}.Encode()
}
