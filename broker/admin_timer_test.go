package broker

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/fastjson"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// A Java 5.x slave's timer syncs: the checkpoint is timercheck's, how far
// the timer queue went into the wheel, the read time and the timer log's
// flushed end; the metrics are an empty table.
func TestTimerCheckpointForAJavaSlave(t *testing.T) {
	b := startLine5Broker(t, testConfigs(t.TempDir(), ""))
	cl := newClient(t, nil)
	resp := invoke(t, cl, b.Addr(), withBody(sendRequest("TT", 0, nil, map[string]string{"UNIQ_KEY": "U1", "TIMER_DELAY_SEC": "3600"}), []byte("later")))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	checkpoint := func() store.TimerCheckpoint {
		resp := invoke(t, cl, b.Addr(), remoting.NewRequest(remoting.GetTimerCheckPoint, nil))
		require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
		require.Len(t, resp.Body, store.TimerCheckpointLen)
		return store.DecodeTimerCheckpoint(resp.Body)
	}
	eventually(t, func() bool { return checkpoint().LastTimerLogFlushPos > 0 }, "the checkpoint has the message in the wheel")
	cp := checkpoint()
	assert.Zero(t, cp.LastReadTimeMs%1000, "the read time is to the second")
	assert.InDelta(t, time.Now().UnixMilli(), cp.LastReadTimeMs, 5000, "nothing is due: the read time is now")
	assert.Equal(t, int64(1), cp.LastTimerQueueOffset, "the queue offset taken in")
	assert.Equal(t, int64(1), cp.MasterTimerQueueOffset, "a master's own queue offset")
	assert.Equal(t, int64(store.TimerUnitSize), cp.LastTimerLogFlushPos, "one unit in the timer log, flushed")
	assert.Positive(t, cp.Timestamp, "data version timestamp")
	assert.Positive(t, cp.Counter, "data version counter")

	resp = invoke(t, cl, b.Addr(), remoting.NewRequest(remoting.GetTimerMetrics, nil))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	var keys []string
	require.NoError(t, fastjson.Decode(resp.Body, func(r *fastjson.Reader) error {
		return r.Map(func(key string) error { keys = append(keys, key); return r.Skip() }) // Map: the keys as written
	}))
	assert.Equal(t, []string{"dataVersion", "timingCount"}, keys)
}

func TestTimerSyncCodesNeedTheWheel(t *testing.T) {
	c := testConfigs(t.TempDir(), "")
	c.Store.TimerWheelEnable = false
	b := startLine5Broker(t, c)
	cl := newClient(t, nil)
	resp := invoke(t, cl, b.Addr(), remoting.NewRequest(remoting.GetTimerCheckPoint, nil))
	assert.Equal(t, int32(remoting.SystemError), resp.Code)
	assert.Equal(t, "The checkpoint is null", resp.Remark)
	resp = invoke(t, cl, b.Addr(), remoting.NewRequest(remoting.GetTimerMetrics, nil))
	assert.Equal(t, "The timer message store is null", resp.Remark)

	four := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	resp = invoke(t, cl, four.Addr(), remoting.NewRequest(remoting.GetTimerCheckPoint, nil))
	assert.Equal(t, int32(remoting.RequestCodeNotSupported), resp.Code, "a 5.x code")
}
