package proxy

// SendMessage (SendMessageActivity, ProducerProcessor): each gRPC message
// becomes a broker message (system properties into MessageConst
// properties, the topic as its producer group), the batch goes to one
// writable queue (by its message group's hash for FIFO, else in turn) as
// SEND_MESSAGE, or SEND_MESSAGE with batch=true and MessageBatch's body
// for several; each entry is answered with the queue offset, the
// client's message id, and for a DELAY message the broker's recall handle
// (recall.go).
//
// Difference from Java: Java answers a batch of several messages with one
// entry (a new id made for the batch, the broker's first offset); this
// proxy answers one entry per message, each with its own id.

import (
	"context"
	"encoding/binary"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/proxy/apiv2"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// Message properties (MessageConst) and flags the proxy sets.
const (
	propTags           = "TAGS"
	propKeys           = "KEYS"
	propUniqKey        = "UNIQ_KEY"
	propTranPrepared   = "TRAN_MSG"
	propCheckImmunity  = "CHECK_IMMUNITY_TIME_IN_SECONDS"
	propTimerDeliverMs = "TIMER_DELIVER_MS"
	propTimerDelaySec  = "TIMER_DELAY_SEC"
	propDelayLevel     = "DELAY"
	propReconsumeTime  = "RECONSUME_TIME"
	propProducerGroup  = "PGROUP"
	propShardingKey    = "__SHARDINGKEY"
	propTraceContext   = "TRACE_CONTEXT"
	propBornHost       = "__BORNHOST"
	propBornTimestamp  = "BORN_TIMESTAMP"
	propPopCK          = "POP_CK"
	propDLQOriginTopic = "DLQ_ORIGIN_TOPIC"
	propDLQOriginMsgID = "DLQ_ORIGIN_MESSAGE_ID"
	sysFlagCompressed  = 0x1
	sysFlagTxPrepared  = 0x4
	defaultTopicQueues = "4"
	autoCreateTopic    = "TBW102"
	keySeparator       = " "
	nameValueSeparator = '\x01'
	propertySeparator  = '\x02'
)

// SendMessage sends the request's messages, which share a topic.
func (m *messaging) SendMessage(ctx context.Context, req *apiv2.SendMessageRequest) (*apiv2.SendMessageResponse, error) {
	resp, err := m.send(ctx, req)
	if err != nil {
		st := statusOf(err)
		return &apiv2.SendMessageResponse{Status: st, Entries: []*apiv2.SendResultEntry{{Status: st}}}, nil
	}
	return resp, nil
}

func (m *messaging) send(ctx context.Context, req *apiv2.SendMessageRequest) (*apiv2.SendMessageResponse, error) {
	msgs := req.GetMessages()
	if len(msgs) == 0 {
		return nil, refuse(apiv2.Code_MESSAGE_CORRUPTED, "no message to send")
	}
	topic := msgs[0].GetTopic()
	if err := validateTopic(topic); err != nil {
		return nil, err
	}
	c := clientOf(ctx)
	built := make([]builtMessage, len(msgs))
	for i, pm := range msgs {
		if pm.GetTopic().GetName() != topic.GetName() {
			return nil, refuse(apiv2.Code_MESSAGE_CORRUPTED, "topic in message is not same")
		}
		var err error
		if built[i], err = m.buildMessage(pm, topic.GetName(), c); err != nil {
			return nil, err
		}
	}
	if err := m.checkMessageType(topic.GetName(), msgs[0]); err != nil {
		return nil, err
	}
	q, addr, err := m.writableQueue(topic.GetName(), msgs[0].GetSystemProperties().GetMessageGroup())
	if err != nil {
		return nil, err
	}
	flag := sysFlagOf(msgs[0])
	brokerResp, err := m.brokers.call(addr, sendRequest(topic.GetName(), q, flag, built), 0)
	if err != nil {
		return nil, err
	}
	if flag&sysFlagTxPrepared != 0 && brokerResp.Code == int32(remoting.Success) {
		m.keepHalf(topic.GetName(), q.BrokerName, brokerResp)
	}
	return m.sendResponse(brokerResp, built), nil
}

// builtMessage is a gRPC message as the broker takes it.
type builtMessage struct {
	body  []byte
	props []prop
	id    string // UNIQ_KEY
}

// prop is one message property, in the order the proxy adds them.
type prop struct{ k, v string }

// buildMessage is buildMessage / buildMessageProperty: checks and the
// properties of one message.
func (m *messaging) buildMessage(pm *apiv2.Message, producerGroup string, c clientInfo) (builtMessage, error) {
	sp := pm.GetSystemProperties()
	if err := m.validateBody(pm.GetBody()); err != nil {
		return builtMessage{}, err
	}
	props, err := m.userProperties(pm)
	if err != nil {
		return builtMessage{}, err
	}
	if err := validateTag(sp.GetTag()); err != nil {
		return builtMessage{}, err
	}
	if sp.GetTag() != "" {
		props = append(props, prop{propTags, sp.GetTag()})
	}
	if len(sp.GetKeys()) > 0 {
		props = append(props, prop{propKeys, strings.Join(sp.GetKeys(), keySeparator)})
	}
	if strings.TrimSpace(sp.GetMessageId()) == "" {
		return builtMessage{}, refuse(apiv2.Code_ILLEGAL_MESSAGE_ID, "message id cannot be empty")
	}
	props = append(props, prop{propUniqKey, sp.GetMessageId()})
	if sp.GetMessageType() == apiv2.MessageType_TRANSACTION {
		props = append(props, prop{propTranPrepared, "true"})
		if d := sp.GetOrphanedTransactionRecoveryDuration(); d != nil {
			props = append(props, prop{propCheckImmunity, strconv.FormatInt(int64(d.AsDuration()/time.Second), 10)})
		}
	}
	if ts := sp.GetDeliveryTimestamp(); ts != nil {
		at := ts.AsTime().UnixMilli()
		if max := m.cfg.MaxDelayTimeMills; max > 0 && at-time.Now().UnixMilli() > max {
			return builtMessage{}, refuse(apiv2.Code_ILLEGAL_DELIVERY_TIME, "the max delay time of message is too large, max is "+strconv.FormatInt(max, 10))
		}
		props = append(props, prop{propTimerDeliverMs, strconv.FormatInt(at, 10)})
	}
	props = append(props, prop{propReconsumeTime, strconv.Itoa(int(sp.GetDeliveryAttempt()))}, prop{propProducerGroup, producerGroup})
	if g := sp.GetMessageGroup(); g != "" {
		if err := m.validateMessageGroup(g); err != nil {
			return builtMessage{}, err
		}
		props = append(props, prop{propShardingKey, g})
	}
	if t := sp.GetTraceContext(); t != "" {
		props = append(props, prop{propTraceContext, t})
	}
	bornHost := sp.GetBornHost()
	if strings.TrimSpace(bornHost) == "" {
		bornHost = c.remote
	}
	if bornHost != "" {
		props = append(props, prop{propBornHost, bornHost})
	}
	if ts := sp.GetBornTimestamp(); ts != nil && ts.IsValid() {
		props = append(props, prop{propBornTimestamp, strconv.FormatInt(ts.AsTime().UnixMilli(), 10)})
	}
	return builtMessage{body: pm.GetBody(), props: props, id: sp.GetMessageId()}, nil
}

// validateBody is validateMessageBodySize.
func (m *messaging) validateBody(body []byte) error {
	if m.cfg.EnableMessageBodyEmptyCheck && len(body) == 0 {
		return refuse(apiv2.Code_MESSAGE_BODY_EMPTY, "message body cannot be empty")
	}
	if max := m.cfg.MaxMessageSize; max > 0 && len(body) > max {
		return refuse(apiv2.Code_MESSAGE_BODY_TOO_LARGE, "message body cannot exceed the max "+strconv.Itoa(max))
	}
	return nil
}

// userProperties checks and copies the user's properties.
func (m *messaging) userProperties(pm *apiv2.Message) ([]prop, error) {
	user := pm.GetUserProperties()
	if len(user) > m.cfg.UserPropertyMaxNum {
		return nil, refuse(apiv2.Code_MESSAGE_PROPERTIES_TOO_LARGE, "too many user properties, max is "+strconv.Itoa(m.cfg.UserPropertyMaxNum))
	}
	size := len(pm.GetSystemProperties().GetTag())
	for _, k := range pm.GetSystemProperties().GetKeys() {
		if strings.TrimSpace(k) == "" && k != "" {
			return nil, refuse(apiv2.Code_ILLEGAL_MESSAGE_KEY, "key cannot be the char sequence of whitespace")
		}
		if hasControl(k) {
			return nil, refuse(apiv2.Code_ILLEGAL_MESSAGE_KEY, "key cannot contain control character")
		}
		size += len(k)
	}
	props := make([]prop, 0, len(user)+12)
	for k, v := range user {
		switch {
		case systemProperty[k]:
			return nil, refuse(apiv2.Code_ILLEGAL_MESSAGE_PROPERTY_KEY, "property is used by system: "+k)
		case hasControl(k):
			return nil, refuse(apiv2.Code_ILLEGAL_MESSAGE_PROPERTY_KEY, "the key of property cannot contain control character")
		case hasControl(v):
			return nil, refuse(apiv2.Code_ILLEGAL_MESSAGE_PROPERTY_KEY, "the value of property cannot contain control character")
		}
		size += len(k) + len(v)
		props = append(props, prop{k, v})
	}
	if size > m.cfg.MaxUserPropertySize {
		return nil, refuse(apiv2.Code_MESSAGE_PROPERTIES_TOO_LARGE, "the total size of user property is too large, max is "+strconv.Itoa(m.cfg.MaxUserPropertySize))
	}
	return props, nil
}

// validateMessageGroup checks a FIFO message's group.
func (m *messaging) validateMessageGroup(g string) error {
	switch {
	case strings.TrimSpace(g) == "":
		return refuse(apiv2.Code_ILLEGAL_MESSAGE_GROUP, "message group cannot be the char sequence of whitespace")
	case m.cfg.MaxMessageGroupSize > 0 && len(g) >= m.cfg.MaxMessageGroupSize:
		return refuse(apiv2.Code_ILLEGAL_MESSAGE_GROUP, "message group exceed the max size "+strconv.Itoa(m.cfg.MaxMessageGroupSize))
	case hasControl(g):
		return refuse(apiv2.Code_ILLEGAL_MESSAGE_GROUP, "message group cannot contain control character")
	}
	return nil
}

// checkMessageType is DefaultTopicMessageTypeValidator: a typed topic
// takes its type only (MIXED and untyped topics take any).
func (m *messaging) checkMessageType(topic string, pm *apiv2.Message) error {
	if !m.cfg.EnableTopicMessageTypeCheck || protocol.IsRetryOrDLQTopic(topic) {
		return nil
	}
	tt := m.topicMessageType(topic)
	if tt == typeUnspecified || tt == typeMixed {
		return nil
	}
	mt := messageTypeOf(pm)
	if mt != tt {
		return refuse(apiv2.Code_MESSAGE_PROPERTY_CONFLICT_WITH_TYPE,
			"current message type not match with topic accept message types, topic: "+topic+", topic message type: "+tt+", message type: "+mt)
	}
	return nil
}

// messageTypeOf is TopicMessageType.parseFromMessageProperty.
func messageTypeOf(pm *apiv2.Message) string {
	sp := pm.GetSystemProperties()
	switch {
	case sp.GetMessageType() == apiv2.MessageType_TRANSACTION:
		return typeTransaction
	case sp.GetDeliveryTimestamp() != nil:
		return typeDelay
	case sp.GetMessageGroup() != "":
		return typeFIFO
	}
	return typeNormal
}

// sysFlagOf is buildSysFlag: compression and the transaction bit.
func sysFlagOf(pm *apiv2.Message) int32 {
	var f int32
	if pm.GetSystemProperties().GetBodyEncoding() == apiv2.Encoding_GZIP {
		f |= sysFlagCompressed
	}
	if pm.GetSystemProperties().GetMessageType() == apiv2.MessageType_TRANSACTION {
		f |= sysFlagTxPrepared
	}
	return f
}

// writableQueue picks the queue (SendMessageQueueSelector): by the
// message group's hash for FIFO, else in turn; with its broker's address.
func (m *messaging) writableQueue(topic, group string) (protocol.MessageQueue, string, error) {
	route, err := m.brokers.route(topic)
	if err != nil {
		return protocol.MessageQueue{}, "", err
	}
	queues := writeQueues(topic, route)
	if len(queues) == 0 {
		return protocol.MessageQueue{}, "", refuse(apiv2.Code_FORBIDDEN, "org.apache.rocketmq.proxy.common.ProxyException: no writable queue")
	}
	var i int
	if group != "" {
		i = consistentHash(int64(store.JavaStringHash(group)), len(queues))
	} else {
		i = m.rr.next("send:"+topic, len(queues))
	}
	q := queues[i]
	addr, err := m.brokers.masterOf(topic, q.BrokerName)
	return q, addr, err
}

// writeQueues are a route's write queues, of writable brokers with a
// master, sorted by broker name and queue id.
func writeQueues(topic string, route *protocol.TopicRouteData) []protocol.MessageQueue {
	var queues []protocol.MessageQueue
	for _, qd := range route.QueueDatas {
		if qd.Perm&protocol.PermWrite == 0 || !hasMaster(route, qd.BrokerName) {
			continue
		}
		for i := range qd.WriteQueueNums {
			queues = append(queues, protocol.MessageQueue{Topic: topic, BrokerName: qd.BrokerName, QueueID: i})
		}
	}
	slices.SortFunc(queues, func(a, b protocol.MessageQueue) int {
		if c := strings.Compare(a.BrokerName, b.BrokerName); c != 0 {
			return c
		}
		return int(a.QueueID - b.QueueID)
	})
	return queues
}

func hasMaster(route *protocol.TopicRouteData, brokerName string) bool {
	for _, bd := range route.BrokerDatas {
		if bd.BrokerName == brokerName {
			_, ok := bd.BrokerAddrs.Get(protocol.MasterID)
			return ok
		}
	}
	return false
}

// consistentHash is Guava's Hashing.consistentHash, which picks a FIFO
// message group's queue: the same group lands on the same queue through
// a Java proxy and this one.
func consistentHash(input int64, buckets int) int {
	state := uint64(input)
	candidate := 0
	for {
		state = 2862933555777941757*state + 1
		next := int(float64(candidate+1) / (float64(int32(state>>33)+1) / (1 << 31)))
		if next < 0 || next >= buckets {
			return candidate
		}
		candidate = next
	}
}

// sendRequest is SEND_MESSAGE for one message or a batch: its fields
// set in the order the encoder writes them (sorted by key), without a
// map to sort.
func sendRequest(topic string, q protocol.MessageQueue, sysFlag int32, msgs []builtMessage) *remoting.Command {
	batch, props, body := "false", "", []byte(nil)
	if len(msgs) == 1 {
		props, body = encodeProps(msgs[0].props), msgs[0].body
	} else {
		batch, props, body = "true", encodeProps([]prop{{propUniqKey, msgs[0].id}}), encodeBatch(msgs)
	}
	req := remoting.NewRequest(remoting.SendMessage, nil)
	req.ExtFields = remoting.ExtFields{{Key: "batch", Value: batch}, {Key: "bname", Value: q.BrokerName},
		{Key: "bornTimestamp", Value: strconv.FormatInt(time.Now().UnixMilli(), 10)},
		{Key: "defaultTopic", Value: autoCreateTopic}, {Key: "defaultTopicQueueNums", Value: defaultTopicQueues},
		{Key: "flag", Value: "0"}, {Key: "producerGroup", Value: topic}, {Key: "properties", Value: props},
		{Key: "queueId", Value: strconv.Itoa(int(q.QueueID))}, {Key: "reconsumeTimes", Value: "0"},
		{Key: "sysFlag", Value: strconv.Itoa(int(sysFlag))}, {Key: "topic", Value: topic}, {Key: "unitMode", Value: "false"}}
	req.Body = body
	return req
}

// encodeProps is messageProperties2String.
func encodeProps(props []prop) string {
	var b strings.Builder
	for _, p := range props {
		b.WriteString(p.k)
		b.WriteByte(nameValueSeparator)
		b.WriteString(p.v)
		b.WriteByte(propertySeparator)
	}
	return b.String()
}

// encodeBatch is MessageBatch.encode: each message as totalSize,
// magic 0, bodyCRC 0, flag, body length, body, properties length,
// properties.
func encodeBatch(msgs []builtMessage) []byte {
	var out []byte
	for _, msg := range msgs {
		props := encodeProps(msg.props)
		size := 4 + 4 + 4 + 4 + 4 + len(msg.body) + 2 + len(props)
		out = binary.BigEndian.AppendUint32(out, uint32(size))
		out = binary.BigEndian.AppendUint32(out, 0)
		out = binary.BigEndian.AppendUint32(out, 0)
		out = binary.BigEndian.AppendUint32(out, 0)
		out = binary.BigEndian.AppendUint32(out, uint32(len(msg.body)))
		out = append(out, msg.body...)
		out = binary.BigEndian.AppendUint16(out, uint16(len(props)))
		out = append(out, props...)
	}
	return out
}

// sendResponse is convertToSendMessageResponse: one entry per message.
func (m *messaging) sendResponse(r *remoting.Command, msgs []builtMessage) *apiv2.SendMessageResponse {
	var st *apiv2.Status
	switch remoting.ResponseCode(r.Code) {
	case remoting.Success:
		st = statusOK()
	case remoting.FlushDiskTimeout:
		st = status(apiv2.Code_MASTER_PERSISTENCE_TIMEOUT, "send message failed, sendStatus=FLUSH_DISK_TIMEOUT")
	case remoting.FlushSlaveTimeout:
		st = status(apiv2.Code_SLAVE_PERSISTENCE_TIMEOUT, "send message failed, sendStatus=FLUSH_SLAVE_TIMEOUT")
	case remoting.SlaveNotAvailable:
		st = status(apiv2.Code_HA_NOT_AVAILABLE, "send message failed, sendStatus=SLAVE_NOT_AVAILABLE")
	default:
		st = statusOf(m.brokerError(r))
		return &apiv2.SendMessageResponse{Status: st, Entries: []*apiv2.SendResultEntry{{Status: st}}}
	}
	offset, _ := strconv.ParseInt(r.ExtString("queueOffset"), 10, 64)
	resp := &apiv2.SendMessageResponse{Status: st}
	for i, msg := range msgs {
		e := &apiv2.SendResultEntry{Status: st}
		if st.Code == apiv2.Code_OK {
			e.Offset, e.MessageId, e.TransactionId = offset+int64(i), msg.id, r.ExtString("transactionId")
			e.RecallHandle = r.ExtString("recallHandle") // a timer message's (broker/recall.go), else ""
		}
		resp.Entries = append(resp.Entries, e)
	}
	return resp
}

// systemProperty is MessageConst.STRING_HASH_SET: names a user may not
// set, and that a received message does not show as user properties
// (__SHARDINGKEY and TRACE_CONTEXT are not among them: Java shows them).
var systemProperty = map[string]bool{}

func init() {
	for _, k := range []string{"TRACE_ON", "MSG_REGION", "KEYS", "TAGS", "WAIT", "DELAY", "RETRY_TOPIC", "REAL_TOPIC", "REAL_QID",
		"TRAN_MSG", "PGROUP", "MIN_OFFSET", "MAX_OFFSET", "BUYER_ID", "ORIGIN_MESSAGE_ID", "TRANSFER_FLAG", "CORRECTION_FLAG",
		"MQ2_FLAG", "RECONSUME_TIME", "UNIQ_KEY", "MAX_RECONSUME_TIMES", "CONSUME_START_TIME", "POP_CK", "POP_CK_OFFSET",
		"1ST_POP_TIME", "TRAN_PREPARED_QUEUE_OFFSET", "DUP_INFO", "EXTEND_UNIQ_INFO", "INSTANCE_ID", "CORRELATION_ID",
		"REPLY_TO_CLIENT", "TTL", "ARRIVE_TIME", "PUSH_REPLY_TIME", "CLUSTER", "MSG_TYPE", "INNER_MULTI_QUEUE_OFFSET",
		"TIMER_DELAY_MS", "TIMER_DELAY_SEC", "TIMER_DELIVER_MS", "TIMER_ENQUEUE_MS", "TIMER_DEQUEUE_MS", "TIMER_ROLL_TIMES",
		"TIMER_OUT_MS", "TIMER_DEL_UNIQKEY", "TIMER_DELAY_LEVEL", "__BORNHOST", "BORN_TIMESTAMP", "DLQ_ORIGIN_TOPIC",
		"DLQ_ORIGIN_MESSAGE_ID", "__CRC32#"} {
		systemProperty[k] = true
	}
}
