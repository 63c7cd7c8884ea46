package protocol

import (
	"maps"
	"slices"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// ConsumerOrderInfoWrapper is orderly POP's state (5.x): the
// consumerOrderInfo.json file, ConsumerOrderInfoManager serialized whole
// (docs/reference/pop.md §10.2). Table maps "<topic>@<group>" to queueId
// -> the queue's last pop.
//
// JSON (on-disk format: do not change); queue ids and offsets are Integer
// and Long map keys, written bare:
//
//	{"table":{"T@G":{0:{"a":"attempt-1","cm":1,"i":60000,"l":1700000001000,"o":[5,1,3],"oc":{5:1,8:2},"ot":{6:1700000099999},"popTime":1700000000000}}}}
//
// and on disk in fastjson's PrettyFormat, where o, a java.util.List, has
// one element a line (fastjson.PrettyLists with OrderInfoLists):
//
//	{
//		"table":{
//			"T@G":{0:{
//					"a":"attempt-1",
//					"cm":1,
//					"i":60000,
//					"l":1700000001000,
//					"o":[
//						5,
//						1,
//						3
//					],
//					"oc":{5:1,8:2
//					},
//					"ot":{6:1700000099999
//					},
//					"popTime":1700000000000
//				}
//			}
//		}
//	}
//
// Java writes the maps in hash order, this sorted; readers take any order,
// and quoted keys as well as bare ones.
type ConsumerOrderInfoWrapper struct {
	Table map[string]map[int32]*OrderInfo
}

// OrderInfo is ConsumerOrderInfoManager.OrderInfo: the last orderly pop of
// one queue by one group.
type OrderInfo struct {
	PopTime int64 // popTime: the pop's time
	// InvisibleTime (i) is the pop's invisible time; HasInvisibleTime is
	// false when i is null (files of 5.0 and 5.1 have none).
	InvisibleTime    int64
	HasInvisibleTime bool
	// Offsets (o) are the popped messages' queue offsets: Offsets[0]
	// itself, Offsets[i] (i > 0) as the distance from Offsets[0].
	Offsets []int64
	// NextVisibleTimes (ot): a message's next visible time set by
	// CHANGE_INVISIBLETIME, by queue offset; nil = null.
	NextVisibleTimes map[int64]int64
	// ConsumedCounts (oc): how many times a message was delivered
	// before, by queue offset (counts > 0 only); nil = null, which is
	// not the empty map ({} is written).
	ConsumedCounts       map[int64]int32
	LastConsumeTimestamp int64  // l: when the pop (or the last change) was recorded
	CommitOffsetBit      int64  // cm: bit i set = message i acked
	AttemptID            string // a: the pop's attemptId; "" = null
}

// OrderInfoLists are the java.util.List properties of OrderInfo, which
// fastjson's PrettyFormat breaks one element a line.
var OrderInfoLists = []string{"o"}

// QueueOffset is the queue offset of message i of the pop.
func (o *OrderInfo) QueueOffset(i int) int64 {
	if i == 0 {
		return o.Offsets[0]
	}
	return o.Offsets[0] + o.Offsets[i]
}

// Clone is a deep copy.
func (o *OrderInfo) Clone() *OrderInfo {
	c := *o
	c.Offsets = slices.Clone(o.Offsets)
	c.NextVisibleTimes = maps.Clone(o.NextVisibleTimes)
	c.ConsumedCounts = maps.Clone(o.ConsumedCounts)
	return &c
}

// AppendJSON appends the compact fastjson form. The line has no part in
// it: the table is 5.x's alone.
func (w *ConsumerOrderInfoWrapper) AppendJSON(dst []byte, _ Line) []byte {
	dst = append(fastjson.AppendField(append(dst, '{'), "table"), '{')
	for _, key := range fastjson.SortedKeys(w.Table) {
		dst = append(fastjson.AppendStringKey(dst, key, fastjson.Fastjson), '{')
		queues := w.Table[key]
		for _, q := range sortedIntKeys(queues) {
			dst = queues[q].AppendJSON(fastjson.AppendIntKey(dst, int64(q), fastjson.Fastjson))
		}
		dst = append(dst, '}')
	}
	return append(dst, '}', '}')
}

// AppendJSON appends the OrderInfo as fastjson writes it.
func (o *OrderInfo) AppendJSON(dst []byte) []byte {
	st := fastjson.Fastjson
	dst = append(dst, '{')
	dst = fastjson.AppendOptionalStringField(dst, "a", o.AttemptID, st)
	dst = fastjson.AppendIntField(dst, "cm", o.CommitOffsetBit, st)
	if o.HasInvisibleTime {
		dst = fastjson.AppendIntField(dst, "i", o.InvisibleTime, st)
	}
	dst = fastjson.AppendIntField(dst, "l", o.LastConsumeTimestamp, st)
	if o.Offsets != nil {
		dst = append(fastjson.AppendField(dst, "o"), '[')
		for _, off := range o.Offsets {
			dst = fastjson.AppendLong(fastjson.Comma(dst), off, st)
		}
		dst = append(dst, ']')
	}
	if o.ConsumedCounts != nil {
		dst = appendLongKeyMap(fastjson.AppendField(dst, "oc"), o.ConsumedCounts)
	}
	if o.NextVisibleTimes != nil {
		dst = appendLongKeyMap(fastjson.AppendField(dst, "ot"), o.NextVisibleTimes)
	}
	dst = fastjson.AppendIntField(dst, "popTime", o.PopTime, st)
	return append(dst, '}')
}

// appendLongKeyMap writes a Long-keyed map of numbers, keys bare and
// sorted.
func appendLongKeyMap[V int32 | int64](dst []byte, m map[int64]V) []byte {
	dst = append(dst, '{')
	for _, k := range slices.Sorted(maps.Keys(m)) {
		dst = fastjson.AppendLong(fastjson.AppendIntKey(dst, k, fastjson.Fastjson), int64(m[k]), fastjson.Fastjson)
	}
	return append(dst, '}')
}

// DecodeConsumerOrderInfoWrapper reads consumerOrderInfo.json as fastjson
// reads it into ConsumerOrderInfoManager: unknown keys skipped, queue ids
// and offsets bare or quoted, any property of an OrderInfo missing (a
// missing i is null); a null document or table gives an empty table.
func DecodeConsumerOrderInfoWrapper(data []byte) (*ConsumerOrderInfoWrapper, error) {
	w := &ConsumerOrderInfoWrapper{}
	err := decodeBean(data, func(r *fastjson.Reader, prop string) (err error) {
		if prop != "table" {
			return r.Skip()
		}
		w.Table, err = readConcurrentMap(r, readOrderInfoQueues)
		return err
	})
	if err != nil {
		return nil, err
	}
	if w.Table == nil {
		w.Table = map[string]map[int32]*OrderInfo{}
	}
	return w, nil
}

// readOrderInfoQueues reads an Integer -> OrderInfo ConcurrentHashMap
// (a null value fails).
func readOrderInfoQueues(r *fastjson.Reader) (map[int32]*OrderInfo, error) {
	m := map[int32]*OrderInfo{}
	err := r.NumberMap(func(key string) error {
		q, err := r.LongKey(key)
		if err != nil {
			return err
		}
		if q > 1<<31-1 || q < -1<<31 {
			return r.Fail("int key out of range")
		}
		if r.Null() {
			return r.Fail("null value in a ConcurrentHashMap")
		}
		m[int32(q)], err = readOrderInfo(r)
		return err
	})
	return m, err
}

func readOrderInfo(r *fastjson.Reader) (*OrderInfo, error) {
	o := &OrderInfo{}
	err := r.Object(func(prop string) (err error) {
		switch prop {
		case "poptime":
			o.PopTime, err = r.Long()
		case "i":
			if r.Null() || r.EmptyString() {
				o.HasInvisibleTime = false
				return nil
			}
			o.InvisibleTime, err = r.Long()
			o.HasInvisibleTime = true
		case "o":
			o.Offsets, err = r.LongList()
		case "ot":
			o.NextVisibleTimes, err = readLongKeyMap(r, r.Long)
		case "oc":
			o.ConsumedCounts, err = readLongKeyMap(r, r.Int)
		case "l":
			o.LastConsumeTimestamp, err = r.Long()
		case "cm":
			o.CommitOffsetBit, err = r.Long()
		case "a":
			o.AttemptID, err = r.Str()
		default:
			err = r.Skip()
		}
		return err
	})
	return o, err
}

// readLongKeyMap reads a Long-keyed HashMap of numbers; null gives nil, a
// null value is left out (Java keeps it).
func readLongKeyMap[V int32 | int64](r *fastjson.Reader, value func() (V, error)) (map[int64]V, error) {
	if r.Null() {
		return nil, nil
	}
	m := map[int64]V{}
	err := r.NumberMap(func(key string) error {
		k, err := r.LongKey(key)
		if err != nil {
			return err
		}
		if r.Null() || r.EmptyString() {
			return nil
		}
		m[k], err = value()
		return err
	})
	return m, err
}
