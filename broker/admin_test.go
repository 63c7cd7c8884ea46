package broker

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

func TestQueryMessageByKeyFindsEveryMessageWithTheKey(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	c := newClient(t, nil)
	for i := range 3 {
		invoke(t, c, b.Addr(), withBody(sendRequest("TQ", int32(i%2), []byte("q"+itoa(i)), map[string]string{"KEYS": "order-7 other"}), []byte("q"+itoa(i))))
	}
	invoke(t, c, b.Addr(), withBody(sendRequest("TQ", 0, []byte("nope"), map[string]string{"KEYS": "order-8"}), []byte("nope")))
	dispatched(t, b)
	q := remoting.NewRequest(remoting.QueryMessage, map[string]string{"topic": "TQ", "key": "order-7", "maxNum": "32",
		"beginTimestamp": "0", "endTimestamp": itoa(time.Now().Add(time.Hour).UnixMilli())})
	resp := invoke(t, c, b.Addr(), q)
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	var bodies []string
	for _, r := range decodeRecords(t, resp.Body) {
		bodies = append(bodies, string(r.Body))
	}
	assert.ElementsMatch(t, []string{"q0", "q1", "q2"}, bodies)
	q.SetExt("key", "missing")
	resp = invoke(t, c, b.Addr(), q)
	assert.Equal(t, int32(remoting.QueryNotFound), resp.Code)
}

func TestConsumeStatsShowBrokerAndCommittedOffsets(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	c := newClient(t, nil)
	for range 3 {
		invoke(t, c, b.Addr(), withBody(sendRequest("TS", 0, []byte("x"), nil), []byte("x")))
	}
	dispatched(t, b)
	invoke(t, c, b.Addr(), remoting.NewRequest(remoting.UpdateConsumerOffset, map[string]string{"consumerGroup": "GS", "topic": "TS", "queueId": "0", "commitOffset": "2"}))
	resp := invoke(t, c, b.Addr(), remoting.NewRequest(remoting.GetConsumeStats, map[string]string{"consumerGroup": "GS"}))
	require.Equal(t, int32(remoting.Success), resp.Code)
	body := string(resp.Body)
	assert.Contains(t, body, `{"brokerName":"broker-t","queueId":0,"topic":"TS"}:{"brokerOffset":3,"consumerOffset":2,"lastTimestamp":`)
	assert.Contains(t, body, `{"brokerName":"broker-t","queueId":3,"topic":"TS"}:{"brokerOffset":0,"consumerOffset":0,"lastTimestamp":0}`)
}

// TestLine5ConsumeStatsCountInFlightFromTheLastPull: 5.x answers each
// queue's pullOffset, the larger of the committed offset and where the
// group's last pull said to go on (pullOffsetTable); with no pull yet it
// is the committed offset, so nothing is in flight.
func TestLine5ConsumeStatsCountInFlightFromTheLastPull(t *testing.T) {
	b := startLine5Broker(t, testConfigs(t.TempDir(), ""))
	c := newClient(t, nil)
	for range 3 {
		invoke(t, c, b.Addr(), withBody(sendRequest("TP", 0, []byte("x"), nil), []byte("x")))
	}
	dispatched(t, b)
	invoke(t, c, b.Addr(), remoting.NewRequest(remoting.UpdateConsumerOffset, map[string]string{"consumerGroup": "GP", "topic": "TP", "queueId": "0", "commitOffset": "1"}))
	stats := func() string {
		resp := invoke(t, c, b.Addr(), remoting.NewRequest(remoting.GetConsumeStats, map[string]string{"consumerGroup": "GP", "topic": "TP"}))
		require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
		return string(resp.Body)
	}
	assert.Contains(t, stats(), `{"brokerName":"broker-t","queueId":0,"topic":"TP"}:{"brokerOffset":3,"consumerOffset":1,"lastTimestamp":`)
	assert.Regexp(t, `"queueId":0,"topic":"TP"\}:\{[^}]*"pullOffset":1\}`, stats(), "no pull yet: the committed offset")
	assert.Regexp(t, `"queueId":1,"topic":"TP"\}:\{[^}]*"pullOffset":0\}`, stats())

	resp := invoke(t, c, b.Addr(), pullRequest("GP", "TP", 0, 1, "*", protocol.PullFlagSubscription, 0))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	assert.Regexp(t, `"queueId":0,"topic":"TP"\}:\{[^}]*"pullOffset":3\}`, stats(), "two messages in flight after the pull")
}
