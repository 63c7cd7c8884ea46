package broker

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/internal/testclock"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// sendTimer sends a message to topic TM queue 0 with UNIQ_KEY key and the
// timer properties props.
func sendTimer(t *testing.T, cl *remoting.Client, b *Broker, key string, props map[string]string) {
	t.Helper()
	p := map[string]string{"UNIQ_KEY": key}
	for k, v := range props {
		p[k] = v
	}
	resp := invoke(t, cl, b.Addr(), withBody(sendRequest("TM", 0, nil, p), []byte("body of "+key)))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
}

// deliveredTM is TM queue 0's records by UNIQ_KEY.
func deliveredTM(t *testing.T, b *Broker) map[string][]store.Record {
	t.Helper()
	out := map[string][]store.Record{}
	for _, r := range queueRecords(t, b, "TM", 0) {
		k, _ := r.Property("UNIQ_KEY")
		out[k] = append(out[k], r)
	}
	return out
}

// dueAt is a message due at ms.
func dueAt(ms int64) map[string]string {
	return map[string]string{"TIMER_DELIVER_MS": strconv.FormatInt(ms, 10)}
}

// storedTimerCheckpoint reads config/timercheck of a closed broker.
func storedTimerCheckpoint(t *testing.T, c *conf.BrokerConfigs) store.TimerCheckpoint {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(c.Store.StorePathRootDir, "config", "timercheck"))
	require.NoError(t, err)
	return store.DecodeTimerCheckpoint(data)
}

// Timer messages pending when the broker stops are delivered by the next
// one, once each and not before their time; those delivered are not
// delivered again; the checkpoint the broker leaves names how far it got.
func TestTimerDeliversEachOnceAcrossARestart(t *testing.T) {
	c := testConfigs(t.TempDir(), "")
	b := startLine5Broker(t, c)
	cl := newClient(t, nil)
	base := time.Now().UnixMilli()
	due := map[string]int64{}
	for i := range 6 {
		key := "K" + strconv.Itoa(i)
		due[key] = base + 1500 + 700*int64(i)
		sendTimer(t, cl, b, key, dueAt(due[key]))
	}
	eventually(t, func() bool { return b.store.MaxOffset("TM", 0) >= 2 }, "the first two delivered")
	require.NoError(t, b.Close())
	cp := storedTimerCheckpoint(t, c)
	assert.Equal(t, int64(6), cp.LastTimerQueueOffset, "all six in the wheel")
	assert.Equal(t, int64(6), cp.MasterTimerQueueOffset)
	assert.Equal(t, int64(6*store.TimerUnitSize), cp.LastTimerLogFlushPos)
	assert.Greater(t, cp.LastReadTimeMs, due["K1"]-1000, "past the slots delivered")
	assert.LessOrEqual(t, cp.LastReadTimeMs, due["K5"], "not past those pending")

	b2 := startLine5Broker(t, c)
	eventually(t, func() bool { return b2.store.MaxOffset("TM", 0) >= 6 }, "the pending ones delivered by the next broker")
	time.Sleep(1500 * time.Millisecond)
	got := deliveredTM(t, b2)
	require.Len(t, got, 6)
	for key, recs := range got {
		require.Len(t, recs, 1, "%s delivered once", key)
		assert.GreaterOrEqual(t, recs[0].StoreTimestamp, due[key], "%s not before its time", key)
		enq, _ := recs[0].Property(propTimerEnqueueMs)
		assert.NotEqual(t, strconv.FormatInt(math.MaxInt64, 10), enq, "%s went through the wheel", key)
	}
}

// After a crash the checkpoint is older than what was delivered: as in
// Java, the slots delivered since are delivered again (at least once),
// and nothing pending is lost.
func TestTimerRecoversFromAnOlderCheckpointAtLeastOnce(t *testing.T) {
	c := testConfigs(t.TempDir(), "")
	b := startLine5Broker(t, c)
	cl := newClient(t, nil)
	base := time.Now().UnixMilli()
	due := map[string]int64{"A": base + 2500, "B": base + 3000, "C": base + 6000, "D": base + 6500}
	for _, k := range []string{"A", "B", "C", "D"} {
		sendTimer(t, cl, b, k, dueAt(due[k]))
	}
	path := filepath.Join(c.Store.StorePathRootDir, "config", "timercheck")
	var early []byte
	eventually(t, func() bool {
		early, _ = os.ReadFile(path)
		return len(early) == 4096 && store.DecodeTimerCheckpoint(early).LastTimerQueueOffset == 4
	}, "a checkpoint with the four in the wheel")
	require.Less(t, store.DecodeTimerCheckpoint(early).LastReadTimeMs, due["A"], "taken before A was due")
	eventually(t, func() bool { return b.store.MaxOffset("TM", 0) >= 2 }, "A and B delivered")
	require.NoError(t, b.Close())
	require.NoError(t, os.WriteFile(path, early, 0o644)) // the later checkpoints were lost

	b2 := startLine5Broker(t, c)
	eventually(t, func() bool { return b2.store.MaxOffset("TM", 0) >= 6 }, "C and D delivered")
	time.Sleep(1500 * time.Millisecond)
	got := deliveredTM(t, b2)
	assert.Len(t, got["A"], 2, "A again: its slot is after the checkpoint's read time")
	assert.Len(t, got["B"], 2)
	assert.Len(t, got["C"], 1)
	assert.Len(t, got["D"], 1)
}

// A store of an older rmqgo keeps its timer progress in rmqgoTimer.json:
// the pending messages it names are taken into the wheel and delivered
// once, those it had delivered are not, and the file goes.
func TestTimerTakesOverRmqgoTimerJSON(t *testing.T) {
	c := testConfigs(t.TempDir(), "")
	b := startLine5Broker(t, c)
	cl := newClient(t, nil)
	base := time.Now().UnixMilli()
	sendTimer(t, cl, b, "A", dueAt(base+1200))
	sendTimer(t, cl, b, "B", dueAt(base+4000))
	eventually(t, func() bool { return b.store.MaxOffset("TM", 0) == 1 }, "A delivered")
	require.NoError(t, b.Close())
	root := c.Store.StorePathRootDir
	for _, p := range []string{"timerwheel", "timerlog", "config/timercheck"} {
		require.NoError(t, os.RemoveAll(filepath.Join(root, p)))
	}
	legacy := filepath.Join(root, "config", "rmqgoTimer.json")
	require.NoError(t, os.WriteFile(legacy, []byte(`{"scanned":2,"pending":[1]}`), 0o644))

	b2 := startLine5Broker(t, c)
	_, err := os.Stat(legacy)
	assert.ErrorIs(t, err, os.ErrNotExist, "rmqgoTimer.json is gone")
	assert.Equal(t, int64(2), b2.timer.checkpoint().LastTimerQueueOffset)
	eventually(t, func() bool { return b2.store.MaxOffset("TM", 0) >= 2 }, "B delivered")
	time.Sleep(1500 * time.Millisecond)
	got := deliveredTM(t, b2)
	assert.Len(t, got["A"], 1)
	require.Len(t, got["B"], 1)
	assert.GreaterOrEqual(t, got["B"][0].StoreTimestamp, base+4000)
}

// A message with TIMER_DEL_UNIQKEY "topic+key" due in the same slot as
// the message of that key cancels it; neither is delivered.
func TestTimerDeleteUnitCancelsItsMessage(t *testing.T) {
	b := startLine5Broker(t, testConfigs(t.TempDir(), ""))
	cl := newClient(t, nil)
	at := time.Now().UnixMilli() + 1500
	sendTimer(t, cl, b, "U1", dueAt(at))
	sendTimer(t, cl, b, "U2", dueAt(at))
	del := dueAt(at)
	del[propTimerDelUniq] = "TM+U1"
	sendTimer(t, cl, b, "DEL", del)
	eventually(t, func() bool { return b.store.MaxOffset("TM", 0) >= 1 }, "U2 delivered")
	time.Sleep(1200 * time.Millisecond)
	got := deliveredTM(t, b)
	assert.Len(t, got["U2"], 1)
	assert.Len(t, got, 1, "U1 cancelled, the delete message not delivered")
}

// A message due beyond the roll window (2 days) waits in a roll unit half
// a window ahead, goes back into the timer queue then with
// TIMER_ROLL_TIMES 1, and is delivered at its time.
func TestTimerRollsAMessageBeyondTheRollWindow(t *testing.T) {
	clock := testclock.New()
	c := testConfigs(t.TempDir(), "")
	b, err := New(Options{Configs: c, Line: protocol.Line5, Logger: zaptest.NewLogger(t), ListenHost: "127.0.0.1", Now: clock.Now})
	require.NoError(t, err)
	require.NoError(t, b.Start())
	t.Cleanup(func() { _ = b.Close() })
	cl := newClient(t, nil)
	start := clock.Now().UnixMilli()
	sendTimer(t, cl, b, "R", map[string]string{"TIMER_DELAY_SEC": strconv.Itoa(60 * 3600)}) // 2.5 days
	day := int64(24 * 3600 * 1000)
	eventually(t, func() bool { return b.timer.view(start, nil).scanned == 1 }, "in the wheel")
	eventually(t, func() bool { return b.timer.checkpoint().LastTimerQueueOffset == 1 }, "checkpointed")
	require.Equal(t, int64(1), b.timer.view(start, []int64{day/1000 + 1}).within[0], "a roll unit a day ahead")

	clock.Advance(24*time.Hour + 2*time.Second)
	eventually(t, func() bool { return b.store.MaxOffset(timerTopic, 0) == 2 }, "rolled back into the timer queue")
	rolled := queueRecords(t, b, timerTopic, 0)[1]
	n, _ := rolled.Property(propTimerRollTimes)
	assert.Equal(t, "1", n)
	eventually(t, func() bool { return b.timer.view(clock.Now().UnixMilli(), nil).scanned == 2 }, "in the wheel again")
	assert.Zero(t, b.store.MaxOffset("TM", 0), "not delivered yet")

	clock.Advance(36 * time.Hour)
	eventually(t, func() bool { return b.store.MaxOffset("TM", 0) == 1 }, "delivered at its time")
	got := queueRecords(t, b, "TM", 0)[0]
	n, _ = got.Property(propTimerRollTimes)
	assert.Equal(t, "1", n)
	assert.Equal(t, "body of R", string(got.Body))
}

// timerWheelEnable=false: no timer files, and a timer message is refused
// as Java's WHEEL_TIMER_NOT_ENABLE.
func TestTimerWheelOffRefusesTimerMessages(t *testing.T) {
	c := testConfigs(t.TempDir(), "")
	c.Store.TimerWheelEnable = false
	b := startLine5Broker(t, c)
	cl := newClient(t, nil)
	resp := invoke(t, cl, b.Addr(), withBody(sendRequest("TM", 0, nil, map[string]string{"TIMER_DELAY_SEC": "5"}), []byte("x")))
	assert.Equal(t, int32(remoting.SystemError), resp.Code)
	assert.Equal(t, "accurate timer message is not enabled, timerWheelEnable is false", resp.Remark)
	resp = invoke(t, cl, b.Addr(), withBody(sendRequest("TM", 0, nil, map[string]string{"UNIQ_KEY": "plain"}), []byte("x")))
	assert.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	_, err := os.Stat(filepath.Join(c.Store.StorePathRootDir, "timerwheel"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

// timerPrecisionMs is snapped to 100, 200, 500 or 1000 as Java's setter
// does.
func TestTimerPrecisionIsSnapped(t *testing.T) {
	for in, want := range map[int32]int64{50: 100, 150: 100, 300: 200, 700: 500, 1000: 1000, 5000: 1000} {
		c := conf.DefaultBrokerConfigs(conf.Env{}).Store
		c.TimerPrecisionMs = in
		assert.Equal(t, want, newTimerConf(c).precisionMs, "timerPrecisionMs=%d", in)
	}
}
