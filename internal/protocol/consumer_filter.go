package protocol

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
	dst = append(appendField(dst, "filterDataByTopic"), '{')
	for _, topic := range sortedKeys(w.FilterDataByTopic) {
		m := w.FilterDataByTopic[topic]
		dst = m.appendJSON(appendStringKey(dst, topic, Fastjson))
	}
	dst = append(dst, '}')
	return append(dst, '}')
}

func (m *FilterDataMapByTopic) appendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	dst = append(appendField(dst, "groupFilterData"), '{')
	for _, group := range sortedKeys(m.GroupFilterData) {
		d := m.GroupFilterData[group]
		dst = d.appendJSON(appendStringKey(dst, group, Fastjson))
	}
	dst = append(dst, '}')
	dst = appendOptionalStringField(dst, "topic", m.Topic, Fastjson)
	return append(dst, '}')
}

func (d *ConsumerFilterData) appendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	if b := d.BloomFilterData; b != nil {
		dst = appendIntField(append(appendField(dst, "bloomFilterData"), '{'), "bitNum", int64(b.BitNum), Fastjson)
		if b.BitPos != nil {
			dst = append(appendField(dst, "bitPos"), '[')
			for _, p := range b.BitPos {
				dst = appendLong(comma(dst), int64(p), Fastjson)
			}
			dst = append(dst, ']')
		}
		dst = append(dst, '}')
	}
	dst = appendIntField(dst, "bornTime", d.BornTime, Fastjson)
	dst = appendIntField(dst, "clientVersion", d.ClientVersion, Fastjson)
	dst = appendOptionalStringField(dst, "consumerGroup", d.ConsumerGroup, Fastjson)
	dst = appendBoolField(dst, "dead", d.IsDead())
	dst = appendIntField(dst, "deadTime", d.DeadTime, Fastjson)
	dst = appendOptionalStringField(dst, "expression", d.Expression, Fastjson)
	dst = appendOptionalStringField(dst, "expressionType", d.ExpressionType, Fastjson)
	dst = appendOptionalStringField(dst, "topic", d.Topic, Fastjson)
	return append(dst, '}')
}

// DecodeConsumerFilterWrapper parses consumerFilter.json; a null document
// gives an empty table.
func DecodeConsumerFilterWrapper(data []byte) (*ConsumerFilterWrapper, error) {
	w := &ConsumerFilterWrapper{}
	err := decodeJSON(data, func(r *jsonReader) error {
		if r.null() {
			return nil
		}
		return r.object(func(key string) (err error) {
			if property(key) == "filterdatabytopic" {
				w.FilterDataByTopic, err = readMap(r, readFilterDataMapByTopic)
				return err
			}
			return r.skip()
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

func readFilterDataMapByTopic(r *jsonReader) (FilterDataMapByTopic, error) {
	m := FilterDataMapByTopic{GroupFilterData: map[string]ConsumerFilterData{}}
	err := r.object(func(key string) (err error) {
		switch property(key) {
		case "groupfilterdata":
			var groups map[string]ConsumerFilterData
			if groups, err = readMap(r, readConsumerFilterData); groups != nil {
				m.GroupFilterData = groups
			}
		case "topic":
			m.Topic, err = r.str()
		default:
			err = r.skip()
		}
		return err
	})
	return m, err
}

func readConsumerFilterData(r *jsonReader) (ConsumerFilterData, error) {
	var d ConsumerFilterData
	err := r.object(func(key string) (err error) {
		switch property(key) {
		case "consumergroup":
			d.ConsumerGroup, err = r.str()
		case "topic":
			d.Topic, err = r.str()
		case "expression":
			d.Expression, err = r.str()
		case "expressiontype":
			d.ExpressionType, err = r.str()
		case "borntime":
			d.BornTime, err = r.long()
		case "deadtime":
			d.DeadTime, err = r.long()
		case "clientversion":
			d.ClientVersion, err = r.long()
		case "bloomfilterdata":
			if !r.null() {
				d.BloomFilterData, err = readBloomFilterData(r)
			}
		default:
			err = r.skip()
		}
		return err
	})
	return d, err
}

func readBloomFilterData(r *jsonReader) (*BloomFilterData, error) {
	b := &BloomFilterData{}
	err := r.object(func(key string) (err error) {
		switch property(key) {
		case "bitnum":
			b.BitNum, err = r.int()
		case "bitpos":
			if !r.null() {
				b.BitPos, err = readList(r, func(r *jsonReader) (int32, error) { return r.int() })
			}
		default:
			err = r.skip()
		}
		return err
	})
	return b, err
}
