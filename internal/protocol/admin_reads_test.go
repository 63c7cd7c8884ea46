package protocol

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAdminBodiesReadBackWhatTheBrokerWrites(t *testing.T) {
	q := MessageQueue{Topic: "T", BrokerName: "broker-a", QueueID: 3}
	for _, line := range []Line{Line4, Line5} {
		ts := &TopicStatsTable{OffsetTable: map[MessageQueue]TopicOffset{q: {MinOffset: 1, MaxOffset: 9, LastUpdateTimestamp: 1700000000000}}}
		if line == Line5 {
			ts.TopicPutTps = 1.5
		}
		got, err := DecodeTopicStatsTable(ts.AppendJSON(nil, line))
		require.NoError(t, err)
		assert.Equal(t, ts, got, line)

		cs := &ConsumeStats{ConsumeTps: 0.4, OffsetTable: map[MessageQueue]OffsetWrapper{q: {BrokerOffset: 9, ConsumerOffset: 7, LastTimestamp: 1700000000000}}}
		if line == Line5 {
			w := cs.OffsetTable[q]
			w.PullOffset = 8
			cs.OffsetTable[q] = w
		}
		gotCS, err := DecodeConsumeStats(cs.AppendJSON(nil, line))
		require.NoError(t, err)
		assert.Equal(t, cs, gotCS, line)
	}
	cc := &ConsumerConnection{ConnectionSet: []Connection{{ClientID: "10.0.0.1@1", ClientAddr: "127.0.0.1:5", Language: "JAVA", Version: 409}},
		SubscriptionTable: map[string]SubscriptionData{"T": {Topic: "T", SubString: "*", ExpressionType: "TAG", TagsSet: []string{}, CodeSet: []int32{}, SubVersion: 1}},
		ConsumeType:       "CONSUME_PASSIVELY", MessageModel: "CLUSTERING", ConsumeFromWhere: "CONSUME_FROM_FIRST_OFFSET"}
	gotCC, err := DecodeConsumerConnection(cc.AppendJSON(nil))
	require.NoError(t, err)
	assert.Equal(t, cc, gotCC)
	gotPC, err := DecodeProducerConnection((&ProducerConnection{ConnectionSet: cc.ConnectionSet}).AppendJSON(nil))
	require.NoError(t, err)
	assert.Equal(t, cc.ConnectionSet, gotPC.ConnectionSet)
	gl, err := DecodeGroupList((&GroupList{GroupList: []string{"b", "a"}}).AppendJSON(nil))
	require.NoError(t, err)
	assert.Equal(t, []string{"a", "b"}, gl.GroupList)
}

func TestJavaStrings(t *testing.T) {
	tc := NewTopicConfig("T")
	assert.Equal(t, "TopicConfig [topicName=T, readQueueNums=16, writeQueueNums=16, perm=RW-, topicFilterType=SINGLE_TAG, topicSysFlag=0, order=false]", tc.JavaString(Line4))
	tc.Attributes = map[string]string{"+message.type": "NORMAL"}
	assert.Equal(t, "TopicConfig [topicName=T, readQueueNums=16, writeQueueNums=16, perm=RW-, topicFilterType=SINGLE_TAG, topicSysFlag=0, order=false, attributes={+message.type=NORMAL}]", tc.JavaString(Line5))
	assert.Equal(t, "R-X", PermString(PermRead|PermInherit))
}
