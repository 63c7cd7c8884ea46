package broker

// SEND_MESSAGE (10), SEND_MESSAGE_V2 (310, the same header with one-letter
// field names) and SEND_BATCH_MESSAGE (320): SendMessageProcessor.
//
// Request header (V1 name / V2 name): producerGroup/a, topic/b,
// defaultTopic/c, defaultTopicQueueNums/d, queueId/e, sysFlag/f,
// bornTimestamp/g, flag/h, properties/i, reconsumeTimes/j, unitMode/k,
// maxReconsumeTimes/l, batch/m. Body: the message body, or for a batch the
// messages encoded by MessageDecoder.encodeMessages.
//
// Response: SUCCESS with msgId (the offset message id; a batch's ids
// joined by commas), queueId, queueOffset, on 5.x transactionId (the
// UNIQ_KEY) and for a timer message recallHandle (recall.go), and the
// extra fields MSG_REGION and TRACE_ON; or TOPIC_NOT_EXIST, NO_PERMISSION, MESSAGE_ILLEGAL,
// SYSTEM_ERROR, SYSTEM_BUSY, FLUSH_DISK_TIMEOUT, SERVICE_NOT_AVAILABLE with
// Java's remarks.
//
// A put that waits for replicas (SYNC_MASTER, controller mode) frees its
// worker, as Java's CompletableFuture does: the answer is sent from the
// goroutine that read the covering ack, or from the timeout's timer
// (sendOutcome.answerLater).

import (
	"fmt"
	"math/rand/v2"
	"net/netip"
	"strconv"
	"time"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// sendHeader is SendMessageRequestHeader.
type sendHeader struct {
	producerGroup         string
	topic                 string
	defaultTopic          string
	defaultTopicQueueNums int32
	queueID               int32
	sysFlag               int32
	bornTimestamp         int64
	flag                  int32
	properties            string
	reconsumeTimes        int32
	maxReconsumeTimes     int32 // -1 when absent
	batch                 bool
}

// sendHeaderNames are the V1 field names and their V2 letters.
var sendHeaderNames = [...][2]string{
	{"producerGroup", "a"}, {"topic", "b"}, {"defaultTopic", "c"}, {"defaultTopicQueueNums", "d"},
	{"queueId", "e"}, {"sysFlag", "f"}, {"bornTimestamp", "g"}, {"flag", "h"}, {"properties", "i"},
	{"reconsumeTimes", "j"}, {"unitMode", "k"}, {"maxReconsumeTimes", "l"}, {"batch", "m"},
}

// parseSendHeader reads the header of either form; a required field that
// is missing or not a number is an error, as Java's decodeCommandCustomHeader
// makes it.
func parseSendHeader(cmd *remoting.Command) (sendHeader, error) {
	v2 := cmd.Code == int32(remoting.SendMessageV2) || cmd.Code == int32(remoting.SendBatchMessage) && hasExt(cmd, "b")
	name := func(i int) string {
		if v2 {
			return sendHeaderNames[i][1]
		}
		return sendHeaderNames[i][0]
	}
	h := sendHeader{maxReconsumeTimes: -1}
	var err error
	for _, req := range []string{name(0), name(1), name(2)} {
		if _, ok := cmd.Ext(req); !ok {
			return h, fmt.Errorf("%w: %s", remoting.ErrMissingField, sendHeaderNames[indexOfName(req, v2)][0])
		}
	}
	h.producerGroup, h.topic, h.defaultTopic = cmd.ExtString(name(0)), cmd.ExtString(name(1)), cmd.ExtString(name(2))
	if h.defaultTopicQueueNums, err = cmd.ExtInt32(name(3)); err != nil {
		return h, err
	}
	if h.queueID, err = cmd.ExtInt32(name(4)); err != nil {
		return h, err
	}
	if h.sysFlag, err = cmd.ExtInt32(name(5)); err != nil {
		return h, err
	}
	if h.bornTimestamp, err = cmd.ExtInt64(name(6)); err != nil {
		return h, err
	}
	if h.flag, err = cmd.ExtInt32(name(7)); err != nil {
		return h, err
	}
	h.properties = cmd.ExtString(name(8))
	h.reconsumeTimes = cmd.ExtInt32Or(name(9), 0)
	h.maxReconsumeTimes = cmd.ExtInt32Or(name(11), -1)
	h.batch = cmd.ExtBool(name(12))
	return h, nil
}

func hasExt(cmd *remoting.Command, k string) bool { _, ok := cmd.Ext(k); return ok }

func indexOfName(n string, v2 bool) int {
	for i, p := range sendHeaderNames {
		if v2 && p[1] == n || !v2 && p[0] == n {
			return i
		}
	}
	return 0
}

// sendService stores what producers send and what consumers send back
// (send_back.go): SendMessageProcessor.
type sendService struct {
	replier
	line      line
	settings  *liveSettings
	id        *identity
	store     sendStore
	topics    *topicTable
	groups    *groupTable
	stats     *brokerStats
	metrics   *brokerMetrics
	redirects redirects
}

// sendMessage serves the three send codes.
func (s *sendService) sendMessage(req *remoting.Request) *remoting.Command {
	hv, err := parseSendHeader(req.Cmd)
	h := &hv
	if err != nil {
		return s.replyHeaderError(req.Cmd, err)
	}
	if s.store.IsOSPageCacheBusy() {
		// BrokerFastFailure: the commitlog lock is held too long, shed load.
		return s.reply(req.Cmd, remoting.SystemBusy, fmt.Sprintf(
			"[PCBUSY_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: %dms, size of queue: %d",
			time.Since(req.Arrived).Milliseconds(), 0))
	}
	set := s.settings.load()
	resp := s.replyOK(req.Cmd)
	resp.SetExt(propMsgRegion, set.Broker.RegionId)
	resp.SetExt(propTraceSwitch, strconv.FormatBool(set.Broker.TraceOn))
	tc, f := s.checkSend(req, h, set)
	if f != nil {
		return fail(resp, f)
	}
	queueID := h.queueID
	if queueID < 0 {
		queueID = rand.Int32N(99999999) % max(tc.WriteQueueNums, 1)
	}
	bornHost, _ := netip.ParseAddrPort(req.Ch.RemoteAddr())
	// The message's properties, or for a batch those every message gets.
	props := parseProps(h.properties, s.line)
	uniq, _ := props.get(propUniqKey)
	s.stampRegionAndTrace(props, set)
	var msgType string
	if s.metrics != nil {
		msgType = messageType(props)
	}
	o := &sendOutcome{s: s, req: req, resp: resp, h: h, props: props, uniq: uniq, msgType: msgType,
		queueID: queueID, set: set, batch: isBatchSend(req.Cmd, h), written: h.topic}
	var res store.PutResult
	if o.batch {
		res, f = s.putBatch(req.Cmd, h, props, queueID, bornHost, set, o)
	} else {
		res, f = s.putOne(req.Cmd, h, props, tc, queueID, bornHost, set, o)
	}
	switch {
	case f != nil:
		return fail(resp, f)
	case o.pending:
		return nil // answered by o.answerLater once the replicas have it
	}
	return o.answer(res)
}

// sendOutcome is what a send's answer is made of once its put is done:
// at once, or later when the put waits for replicas.
type sendOutcome struct {
	s       *sendService
	req     *remoting.Request
	resp    *remoting.Command
	h       *sendHeader
	props   *msgProps
	uniq    string
	msgType string
	queueID int32
	set     *settings
	batch   bool
	// written is the topic the put wrote under (the half, schedule or
	// timer topic when it was redirected).
	written string
	// pending is set when the put went on waiting for replicas.
	pending bool
}

// answer records the stored message and makes the send's answer.
func (o *sendOutcome) answer(res store.PutResult) *remoting.Command {
	s := o.s
	s.stats.stored(o.h.topic, res)
	s.metrics.stored(o.written, o.msgType, s.line.IsSystemTopic(o.written), res)
	s.putResponse(o.resp, res, o.uniq, o.queueID, o.set)
	if s.line.five() && putStored(res) {
		if handle := recallHandleOf(o.batch, o.props, o.set.Broker.BrokerName); handle != "" {
			o.resp.SetExt("recallHandle", handle)
		}
	}
	return o.resp
}

// answerLater answers the send from the goroutine that completed its put.
func (o *sendOutcome) answerLater(res store.PutResult) { o.req.Answer(o.answer(res)) }

// put stores msgs under topic for the send o: when the put waits for
// replicas, it marks o pending and the answer goes later.
func (s *sendService) put(o *sendOutcome, topic string, msgs []store.Message) store.PutResult {
	o.written = topic
	res, now := s.store.PutMessagesLater(msgs, o.answerLater)
	o.pending = !now
	return res
}

// isBatchSend tells a batch: Java decides by the header's batch field (a
// proxy sends its batches as SEND_MESSAGE with batch=true);
// SEND_BATCH_MESSAGE without it, which Java would store as one message
// holding the encoded batch, is taken as the batch it is.
func isBatchSend(cmd *remoting.Command, h *sendHeader) bool {
	return h.batch || cmd.Code == int32(remoting.SendBatchMessage)
}

// checkSend is AbstractSendMessageProcessor.msgCheck: broker and topic
// permissions, topic name rules, the topic (created from the template when
// missing) and the queue id.
func (s *sendService) checkSend(req *remoting.Request, h *sendHeader, set *settings) (protocol.TopicConfig, *failure) {
	c := set.Broker
	if c.BrokerPermission&protocol.PermWrite == 0 && s.isOrderTopic(h.topic) {
		return protocol.TopicConfig{}, &failure{remoting.NoPermission, "the broker[" + c.BrokerIP1 + "] sending message is forbidden"}
	}
	if f := validateTopic(h.topic); f != nil {
		return protocol.TopicConfig{}, f
	}
	if notAllowedSendTopics[h.topic] {
		return protocol.TopicConfig{}, &failure{remoting.NoPermission, "Sending message to topic[" + h.topic + "] is forbidden."}
	}
	tc, ok := s.topics.get(h.topic)
	if !ok {
		tc, ok = s.createTopicForSend(h)
	}
	if !ok {
		return tc, &failure{remoting.TopicNotExist, "topic[" + h.topic + "] not exist, apply first please!" + s.line.faq()}
	}
	if limit := max(tc.WriteQueueNums, tc.ReadQueueNums); h.queueID >= limit {
		return tc, &failure{remoting.SystemError, fmt.Sprintf("request queueId[%d] is illegal, %s Producer: %s",
			h.queueID, topicConfigString(tc), req.Ch.RemoteAddr())}
	}
	if tc.Perm&protocol.PermWrite == 0 {
		return tc, &failure{remoting.NoPermission, "the topic[" + h.topic + "] sending message is forbidden"}
	}
	return tc, nil
}

// createTopicForSend creates an unknown topic from the producer's template
// topic, or a retry topic (the topic table announces it to the name
// servers).
func (s *sendService) createTopicForSend(h *sendHeader) (protocol.TopicConfig, bool) {
	tc, _ := s.topics.createForSend(h.topic, h.defaultTopic, h.defaultTopicQueueNums, 0)
	if tc.TopicName == "" && isRetryTopic(h.topic) {
		tc, _ = s.topics.createForRetry(h.topic, 1, protocol.PermWrite|protocol.PermRead, 0)
	}
	return tc, tc.TopicName != ""
}

// topicConfigString is TopicConfig.toString (4.x's form).
func topicConfigString(tc protocol.TopicConfig) string {
	return tc.JavaString(protocol.Line4)
}

// putOne stores a single message for the send o, setting o.written to
// the topic it was written under (the half, schedule or timer topic when
// it was redirected).
func (s *sendService) putOne(cmd *remoting.Command, h *sendHeader, props *msgProps, tc protocol.TopicConfig, queueID int32, bornHost netip.AddrPort, set *settings, o *sendOutcome) (res store.PutResult, f *failure) {
	topic := h.topic
	if isRetryTopic(topic) {
		if topic, queueID, f = s.retryOrDLQ(h, queueID); f != nil {
			o.written = topic
			return store.PutResult{}, f
		}
	}
	props.set(propCluster, set.Broker.BrokerClusterName)
	sysFlag := h.sysFlag
	if tc.TopicFilterType == protocol.MultiTag {
		sysFlag |= store.SysFlagMultiTags
	}
	m := &store.Message{
		Topic: topic, QueueID: queueID, Flag: h.flag, SysFlag: sysFlag, Body: cmd.Body,
		Properties: props.encodeStored(s.line), BornTimestamp: h.bornTimestamp, BornHost: bornHost,
		StoreHost: s.id.storeHost(), ReconsumeTimes: h.reconsumeTimes,
	}
	if v, _ := props.get(propTransactionPrepared); v == "true" {
		return s.putHalf(m, props, set, o)
	}
	if f := s.redirects.toTimerTopic(m, props); f != nil {
		o.written = topic
		return store.PutResult{}, f
	}
	s.redirects.toScheduleTopic(m, props)
	return s.put(o, m.Topic, []store.Message{*m}), nil
}

// putResponse maps a store result onto the response, as
// handlePutMessageResult does; uniq is the message's (or batch's)
// UNIQ_KEY, "" when it has none.
func (s *sendService) putResponse(resp *remoting.Command, res store.PutResult, uniq string, queueID int32, set *settings) *remoting.Command {
	code, remark := putStatusResponse(res, set.Store.MaxMessageSize)
	resp.Code = int32(code)
	switch code {
	case remoting.Success, remoting.FlushDiskTimeout, remoting.FlushSlaveTimeout, remoting.SlaveNotAvailable:
		// stored: Java's sendOK, the ids go back with the code
	default:
		resp.SetRemark(remark)
		return resp
	}
	resp.SetExt("msgId", res.MsgID)
	resp.SetExt("queueId", itoa(queueID))
	resp.SetExt("queueOffset", itoa(res.QueueOffset))
	if s.line.answersTransactionID() && uniq != "" {
		// 5.x answers the message's (or the batch's) unique key as its
		// transactionId (MessageClientIDSetter.getUniqID).
		resp.SetExt("transactionId", uniq)
	}
	return resp
}

// putStatusResponse is handlePutMessageResult's switch.
func putStatusResponse(res store.PutResult, maxMessageSize int32) (remoting.ResponseCode, string) {
	switch res.Status {
	case store.PutOK:
		return remoting.Success, ""
	case store.PutFlushDiskTimeout:
		return remoting.FlushDiskTimeout, ""
	case store.PutFlushSlaveTimeout:
		return remoting.FlushSlaveTimeout, ""
	case store.PutSlaveNotAvailable:
		return remoting.SlaveNotAvailable, ""
	case store.PutCreateMappedFileFailed:
		return remoting.SystemError, "create mapped file failed, server is busy or broken."
	case store.PutMessageIllegal, store.PutPropertiesSizeExceeded:
		return remoting.MessageIllegal, fmt.Sprintf("the message is illegal, maybe msg body or properties length not matched. msg body length limit %dB, msg properties length limit 32KB.", maxMessageSize)
	case store.PutServiceNotAvailable:
		return remoting.ServiceNotAvailable, "service not available now. It may be caused by one of the following reasons: the broker's disk is full [" + res.Reason + "], messages are put to the slave, message store has been shut down, etc."
	case store.PutOSPageCacheBusy:
		return remoting.SystemError, "[PC_SYNCHRONIZED]broker busy, start flow control for a while"
	case store.PutInSyncReplicasNotEnough:
		return remoting.SystemError, "in-sync replicas not enough"
	}
	return remoting.SystemError, "UNKNOWN_ERROR"
}
