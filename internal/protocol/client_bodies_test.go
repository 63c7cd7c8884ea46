package protocol

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// The shapes clients other than Java's write: the Go client's codeSet of
// strings and its one heartbeat for every group of a process; a C++
// client's subVersion as a string; enums by ordinal.
func TestHeartbeatOfEveryClientShape(t *testing.T) {
	bodies := map[string]string{
		"java": `{"clientID":"10.0.0.1@1","consumerDataSet":[{"consumeFromWhere":"CONSUME_FROM_LAST_OFFSET",` +
			`"consumeType":"CONSUME_PASSIVELY","groupName":"G","messageModel":"CLUSTERING","subscriptionDataSet":[` +
			`{"classFilterMode":false,"codeSet":[2598919,2598921],"expressionType":"TAG","subString":"TagA || TagC",` +
			`"subVersion":1700000000000,"tagsSet":["TagA","TagC"],"topic":"T"}],"unitMode":false}],` +
			`"producerDataSet":[{"groupName":"P"}]}`,
		"go": `{"clientID":"10.0.0.1@1","producerDataSet":[{"groupName":"P"}],"consumerDataSet":[{"groupName":"G",` +
			`"consumeType":"CONSUME_PASSIVELY","messageModel":"CLUSTERING","consumeFromWhere":"CONSUME_FROM_LAST_OFFSET",` +
			`"subscriptionDataSet":[{"classFilterMode":false,"topic":"T","subString":"TagA || TagC","tagsSet":["TagA","TagC"],` +
			`"codeSet":["2598919","2598921"],"subVersion":1700000000000,"expressionType":"TAG"}],"unitMode":false}]}`,
		"string scalars and ordinals": `{clientID:'10.0.0.1@1',consumerDataSet:[{consumeFromWhere:0,consumeType:1,groupName:'G',` +
			`messageModel:1,subscriptionDataSet:[{classFilterMode:"false",codeSet:[2598919,"2598921"],expressionType:'TAG',` +
			`subString:'TagA || TagC',subVersion:"1700000000000",tagsSet:['TagA','TagC'],topic:'T',extra:{a:[1]}}],` +
			`unitMode:0}],producerDataSet:[{groupName:'P'}],heartbeatFingerprint:0,}`,
	}
	want := &HeartbeatData{ClientID: "10.0.0.1@1",
		ConsumerDataSet: []ConsumerData{{ConsumeFromWhere: "CONSUME_FROM_LAST_OFFSET", ConsumeType: "CONSUME_PASSIVELY",
			GroupName: "G", MessageModel: "CLUSTERING", SubscriptionDataSet: []SubscriptionData{{CodeSet: []int32{2598919, 2598921},
				ExpressionType: "TAG", SubString: "TagA || TagC", SubVersion: 1700000000000, TagsSet: []string{"TagA", "TagC"}, Topic: "T"}}}},
		ProducerDataSet: []ProducerData{{GroupName: "P"}}}
	for name, body := range bodies {
		hb, err := DecodeHeartbeatData([]byte(body))
		require.NoError(t, err, name)
		assert.Equal(t, want, hb, name)
	}
}

// One group that cannot be read costs only itself: the others of the same
// heartbeat are read, and the error names the one left out.
func TestHeartbeatLeavesOutOnlyTheUnreadableGroup(t *testing.T) {
	body := `{"clientID":"c","consumerDataSet":[{"groupName":"A","subscriptionDataSet":[{"topic":"T","codeSet":[1]}]},` +
		`{"groupName":"B","subscriptionDataSet":[{"topic":"T","codeSet":["TagA"]}]},null,` +
		`{"groupName":"C","consumeType":7},{"groupName":"D","messageModel":"CLUSTERING"}],` +
		`"producerDataSet":[1,{"groupName":"P"}]}`
	hb, err := DecodeHeartbeatData([]byte(body))
	require.Error(t, err)
	require.NotNil(t, hb)
	var groups []string
	for _, c := range hb.ConsumerDataSet {
		groups = append(groups, c.GroupName)
	}
	assert.Equal(t, []string{"A", "D"}, groups)
	assert.Equal(t, []ProducerData{{GroupName: "P"}}, hb.ProducerDataSet)
	var bad []*ElementError
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		var ee *ElementError
		require.True(t, errors.As(e, &ee))
		bad = append(bad, ee)
	}
	require.Len(t, bad, 3, "the null element is left out silently: Java reads it as null")
	assert.Equal(t, "B", bad[0].Group)
	assert.Contains(t, bad[0].Error(), "consumerDataSet[1] (group B)")
	assert.Equal(t, "C", bad[1].Group)
	assert.Equal(t, 3, bad[1].Index)
	assert.Equal(t, "producerDataSet", bad[2].Field)
	assert.ErrorIs(t, err, fastjson.ErrMalformed)
}

func TestHeartbeatThatIsNotJSONFails(t *testing.T) {
	for _, body := range []string{``, `{`, `{"clientID":"c","consumerDataSet":[{"groupName":"A"}`, `[1]`,
		`{"consumerDataSet":[{"groupName":"A",}}]}`} {
		hb, err := DecodeHeartbeatData([]byte(body))
		assert.Nil(t, hb, body)
		assert.ErrorIs(t, err, fastjson.ErrMalformed, body)
	}
}

func TestHeartbeatEnums(t *testing.T) {
	hb, err := DecodeHeartbeatData([]byte(`{"consumerDataSet":[{"groupName":"G","consumeType":"CONSUME_POP",` +
		`"messageModel":"nonsense","consumeFromWhere":5}]}`))
	require.NoError(t, err)
	c := hb.ConsumerDataSet[0]
	assert.Equal(t, []string{"CONSUME_POP", "", "CONSUME_FROM_TIMESTAMP"}, []string{c.ConsumeType, c.MessageModel, c.ConsumeFromWhere})
}

func TestLockBatchRequestBody(t *testing.T) {
	b, err := DecodeLockBatchRequestBody([]byte(`{"clientId":"c","consumerGroup":"g","onlyThisBroker":"true",` +
		`"mqSet":[{"brokerName":"b","queueId":"1","topic":"T"},{brokerName:'b',queueId:2,topic:'T'}]}`))
	require.NoError(t, err)
	assert.Equal(t, &LockBatchRequestBody{ConsumerGroup: "g", ClientID: "c", OnlyThisBroker: true,
		MQSet: []MessageQueue{{Topic: "T", BrokerName: "b", QueueID: 1}, {Topic: "T", BrokerName: "b", QueueID: 2}}}, b)
	_, err = DecodeLockBatchRequestBody([]byte(`{"mqSet":[{"queueId":"x"}]}`))
	assert.ErrorIs(t, err, fastjson.ErrMalformed)
}

func TestCheckClientRequestBody(t *testing.T) {
	b, err := DecodeCheckClientRequestBody([]byte(`{"clientId":"c","group":"g","subscriptionData":` +
		`{"expressionType":"SQL92","subString":"a > 5","topic":"T","codeSet":[],"tagsSet":[],"subVersion":0}}`))
	require.NoError(t, err)
	assert.Equal(t, &CheckClientRequestBody{ClientID: "c", Group: "g", SubscriptionData: &SubscriptionData{
		ExpressionType: "SQL92", SubString: "a > 5", Topic: "T", CodeSet: []int32{}, TagsSet: []string{}}}, b)
}
