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
// The checkpoint is the one the timer service wrote last (timer_service.go:
// config/timercheck, every second), as Java answers its TimerCheckpoint;
// all zero where the timer does not run (a slave). Difference from Java:
// the metrics' timingCount is empty (the per-topic counts of
// config/timermetrics are not kept) and their data version never changes,
// so a Java slave copies them once.

import (
	"time"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// timerSync serves the two timer codes a Java slave syncs.
type timerSync struct {
	replier
	settings   *liveSettings
	checkpoint func() store.TimerCheckpoint
	// started versions the (empty) metrics.
	started protocol.DataVersion
}

func newTimerSync(rp replier, set *liveSettings, t *timerService, now func() time.Time) *timerSync {
	return &timerSync{replier: rp, settings: set, started: protocol.NewDataVersion(now()), checkpoint: t.checkpoint}
}

// getTimerCheckPoint serves GET_TIMER_CHECK_POINT.
func (t *timerSync) getTimerCheckPoint(req *remoting.Request) *remoting.Command {
	if !t.settings.load().Store.TimerWheelEnable {
		return t.reply(req.Cmd, remoting.SystemError, "The checkpoint is null")
	}
	return t.replyBody(req.Cmd, t.checkpoint().Encode())
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
