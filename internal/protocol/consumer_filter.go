package protocol

import "github.com/rmqgo/rmqgo/internal/fastjson"

// ConsumerFilterWrapper is the consumerFilter.json file:
// ConsumerFilterManager serialized whole, the SQL92/TAG filters consumers
// registered, by topic and group. The same on both lines.
//
// JSON (on-disk format: do not change):
//
//	{"filterDataByTopic":{"T":{"groupFilterData":{"g":{ConsumerFilterData}},"topic":"T"}}}
type ConsumerFilterWrapper struct {
	FilterDataByTopic map[string]FilterDataMapByTopic
}

// FilterDataMapByTopic is the filters of one topic
// (ConsumerFilterManager.FilterDataMapByTopic).
type FilterDataMapByTopic struct {
	GroupFilterData map[string]ConsumerFilterData
	Topic           string
}

// ConsumerFilterData is the filter one consumer group registered for a
// topic.
//
// JSON (on-disk format: do not change):
//
//	{"bloomFilterData":{"bitNum":64,"bitPos":[1,5,9]},"bornTime":1700000000000,"clientVersion":395,"consumerGroup":"g",
//	 "dead":false,"deadTime":0,"expression":"a > 5","expressionType":"SQL92","topic":"T"}
//
// dead is Java's derived isDead(), written but never read. Empty strings
// and a nil BloomFilterData are left out, as Java leaves out null.
type ConsumerFilterData struct {
	ConsumerGroup   string
	Topic           string
	Expression      string
	ExpressionType  string
	BornTime        int64
	DeadTime        int64
	BloomFilterData *BloomFilterData
	ClientVersion   int64
}

// BloomFilterData is the bloom-filter bit positions of a group
// (org.apache.rocketmq.filter.util.BloomFilterData); BitPos nil is left
// out.
type BloomFilterData struct {
	BitPos []int32
	BitNum int32
}

// IsDead is ConsumerFilterData.isDead: the group unregistered at or after
// it registered.
func (d *ConsumerFilterData) IsDead() bool { return d.DeadTime >= d.BornTime }

// HowLongAfterDeath is ConsumerFilterData.howLongAfterDeath: the
// milliseconds from its death to now, -1 while it is alive.
func (d *ConsumerFilterData) HowLongAfterDeath(now int64) int64 {
	if !d.IsDead() {
		return -1
	}
	return now - d.DeadTime
}

// AppendJSON appends the fastjson form; both lines write the same.
func (w *ConsumerFilterWrapper) AppendJSON(dst []byte, _ Line) []byte {
	dst = append(dst, '{')
	dst = append(fastjson.AppendField(dst, "filterDataByTopic"), '{')
	for _, topic := range fastjson.SortedKeys(w.FilterDataByTopic) {
		m := w.FilterDataByTopic[topic]
		dst = m.appendJSON(fastjson.AppendStringKey(dst, topic, fastjson.Fastjson))
	}
	dst = append(dst, '}')
	return append(dst, '}')
}

func (m *FilterDataMapByTopic) appendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	dst = append(fastjson.AppendField(dst, "groupFilterData"), '{')
	for _, group := range fastjson.SortedKeys(m.GroupFilterData) {
		d := m.GroupFilterData[group]
		dst = d.appendJSON(fastjson.AppendStringKey(dst, group, fastjson.Fastjson))
	}
	dst = append(dst, '}')
	dst = fastjson.AppendOptionalStringField(dst, "topic", m.Topic, fastjson.Fastjson)
	return append(dst, '}')
}

func (d *ConsumerFilterData) appendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	if b := d.BloomFilterData; b != nil {
		dst = fastjson.AppendIntField(append(fastjson.AppendField(dst, "bloomFilterData"), '{'), "bitNum", int64(b.BitNum), fastjson.Fastjson)
		if b.BitPos != nil {
			dst = append(fastjson.AppendField(dst, "bitPos"), '[')
			for _, p := range b.BitPos {
				dst = fastjson.AppendLong(fastjson.Comma(dst), int64(p), fastjson.Fastjson)
			}
			dst = append(dst, ']')
		}
		dst = append(dst, '}')
	}
	dst = fastjson.AppendIntField(dst, "bornTime", d.BornTime, fastjson.Fastjson)
	dst = fastjson.AppendIntField(dst, "clientVersion", d.ClientVersion, fastjson.Fastjson)
	dst = fastjson.AppendOptionalStringField(dst, "consumerGroup", d.ConsumerGroup, fastjson.Fastjson)
	dst = fastjson.AppendBoolField(dst, "dead", d.IsDead())
	dst = fastjson.AppendIntField(dst, "deadTime", d.DeadTime, fastjson.Fastjson)
	dst = fastjson.AppendOptionalStringField(dst, "expression", d.Expression, fastjson.Fastjson)
	dst = fastjson.AppendOptionalStringField(dst, "expressionType", d.ExpressionType, fastjson.Fastjson)
	dst = fastjson.AppendOptionalStringField(dst, "topic", d.Topic, fastjson.Fastjson)
	return append(dst, '}')
}

// DecodeConsumerFilterWrapper parses consumerFilter.json; a null document
// gives an empty table.
func DecodeConsumerFilterWrapper(data []byte) (*ConsumerFilterWrapper, error) {
	w := &ConsumerFilterWrapper{}
	err := fastjson.Decode(data, func(r *fastjson.Reader) error {
		if r.Null() {
			return nil
		}
		return r.Object(func(key string) (err error) {
			if key == "filterdatabytopic" {
				w.FilterDataByTopic, err = readMap(r, readFilterDataMapByTopic)
				return err
			}
			return r.Skip()
		})
	})
	if err != nil {
		return nil, err
	}
	if w.FilterDataByTopic == nil {
		w.FilterDataByTopic = map[string]FilterDataMapByTopic{}
	}
	return w, nil
}

func readFilterDataMapByTopic(r *fastjson.Reader) (FilterDataMapByTopic, error) {
	m := FilterDataMapByTopic{GroupFilterData: map[string]ConsumerFilterData{}}
	err := r.Object(func(key string) (err error) {
		switch key {
		case "groupfilterdata":
			var groups map[string]ConsumerFilterData
			if groups, err = readMap(r, readConsumerFilterData); groups != nil {
				m.GroupFilterData = groups
			}
		case "topic":
			m.Topic, err = r.Str()
		default:
			err = r.Skip()
		}
		return err
	})
	return m, err
}

func readConsumerFilterData(r *fastjson.Reader) (ConsumerFilterData, error) {
	var d ConsumerFilterData
	err := r.Object(func(key string) (err error) {
		switch key {
		case "consumergroup":
			d.ConsumerGroup, err = r.Str()
		case "topic":
			d.Topic, err = r.Str()
		case "expression":
			d.Expression, err = r.Str()
		case "expressiontype":
			d.ExpressionType, err = r.Str()
		case "borntime":
			d.BornTime, err = r.LongOr(d.BornTime)
		case "deadtime":
			d.DeadTime, err = r.LongOr(d.DeadTime)
		case "clientversion":
			d.ClientVersion, err = r.LongOr(d.ClientVersion)
		case "bloomfilterdata":
			if !r.Null() {
				d.BloomFilterData, err = readBloomFilterData(r)
			}
		default:
			err = r.Skip()
		}
		return err
	})
	return d, err
}

func readBloomFilterData(r *fastjson.Reader) (*BloomFilterData, error) {
	b := &BloomFilterData{}
	err := r.Object(func(key string) (err error) {
		switch key {
		case "bitnum":
			b.BitNum, err = r.IntOr(b.BitNum)
		case "bitpos":
			if !r.Null() {
				b.BitPos, err = readScalars(r, r.Int)
			}
		default:
			err = r.Skip()
		}
		return err
	})
	return b, err
}
