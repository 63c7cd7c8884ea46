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
// joined by commas), queueId, queueOffset, and the extra fields MSG_REGION
// and TRACE_ON; or TOPIC_NOT_EXIST, NO_PERMISSION, MESSAGE_ILLEGAL,
// SYSTEM_ERROR, SYSTEM_BUSY, FLUSH_DISK_TIMEOUT, SERVICE_NOT_AVAILABLE with
// Java's remarks.

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
func parseSendHeader(cmd *remoting.Command) (*sendHeader, error) {
	v2 := cmd.Code == int32(remoting.SendMessageV2) || cmd.Code == int32(remoting.SendBatchMessage) && hasExt(cmd, "b")
	name := func(i int) string {
		if v2 {
			return sendHeaderNames[i][1]
		}
		return sendHeaderNames[i][0]
	}
	h := &sendHeader{maxReconsumeTimes: -1}
	var err error
	for _, req := range []string{name(0), name(1), name(2)} {
		if _, ok := cmd.Ext(req); !ok {
			return nil, fmt.Errorf("%w: %s", remoting.ErrMissingField, sendHeaderNames[indexOfName(req, v2)][0])
		}
	}
	h.producerGroup, h.topic, h.defaultTopic = cmd.ExtString(name(0)), cmd.ExtString(name(1)), cmd.ExtString(name(2))
	if h.defaultTopicQueueNums, err = cmd.ExtInt32(name(3)); err != nil {
		return nil, err
	}
	if h.queueID, err = cmd.ExtInt32(name(4)); err != nil {
		return nil, err
	}
	if h.sysFlag, err = cmd.ExtInt32(name(5)); err != nil {
		return nil, err
	}
	if h.bornTimestamp, err = cmd.ExtInt64(name(6)); err != nil {
		return nil, err
	}
	if h.flag, err = cmd.ExtInt32(name(7)); err != nil {
		return nil, err
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

// sendHandlers are the send codes.
func (b *Broker) sendHandlers() map[remoting.RequestCode]remoting.Handler {
	return map[remoting.RequestCode]remoting.Handler{
		remoting.SendMessage:         b.sendMessage,
		remoting.SendMessageV2:       b.sendMessage,
		remoting.SendBatchMessage:    b.sendMessage,
		remoting.ConsumerSendMsgBack: b.consumerSendMsgBack,
	}
}

// response starts a response with the broker's version.
func (b *Broker) response(req *remoting.Command, code remoting.ResponseCode, remark string) *remoting.Command {
	r := remoting.NewResponse(req, code, remark)
	r.Version = b.version
	return r
}

// sendMessage serves the three send codes.
func (b *Broker) sendMessage(req *remoting.Request) *remoting.Command {
	h, err := parseSendHeader(req.Cmd)
	if err != nil {
		return b.response(req.Cmd, remoting.SystemError, err.Error())
	}
	if b.store.IsOSPageCacheBusy() {
		// BrokerFastFailure: the commitlog lock is held too long, shed load.
		return b.response(req.Cmd, remoting.SystemBusy, fmt.Sprintf(
			"[PCBUSY_CLEAN_QUEUE]broker busy, start flow control for a while, period in queue: %dms, size of queue: %d",
			time.Since(req.Arrived).Milliseconds(), 0))
	}
	resp := b.response(req.Cmd, remoting.Success, "")
	resp.SetExt(propMsgRegion, b.opts.Configs.Broker.RegionId)
	resp.SetExt(propTraceSwitch, strconv.FormatBool(b.opts.Configs.Broker.TraceOn))
	tc, fail := b.checkSend(req, h)
	if fail != nil {
		return b.fail(resp, fail)
	}
	queueID := h.queueID
	if queueID < 0 {
		queueID = rand.Int32N(99999999) % max(tc.WriteQueueNums, 1)
	}
	bornHost, _ := netip.ParseAddrPort(req.Ch.RemoteAddr())
	// The message's properties, or for a batch those every message gets.
	props := parseProps(h.properties, b.opts.Line)
	uniq, _ := props.get(propUniqKey)
	var res store.PutResult
	if req.Cmd.Code == int32(remoting.SendBatchMessage) {
		res, fail = b.putBatch(req.Cmd, h, props, queueID, bornHost)
	} else {
		res, fail = b.putOne(req.Cmd, h, props, tc, queueID, bornHost)
	}
	if fail != nil {
		return b.fail(resp, fail)
	}
	b.brokerStats.stored(h.topic, res)
	return b.putResponse(resp, res, uniq, queueID)
}

// sendFailure is a response code with its remark.
type sendFailure struct {
	code   remoting.ResponseCode
	remark string
}

func (b *Broker) fail(resp *remoting.Command, f *sendFailure) *remoting.Command {
	resp.Code = int32(f.code)
	resp.SetRemark(f.remark)
	return resp
}

// checkSend is AbstractSendMessageProcessor.msgCheck: broker and topic
// permissions, topic name rules, the topic (created from the template when
// missing) and the queue id.
func (b *Broker) checkSend(req *remoting.Request, h *sendHeader) (protocol.TopicConfig, *sendFailure) {
	c := b.opts.Configs.Broker
	if c.BrokerPermission&protocol.PermWrite == 0 && b.isOrderTopic(h.topic) {
		return protocol.TopicConfig{}, &sendFailure{remoting.NoPermission, "the broker[" + c.BrokerIP1 + "] sending message is forbidden"}
	}
	if f := validateTopic(h.topic); f != nil {
		return protocol.TopicConfig{}, f
	}
	if notAllowedSendTopics[h.topic] {
		return protocol.TopicConfig{}, &sendFailure{remoting.NoPermission, "Sending message to topic[" + h.topic + "] is forbidden."}
	}
	tc, ok := b.topics.get(h.topic)
	if !ok {
		tc, ok = b.createTopicForSend(h)
	}
	if !ok {
		return tc, &sendFailure{remoting.TopicNotExist, "topic[" + h.topic + "] not exist, apply first please!" + b.faq()}
	}
	if limit := max(tc.WriteQueueNums, tc.ReadQueueNums); h.queueID >= limit {
		return tc, &sendFailure{remoting.SystemError, fmt.Sprintf("request queueId[%d] is illegal, %s Producer: %s",
			h.queueID, topicConfigString(tc), req.Ch.RemoteAddr())}
	}
	if tc.Perm&protocol.PermWrite == 0 {
		return tc, &sendFailure{remoting.NoPermission, "the topic[" + h.topic + "] sending message is forbidden"}
	}
	return tc, nil
}

// faq is FAQUrl.suggestTodo of the broker's line: every URL there is
// the FAQ page, whose address 5.x changed.
func (b *Broker) faq() string {
	if b.opts.Line >= protocol.Line5 {
		return "\nSee https://rocketmq.apache.org/docs/bestPractice/06FAQ for further details."
	}
	return "\nSee http://rocketmq.apache.org/docs/faq/ for further details."
}

// createTopicForSend creates an unknown topic from the producer's template
// topic, or a retry topic, and registers the change with the name servers.
func (b *Broker) createTopicForSend(h *sendHeader) (protocol.TopicConfig, bool) {
	tc, created := b.topics.createForSend(h.topic, h.defaultTopic, h.defaultTopicQueueNums, 0)
	if tc.TopicName == "" && isRetryTopic(h.topic) {
		tc, created = b.topics.createForRetry(h.topic, 1, protocol.PermWrite|protocol.PermRead, 0)
	}
	if created {
		b.reg.topicChanged()
	}
	return tc, tc.TopicName != ""
}

// topicConfigString is TopicConfig.toString.
func topicConfigString(tc protocol.TopicConfig) string {
	return fmt.Sprintf("TopicConfig [topicName=%s, readQueueNums=%d, writeQueueNums=%d, perm=%s, topicFilterType=%s, topicSysFlag=%d, order=%t]",
		tc.TopicName, tc.ReadQueueNums, tc.WriteQueueNums, permString(tc.Perm), tc.TopicFilterType, tc.TopicSysFlag, tc.Order)
}

// permString is PermName.perm2String.
func permString(perm int32) string {
	s := []byte("---")
	if perm&protocol.PermRead != 0 {
		s[0] = 'R'
	}
	if perm&protocol.PermWrite != 0 {
		s[1] = 'W'
	}
	if perm&protocol.PermInherit != 0 {
		s[2] = 'X'
	}
	return string(s)
}

// putOne stores a single message.
func (b *Broker) putOne(cmd *remoting.Command, h *sendHeader, props *msgProps, tc protocol.TopicConfig, queueID int32, bornHost netip.AddrPort) (store.PutResult, *sendFailure) {
	b.stampRegionAndTrace(props)
	topic := h.topic
	if isRetryTopic(topic) {
		var f *sendFailure
		if topic, queueID, f = b.retryOrDLQ(h, props, queueID); f != nil {
			return store.PutResult{}, f
		}
	}
	props.set(propCluster, b.opts.Configs.Broker.BrokerClusterName)
	sysFlag := h.sysFlag
	if tc.TopicFilterType == protocol.MultiTag {
		sysFlag |= store.SysFlagMultiTags
	}
	m := &store.Message{
		Topic: topic, QueueID: queueID, Flag: h.flag, SysFlag: sysFlag, Body: cmd.Body,
		Properties: props.encodeStored(b.opts.Line), BornTimestamp: h.bornTimestamp, BornHost: bornHost,
		StoreHost: b.storeHost, ReconsumeTimes: h.reconsumeTimes,
	}
	if v, _ := props.get(propTransactionPrepared); v == "true" {
		return b.putHalf(m, props)
	}
	if f := b.toTimerTopic(m, props); f != nil {
		return store.PutResult{}, f
	}
	b.toScheduleTopic(m, props)
	return b.store.PutMessage(m), nil
}

// putResponse maps a store result onto the response, as
// handlePutMessageResult does; uniq is the message's (or batch's)
// UNIQ_KEY, "" when it has none.
func (b *Broker) putResponse(resp *remoting.Command, res store.PutResult, uniq string, queueID int32) *remoting.Command {
	code, remark := putStatusResponse(res, b.opts.Configs.Store.MaxMessageSize)
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
	if b.opts.Line >= protocol.Line5 && uniq != "" {
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
	}
	return remoting.SystemError, "UNKNOWN_ERROR"
}
