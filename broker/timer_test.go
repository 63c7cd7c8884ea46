package broker

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// startLine5Broker starts a broker that behaves as a 5.x one.
func startLine5Broker(t *testing.T, c *conf.BrokerConfigs) *Broker {
	t.Helper()
	b, err := New(Options{Configs: c, Line: protocol.Line5, Logger: zaptest.NewLogger(t), ListenHost: "127.0.0.1"})
	require.NoError(t, err)
	require.NoError(t, b.Start())
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// A 5.x timer message waits in rmq_sys_wheel_timer and is delivered to its
// topic at its time (to the second), also across a restart; a time in the
// past is delivered at once and one too far ahead is refused.
func TestTimerMessageIsDeliveredAtItsTime(t *testing.T) {
	c := testConfigs(t.TempDir(), "")
	b := startLine5Broker(t, c)
	cl := newClient(t, nil)
	send := func(props map[string]string, body string) *remoting.Command {
		return invoke(t, cl, b.Addr(), withBody(sendRequest("TM", 0, nil, props), []byte(body)))
	}
	resp := send(map[string]string{"UNIQ_KEY": "U1", "TIMER_DELAY_SEC": "1"}, "in a second")
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	resp = send(map[string]string{"UNIQ_KEY": "U2", "TIMER_DELIVER_MS": "1000"}, "long ago")
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	resp = send(map[string]string{"UNIQ_KEY": "U3", "TIMER_DELAY_SEC": strconv.Itoa(4 * 24 * 3600)}, "too far")
	assert.Equal(t, int32(remoting.MessageIllegal), resp.Code)
	resp = send(map[string]string{"UNIQ_KEY": "U4", "TIMER_DELAY_SEC": "3"}, "after a restart")
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	dispatched(t, b)

	held := queueRecords(t, b, timerTopic, 0)
	require.Len(t, held, 2)
	p := store.ParseProperties(string(held[0].Properties))
	assert.Equal(t, "TM", p["REAL_TOPIC"])
	out, err := strconv.ParseInt(p["TIMER_OUT_MS"], 10, 64)
	require.NoError(t, err)
	assert.Zero(t, out%1000, "rounded to the second")
	direct := queueRecords(t, b, "TM", 0)
	require.Len(t, direct, 1, "a time already passed is not held")
	assert.Equal(t, "long ago", string(direct[0].Body))

	eventually(t, func() bool { return b.store.MaxOffset("TM", 0) == 2 }, "delivered when due")
	got := queueRecords(t, b, "TM", 0)[1]
	assert.Equal(t, "in a second", string(got.Body))
	dequeued, err := strconv.ParseInt(store.ParseProperties(string(got.Properties))["TIMER_DEQUEUE_MS"], 10, 64)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, dequeued, out, "not before its time")

	require.NoError(t, b.Close())
	b2 := startLine5Broker(t, c)
	eventually(t, func() bool { return b2.store.MaxOffset("TM", 0) == 3 }, "the pending one is delivered after a restart")
	assert.Equal(t, "after a restart", string(queueRecords(t, b2, "TM", 0)[2].Body))
}
