package protocol

import (
	"encoding/base64"
	"errors"
	"strconv"
	"strings"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// POP's formats (5.x; docs/reference/pop.md §3, §4): the names of the
// revive topic and of the POP retry topics, the handle a popped message
// carries (its POP_CK property, the extraInfo of ACK_MESSAGE and
// CHANGE_MESSAGE_INVISIBLETIME), the offset strings of POP_MESSAGE's
// response, and the three records of the revive topic as fastjson writes
// them (wire and store format: do not change).
//
// The handle, eight fields separated by one space (ExtraInfoUtil):
//
//	<ckQueueOffset> <popTime> <invisibleTime> <reviveQid> <retryFlag> <brokerName> <queueId> <queueOffset>
//	100 1700000000000 60000 3 1 broker-a 0 105
//
// (the proxy's receipt handle adds a ninth, the commit log offset).
// retryFlag: 0 normal topic, 1 %RETRY%<group>_<topic> (or any %RETRY%
// topic), 2 %RETRY%<group>+<topic>. reviveQid 999: an orderly pop.
//
// The offset strings, entries joined by ';', fields by ' ':
//
//	startOffsetInfo  <flag> <queueId> <startOffset>           0 0 100;1 0 7
//	msgOffsetInfo    <flag> <queueId> <off1>,<off2>,...       0 0 100,101,105;1 0 7
//	orderCountInfo   <flag> qo<queueId>%<queueOffset> <count>, then <flag> <queueId> <minCount>
//
// The revive topic's records (property TAGS ck, ack or bAck), keys in
// fastjson's alphabetical order, nulls left out; reviveTime is a getter
// fastjson writes (pt + it) and no reader takes:
//
//	ck    {"bm":0,"bn":"broker-a","c":"GID_x","d":[0,1,5],"it":60000,"n":3,"pt":1700000000000,"q":2,"reviveTime":1700000060000,"ro":0,"so":100,"t":"TopicA"}
//	ack   {"ao":105,"bn":"broker-a","c":"GID_x","pt":1700000000000,"q":2,"so":100,"t":"TopicA"}
//	bAck  {"ao":-1,"aol":[100,105],"bn":"broker-a","c":"GID_x","pt":1700000000000,"q":2,"so":100,"t":"TopicA"}
//
// Their UNIQ_KEY properties, '@' separated:
//
//	ck    <t>@<q>@<so>@<c>@<pt>@<bn>@ck      (bn "null" when absent)
//	ack   <t>@<q>@<ao>@<c>@<pt>@<bn>@ack     (a BATCH_ACK_MESSAGE's bAck too, with ao -1)
//	bAck  <t>@<q>@[<o1>, <o2>]@<c>@<pt>@bAck (the POP buffer's batch)

// The revive topic, its group, and the constants of the records.
const (
	// RetryGroupTopicPrefix starts every retry topic (MixAll.RETRY_GROUP_TOPIC_PREFIX).
	RetryGroupTopicPrefix = "%RETRY%"

	ReviveTopicPrefix = "rmq_sys_REVIVE_LOG_"
	ReviveGroup       = "CID_RMQ_SYS_REVIVE_GROUP"
	// OrderReviveQueue is the reviveQid of an orderly pop's handle: no
	// checkpoint is written for it.
	OrderReviveQueue = 999
	// AckTimeInterval is how much earlier than its acks a checkpoint is
	// due, so that the revive service reads it first.
	AckTimeInterval = 1000
	// The TAGS of the revive topic's records.
	CheckPointTag = "ck"
	AckTag        = "ack"
	BatchAckTag   = "bAck"
)

// ReviveTopic is the revive topic of a cluster.
func ReviveTopic(cluster string) string { return ReviveTopicPrefix + cluster }

// PopRetryTopicV1 and PopRetryTopicV2 are the retry topics of a group's
// POP consumption of a topic (V2 with enableRetryTopicV2).
func PopRetryTopicV1(group, topic string) string { return RetryGroupTopicPrefix + group + "_" + topic }
func PopRetryTopicV2(group, topic string) string { return RetryGroupTopicPrefix + group + "+" + topic }

// RetryFlag is the handle's flag of the topic a message was read from.
func RetryFlag(topic string) byte {
	switch {
	case !strings.HasPrefix(topic, RetryGroupTopicPrefix):
		return '0'
	case strings.Contains(topic, "+"):
		return '2'
	default:
		return '1'
	}
}

// TopicOfFlag is the topic a message with this flag was read from, given
// the normal topic and the group.
func TopicOfFlag(flag byte, group, topic string) (string, error) {
	switch flag {
	case '0':
		return topic, nil
	case '1':
		return PopRetryTopicV1(group, topic), nil
	case '2':
		return PopRetryTopicV2(group, topic), nil
	}
	return "", errors.New("unknown retry flag " + strconv.Quote(string(flag)))
}

// PopHandle is a popped message's handle (ExtraInfoUtil).
type PopHandle struct {
	CkQueueOffset int64 // the start offset of the checkpoint covering the message
	PopTime       int64
	InvisibleTime int64
	ReviveQueueID int32
	RetryFlag     byte // '0', '1' or '2'
	BrokerName    string
	QueueID       int32
	QueueOffset   int64 // the message's own queue offset
	// CommitLogOffset is the proxy receipt handle's ninth field, -1 when
	// the handle has eight.
	CommitLogOffset int64
}

// String writes the handle's eight fields (the ninth only when set).
func (h PopHandle) String() string {
	b := make([]byte, 0, 64)
	b = strconv.AppendInt(b, h.CkQueueOffset, 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, h.PopTime, 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, h.InvisibleTime, 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(h.ReviveQueueID), 10)
	b = append(b, ' ', h.RetryFlag, ' ')
	b = append(b, h.BrokerName...)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(h.QueueID), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, h.QueueOffset, 10)
	if h.CommitLogOffset >= 0 {
		b = append(b, ' ')
		b = strconv.AppendInt(b, h.CommitLogOffset, 10)
	}
	return string(b)
}

// ErrPopHandle is the error of a handle that is not one.
var ErrPopHandle = errors.New("illegal pop handle")

// ParsePopHandle reads a handle of eight fields, or nine (the proxy's).
// Java reads each field where a handler asks for it and fails there; a
// handle this cannot read, no handler of Java's could use whole.
func ParsePopHandle(s string) (PopHandle, error) {
	f := strings.Split(s, " ")
	if len(f) < 8 || len(f[4]) != 1 {
		return PopHandle{}, ErrPopHandle
	}
	h := PopHandle{RetryFlag: f[4][0], BrokerName: f[5], CommitLogOffset: -1}
	var err error
	long := func(i int) int64 {
		v, e := strconv.ParseInt(f[i], 10, 64)
		if e != nil {
			err = ErrPopHandle
		}
		return v
	}
	h.CkQueueOffset, h.PopTime, h.InvisibleTime = long(0), long(1), long(2)
	h.ReviveQueueID, h.QueueID = int32(long(3)), int32(long(6))
	h.QueueOffset = long(7)
	if len(f) > 8 {
		h.CommitLogOffset = long(8)
	}
	return h, err
}

// PopInfo builds one of POP_MESSAGE's offset strings (startOffsetInfo,
// msgOffsetInfo, orderCountInfo): entries appended in the order the
// queues were read.
type PopInfo struct{ b []byte }

// Add appends the entry <flag> <key> <value>.
func (p *PopInfo) Add(flag byte, key, value string) {
	if len(p.b) > 0 {
		p.b = append(p.b, ';')
	}
	p.b = append(p.b, flag, ' ')
	p.b = append(p.b, key...)
	p.b = append(p.b, ' ')
	p.b = append(p.b, value...)
}

// String is the string; "" when no entry was added.
func (p *PopInfo) String() string { return string(p.b) }

// OrderCountKey is orderCountInfo's key of a message: qo<queueId>%<offset>.
func OrderCountKey(queueID int32, queueOffset int64) string {
	return "qo" + strconv.Itoa(int(queueID)) + "%" + strconv.FormatInt(queueOffset, 10)
}

// ParsePopInfo reads an offset string into entries keyed <flag>@<key>, as
// the client reads them; an entry without exactly three fields, or a key
// given twice, is an error.
func ParsePopInfo(s string) (map[string]string, error) {
	m := map[string]string{}
	if s == "" {
		return m, nil
	}
	for _, e := range strings.Split(s, ";") {
		f := strings.Split(e, " ")
		if len(f) != 3 {
			return nil, errors.New("pop info entry " + strconv.Quote(e) + " has not 3 fields")
		}
		k := f[0] + "@" + f[1]
		if _, dup := m[k]; dup {
			return nil, errors.New("pop info key " + strconv.Quote(k) + " given twice")
		}
		m[k] = f[2]
	}
	return m, nil
}

// PopCheckPoint is a checkpoint (ck) of the revive topic: the messages
// one pop took from one queue, due for revival at PopTime+InvisibleTime
// unless acked.
type PopCheckPoint struct {
	StartOffset   int64   // so: the offset the pop started reading at
	PopTime       int64   // pt
	InvisibleTime int64   // it
	BitMap        int32   // bm: bit i set = message i acked (the revive service's, in memory)
	Num           int32   // n: how many messages (a Java byte, at most 32)
	QueueID       int32   // q
	Topic         string  // t: the topic read (normal or POP retry); "" = null
	CID           string  // c: the group; "" = null
	ReviveOffset  int64   // ro: this ck's offset in its revive queue (in memory)
	QueueOffsets  []int32 // d: each message's queue offset - so; nil = null (so..so+n-1)
	BrokerName    string  // bn; "" = null
	RePutTimes    string  // rp: times the revive service wrote it again; "" = null
}

// ReviveTime is when the checkpoint's unacked messages are revived.
func (c *PopCheckPoint) ReviveTime() int64 { return c.PopTime + c.InvisibleTime }

// QueueOffset is the queue offset of message i.
func (c *PopCheckPoint) QueueOffset(i int) int64 {
	if len(c.QueueOffsets) == 0 {
		return c.StartOffset + int64(i)
	}
	return c.StartOffset + int64(c.QueueOffsets[i])
}

// IndexOfAck is the index of the message at ackOffset, -1 if the
// checkpoint does not cover it.
func (c *PopCheckPoint) IndexOfAck(ackOffset int64) int {
	if ackOffset < c.StartOffset {
		return -1
	}
	diff := ackOffset - c.StartOffset
	if len(c.QueueOffsets) == 0 {
		if diff < int64(c.Num) {
			return int(diff)
		}
		return -1
	}
	for i, d := range c.QueueOffsets {
		if int64(d) == diff {
			return i
		}
	}
	return -1
}

// RePutCount is rp as a number: 0 when absent, 127 when not a number
// (Java's Byte.MAX_VALUE).
func (c *PopCheckPoint) RePutCount() int {
	if c.RePutTimes == "" {
		return 0
	}
	n, err := strconv.Atoi(c.RePutTimes)
	if err != nil {
		return 127
	}
	return n
}

// UniqKey is the ck record's UNIQ_KEY.
func (c *PopCheckPoint) UniqKey() string {
	return popKey(c.Topic, c.QueueID, strconv.FormatInt(c.StartOffset, 10), c.CID, c.PopTime, orNull(c.BrokerName), CheckPointTag)
}

// AppendJSON writes the record as fastjson does.
func (c *PopCheckPoint) AppendJSON(dst []byte) []byte {
	st := fastjson.Fastjson
	dst = append(dst, '{')
	dst = fastjson.AppendIntField(dst, "bm", int64(c.BitMap), st)
	dst = fastjson.AppendOptionalStringField(dst, "bn", c.BrokerName, st)
	dst = fastjson.AppendOptionalStringField(dst, "c", c.CID, st)
	if c.QueueOffsets != nil {
		dst = fastjson.AppendField(dst, "d")
		dst = append(dst, '[')
		for i, d := range c.QueueOffsets {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = strconv.AppendInt(dst, int64(d), 10)
		}
		dst = append(dst, ']')
	}
	dst = fastjson.AppendIntField(dst, "it", c.InvisibleTime, st)
	dst = fastjson.AppendIntField(dst, "n", int64(c.Num), st)
	dst = fastjson.AppendIntField(dst, "pt", c.PopTime, st)
	dst = fastjson.AppendIntField(dst, "q", int64(c.QueueID), st)
	dst = fastjson.AppendIntField(dst, "reviveTime", c.ReviveTime(), st)
	dst = fastjson.AppendIntField(dst, "ro", c.ReviveOffset, st)
	dst = fastjson.AppendOptionalStringField(dst, "rp", c.RePutTimes, st)
	dst = fastjson.AppendIntField(dst, "so", c.StartOffset, st)
	dst = fastjson.AppendOptionalStringField(dst, "t", c.Topic, st)
	return append(dst, '}')
}

// DecodePopCheckPoint reads a ck record's body as fastjson reads it into
// PopCheckPoint (its short names only; reviveTime and unknown keys are
// skipped).
func DecodePopCheckPoint(data []byte) (*PopCheckPoint, error) {
	c := &PopCheckPoint{}
	err := decodeBean(data, func(r *fastjson.Reader, prop string) (err error) {
		switch prop {
		case "so":
			c.StartOffset, err = r.Long()
		case "pt":
			c.PopTime, err = r.Long()
		case "it":
			c.InvisibleTime, err = r.Long()
		case "bm":
			c.BitMap, err = r.Int()
		case "n":
			c.Num, err = r.Int()
		case "q":
			c.QueueID, err = r.Int()
		case "t":
			c.Topic, err = r.Str()
		case "c":
			c.CID, err = r.Str()
		case "ro":
			c.ReviveOffset, err = r.Long()
		case "d":
			c.QueueOffsets, err = r.IntList()
		case "bn":
			c.BrokerName, err = r.Str()
		case "rp":
			c.RePutTimes, err = r.Str()
		default:
			err = r.Skip()
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// AckMsg is an ack record of the revive topic: one message of a
// checkpoint acked.
type AckMsg struct {
	AckOffset     int64  // ao
	StartOffset   int64  // so: the start offset of the checkpoint
	ConsumerGroup string // c; "" = null
	Topic         string // t: the real topic; "" = null
	QueueID       int32  // q
	PopTime       int64  // pt: the checkpoint's pop time
	BrokerName    string // bn; "" = null
}

// UniqKey is the ack record's UNIQ_KEY (a BATCH_ACK_MESSAGE's bAck record
// takes it too, with AckOffset -1).
func (a *AckMsg) UniqKey() string {
	return popKey(a.Topic, a.QueueID, strconv.FormatInt(a.AckOffset, 10), a.ConsumerGroup, a.PopTime, orNull(a.BrokerName), AckTag)
}

// AppendJSON writes the record as fastjson does.
func (a *AckMsg) AppendJSON(dst []byte) []byte {
	return a.appendJSON(dst, nil)
}

func (a *AckMsg) appendJSON(dst []byte, ackOffsets []int64) []byte {
	st := fastjson.Fastjson
	dst = append(dst, '{')
	dst = fastjson.AppendIntField(dst, "ao", a.AckOffset, st)
	if ackOffsets != nil {
		dst = fastjson.AppendField(dst, "aol")
		dst = append(dst, '[')
		for i, o := range ackOffsets {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = strconv.AppendInt(dst, o, 10)
		}
		dst = append(dst, ']')
	}
	dst = fastjson.AppendOptionalStringField(dst, "bn", a.BrokerName, st)
	dst = fastjson.AppendOptionalStringField(dst, "c", a.ConsumerGroup, st)
	dst = fastjson.AppendIntField(dst, "pt", a.PopTime, st)
	dst = fastjson.AppendIntField(dst, "q", int64(a.QueueID), st)
	dst = fastjson.AppendIntField(dst, "so", a.StartOffset, st)
	dst = fastjson.AppendOptionalStringField(dst, "t", a.Topic, st)
	return append(dst, '}')
}

// BatchAckMsg is a bAck record: several messages of a checkpoint acked.
type BatchAckMsg struct {
	AckMsg
	AckOffsets []int64 // aol; nil = null
}

// BufferUniqKey is the UNIQ_KEY of a bAck record the POP buffer writes.
func (b *BatchAckMsg) BufferUniqKey() string {
	offs := make([]string, len(b.AckOffsets))
	for i, o := range b.AckOffsets {
		offs[i] = strconv.FormatInt(o, 10)
	}
	return b.Topic + "@" + strconv.Itoa(int(b.QueueID)) + "@[" + strings.Join(offs, ", ") + "]@" +
		b.ConsumerGroup + "@" + strconv.FormatInt(b.PopTime, 10) + "@" + BatchAckTag
}

// AppendJSON writes the record as fastjson does.
func (b *BatchAckMsg) AppendJSON(dst []byte) []byte {
	return b.appendJSON(dst, b.AckOffsets)
}

// DecodeAckMsg reads an ack or bAck record's body (AckOffsets is set
// for a bAck), taking the long names too, as fastjson's alternate names.
func DecodeAckMsg(data []byte) (*BatchAckMsg, error) {
	b := &BatchAckMsg{}
	err := decodeBean(data, func(r *fastjson.Reader, prop string) (err error) {
		switch prop {
		case "ao", "ackoffset":
			b.AckOffset, err = r.Long()
		case "so", "startoffset":
			b.StartOffset, err = r.Long()
		case "c", "consumergroup":
			b.ConsumerGroup, err = r.Str()
		case "t", "topic":
			b.Topic, err = r.Str()
		case "q", "queueid":
			b.QueueID, err = r.Int()
		case "pt", "poptime":
			b.PopTime, err = r.Long()
		case "bn", "brokername":
			b.BrokerName, err = r.Str()
		case "aol", "ackoffsetlist":
			b.AckOffsets, err = r.LongList()
		default:
			err = r.Skip()
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return b, nil
}

// popKey is the '@'-joined UNIQ_KEY of a ck or an ack record.
func popKey(topic string, queueID int32, offset, group string, popTime int64, brokerName, tag string) string {
	return topic + "@" + strconv.Itoa(int(queueID)) + "@" + offset + "@" + group + "@" +
		strconv.FormatInt(popTime, 10) + "@" + brokerName + "@" + tag
}

func orNull(s string) string {
	if s == "" {
		return "null"
	}
	return s
}

// BatchAck is one entry of BATCH_ACK_MESSAGE's body: the acked messages
// of one checkpoint (pop.md §2.4). Its bit set holds offsets: bit i is
// queue offset StartOffset+i.
type BatchAck struct {
	ConsumerGroup string // c
	Topic         string // t: the normal topic
	Retry         string // r: the retry flag, "0", "1" or "2"
	StartOffset   int64  // so
	QueueID       int32  // q
	ReviveQueueID int32  // rq
	PopTime       int64  // pt
	InvisibleTime int64  // it
	Bits          []byte // b: java.util.BitSet.toByteArray (bit i is bit i%8 of byte i/8)
}

// AckedOffsets are the queue offsets the bit set names, in order.
func (b *BatchAck) AckedOffsets() []int64 {
	var out []int64
	for i, v := range b.Bits {
		for bit := range 8 {
			if v&(1<<bit) != 0 {
				out = append(out, b.StartOffset+int64(i*8+bit))
			}
		}
	}
	return out
}

// BatchAckMessageRequestBody is BATCH_ACK_MESSAGE's body.
type BatchAckMessageRequestBody struct {
	BrokerName string
	Acks       []BatchAck
}

// DecodeBatchAckMessageRequestBody reads the body as fastjson does: the
// short keys or the long names, the bit set as Base64 or as an array of
// byte values.
func DecodeBatchAckMessageRequestBody(data []byte) (*BatchAckMessageRequestBody, error) {
	body := &BatchAckMessageRequestBody{}
	err := decodeBean(data, func(r *fastjson.Reader, prop string) (err error) {
		switch prop {
		case "brokername":
			body.BrokerName, err = r.Str()
		case "acks":
			body.Acks, err = readList(r, decodeBatchAck)
		default:
			err = r.Skip()
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return body, nil
}

func decodeBatchAck(r *fastjson.Reader) (BatchAck, error) {
	var b BatchAck
	err := r.Object(func(prop string) (err error) {
		switch prop {
		case "c", "consumergroup":
			b.ConsumerGroup, err = r.Str()
		case "t", "topic":
			b.Topic, err = r.Str()
		case "r", "retry":
			b.Retry, err = r.Str()
		case "so", "startoffset":
			b.StartOffset, err = r.Long()
		case "q", "queueid":
			b.QueueID, err = r.Int()
		case "rq", "revivequeueid":
			b.ReviveQueueID, err = r.Int()
		case "pt", "poptime":
			b.PopTime, err = r.Long()
		case "it", "invisibletime":
			b.InvisibleTime, err = r.Long()
		case "b", "bitset":
			b.Bits, err = readBitSet(r)
		default:
			err = r.Skip()
		}
		return err
	})
	return b, err
}

// readBitSet reads BitSetSerializerDeserializer's forms: a Base64 string
// of the bytes, or an array of byte values; null is empty.
func readBitSet(r *fastjson.Reader) ([]byte, error) {
	if r.Null() {
		return nil, nil
	}
	if r.Peek() == '[' {
		var out []byte
		err := r.Array(func() error {
			v, err := r.Int()
			out = append(out, byte(v))
			return err
		})
		return out, err
	}
	s, err := r.Str()
	if err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(s)
}
