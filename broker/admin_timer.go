package broker

// GET_TIMER_CHECK_POINT (60) and GET_TIMER_METRICS (61), 5.x: what a Java
// 5.x slave copies from its master, the checkpoint every 3 s
// (SlaveSynchronize.syncTimerCheckPoint) and the metrics every minute
// (syncTimerMetrics), when timerWheelEnable is on. Bodies:
//
//	GET_TIMER_CHECK_POINT: TimerCheckpoint.encode, 56 bytes big-endian
//	  lastReadTimeMs(8) lastTimerLogFlushPos(8) lastTimerQueueOffset(8)
//	  masterTimerQueueOffset(8) dataVersion: stateVersion(8) timestamp(8) counter(8)
//	GET_TIMER_METRICS: TimerMetricsSerializeWrapper
//	  {"dataVersion":{"counter":0,"stateVersion":0,"timestamp":...},"timingCount":{}}
//
// With timerWheelEnable=false Java has neither and answers SYSTEM_ERROR
// "The checkpoint is null" / "The timer message store is null"; so does
// this broker.
//
// Differences from Java: this broker has no time wheel (timer.go). Its
// checkpoint gives how far the timer queue was read as both queue offsets
// and, as the read time, the earliest due time not yet delivered (now when
// none is) to the second: a slave that takes over from it delivers
// nothing late and may deliver again what was delivered (at least once).
// The timer log position is 0. The metrics' timingCount is empty (the
// wheel's per-topic counts are not kept) and their data version never
// changes, so a Java slave copies them once.

import (
	"encoding/binary"
	"sync"
	"time"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// timerCheckpointLen is TimerCheckpoint.encode's size.
const timerCheckpointLen = 56

// timerSync serves the two timer codes a Java slave syncs.
type timerSync struct {
	replier
	settings *liveSettings
	view     func(nowMs int64) timerView
	now      func() time.Time
	// started versions the (empty) metrics.
	started protocol.DataVersion

	mu sync.Mutex
	// last is the checkpoint last answered and version its data version,
	// moved on when the checkpoint changes.
	last    [2]int64
	version protocol.DataVersion
}

func newTimerSync(rp replier, set *liveSettings, t *timerService, now func() time.Time) *timerSync {
	v := protocol.NewDataVersion(now())
	return &timerSync{replier: rp, settings: set, now: now, started: v, version: v,
		view: func(nowMs int64) timerView { return t.view(nowMs, nil) }}
}

// getTimerCheckPoint serves GET_TIMER_CHECK_POINT.
func (t *timerSync) getTimerCheckPoint(req *remoting.Request) *remoting.Command {
	if !t.settings.load().Store.TimerWheelEnable {
		return t.reply(req.Cmd, remoting.SystemError, "The checkpoint is null")
	}
	now := t.now()
	v := t.view(now.UnixMilli())
	readTime := now.UnixMilli() / timerPrecisionMs * timerPrecisionMs
	if v.due > 0 {
		readTime = v.oldestDue / timerPrecisionMs * timerPrecisionMs
	}
	version := t.versionOf([2]int64{readTime, v.scanned}, now)
	body := make([]byte, timerCheckpointLen)
	for i, n := range []int64{readTime, 0, v.scanned, v.scanned, version.StateVersion, version.Timestamp, version.Counter} {
		binary.BigEndian.PutUint64(body[8*i:], uint64(n))
	}
	return t.replyBody(req.Cmd, body)
}

// versionOf is the data version of checkpoint cp, moved on when cp
// differs from the one answered last.
func (t *timerSync) versionOf(cp [2]int64, now time.Time) protocol.DataVersion {
	t.mu.Lock()
	defer t.mu.Unlock()
	if cp != t.last {
		t.last = cp
		t.version.Next(now, 0)
	}
	return t.version
}

// getTimerMetrics serves GET_TIMER_METRICS.
func (t *timerSync) getTimerMetrics(req *remoting.Request) *remoting.Command {
	if !t.settings.load().Store.TimerWheelEnable {
		return t.reply(req.Cmd, remoting.SystemError, "The timer message store is null")
	}
	body := append([]byte(`{"dataVersion":`), t.started.AppendJSON(nil)...)
	body = append(body, `,"timingCount":{}}`...)
	return t.replyBody(req.Cmd, body)
}
