package protocol

import (
	"sort"
	"strings"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// ConsumerOffsetSerializeWrapper is a broker's committed consumer offsets:
// the consumerOffset.json file (ConsumerOffsetManager serialized whole)
// and the body of GET_ALL_CONSUMER_OFFSET. OffsetTable maps
// "<topic>@<group>" to queueId -> next offset to consume (a consume-queue
// index).
//
// JSON (on-disk and wire format: do not change); the Integer queue ids
// are written bare, which is not standard JSON:
//
//	4.x: {"offsetTable":{"T@g":{0:12,1:7}}}
//	5.x: {"dataVersion":{...},"groupTopicMap":{"g":["T"]},"offsetTable":{"T@g":{0:12,1:7}}}
//
// groupTopicMap is derived from offsetTable when written (see
// GroupTopicMap) and ignored when read, as Java does. DataVersion is
// written on Line5 only.
type ConsumerOffsetSerializeWrapper struct {
	DataVersion DataVersion
	OffsetTable map[string]map[int32]int64
}

// TopicGroupSeparator joins topic and group in OffsetTable keys.
const TopicGroupSeparator = "@"

// AppendJSON appends the fastjson form of line.
func (w *ConsumerOffsetSerializeWrapper) AppendJSON(dst []byte, line Line) []byte {
	dst = append(dst, '{')
	if line.v5() {
		dst = w.DataVersion.AppendJSONLine(fastjson.AppendField(dst, "dataVersion"), line)
		dst = append(fastjson.AppendField(dst, "groupTopicMap"), '{')
		groups := w.GroupTopicMap()
		for _, g := range fastjson.SortedKeys(groups) {
			dst = fastjson.AppendStringArray(fastjson.AppendStringKey(dst, g, fastjson.Fastjson), groups[g], fastjson.Fastjson)
		}
		dst = append(dst, '}')
	}
	dst = append(fastjson.AppendField(dst, "offsetTable"), '{')
	for _, key := range fastjson.SortedKeys(w.OffsetTable) {
		dst = appendIntLongMap(fastjson.AppendStringKey(dst, key, fastjson.Fastjson), w.OffsetTable[key])
	}
	dst = append(dst, '}')
	return append(dst, '}')
}

// GroupTopicMap derives 5.x's groupTopicMap from OffsetTable as
// ConsumerOffsetManager.getGroupTopicMap does: each key is split at '@'
// like Java's String.split (trailing empty parts dropped), and only keys
// of exactly two parts count. Topics are sorted.
func (w *ConsumerOffsetSerializeWrapper) GroupTopicMap() map[string][]string {
	m := map[string][]string{}
	for key := range w.OffsetTable {
		parts := JavaSplit(key, TopicGroupSeparator)
		if len(parts) == 2 {
			m[parts[1]] = append(m[parts[1]], parts[0])
		}
	}
	for _, topics := range m {
		sort.Strings(topics)
	}
	return m
}

// JavaSplit is Java's String.split with a literal separator: empty
// fields are kept except at the end (so "" splits into none, where Java
// gives [""]: callers that care check for "" first).
func JavaSplit(s, sep string) []string {
	parts := strings.Split(s, sep)
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// DecodeConsumerOffsetSerializeWrapper parses the 4.x or 5.x document
// (bare or quoted queue ids); a null document gives an empty table.
func DecodeConsumerOffsetSerializeWrapper(data []byte) (*ConsumerOffsetSerializeWrapper, error) {
	w := &ConsumerOffsetSerializeWrapper{}
	err := fastjson.Decode(data, func(r *fastjson.Reader) error {
		if r.Null() {
			return nil
		}
		return r.Object(func(key string) (err error) {
			switch key {
			case "dataversion":
				if !r.Null() {
					err = w.DataVersion.read(r)
				}
			case "offsettable":
				w.OffsetTable, err = readConcurrentMap(r, readIntLongMap)
			default:
				err = r.Skip()
			}
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	if w.OffsetTable == nil {
		w.OffsetTable = map[string]map[int32]int64{}
	}
	return w, nil
}

// DelayOffsetSerializeWrapper is the progress of delayed-message delivery:
// the delayOffset.json file and the body of GET_ALL_DELAY_OFFSET.
// OffsetTable maps a delay level (1-based) to the next offset to deliver
// in queue level-1 of SCHEDULE_TOPIC_XXXX.
//
// JSON (on-disk and wire format: do not change), levels written bare:
//
//	4.x: {"offsetTable":{1:0,2:0,3:5}}
//	5.x: {"dataVersion":{...},"offsetTable":{1:0,2:0,3:5}}
//
// DataVersion is written on Line5 only.
type DelayOffsetSerializeWrapper struct {
	DataVersion DataVersion
	OffsetTable map[int32]int64
}

// AppendJSON appends the fastjson form of line.
func (w *DelayOffsetSerializeWrapper) AppendJSON(dst []byte, line Line) []byte {
	dst = append(dst, '{')
	if line.v5() {
		dst = w.DataVersion.AppendJSONLine(fastjson.AppendField(dst, "dataVersion"), line)
	}
	dst = appendIntLongMap(fastjson.AppendField(dst, "offsetTable"), w.OffsetTable)
	return append(dst, '}')
}

// DecodeDelayOffsetSerializeWrapper parses the 4.x or 5.x document; a
// null document gives an empty table.
func DecodeDelayOffsetSerializeWrapper(data []byte) (*DelayOffsetSerializeWrapper, error) {
	w := &DelayOffsetSerializeWrapper{}
	err := fastjson.Decode(data, func(r *fastjson.Reader) error {
		if r.Null() {
			return nil
		}
		return r.Object(func(key string) (err error) {
			switch key {
			case "dataversion":
				if !r.Null() {
					err = w.DataVersion.read(r)
				}
			case "offsettable":
				w.OffsetTable, err = readIntLongMap(r)
			default:
				err = r.Skip()
			}
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	if w.OffsetTable == nil {
		w.OffsetTable = map[int32]int64{}
	}
	return w, nil
}

// appendIntLongMap writes an Integer -> Long map, keys bare and sorted.
func appendIntLongMap(dst []byte, m map[int32]int64) []byte {
	dst = append(dst, '{')
	for _, k := range sortedIntKeys(m) {
		dst = fastjson.AppendLong(fastjson.AppendIntKey(dst, int64(k), fastjson.Fastjson), m[k], fastjson.Fastjson)
	}
	return append(dst, '}')
}

// readIntLongMap reads an Integer -> Long ConcurrentHashMap with bare or
// quoted keys; null gives nil, a null value fails.
func readIntLongMap(r *fastjson.Reader) (map[int32]int64, error) {
	if r.Null() {
		return nil, nil
	}
	m := map[int32]int64{}
	err := r.NumberMap(func(key string) error {
		k, err := r.LongKey(key)
		if err != nil {
			return err
		}
		if k > 1<<31-1 || k < -1<<31 {
			return r.Fail("int key out of range")
		}
		if r.Null() || r.EmptyString() {
			return r.Fail("null value in a ConcurrentHashMap")
		}
		v, err := r.Long()
		m[int32(k)] = v
		return err
	})
	return m, err
}
