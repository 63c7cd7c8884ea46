package broker

import (
	"encoding/binary"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/fastjson"
	"github.com/rmqgo/rmqgo/remoting"
)

// A Java 5.x slave's timer syncs: the checkpoint names how far the timer
// queue was read and the read time; its version moves only with it; the
// metrics are an empty table.
func TestTimerCheckpointForAJavaSlave(t *testing.T) {
	b := startLine5Broker(t, testConfigs(t.TempDir(), ""))
	cl := newClient(t, nil)
	resp := invoke(t, cl, b.Addr(), withBody(sendRequest("TT", 0, nil, map[string]string{"UNIQ_KEY": "U1", "TIMER_DELAY_SEC": "3600"}), []byte("later")))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	eventually(t, func() bool { return b.timer.view(time.Now().UnixMilli(), nil).scanned == 1 }, "the timer read the message")

	checkpoint := func() []int64 {
		resp := invoke(t, cl, b.Addr(), remoting.NewRequest(remoting.GetTimerCheckPoint, nil))
		require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
		require.Len(t, resp.Body, timerCheckpointLen)
		out := make([]int64, 7)
		for i := range out {
			out[i] = int64(binary.BigEndian.Uint64(resp.Body[8*i:]))
		}
		return out
	}
	cp := checkpoint()
	assert.Zero(t, cp[0]%1000, "the read time is to the second")
	assert.InDelta(t, time.Now().UnixMilli(), cp[0], 5000, "nothing is due: the read time is now")
	assert.Equal(t, []int64{0, 1, 1}, cp[1:4], "log position, queue offset read, master's queue offset")
	assert.Positive(t, cp[5], "data version timestamp")

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
