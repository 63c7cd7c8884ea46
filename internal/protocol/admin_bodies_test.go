package protocol

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

func TestConsumerConnectionFastjsonForm(t *testing.T) {
	c := &ConsumerConnection{
		ConnectionSet: []Connection{
			{ClientID: "b@2", ClientAddr: "127.0.0.1:2", Language: "JAVA", Version: 413},
			{ClientID: "a@1", ClientAddr: "127.0.0.1:1", Language: "GO", Version: 1},
		},
		SubscriptionTable: map[string]SubscriptionData{"T": {Topic: "T", SubString: "A", TagsSet: []string{"A"}, CodeSet: []int32{65}, ExpressionType: "TAG", SubVersion: 7}},
		ConsumeType:       "CONSUME_PASSIVELY", MessageModel: "CLUSTERING", ConsumeFromWhere: "CONSUME_FROM_LAST_OFFSET",
	}
	assert.Equal(t, `{"connectionSet":[{"clientAddr":"127.0.0.1:1","clientId":"a@1","language":"GO","version":1},`+
		`{"clientAddr":"127.0.0.1:2","clientId":"b@2","language":"JAVA","version":413}],`+
		`"consumeFromWhere":"CONSUME_FROM_LAST_OFFSET","consumeType":"CONSUME_PASSIVELY","messageModel":"CLUSTERING",`+
		`"subscriptionTable":{"T":{"classFilterMode":false,"codeSet":[65],"expressionType":"TAG","subString":"A","subVersion":7,"tagsSet":["A"],"topic":"T"}}}`,
		string(c.AppendJSON(nil)))
	assert.Equal(t, `{"connectionSet":[],"subscriptionTable":{}}`, string((&ConsumerConnection{}).AppendJSON(nil)))
	assert.Equal(t, `{"connectionSet":[]}`, string((&ProducerConnection{}).AppendJSON(nil)))
	assert.Equal(t, `{"classFilterMode":false,"codeSet":[],"subVersion":0,"tagsSet":[]}`, string((&SubscriptionData{}).AppendJSON(nil)))
}

func TestTopicStatsTableFastjsonForm(t *testing.T) {
	s := &TopicStatsTable{OffsetTable: map[MessageQueue]TopicOffset{
		{Topic: "T", BrokerName: "b", QueueID: 1}: {MinOffset: 1, MaxOffset: 5, LastUpdateTimestamp: 9},
		{Topic: "T", BrokerName: "b", QueueID: 0}: {},
	}}
	want := `{"offsetTable":{{"brokerName":"b","queueId":0,"topic":"T"}:{"lastUpdateTimestamp":0,"maxOffset":0,"minOffset":0},` +
		`{"brokerName":"b","queueId":1,"topic":"T"}:{"lastUpdateTimestamp":9,"maxOffset":5,"minOffset":1}}`
	assert.Equal(t, want+`}`, string(s.AppendJSON(nil, Line4)))
	assert.Equal(t, want+`,"topicPutTps":0.0}`, string(s.AppendJSON(nil, Line5)))
}

func TestGroupListAndQuerySubscriptionFastjsonForm(t *testing.T) {
	assert.Equal(t, `{"groupList":[]}`, string((&GroupList{}).AppendJSON(nil)))
	assert.Equal(t, `{"groupList":["a","b"]}`, string((&GroupList{GroupList: []string{"b", "a"}}).AppendJSON(nil)))
	assert.Equal(t, `{"group":"g","topic":"T"}`, string((&QuerySubscriptionResponseBody{Group: "g", Topic: "T"}).AppendJSON(nil)))
	b := &QuerySubscriptionResponseBody{Group: "g", Topic: "T", SubscriptionData: &SubscriptionData{Topic: "T", SubString: "*", ExpressionType: "TAG"}}
	assert.Equal(t, `{"group":"g","subscriptionData":{"classFilterMode":false,"codeSet":[],"expressionType":"TAG","subString":"*","subVersion":0,"tagsSet":[],"topic":"T"},"topic":"T"}`,
		string(b.AppendJSON(nil)))
}

func TestSubscriptionGroupListDecodesTheJavaBody(t *testing.T) {
	// As 5.3.3's SubscriptionGroupList.encode() writes two configs.
	body := `{"groupConfigList":[{"attributes":{},"brokerId":0,"consumeBroadcastEnable":false,"consumeEnable":true,` +
		`"consumeFromMinEnable":true,"consumeMessageOrderly":false,"consumeTimeoutMinute":15,"groupName":"g1",` +
		`"groupRetryPolicy":{"type":"CUSTOMIZED"},"groupSysFlag":0,"notifyConsumerIdsChangedEnable":true,` +
		`"retryMaxTimes":3,"retryQueueNums":1,"subscriptionDataSet":[],"whichBrokerWhenConsumeSlowly":1},` +
		`{"groupName":"g2","retryMaxTimes":5}]}`
	l, err := DecodeSubscriptionGroupList([]byte(body))
	require.NoError(t, err)
	require.Len(t, l.GroupConfigList, 2)
	assert.Equal(t, "g1", l.GroupConfigList[0].GroupName)
	assert.False(t, l.GroupConfigList[0].ConsumeBroadcastEnable)
	assert.Equal(t, int32(3), l.GroupConfigList[0].RetryMaxTimes)
	assert.Equal(t, "g2", l.GroupConfigList[1].GroupName)
	assert.Equal(t, int32(5), l.GroupConfigList[1].RetryMaxTimes)
	assert.True(t, l.GroupConfigList[1].ConsumeEnable, "absent properties keep Java's defaults")

	for _, empty := range []string{`null`, `{}`, `{"groupConfigList":null}`} {
		l, err := DecodeSubscriptionGroupList([]byte(empty))
		require.NoError(t, err, empty)
		assert.Nil(t, l.GroupConfigList, empty)
	}
	_, err = DecodeSubscriptionGroupList([]byte(`{"groupConfigList":[1]}`))
	assert.ErrorIs(t, err, fastjson.ErrMalformed)
}
