package broker

import (
	"slices"
	"strings"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/store"
)

// Message property names the broker reads or sets (MessageConst), wire
// values: do not change.
const (
	propCluster             = "CLUSTER"
	propUniqKey             = "UNIQ_KEY"
	propTags                = "TAGS"
	propKeys                = "KEYS"
	propDelayLevel          = "DELAY"
	propRealTopic           = "REAL_TOPIC"
	propRealQueueID         = "REAL_QID"
	propTransactionPrepared = "TRAN_MSG"
	propProducerGroup       = "PGROUP"
	propMsgRegion           = "MSG_REGION"
	propTraceSwitch         = "TRACE_ON"
	propRetryTopic          = "RETRY_TOPIC"
	propMaxReconsumeTimes   = "MAX_RECONSUME_TIMES"
	propConsumeStartTime    = "CONSUME_START_TIME"
	propOriginMsgID         = "ORIGIN_MESSAGE_ID"
	propWait                = "WAIT"
	propCheckTimes          = "TRANSACTION_CHECK_TIMES"
	propCheckImmunityTime   = "CHECK_IMMUNITY_TIME_IN_SECONDS"
	propPreparedQueueOffset = "TRAN_PREPARED_QUEUE_OFFSET"
)

// msgProps is a message's properties as Java's broker holds them: a
// HashMap<String,String>. It remembers insertion order and the largest
// size the map reached, which together fix Java's iteration order, so the
// encoded string is the bytes a Java broker would store.
type msgProps struct {
	keys    []string // insertion order, deleted keys removed
	vals    map[string]string
	maxSize int
	initCap int // the HashMap's initial capacity
}

// newMsgProps is an empty map of that initial capacity (16 for the map a
// new Message makes).
func newMsgProps(initCap int) *msgProps {
	return &msgProps{vals: make(map[string]string, 4), initCap: initCap}
}

// parseProps is MessageDecoder.string2messageProperties of line: 4.9.8
// makes a default HashMap (16 buckets), 5.x a HashMap(128).
func parseProps(s string, line protocol.Line) *msgProps {
	p := &msgProps{vals: make(map[string]string, 8), initCap: 16}
	if line >= protocol.Line5 {
		p.initCap = 128
	}
	for len(s) > 0 {
		seg := s
		if i := strings.IndexByte(s, store.PropertySeparator); i >= 0 {
			seg, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		if k, v, ok := strings.Cut(seg, string(store.NameValueSeparator)); ok && k != "" && v != "" {
			p.set(k, v)
		}
	}
	return p
}

// get returns a property.
func (p *msgProps) get(k string) (string, bool) {
	v, ok := p.vals[k]
	return v, ok
}

// set puts a property; an existing name keeps its place.
func (p *msgProps) set(k, v string) {
	if _, ok := p.vals[k]; !ok {
		p.keys = append(p.keys, k)
	}
	p.vals[k] = v
	p.maxSize = max(p.maxSize, len(p.keys))
}

// del removes a property.
func (p *msgProps) del(k string) {
	if _, ok := p.vals[k]; !ok {
		return
	}
	delete(p.vals, k)
	p.keys = slices.DeleteFunc(p.keys, func(x string) bool { return x == k })
}

// encodeStored is the properties string a plain send stores. 4.9.x's
// SendMessageProcessor leaves out WAIT (the client's waitStoreMsgOK, "no
// need to store" it): it removes WAIT from the map, encodes, and puts it
// back, so WAIT is still there for the broker's own use and lands last in
// insertion order for any later encode (a half message's). 5.x stores WAIT.
func (p *msgProps) encodeStored(line protocol.Line) string {
	wait, ok := p.get(propWait)
	if line >= protocol.Line5 || !ok {
		return p.encode(line)
	}
	p.del(propWait)
	s := p.encode(line)
	p.set(propWait, wait)
	return s
}

// encode is MessageDecoder.messageProperties2String in HashMap order:
// 4.9.8 drops the last separator, 5.x keeps it.
func (p *msgProps) encode(line protocol.Line) string {
	var sb strings.Builder
	for _, k := range p.javaOrder() {
		sb.WriteString(k)
		sb.WriteByte(store.NameValueSeparator)
		sb.WriteString(p.vals[k])
		sb.WriteByte(store.PropertySeparator)
	}
	s := sb.String()
	if line < protocol.Line5 && len(s) > 0 {
		s = s[:len(s)-1]
	}
	return s
}

// javaOrder is the iteration order of a java.util.HashMap that had the
// keys put in this order: by bucket of the spread String.hashCode in a
// table sized for the largest size reached (the initial capacity,
// doubled whenever the size passed three quarters), insertion order within
// a bucket.
func (p *msgProps) javaOrder() []string {
	capacity := p.initCap
	for p.maxSize > capacity*3/4 {
		capacity *= 2
	}
	bucket := func(k string) int {
		h := uint32(store.JavaStringHash(k))
		return int((h ^ h>>16) & uint32(capacity-1))
	}
	out := slices.Clone(p.keys)
	slices.SortStableFunc(out, func(a, b string) int { return bucket(a) - bucket(b) })
	return out
}
