package protocol

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The bytes are fastjson 1.2.83's for 5.3.3's classes
// (docs/reference/pop.md §12.1).

func TestRequestModeBodyIsWrittenAsFastjsonWritesIt(t *testing.T) {
	b := &SetMessageRequestModeRequestBody{Topic: "T", ConsumerGroup: "G", Mode: RequestModePop, PopShareQueueNum: 1}
	assert.Equal(t, `{"consumerGroup":"G","mode":"POP","popShareQueueNum":1,"topic":"T"}`, string(b.AppendJSON(nil)))
	w := &MessageRequestModeWrapper{Modes: map[string]map[string]SetMessageRequestModeRequestBody{"T": {"G": *b}}}
	assert.Equal(t, `{"messageRequestModeMap":{"T":{"G":{"consumerGroup":"G","mode":"POP","popShareQueueNum":1,"topic":"T"}}}}`,
		string(w.AppendJSON(nil, Line5)))
	assert.Equal(t, `{"messageRequestModeMap":{}}`, string((&MessageRequestModeWrapper{}).AppendJSON(nil, Line5)))
}

func TestRequestModeBodiesAreReadAsFastjsonReadsThem(t *testing.T) {
	b, err := DecodeSetMessageRequestModeRequestBody([]byte(`{"topic":"T","consumerGroup":"G","mode":"pop","popShareQueueNum":"2"}`))
	require.NoError(t, err)
	assert.Equal(t, &SetMessageRequestModeRequestBody{Topic: "T", ConsumerGroup: "G", Mode: RequestModePop, PopShareQueueNum: 2}, b)
	b, err = DecodeSetMessageRequestModeRequestBody([]byte(`{"topic":"T","consumerGroup":"G","mode":1}`))
	require.NoError(t, err)
	assert.Equal(t, RequestModePop, b.Mode, "an enum by its ordinal")
	b, err = DecodeSetMessageRequestModeRequestBody([]byte(`{"topic":"T","consumerGroup":"G"}`))
	require.NoError(t, err)
	assert.Equal(t, RequestModePull, b.Mode, "PULL when left out")
	_, err = DecodeSetMessageRequestModeRequestBody([]byte(`{"mode":7}`))
	assert.Error(t, err)

	w, err := DecodeMessageRequestModeWrapper([]byte("{\n\t\"messageRequestModeMap\":{\n\t\t\"T\":{\n\t\t\t\"G\":{\n\t\t\t\t\"consumerGroup\":\"G\",\n\t\t\t\t\"mode\":\"POP\",\n\t\t\t\t\"popShareQueueNum\":1,\n\t\t\t\t\"topic\":\"T\"\n\t\t\t}\n\t\t}\n\t}\n}"))
	require.NoError(t, err)
	assert.Equal(t, map[string]map[string]SetMessageRequestModeRequestBody{
		"T": {"G": {Topic: "T", ConsumerGroup: "G", Mode: RequestModePop, PopShareQueueNum: 1}}}, w.Modes)
	w, err = DecodeMessageRequestModeWrapper([]byte(`null`))
	require.NoError(t, err)
	assert.Empty(t, w.Modes)
}

func TestQueryAssignmentBodies(t *testing.T) {
	b, err := DecodeQueryAssignmentRequestBody([]byte(`{"clientId":"cid","consumerGroup":"G","messageModel":"CLUSTERING","strategyName":"AVG","topic":"T"}`))
	require.NoError(t, err)
	assert.Equal(t, &QueryAssignmentRequestBody{Topic: "T", ConsumerGroup: "G", ClientID: "cid", StrategyName: "AVG",
		MessageModel: MessageModelClustering}, b)
	b, err = DecodeQueryAssignmentRequestBody([]byte(`{"messageModel":0}`))
	require.NoError(t, err)
	assert.Equal(t, MessageModelBroadcasting, b.MessageModel, "an enum by its ordinal")

	assert.Equal(t, `{}`, string(AppendQueryAssignmentResponse(nil, nil)))
	assert.Equal(t, `{"messageQueueAssignments":[]}`, string(AppendQueryAssignmentResponse(nil, []MessageQueueAssignment{})))
	assert.Equal(t, `{"messageQueueAssignments":[{"messageQueue":{"brokerName":"broker-a","queueId":-1,"topic":"T"},"mode":"POP"}]}`,
		string(AppendQueryAssignmentResponse(nil, []MessageQueueAssignment{
			{Queue: MessageQueue{Topic: "T", BrokerName: "broker-a", QueueID: -1}, Mode: RequestModePop}})))
}
