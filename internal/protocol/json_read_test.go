package protocol

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// Inputs fastjson accepts from Java peers (or from hand-edited files).
func TestLenientJSON(t *testing.T) {
	cases := map[string]string{
		"bom and unquoted keys": "\xEF\xBB\xBF{topicList:['a', \"b\",],brokerAddr:'x'}",
		"trailing comma":        `{"topicList":["a","b"],"brokerAddr":"x",}`,
		"smart match":           `{"TopicList":["a","b"],"broker_addr":"x","unknown":{"$ref":"$.x"}}`,
		"escapes":               `{"topicList":["\u0061",'b'],"brokerAddr":"\x78"}`,
	}
	for name, in := range cases {
		l, err := DecodeTopicList([]byte(in))
		require.NoError(t, err, name)
		assert.Equal(t, &TopicList{TopicList: []string{"a", "b"}, BrokerAddr: "x"}, l, name)
	}
}

func TestLenientScalars(t *testing.T) {
	w, err := DecodeTopicConfigSerializeWrapper([]byte(`{"dataVersion":{"counter":"7","timestamp":1.7E12},
		"topicConfigTable":{"T":{"perm":"6","readQueueNums":4.9,"order":"true","topicFilterType":1,"topicName":123}}}`))
	require.NoError(t, err)
	assert.Equal(t, DataVersion{Counter: 7, Timestamp: 1700000000000}, w.DataVersion)
	c := w.TopicConfigTable["T"]
	assert.Equal(t, TopicConfig{TopicName: "123", ReadQueueNums: 4, WriteQueueNums: 16, Perm: 6, TopicFilterType: MultiTag, Order: true}, c)
}

func TestMalformedJSON(t *testing.T) {
	for _, in := range []string{``, `{`, `{"topicList":["a"]`, `{"topicList":["a"]} x`, `{"topicList":"a"}`,
		`{"topicList":[1,]]}`, `{"a":"\q"}`, `{"a":"\u12"}`, `[`, `{"topicList":["a"],"x":{"y":[}}`} {
		_, err := DecodeTopicList([]byte(in))
		assert.ErrorIs(t, err, fastjson.ErrMalformed, in)
	}
	_, err := DecodeTopicConfigSerializeWrapper([]byte(`{"topicConfigTable":{"T":{"perm":99999999999}}}`))
	assert.ErrorIs(t, err, fastjson.ErrMalformed)
	deep := make([]byte, 0, 3000)
	for i := 0; i < 1000; i++ {
		deep = append(deep, '[')
	}
	_, err = DecodeTopicList(append([]byte(`{"x":`), deep...))
	assert.ErrorIs(t, err, fastjson.ErrMalformed)
}
