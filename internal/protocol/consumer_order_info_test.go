package protocol

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// javaOrderInfo is the table compat/configgen gives 5.3.3's
// ConsumerOrderInfoManager (testdata/config/java-5.3.3/consumerOrderInfo*).
func javaOrderInfo() *ConsumerOrderInfoWrapper {
	return &ConsumerOrderInfoWrapper{Table: map[string]map[int32]*OrderInfo{
		"TopicTest@group_g": {
			0: {PopTime: javaTS, InvisibleTime: 60000, HasInvisibleTime: true, Offsets: []int64{5, 1, 3},
				NextVisibleTimes: map[int64]int64{6: javaTS + 99999}, ConsumedCounts: map[int64]int32{5: 1, 8: 2},
				LastConsumeTimestamp: javaTS + 1000, CommitOffsetBit: 1, AttemptID: "attempt-1"},
			1: {PopTime: javaTS + 1, Offsets: []int64{7}, LastConsumeTimestamp: javaTS},
		},
		"UnitTopic@group_g": {
			3: {PopTime: javaTS + 2, InvisibleTime: 30000, HasInvisibleTime: true, Offsets: []int64{100, 2},
				ConsumedCounts: map[int64]int32{}, LastConsumeTimestamp: javaTS + 2},
		},
	}}
}

// TestConsumerOrderInfoGoldens: the compact and pretty forms are Java's
// bytes, and both read back to the table.
func TestConsumerOrderInfoGoldens(t *testing.T) {
	for _, c := range []struct {
		sub  string
		want *ConsumerOrderInfoWrapper
	}{
		{"", javaOrderInfo()},
		{"empty", &ConsumerOrderInfoWrapper{Table: map[string]map[int32]*OrderInfo{}}},
	} {
		base := filepath.Join("config", "java-5.3.3", c.sub, "consumerOrderInfo")
		t.Run(base, func(t *testing.T) {
			compact, pretty := fixture(t, base+".compact.json"), fixture(t, base+".json")
			got := c.want.AppendJSON(nil, Line5)
			assert.Equal(t, string(compact), string(got), "compact")
			p, err := fastjson.PrettyLists(nil, got, OrderInfoLists...)
			require.NoError(t, err)
			assert.Equal(t, string(pretty), string(p), "pretty")
			for _, in := range [][]byte{pretty, compact} {
				back, err := DecodeConsumerOrderInfoWrapper(in)
				require.NoError(t, err)
				assert.Equal(t, c.want, back)
			}
		})
	}
}

// TestConsumerOrderInfoReadLeniently: the reader takes what fastjson
// takes: quoted numeric keys, OrderInfos of older files (no i, oc, ot, a),
// unknown keys, numbers as strings, null maps.
func TestConsumerOrderInfoReadLeniently(t *testing.T) {
	w, err := DecodeConsumerOrderInfoWrapper([]byte(`{"extra":[1,{"x":2}],"table":{
		"T@G":{"1":{"popTime":"5","o":[7,1],"l":9,"cm":"2","unknown":{"a":[]}},
			2:{"popTime":6,"i":null,"o":[8],"ot":{"8":11},"oc":{"8":"3"},"a":null},
			3:{"i":"","ot":null,"oc":null}},
		"U@G":{}}}`))
	require.NoError(t, err)
	assert.Equal(t, map[string]map[int32]*OrderInfo{
		"T@G": {
			1: {PopTime: 5, Offsets: []int64{7, 1}, LastConsumeTimestamp: 9, CommitOffsetBit: 2},
			2: {PopTime: 6, Offsets: []int64{8}, NextVisibleTimes: map[int64]int64{8: 11}, ConsumedCounts: map[int64]int32{8: 3}},
			3: {},
		},
		"U@G": {},
	}, w.Table)
	assert.Equal(t, int64(8), w.Table["T@G"][1].QueueOffset(1))

	for _, in := range []string{`null`, `{}`, `{"table":null}`} {
		w, err := DecodeConsumerOrderInfoWrapper([]byte(in))
		require.NoError(t, err, in)
		assert.NotNil(t, w.Table, in)
		assert.Empty(t, w.Table, in)
	}
	for _, in := range []string{
		`{"table":{"T@G":{0:null}}}`,           // a ConcurrentHashMap takes no null
		`{"table":{"T@G":{4294967296:{}}}}`,    // an Integer key
		`{"table":{"T@G":{0:{"o":{}}}}}`,       // a List
		`{"table":{"T@G":{0:{"popTime":[]}}}}`, // a long
	} {
		_, err := DecodeConsumerOrderInfoWrapper([]byte(in))
		assert.Error(t, err, in)
	}
}

func TestOrderInfoClone(t *testing.T) {
	o := javaOrderInfo().Table["TopicTest@group_g"][0]
	c := o.Clone()
	assert.Equal(t, o, c)
	c.Offsets[0], c.NextVisibleTimes[6], c.ConsumedCounts[5] = 1, 2, 3
	assert.Equal(t, javaOrderInfo().Table["TopicTest@group_g"][0], o, "the clone shares nothing")
}
