package protocol

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// The files of testdata/config/java-<version>/ were written by the real
// rocketmq-broker classes (compat/configgen, see the README there):
// <name>.json is encode(true), what ConfigManager.persist writes, and
// <name>.compact.json is encode(). Java writes map entries in hash order;
// the generator picked keys whose hash order is sorted and checks it, so
// this package's sorted output must equal Java's byte for byte.

const javaTS = 1700000000000

var javaLines = []struct {
	dir  string
	line Line
}{
	{"java-4.9.7", Line4},
	{"java-5.3.3", Line5},
}

// configDoc is one config document type: its encoder and decoder.
type configDoc struct {
	name   string
	encode func(v any, line Line) []byte
	decode func(data []byte) (any, error)
	want   func(line Line) any
	empty  func(line Line) any
}

func configDocs() []configDoc {
	return []configDoc{
		{"topics",
			func(v any, l Line) []byte { return v.(*TopicConfigSerializeWrapper).AppendJSONLine(nil, l) },
			func(d []byte) (any, error) { return DecodeTopicConfigSerializeWrapper(d) },
			func(l Line) any { return javaTopics(l) },
			func(l Line) any {
				return &TopicConfigSerializeWrapper{DataVersion: javaVersion(l, 0, 0), TopicConfigTable: map[string]TopicConfig{}}
			}},
		{"consumerOffset",
			func(v any, l Line) []byte { return v.(*ConsumerOffsetSerializeWrapper).AppendJSON(nil, l) },
			func(d []byte) (any, error) { return DecodeConsumerOffsetSerializeWrapper(d) },
			func(l Line) any { return javaOffsets(l) },
			func(l Line) any {
				return &ConsumerOffsetSerializeWrapper{DataVersion: javaVersion5(l, 0, 0), OffsetTable: map[string]map[int32]int64{}}
			}},
		{"delayOffset",
			func(v any, l Line) []byte { return v.(*DelayOffsetSerializeWrapper).AppendJSON(nil, l) },
			func(d []byte) (any, error) { return DecodeDelayOffsetSerializeWrapper(d) },
			func(l Line) any { return javaDelay(l) },
			func(l Line) any {
				return &DelayOffsetSerializeWrapper{DataVersion: javaVersion5(l, 0, 0), OffsetTable: map[int32]int64{}}
			}},
		{"subscriptionGroup",
			func(v any, l Line) []byte { return v.(*SubscriptionGroupWrapper).AppendJSON(nil, l) },
			func(d []byte) (any, error) { return DecodeSubscriptionGroupWrapper(d) },
			func(l Line) any { return javaGroups(l) },
			func(l Line) any {
				w := &SubscriptionGroupWrapper{DataVersion: javaVersion(l, 0, 0), SubscriptionGroupTable: map[string]SubscriptionGroupConfig{}}
				if l == Line5 {
					w.ForbiddenTable = map[string]map[string]int32{}
				}
				return w
			}},
		{"consumerFilter",
			func(v any, l Line) []byte { return v.(*ConsumerFilterWrapper).AppendJSON(nil, l) },
			func(d []byte) (any, error) { return DecodeConsumerFilterWrapper(d) },
			func(Line) any { return javaFilters() },
			func(Line) any { return &ConsumerFilterWrapper{FilterDataByTopic: map[string]FilterDataMapByTopic{}} }},
	}
}

// javaVersion is the DataVersion the generator sets; 4.x has no
// stateVersion, and its decoder leaves it 0.
func javaVersion(line Line, counter, state int64) DataVersion {
	if line != Line5 {
		state = 0
	}
	return DataVersion{Counter: counter, StateVersion: state, Timestamp: javaTS}
}

// javaVersion5 is javaVersion for documents that have a dataVersion
// only from 5.x on.
func javaVersion5(line Line, counter, state int64) DataVersion {
	if line != Line5 {
		return DataVersion{}
	}
	return javaVersion(line, counter, state)
}

// attrs is what the decoder of line gives for a TopicConfig's or a
// group's attributes: nil on 4.x, which has none.
func attrs(line Line, kv ...string) map[string]string {
	if line != Line5 {
		return nil
	}
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

func javaTopics(line Line) *TopicConfigSerializeWrapper {
	retry := NewTopicConfig("%RETRY%group_g")
	retry.ReadQueueNums, retry.WriteQueueNums, retry.Attributes = 1, 1, attrs(line)
	test := NewTopicConfig("TopicTest")
	test.ReadQueueNums, test.WriteQueueNums, test.Attributes = 4, 4, attrs(line, "message.type", "NORMAL")
	unit := NewTopicConfig("UnitTopic")
	unit.ReadQueueNums, unit.WriteQueueNums, unit.TopicSysFlag, unit.Order = 8, 8, 3, true
	unit.TopicFilterType = MultiTag
	unit.Attributes = attrs(line, "message.type", "FIFO", "queue.type", "SimpleCQ")
	return &TopicConfigSerializeWrapper{DataVersion: javaVersion(line, 3, 2),
		TopicConfigTable: map[string]TopicConfig{retry.TopicName: retry, test.TopicName: test, unit.TopicName: unit}}
}

func javaOffsets(line Line) *ConsumerOffsetSerializeWrapper {
	return &ConsumerOffsetSerializeWrapper{DataVersion: javaVersion5(line, 5, 1), OffsetTable: map[string]map[int32]int64{
		"TopicTest@group_g":      {0: 12, 1: 7, 2: 0, 3: 1234567890123},
		"%RETRY%group_g@group_g": {0: 3},
		"odd@h@a":                {},
	}}
}

func javaDelay(line Line) *DelayOffsetSerializeWrapper {
	w := &DelayOffsetSerializeWrapper{DataVersion: javaVersion5(line, 7, 0), OffsetTable: map[int32]int64{}}
	for level := int32(1); level <= 18; level++ {
		w.OffsetTable[level] = 0
	}
	w.OffsetTable[3] = 5
	return w
}

func javaGroups(line Line) *SubscriptionGroupWrapper {
	a := NewSubscriptionGroupConfig("group_a")
	a.Attributes = attrs(line)
	b := NewSubscriptionGroupConfig("group_b")
	b.ConsumeEnable, b.ConsumeFromMinEnable, b.ConsumeBroadcastEnable = false, false, false
	b.RetryQueueNums, b.RetryMaxTimes, b.BrokerID, b.WhichBrokerWhenConsumeSlowly = 2, 3, 1, 2
	b.NotifyConsumerIDsChangedEnable = false
	b.Attributes = attrs(line, "key", "value")
	w := &SubscriptionGroupWrapper{DataVersion: javaVersion(line, 2, 1)}
	if line == Line5 {
		b.ConsumeMessageOrderly, b.GroupSysFlag, b.ConsumeTimeoutMinute = true, 1, 30
		b.GroupRetryPolicy = GroupRetryPolicy{Type: RetryPolicyExponential,
			ExponentialRetryPolicy: &ExponentialRetryPolicy{Initial: 1000, Max: 60000, Multiplier: 3},
			CustomizedRetryPolicy:  &CustomizedRetryPolicy{Next: []int64{1000, 2000}}}
		b.SubscriptionDataSet = []SimpleSubscriptionData{{Topic: "TopicTest", ExpressionType: "TAG", Expression: "a || b", Version: javaTS}}
		w.ForbiddenTable = map[string]map[string]int32{"group_b": {"TopicTest": 1}}
	}
	w.SubscriptionGroupTable = map[string]SubscriptionGroupConfig{"group_a": a, "group_b": b}
	return w
}

func javaFilters() *ConsumerFilterWrapper {
	data := func(group, expr string, dead int64, bloom *BloomFilterData) ConsumerFilterData {
		return ConsumerFilterData{ConsumerGroup: group, Topic: "TopicTest", Expression: expr, ExpressionType: "SQL92",
			BornTime: javaTS, DeadTime: dead, BloomFilterData: bloom, ClientVersion: 395}
	}
	return &ConsumerFilterWrapper{FilterDataByTopic: map[string]FilterDataMapByTopic{"TopicTest": {Topic: "TopicTest",
		GroupFilterData: map[string]ConsumerFilterData{
			"group_a": data("group_a", "a > 5 AND b = '\u4e2d\u6587/x'", 0, &BloomFilterData{BitPos: []int32{1, 5, 9}, BitNum: 64}),
			"group_b": data("group_b", "c = 'q\"uote\\\\ \t'", javaTS+1000, nil),
		}}}}
}

// TestConfigGoldens: for every document, line and content (full and
// empty), the compact encoding, the pretty form and decoding agree with
// what Java wrote.
func TestConfigGoldens(t *testing.T) {
	for _, jl := range javaLines {
		for _, doc := range configDocs() {
			for _, c := range []struct {
				sub  string
				want any
			}{{"", doc.want(jl.line)}, {"empty", doc.empty(jl.line)}} {
				base := filepath.Join("config", jl.dir, c.sub, doc.name)
				t.Run(base, func(t *testing.T) {
					compact := fixture(t, base+".compact.json")
					pretty := fixture(t, base+".json")
					got := doc.encode(c.want, jl.line)
					assert.Equal(t, string(compact), string(got), "compact")
					p, err := fastjson.Pretty(nil, got)
					require.NoError(t, err)
					assert.Equal(t, string(pretty), string(p), "pretty")
					for _, in := range [][]byte{pretty, compact} {
						back, err := doc.decode(in)
						require.NoError(t, err)
						assert.Equal(t, c.want, back)
					}
				})
			}
		}
	}
}

// TestConfigCrossLine: a document read from one line's file is written
// in the other line's form, as a Java broker of that line would.
func TestConfigCrossLine(t *testing.T) {
	w, err := DecodeSubscriptionGroupWrapper(fixture(t, "config/java-5.3.3/subscriptionGroup.json"))
	require.NoError(t, err)
	assert.Equal(t, string(fixture(t, "config/java-4.9.7/subscriptionGroup.compact.json")), string(w.AppendJSON(nil, Line4)))
	topics, err := DecodeTopicConfigSerializeWrapper(fixture(t, "config/java-5.3.3/topics.json"))
	require.NoError(t, err)
	assert.Equal(t, string(fixture(t, "config/java-4.9.7/topics.compact.json")), string(topics.AppendJSONLine(nil, Line4)))
	// 4.x topics written as 5.x get attributes {} where Java's field
	// initializer would have put an empty map.
	topics, err = DecodeTopicConfigSerializeWrapper(fixture(t, "config/java-4.9.7/topics.json"))
	require.NoError(t, err)
	assert.Contains(t, string(topics.AppendJSONLine(nil, Line5)), `"%RETRY%group_g":{"attributes":{},"order":false`)
	offsets, err := DecodeConsumerOffsetSerializeWrapper(fixture(t, "config/java-5.3.3/consumerOffset.json"))
	require.NoError(t, err)
	assert.Equal(t, string(fixture(t, "config/java-4.9.7/consumerOffset.compact.json")), string(offsets.AppendJSON(nil, Line4)))
}

// TestConfigBuiltinGroups reads the groups of a fresh Java broker, in
// Java's own hash order, and writes them back sorted.
func TestConfigBuiltinGroups(t *testing.T) {
	for _, jl := range javaLines {
		data := fixture(t, filepath.Join("config", jl.dir, "builtin", "subscriptionGroup.json"))
		w, err := DecodeSubscriptionGroupWrapper(data)
		require.NoError(t, err, jl.dir)
		want := []string{"CID_ONSAPI_OWNER", "CID_ONSAPI_PERMISSION", "CID_ONSAPI_PULL", "CID_ONS-HTTP-PROXY",
			"FILTERSRV_CONSUMER", "SELF_TEST_C_GROUP", "TOOLS_CONSUMER"}
		if jl.line == Line5 {
			want = append(want, "CID_RMQ_SYS_TRANS")
		}
		assert.ElementsMatch(t, want, fastjson.SortedKeys(w.SubscriptionGroupTable), jl.dir)
		assert.True(t, w.SubscriptionGroupTable["CID_ONSAPI_OWNER"].ConsumeBroadcastEnable)
		assert.Equal(t, NewSubscriptionGroupConfig("TOOLS_CONSUMER"), withoutAttrs(w.SubscriptionGroupTable["TOOLS_CONSUMER"]))
		p, err := fastjson.Pretty(nil, w.AppendJSON(nil, jl.line))
		require.NoError(t, err)
		assert.Equal(t, len(data), len(p), "same bytes in another order")
		back, err := DecodeSubscriptionGroupWrapper(p)
		require.NoError(t, err)
		assert.Equal(t, w, back)
	}
}

func withoutAttrs(c SubscriptionGroupConfig) SubscriptionGroupConfig {
	c.Attributes = nil
	return c
}

// TestConfigLenientRead: what fastjson accepts in a hand-edited or
// foreign file: a BOM, quoted integer keys, unknown and derived
// properties, other property spellings, null tables, enum ordinals.
func TestConfigLenientRead(t *testing.T) {
	offsets, err := DecodeConsumerOffsetSerializeWrapper([]byte("\xEF\xBB\xBF{\"offsetTable\":{\"T@g\":{\"0\":\"5\",1:6},\n" +
		"'x@y':{}},\"groupTopicMap\":{\"g\":[\"T\"]},\"future\":[1,{\"a\":2}],\"dataVersion\":null}"))
	require.NoError(t, err)
	assert.Equal(t, map[string]map[int32]int64{"T@g": {0: 5, 1: 6}, "x@y": {}}, offsets.OffsetTable)

	delay, err := DecodeDelayOffsetSerializeWrapper([]byte(`{"OffsetTable":{"1":0,18:99,},"data_version":{"counter":"2"}}`))
	require.NoError(t, err)
	assert.Equal(t, map[int32]int64{1: 0, 18: 99}, delay.OffsetTable)
	assert.Equal(t, int64(2), delay.DataVersion.Counter)

	groups, err := DecodeSubscriptionGroupWrapper([]byte(`{"subscriptionGroupTable":{"g":{"groupName":"g","groupRetryPolicy":{"type":0,
		"customizedRetryPolicy":{}},"retryMaxTimes":"3","unknown":true}},"forbiddenTable":null}`))
	require.NoError(t, err)
	g := groups.SubscriptionGroupTable["g"]
	assert.Equal(t, RetryPolicyExponential, g.GroupRetryPolicy.Type)
	assert.Equal(t, DefaultRetryDelays(), g.GroupRetryPolicy.CustomizedRetryPolicy.Next)
	assert.Equal(t, int32(3), g.RetryMaxTimes)
	assert.Len(t, groups.SubscriptionGroupTable, 1)
	assert.Nil(t, groups.ForbiddenTable)

	filters, err := DecodeConsumerFilterWrapper([]byte(`{"filterDataByTopic":{"T":{"topic":"T","groupFilterData":{"g":{"dead":true,
		"bornTime":5,"bloomFilterData":{"bitPos":null,"bitNum":"8"}}}}}}`))
	require.NoError(t, err)
	d := filters.FilterDataByTopic["T"].GroupFilterData["g"]
	assert.Equal(t, ConsumerFilterData{BornTime: 5, BloomFilterData: &BloomFilterData{BitNum: 8}}, d)
	assert.False(t, d.IsDead(), "dead is derived, not read")

	for _, in := range []string{"null", " null "} {
		o, err := DecodeConsumerOffsetSerializeWrapper([]byte(in))
		require.NoError(t, err)
		assert.Empty(t, o.OffsetTable)
	}

	// The tables are ConcurrentHashMaps in Java, which refuse a null value.
	_, err = DecodeConsumerOffsetSerializeWrapper([]byte(`{"offsetTable":{"T@g":{"0":5,"2":null}}}`))
	assert.ErrorIs(t, err, fastjson.ErrMalformed)
	_, err = DecodeSubscriptionGroupWrapper([]byte(`{"subscriptionGroupTable":{"n":null}}`))
	assert.ErrorIs(t, err, fastjson.ErrMalformed)
}

func TestConfigMalformed(t *testing.T) {
	for _, in := range []string{``, `{"offsetTable":{"T@g":{x:1}}}`, `{"offsetTable":{"T@g":{99999999999:1}}}`,
		`{"offsetTable":{"T@g":[1]}}`, `{"offsetTable":{"T@g":{0:1}}`, `{"offsetTable":"x"}`} {
		_, err := DecodeConsumerOffsetSerializeWrapper([]byte(in))
		assert.ErrorIs(t, err, fastjson.ErrMalformed, in)
	}
	_, err := DecodeSubscriptionGroupWrapper([]byte(`{"subscriptionGroupTable":{"g":{"retryMaxTimes":[]}}}`))
	assert.ErrorIs(t, err, fastjson.ErrMalformed)
	_, err = DecodeConsumerFilterWrapper([]byte(`{"filterDataByTopic":{"T":{"groupFilterData":{"g":{"bloomFilterData":{"bitPos":{}}}}}}}`))
	assert.ErrorIs(t, err, fastjson.ErrMalformed)
	_, err = DecodeDelayOffsetSerializeWrapper([]byte(`{"offsetTable":{1:}}`))
	assert.ErrorIs(t, err, fastjson.ErrMalformed)
}

func TestGroupTopicMapSplitsLikeJava(t *testing.T) {
	w := &ConsumerOffsetSerializeWrapper{OffsetTable: map[string]map[int32]int64{
		"T@g": {}, "U@g": {}, "a@b@c": {}, "x@": {}, "@y": {}, "t@h@": {}, "": {},
	}}
	assert.Equal(t, map[string][]string{"g": {"T", "U"}, "y": {""}, "h": {"t"}}, w.GroupTopicMap())
}

func TestSubscriptionGroupConfigRoundTrip(t *testing.T) {
	for _, line := range []Line{Line4, Line5} {
		for _, c := range javaGroups(line).SubscriptionGroupTable {
			back, err := DecodeSubscriptionGroupConfig(c.AppendJSON(nil, line))
			require.NoError(t, err)
			assert.Equal(t, c, back)
		}
	}
	c := NewSubscriptionGroupConfig("")
	c.SubscriptionDataSet = []SimpleSubscriptionData{}
	c.GroupRetryPolicy = GroupRetryPolicy{CustomizedRetryPolicy: &CustomizedRetryPolicy{}}
	assert.Equal(t, `{"attributes":{},"brokerId":0,"consumeBroadcastEnable":true,"consumeEnable":true,"consumeFromMinEnable":true,`+
		`"consumeMessageOrderly":false,"consumeTimeoutMinute":15,"groupRetryPolicy":{"customizedRetryPolicy":{}},"groupSysFlag":0,`+
		`"notifyConsumerIdsChangedEnable":true,"retryMaxTimes":16,"retryQueueNums":1,"subscriptionDataSet":[],"whichBrokerWhenConsumeSlowly":1}`,
		string(c.AppendJSON(nil, Line5)))
}

func TestDataVersionLines(t *testing.T) {
	v := DataVersion{Counter: 3, StateVersion: 9, Timestamp: javaTS}
	assert.Equal(t, `{"counter":3,"timestamp":1700000000000}`, string(v.AppendJSONLine(nil, Line4)))
	assert.Equal(t, `{"counter":3,"timestamp":1700000000000}`, string(v.AppendJSONLine(nil, 0)))
	assert.Equal(t, `{"counter":3,"stateVersion":9,"timestamp":1700000000000}`, string(v.AppendJSONLine(nil, Line5)))
	assert.Equal(t, "4.x", Line4.String())
	assert.Equal(t, "5.x", Line5.String())
}

// FuzzDecodeConfigDocuments feeds every config decoder arbitrary bytes: no
// panic, and whatever decodes re-encodes, for both lines, into a document
// that decodes again and pretty-prints.
func FuzzDecodeConfigDocuments(f *testing.F) {
	for _, jl := range javaLines {
		for _, doc := range configDocs() {
			f.Add(fixture(f, filepath.Join("config", jl.dir, doc.name+".json")))
		}
	}
	f.Add([]byte(`{"offsetTable":{"a@b":{"1":2,}},'subscriptionGroupTable':{g:{}}}`))
	f.Fuzz(func(t *testing.T, in []byte) {
		for _, doc := range configDocs() {
			v, err := doc.decode(in)
			if err != nil {
				continue
			}
			for _, line := range []Line{Line4, Line5} {
				out := doc.encode(v, line)
				if _, err := doc.decode(out); err != nil {
					t.Fatalf("%s: re-encoded %q does not decode: %v", doc.name, out, err)
				}
				if _, err := fastjson.Pretty(nil, out); err != nil {
					t.Fatalf("%s: %q does not pretty-print: %v", doc.name, out, err)
				}
			}
		}
	})
}

// TestConsumerFilterDataHowLongAfterDeath: -1 while alive, else the time
// since deadTime.
func TestConsumerFilterDataHowLongAfterDeath(t *testing.T) {
	alive := ConsumerFilterData{BornTime: 100, DeadTime: 0}
	assert.Equal(t, int64(-1), alive.HowLongAfterDeath(500))
	dead := ConsumerFilterData{BornTime: 100, DeadTime: 100}
	assert.Equal(t, int64(400), dead.HowLongAfterDeath(500))
}
