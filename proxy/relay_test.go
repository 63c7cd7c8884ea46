package proxy

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/proxy/apiv2"
)

func TestRelayedAnswersAreJavasBodies(t *testing.T) {
	// ConsumerRunningInfo with only jstack, and ConsumeMessageDirectlyResult,
	// as fastjson writes them (keys sorted, null consumeResult left out).
	info := runningInfoWithJstack("\"main\" Thread\n\tat x\u0001")
	var m map[string]any
	require.NoError(t, json.Unmarshal(info, &m), string(info))
	assert.Equal(t, "\"main\" Thread\n\tat x\u0001", m["jstack"])
	assert.Equal(t, `{"jstack":"x","mqPopTable":{},"mqTable":{},"properties":{},"statusTable":{},"subscriptionSet":[],"userConsumerInfo":{}}`,
		string(runningInfoWithJstack("x")))
	assert.Equal(t, `{"autoCommit":true,"consumeResult":"CR_SUCCESS","order":false,"remark":"from gRPC client","spentTimeMills":0}`,
		string(consumeDirectlyResult(apiv2.Code_OK)))
	assert.Equal(t, `{"autoCommit":true,"consumeResult":"CR_LATER","order":false,"remark":"from gRPC client","spentTimeMills":0}`,
		string(consumeDirectlyResult(apiv2.Code_FAILED_TO_CONSUME_MESSAGE)))
	assert.Equal(t, `{"autoCommit":true,"consumeResult":"CR_RETURN_NULL","order":false,"remark":"from gRPC client","spentTimeMills":0}`,
		string(consumeDirectlyResult(apiv2.Code_MESSAGE_CORRUPTED)))
	assert.Equal(t, `{"autoCommit":true,"order":false,"remark":"from gRPC client","spentTimeMills":0}`,
		string(consumeDirectlyResult(apiv2.Code_NOT_IMPLEMENTED)), "the Go client's answer: no consume result")
}

func TestRelayNoncesCountFromZeroAndAnswerOnce(t *testing.T) {
	var r relayTable
	n0, ch0 := r.add()
	n1, _ := r.add()
	assert.Equal(t, "0", n0)
	assert.Equal(t, "1", n1)
	cmd := &apiv2.TelemetryCommand{Status: &apiv2.Status{Code: apiv2.Code_OK}}
	assert.True(t, r.answer(n0, cmd))
	assert.Same(t, cmd, <-ch0)
	assert.False(t, r.answer(n0, cmd), "a nonce is answered once")
	r.drop(n1)
	assert.False(t, r.answer(n1, cmd), "a dropped (timed out) question takes no answer")
}
