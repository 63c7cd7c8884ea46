package protocol

import (
	"sort"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// GroupRetryPolicyType is the 5.x enum GroupRetryPolicyType, written by
// name.
type GroupRetryPolicyType string

// Retry policy types (on-disk and wire values: do not change). Ordinals,
// which fastjson also reads, follow the declaration order.
const (
	RetryPolicyExponential GroupRetryPolicyType = "EXPONENTIAL"
	RetryPolicyCustomized  GroupRetryPolicyType = "CUSTOMIZED"
)

// Java's SubscriptionGroupConfig defaults.
const (
	DefaultRetryQueueNums               int32 = 1
	DefaultRetryMaxTimes                int32 = 16
	DefaultWhichBrokerWhenConsumeSlowly int64 = 1
	DefaultConsumeTimeoutMinute         int32 = 15
)

// SubscriptionGroupConfig is one consumer group of a broker: an entry of
// subscriptionGroup.json and the body of UPDATE_AND_CREATE_SUBSCRIPTIONGROUP.
//
// JSON (on-disk and wire format: do not change), properties in this order:
//
//	4.x: {"brokerId":0,"consumeBroadcastEnable":true,"consumeEnable":true,"consumeFromMinEnable":true,"groupName":"g",
//	      "notifyConsumerIdsChangedEnable":true,"retryMaxTimes":16,"retryQueueNums":1,"whichBrokerWhenConsumeSlowly":1}
//	5.x: {"attributes":{},"brokerId":0,"consumeBroadcastEnable":true,"consumeEnable":true,"consumeFromMinEnable":true,
//	      "consumeMessageOrderly":false,"consumeTimeoutMinute":15,"groupName":"g","groupRetryPolicy":{"type":"CUSTOMIZED"},
//	      "groupSysFlag":0,"notifyConsumerIdsChangedEnable":true,"retryMaxTimes":16,"retryQueueNums":1,
//	      "subscriptionDataSet":[{"expression":"*","expressionType":"TAG","topic":"T","version":0}],
//	      "whichBrokerWhenConsumeSlowly":1}
//
// The 5.x fields are kept whatever line the config is written for;
// AppendJSON leaves them out before Line5. subscriptionDataSet is written
// only when non-nil (Java's field starts null), in slice order (Java writes
// its HashSet in hash order). An empty GroupName is left out, as Java
// leaves out null.
type SubscriptionGroupConfig struct {
	GroupName                      string
	ConsumeEnable                  bool
	ConsumeFromMinEnable           bool
	ConsumeBroadcastEnable         bool
	RetryQueueNums                 int32
	RetryMaxTimes                  int32
	BrokerID                       int64
	WhichBrokerWhenConsumeSlowly   int64
	NotifyConsumerIDsChangedEnable bool

	// 5.x fields.
	ConsumeMessageOrderly bool
	GroupRetryPolicy      GroupRetryPolicy
	GroupSysFlag          int32
	ConsumeTimeoutMinute  int32
	SubscriptionDataSet   []SimpleSubscriptionData
	// Attributes is written as {} when nil on Line5.
	Attributes map[string]string
}

// NewSubscriptionGroupConfig returns a config with Java's field
// initializers (both lines).
func NewSubscriptionGroupConfig(group string) SubscriptionGroupConfig {
	return SubscriptionGroupConfig{
		GroupName:                      group,
		ConsumeEnable:                  true,
		ConsumeFromMinEnable:           true,
		ConsumeBroadcastEnable:         true,
		RetryQueueNums:                 DefaultRetryQueueNums,
		RetryMaxTimes:                  DefaultRetryMaxTimes,
		WhichBrokerWhenConsumeSlowly:   DefaultWhichBrokerWhenConsumeSlowly,
		NotifyConsumerIDsChangedEnable: true,
		GroupRetryPolicy:               GroupRetryPolicy{Type: RetryPolicyCustomized},
		ConsumeTimeoutMinute:           DefaultConsumeTimeoutMinute,
	}
}

// AppendJSON appends the fastjson form of line.
func (c *SubscriptionGroupConfig) AppendJSON(dst []byte, line Line) []byte {
	v5 := line.v5()
	dst = append(dst, '{')
	if v5 {
		dst = fastjson.AppendStringMap(fastjson.AppendField(dst, "attributes"), c.Attributes, fastjson.Fastjson)
	}
	dst = fastjson.AppendIntField(dst, "brokerId", c.BrokerID, fastjson.Fastjson)
	dst = fastjson.AppendBoolField(dst, "consumeBroadcastEnable", c.ConsumeBroadcastEnable)
	dst = fastjson.AppendBoolField(dst, "consumeEnable", c.ConsumeEnable)
	dst = fastjson.AppendBoolField(dst, "consumeFromMinEnable", c.ConsumeFromMinEnable)
	if v5 {
		dst = fastjson.AppendBoolField(dst, "consumeMessageOrderly", c.ConsumeMessageOrderly)
		dst = fastjson.AppendIntField(dst, "consumeTimeoutMinute", int64(c.ConsumeTimeoutMinute), fastjson.Fastjson)
	}
	dst = fastjson.AppendOptionalStringField(dst, "groupName", c.GroupName, fastjson.Fastjson)
	if v5 {
		dst = c.GroupRetryPolicy.appendJSON(fastjson.AppendField(dst, "groupRetryPolicy"))
		dst = fastjson.AppendIntField(dst, "groupSysFlag", int64(c.GroupSysFlag), fastjson.Fastjson)
	}
	dst = fastjson.AppendBoolField(dst, "notifyConsumerIdsChangedEnable", c.NotifyConsumerIDsChangedEnable)
	dst = fastjson.AppendIntField(dst, "retryMaxTimes", int64(c.RetryMaxTimes), fastjson.Fastjson)
	dst = fastjson.AppendIntField(dst, "retryQueueNums", int64(c.RetryQueueNums), fastjson.Fastjson)
	if v5 && c.SubscriptionDataSet != nil {
		dst = append(fastjson.AppendField(dst, "subscriptionDataSet"), '[')
		for i := range c.SubscriptionDataSet {
			dst = c.SubscriptionDataSet[i].appendJSON(fastjson.Comma(dst))
		}
		dst = append(dst, ']')
	}
	dst = fastjson.AppendIntField(dst, "whichBrokerWhenConsumeSlowly", c.WhichBrokerWhenConsumeSlowly, fastjson.Fastjson)
	return append(dst, '}')
}

// DecodeSubscriptionGroupConfig parses one config (either line), starting
// from Java's defaults for absent properties.
func DecodeSubscriptionGroupConfig(data []byte) (SubscriptionGroupConfig, error) {
	var c SubscriptionGroupConfig
	err := fastjson.Decode(data, func(r *fastjson.Reader) (err error) {
		c, err = readSubscriptionGroupConfig(r)
		return err
	})
	return c, err
}

// SubscriptionGroupList is the 5.x body of
// UPDATE_AND_CREATE_SUBSCRIPTIONGROUP_LIST.
//
// JSON (wire format: do not change):
//
//	{"groupConfigList":[{"groupName":"g1",...},{"groupName":"g2",...}]}
//
// A null or absent list decodes as nil.
type SubscriptionGroupList struct {
	GroupConfigList []SubscriptionGroupConfig
}

// DecodeSubscriptionGroupList parses the body; each config starts from
// Java's defaults for its absent properties.
func DecodeSubscriptionGroupList(data []byte) (SubscriptionGroupList, error) {
	var l SubscriptionGroupList
	err := fastjson.Decode(data, func(r *fastjson.Reader) error {
		if r.Null() {
			return nil
		}
		return r.Object(func(key string) (err error) {
			if key == "groupconfiglist" {
				l.GroupConfigList, err = readList(r, readSubscriptionGroupConfig)
				return err
			}
			return r.Skip()
		})
	})
	return l, err
}

func readSubscriptionGroupConfig(r *fastjson.Reader) (SubscriptionGroupConfig, error) {
	c := NewSubscriptionGroupConfig("")
	err := r.Object(func(key string) (err error) {
		switch key {
		case "groupname":
			c.GroupName, err = r.Str()
		case "consumeenable":
			c.ConsumeEnable, err = r.BoolOr(c.ConsumeEnable)
		case "consumefromminenable":
			c.ConsumeFromMinEnable, err = r.BoolOr(c.ConsumeFromMinEnable)
		case "consumebroadcastenable":
			c.ConsumeBroadcastEnable, err = r.BoolOr(c.ConsumeBroadcastEnable)
		case "retryqueuenums":
			c.RetryQueueNums, err = r.IntOr(c.RetryQueueNums)
		case "retrymaxtimes":
			c.RetryMaxTimes, err = r.IntOr(c.RetryMaxTimes)
		case "brokerid":
			c.BrokerID, err = r.LongOr(c.BrokerID)
		case "whichbrokerwhenconsumeslowly":
			c.WhichBrokerWhenConsumeSlowly, err = r.LongOr(c.WhichBrokerWhenConsumeSlowly)
		case "notifyconsumeridschangedenable":
			c.NotifyConsumerIDsChangedEnable, err = r.BoolOr(c.NotifyConsumerIDsChangedEnable)
		default:
			err = c.read5x(r, key)
		}
		return err
	})
	return c, err
}

// read5x reads the 5.x properties and skips unknown ones.
func (c *SubscriptionGroupConfig) read5x(r *fastjson.Reader, key string) (err error) {
	switch key {
	case "consumemessageorderly":
		c.ConsumeMessageOrderly, err = r.BoolOr(c.ConsumeMessageOrderly)
	case "groupretrypolicy":
		// 5.x sets null and writes the group without a policy, which
		// reads back as the default: ours keeps the default at once.
		if !r.Null() {
			c.GroupRetryPolicy, err = readGroupRetryPolicy(r)
		}
	case "groupsysflag":
		c.GroupSysFlag, err = r.IntOr(c.GroupSysFlag)
	case "consumetimeoutminute":
		c.ConsumeTimeoutMinute, err = r.IntOr(c.ConsumeTimeoutMinute)
	case "subscriptiondataset":
		c.SubscriptionDataSet, err = readList(r, readSimpleSubscriptionData)
	case "attributes":
		c.Attributes, err = r.StringMap()
	default:
		err = r.Skip()
	}
	return err
}

// GroupRetryPolicy is the 5.x retry policy of a group.
//
// JSON (on-disk and wire format: do not change):
//
//	{"customizedRetryPolicy":{"next":[1000,5000]},"exponentialRetryPolicy":{"initial":5000,"max":7200000,"multiplier":2},"type":"CUSTOMIZED"}
//
// The two policies are written when non-nil; an empty Type is left out.
type GroupRetryPolicy struct {
	Type                   GroupRetryPolicyType
	ExponentialRetryPolicy *ExponentialRetryPolicy
	CustomizedRetryPolicy  *CustomizedRetryPolicy
}

// ExponentialRetryPolicy is the 5.x exponential back-off of a group, in
// milliseconds (Java defaults: initial 5 s, max 2 h, multiplier 2).
type ExponentialRetryPolicy struct {
	Initial    int64
	Max        int64
	Multiplier int64
}

// CustomizedRetryPolicy is the 5.x list of retry delays of a group, in
// milliseconds; Next nil is left out, as Java leaves out null.
type CustomizedRetryPolicy struct {
	Next []int64
}

func (p *GroupRetryPolicy) appendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	if c := p.CustomizedRetryPolicy; c != nil {
		dst = append(fastjson.AppendField(dst, "customizedRetryPolicy"), '{')
		if c.Next != nil {
			dst = append(fastjson.AppendField(dst, "next"), '[')
			for _, n := range c.Next {
				dst = fastjson.AppendLong(fastjson.Comma(dst), n, fastjson.Fastjson)
			}
			dst = append(dst, ']')
		}
		dst = append(dst, '}')
	}
	if e := p.ExponentialRetryPolicy; e != nil {
		dst = append(fastjson.AppendField(dst, "exponentialRetryPolicy"), '{')
		dst = fastjson.AppendIntField(dst, "initial", e.Initial, fastjson.Fastjson)
		dst = fastjson.AppendIntField(dst, "max", e.Max, fastjson.Fastjson)
		dst = fastjson.AppendIntField(dst, "multiplier", e.Multiplier, fastjson.Fastjson)
		dst = append(dst, '}')
	}
	if p.Type != "" {
		dst = fastjson.AppendStringField(dst, "type", string(p.Type), fastjson.Fastjson)
	}
	return append(dst, '}')
}

func readGroupRetryPolicy(r *fastjson.Reader) (GroupRetryPolicy, error) {
	p := GroupRetryPolicy{Type: RetryPolicyCustomized}
	err := r.Object(func(key string) (err error) {
		switch key {
		case "type":
			p.Type, err = readRetryPolicyType(r)
		case "exponentialretrypolicy":
			if !r.Null() {
				p.ExponentialRetryPolicy, err = readExponentialRetryPolicy(r)
			}
		case "customizedretrypolicy":
			if !r.Null() {
				p.CustomizedRetryPolicy, err = readCustomizedRetryPolicy(r)
			}
		default:
			err = r.Skip()
		}
		return err
	})
	return p, err
}

// readRetryPolicyType reads the enum by name or by ordinal, as fastjson
// does; null gives "".
func readRetryPolicyType(r *fastjson.Reader) (GroupRetryPolicyType, error) {
	s, err := r.Enum([]string{string(RetryPolicyExponential), string(RetryPolicyCustomized)})
	return GroupRetryPolicyType(s), err
}

func readExponentialRetryPolicy(r *fastjson.Reader) (*ExponentialRetryPolicy, error) {
	e := &ExponentialRetryPolicy{Initial: 5000, Max: 7200000, Multiplier: 2}
	err := r.Object(func(key string) (err error) {
		switch key {
		case "initial":
			e.Initial, err = r.LongOr(e.Initial)
		case "max":
			e.Max, err = r.LongOr(e.Max)
		case "multiplier":
			e.Multiplier, err = r.LongOr(e.Multiplier)
		default:
			err = r.Skip()
		}
		return err
	})
	return e, err
}

func readCustomizedRetryPolicy(r *fastjson.Reader) (*CustomizedRetryPolicy, error) {
	c := &CustomizedRetryPolicy{Next: DefaultRetryDelays()}
	err := r.Object(func(key string) (err error) {
		if key != "next" {
			return r.Skip()
		}
		if r.Null() {
			c.Next = nil
			return nil
		}
		c.Next, err = readScalars(r, r.Long)
		return err
	})
	return c, err
}

// DefaultRetryDelays is CustomizedRetryPolicy's initializer: 1s 5s 10s
// 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h, in milliseconds.
func DefaultRetryDelays() []int64 {
	return []int64{1000, 5000, 10000, 30000, 60000, 120000, 180000, 240000, 300000, 360000,
		420000, 480000, 540000, 600000, 1200000, 1800000, 3600000, 7200000}
}

// SimpleSubscriptionData is one subscription a 5.x group declared.
//
// JSON (on-disk and wire format: do not change):
//
//	{"expression":"a || b","expressionType":"TAG","topic":"T","version":1700000000000}
type SimpleSubscriptionData struct {
	Topic          string
	ExpressionType string
	Expression     string
	Version        int64
}

func (s *SimpleSubscriptionData) appendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	dst = fastjson.AppendOptionalStringField(dst, "expression", s.Expression, fastjson.Fastjson)
	dst = fastjson.AppendOptionalStringField(dst, "expressionType", s.ExpressionType, fastjson.Fastjson)
	dst = fastjson.AppendOptionalStringField(dst, "topic", s.Topic, fastjson.Fastjson)
	dst = fastjson.AppendIntField(dst, "version", s.Version, fastjson.Fastjson)
	return append(dst, '}')
}

func readSimpleSubscriptionData(r *fastjson.Reader) (SimpleSubscriptionData, error) {
	var s SimpleSubscriptionData
	err := r.Object(func(key string) (err error) {
		switch key {
		case "topic":
			s.Topic, err = r.Str()
		case "expressiontype":
			s.ExpressionType, err = r.Str()
		case "expression":
			s.Expression, err = r.Str()
		case "version":
			s.Version, err = r.LongOr(s.Version)
		default:
			err = r.Skip()
		}
		return err
	})
	return s, err
}

// SubscriptionGroupWrapper is a broker's consumer groups with their
// version: the subscriptionGroup.json file (SubscriptionGroupManager
// serialized whole) and the body of GET_ALL_SUBSCRIPTIONGROUP_CONFIG.
//
// JSON (on-disk and wire format: do not change):
//
//	4.x: {"dataVersion":{...},"subscriptionGroupTable":{"g":{SubscriptionGroupConfig},...}}
//	5.x: {"dataVersion":{...},"forbiddenTable":{"g":{"T":1}},"subscriptionGroupTable":{...}}
//
// ForbiddenTable (5.x, group -> topic -> forbidden bits) is written on
// Line5 only, nil as {}; decoding leaves it nil when the document has
// none.
type SubscriptionGroupWrapper struct {
	DataVersion            DataVersion
	SubscriptionGroupTable map[string]SubscriptionGroupConfig
	ForbiddenTable         map[string]map[string]int32
}

// AppendJSON appends the fastjson form of line.
func (w *SubscriptionGroupWrapper) AppendJSON(dst []byte, line Line) []byte {
	dst = append(dst, '{')
	dst = w.DataVersion.AppendJSONLine(fastjson.AppendField(dst, "dataVersion"), line)
	if line.v5() {
		dst = append(fastjson.AppendField(dst, "forbiddenTable"), '{')
		for _, group := range fastjson.SortedKeys(w.ForbiddenTable) {
			dst = appendStringIntMap(fastjson.AppendStringKey(dst, group, fastjson.Fastjson), w.ForbiddenTable[group])
		}
		dst = append(dst, '}')
	}
	dst = append(fastjson.AppendField(dst, "subscriptionGroupTable"), '{')
	for _, group := range fastjson.SortedKeys(w.SubscriptionGroupTable) {
		c := w.SubscriptionGroupTable[group]
		dst = c.AppendJSON(fastjson.AppendStringKey(dst, group, fastjson.Fastjson), line)
	}
	dst = append(dst, '}')
	return append(dst, '}')
}

// DecodeSubscriptionGroupWrapper parses the 4.x or 5.x document; a null
// document gives an empty table.
func DecodeSubscriptionGroupWrapper(data []byte) (*SubscriptionGroupWrapper, error) {
	w := &SubscriptionGroupWrapper{}
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
			case "subscriptiongrouptable":
				w.SubscriptionGroupTable, err = readConcurrentMap(r, readSubscriptionGroupConfig)
			case "forbiddentable":
				w.ForbiddenTable, err = readConcurrentMap(r, readStringIntMap)
			default:
				err = r.Skip()
			}
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	if w.SubscriptionGroupTable == nil {
		w.SubscriptionGroupTable = map[string]SubscriptionGroupConfig{}
	}
	return w, nil
}

// appendStringIntMap writes a map of ints with its keys sorted.
func appendStringIntMap(dst []byte, m map[string]int32) []byte {
	dst = append(dst, '{')
	for _, k := range fastjson.SortedKeys(m) {
		dst = fastjson.AppendLong(fastjson.AppendStringKey(dst, k, fastjson.Fastjson), int64(m[k]), fastjson.Fastjson)
	}
	return append(dst, '}')
}

func readStringIntMap(r *fastjson.Reader) (map[string]int32, error) {
	if r.Null() {
		return nil, nil
	}
	m := map[string]int32{}
	err := r.Map(func(k string) error {
		if r.Null() {
			return nil
		}
		v, err := r.Int()
		m[k] = v
		return err
	})
	return m, err
}

// sortedIntKeys returns the keys of m in ascending order.
func sortedIntKeys[V any](m map[int32]V) []int32 {
	keys := make([]int32, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return keys
}
