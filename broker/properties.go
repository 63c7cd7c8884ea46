package broker

import (
	"slices"
	"strconv"
	"strings"

	"github.com/rmqgo/rmqgo/store"
)

// Message property names the broker reads or sets (MessageConst), wire
// values: do not change. Those the store reads too are the store's.
const (
	propCluster             = store.PropertyCluster
	propUniqKey             = store.PropertyUniqKey
	propTags                = store.PropertyTags
	propKeys                = store.PropertyKeys
	propDelayLevel          = store.PropertyDelayLevel
	propRealTopic           = store.PropertyRealTopic
	propRealQueueID         = store.PropertyRealQueueID
	propWait                = store.PropertyWaitStore
	propTransactionPrepared = "TRAN_MSG"
	propProducerGroup       = "PGROUP"
	propMsgRegion           = "MSG_REGION"
	propTraceSwitch         = "TRACE_ON"
	propRetryTopic          = "RETRY_TOPIC"
	propMaxReconsumeTimes   = "MAX_RECONSUME_TIMES"
	propConsumeStartTime    = "CONSUME_START_TIME"
	propOriginMsgID         = "ORIGIN_MESSAGE_ID"
	propCheckTimes          = "TRANSACTION_CHECK_TIMES"
	propCheckImmunityTime   = "CHECK_IMMUNITY_TIME_IN_SECONDS"
	propPreparedQueueOffset = "TRAN_PREPARED_QUEUE_OFFSET"
	propPopCK               = "POP_CK"
	propFirstPopTime        = "1ST_POP_TIME"
)

// stampRegionAndTrace is what 5.x's buildMsgContext does to every message
// sent (SEND_MESSAGE, V2 and batch; not CONSUMER_SEND_MSG_BACK): the
// broker's regionId and traceOn go into its properties as MSG_REGION and
// TRACE_ON. A 5.x trace-enabled consumer drops the traces of a message
// without MSG_REGION. 4.9.7 does this only when a send hook is registered,
// which a plain broker has not, so 4.x messages are stored without them.
func (s *sendService) stampRegionAndTrace(p *msgProps, set *settings) {
	if !s.line.stampsRegionAndTrace() {
		return
	}
	p.set(propMsgRegion, set.Broker.RegionId)
	p.set(propTraceSwitch, strconv.FormatBool(set.Broker.TraceOn))
}

// msgProps is a message's properties as Java's broker holds them: a
// HashMap<String,String>. It remembers insertion order and the largest
// size the map reached, which together fix Java's iteration order, so the
// encoded string is the bytes a Java broker would store. A message has a
// handful of properties, so they are a list searched in order, not a map.
type msgProps struct {
	props   []msgProp // insertion order, deleted ones removed
	maxSize int
	initCap int // the HashMap's initial capacity
	// inline backs props while they fit: a send's properties and the few
	// the broker adds cost no allocation of their own.
	inline [10]msgProp
}

// msgProp is one property.
type msgProp struct{ name, value string }

// newMsgProps is an empty map of that initial capacity (16 for the map a
// new Message makes).
func newMsgProps(initCap int) *msgProps {
	return withRoom(initCap, 0)
}

// withRoom is an empty map of that initial capacity with room for n
// properties.
func withRoom(initCap, n int) *msgProps {
	p := &msgProps{initCap: initCap}
	if n <= len(p.inline) {
		p.props = p.inline[:0]
	} else {
		p.props = make([]msgProp, 0, n)
	}
	return p
}

// parseProps is MessageDecoder.string2messageProperties of line: 4.9.8
// makes a default HashMap (16 buckets), 5.x a HashMap(128).
func parseProps(s string, l line) *msgProps {
	// Room for every property and the few the broker adds.
	p := withRoom(l.propertyMapCapacity(), strings.Count(s, string(store.PropertySeparator))+4)
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

// index is where property k is in the list, or -1.
func (p *msgProps) index(k string) int {
	for i := range p.props {
		if p.props[i].name == k {
			return i
		}
	}
	return -1
}

// get returns a property.
func (p *msgProps) get(k string) (string, bool) {
	if i := p.index(k); i >= 0 {
		return p.props[i].value, true
	}
	return "", false
}

// set puts a property; an existing name keeps its place.
func (p *msgProps) set(k, v string) {
	if i := p.index(k); i >= 0 {
		p.props[i].value = v
		return
	}
	p.props = append(p.props, msgProp{k, v})
	p.maxSize = max(p.maxSize, len(p.props))
}

// del removes a property.
func (p *msgProps) del(k string) {
	if i := p.index(k); i >= 0 {
		p.props = slices.Delete(p.props, i, i+1)
	}
}

// encodeStored is the properties string a plain send stores. 4.9.x's
// SendMessageProcessor leaves out WAIT (the client's waitStoreMsgOK, "no
// need to store" it): it removes WAIT from the map, encodes, and puts it
// back, so WAIT is still there for the broker's own use and lands last in
// insertion order for any later encode (a half message's). 5.x stores WAIT.
func (p *msgProps) encodeStored(l line) string {
	wait, ok := p.get(propWait)
	if l.storesWait() || !ok {
		return p.encode(l)
	}
	p.del(propWait)
	s := p.encode(l)
	p.set(propWait, wait)
	return s
}

// encode is MessageDecoder.messageProperties2String in HashMap order:
// 4.9.8 drops the last separator, 5.x keeps it.
func (p *msgProps) encode(l line) string {
	var buf [2 * 16]int // a message's properties fit: no allocation to order them
	order := p.javaOrder(buf[:])
	size := 0
	for _, i := range order {
		size += len(p.props[i].name) + len(p.props[i].value) + 2
	}
	var sb strings.Builder
	sb.Grow(size)
	for _, i := range order {
		sb.WriteString(p.props[i].name)
		sb.WriteByte(store.NameValueSeparator)
		sb.WriteString(p.props[i].value)
		sb.WriteByte(store.PropertySeparator)
	}
	s := sb.String()
	if !l.keepsLastPropertySeparator() && len(s) > 0 {
		s = s[:len(s)-1]
	}
	return s
}

// javaOrder is the iteration order of a java.util.HashMap that had the
// keys put in this order, as indexes into the list: by bucket of the
// spread String.hashCode in a table sized for the largest size reached
// (the initial capacity, doubled whenever the size passed three quarters),
// insertion order within a bucket. buf is scratch space (its storage is
// used when it holds twice the properties).
func (p *msgProps) javaOrder(buf []int) []int {
	capacity := p.initCap
	for p.maxSize > capacity*3/4 {
		capacity *= 2
	}
	n := len(p.props)
	if len(buf) < 2*n {
		buf = make([]int, 2*n)
	}
	buckets, order := buf[:n], buf[n:2*n]
	for i := range p.props {
		h := uint32(store.JavaStringHash(p.props[i].name))
		buckets[i] = int((h ^ h>>16) & uint32(capacity-1))
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return buckets[a] - buckets[b] })
	return order
}
