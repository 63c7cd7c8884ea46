package broker

// The timer service: Java's TimerMessageStore in one goroutine. Every
// tick (100 ms) it moves the write time to the current second, reads what
// the timer queue gained into the wheel (timer_enqueue.go) and delivers
// every slot before the write time (timer_dequeue.go); every second
// (timerFlushIntervalMs) it flushes the timer log and the wheel and writes
// the checkpoint, as TimerFlushService does; every 30 s it deletes the
// timer log files whose messages the commitlog no longer has.
//
// The state is Java's (store/timer_*.go has the files):
//
//	readTime     currReadTimeMs = commitReadTimeMs: the first slot not
//	             wholly delivered          -> timercheck lastReadTimeMs
//	writeTime    currWriteTimeMs: the current second; a message due
//	             before it is delivered at once, not put in the wheel
//	queueOffset  currQueueOffset = commitQueueOffset: the timer queue is
//	             in the wheel (or delivered) below it
//	                                       -> timercheck lastTimerQueueOffset,
//	                                          masterTimerQueueOffset
//	             the timer log's flushed end -> lastTimerLogFlushPos
//
// Java's threads hand messages along queues; here one goroutine does it
// all, so Java's commit offsets are the current ones. Beside Java's state
// it keeps an index of the wheel's slots that hold units (timer_slots.go),
// read from the wheel at start and kept as units go in and out, so that it
// goes from one such slot to the next instead of through every slot, and
// the metrics count what waits without reading the wheel.
//
// Differences from Java, none of them in the files' bytes: the wheel is
// written in its mapping at once and synced every second (Java copies its
// changes from memory every second, and not at shutdown); a put that fails
// is tried again on the next tick however often, and a flush or slave
// timeout counts as delivered (timer_dequeue.go); a TIMER_OUT_MS that is
// not a number is delivered at once (timer_enqueue.go); the per-topic
// counts of config/timermetrics are not kept (admin_timer.go); a slave
// runs no timer (slave_sync.go); timer log files are allocated whole, as
// this store allocates every mapped file (Java's are sparse). Where Java
// delivers at least once, so does this: after a crash (or a Java stop,
// whose last checkpoint may come before its last deliveries; this broker
// writes its last one after the timer has stopped), a start delivers again
// the slots from the checkpoint's read time on and reads the timer queue
// again from its offset (timer_recover.go).

import (
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/store"
)

// Timer service periods and limits (5.3.3's defaults where Java has a key).
const (
	timerTick = 100 * time.Millisecond
	// timerFlushInterval is timerFlushIntervalMs.
	timerFlushInterval = time.Second
	// timerCleanInterval is how often expired timer log files go.
	timerCleanInterval = 30 * time.Second
	// timerRollWindowSlots is timerRollWindowSlot.
	timerRollWindowSlots = 3600 * 24 * 2
	// timerBlankSlots is TIMER_BLANK_SLOTS: how far inside the wheel's
	// span a read time older than the span starts again.
	timerBlankSlots = 60
	// timerEnqueueBatch bounds the timer queue units one tick reads.
	timerEnqueueBatch = 20000
)

// timerService delivers timer messages when due.
type timerService struct {
	log   *zap.Logger
	now   func() time.Time
	line  line
	store timerStore
	conf  timerConf
	// legacyPath is the rmqgoTimer.json of older rmqgo stores (read once).
	legacyPath string

	// files are nil until start, and when the wheel is off.
	files *store.TimerFiles
	// slotDone counts the units of the slot at readTime already
	// delivered, when a put failed half way through it.
	slotDone int
	// ticks counts the ticks, which time the flushes and the cleaning.
	ticks int

	// mu guards what the metrics and the admin codes read.
	mu          sync.Mutex
	readTime    int64
	writeTime   int64
	queueOffset int64
	slots       timerSlots
	// cp is the checkpoint last written.
	cp store.TimerCheckpoint
}

func newTimerService(log *zap.Logger, now func() time.Time, l line, st timerStore, c timerConf, legacyPath string) *timerService {
	return &timerService{log: log, now: now, line: l, store: st, conf: c, legacyPath: legacyPath, slots: newTimerSlots()}
}

// start opens the timer files and recovers the state from them (a
// master's start; with the wheel off it does nothing).
func (s *timerService) start() {
	if !s.conf.enabled || !s.line.hasTimers() {
		return
	}
	files, err := store.OpenTimerFiles(s.conf.files, s.log)
	if err != nil {
		s.log.Error("open the timer files; timer messages wait until a restart", zap.Error(err))
		return
	}
	s.files = files
	if err := s.recover(); err != nil {
		s.log.Error("recover the timer files; timer messages wait until a restart", zap.Error(err))
		s.files = nil
		_ = files.Close()
		return
	}
	s.flush()
}

// loop runs the ticks until stop.
func (s *timerService) loop(stop <-chan struct{}) {
	if s.files == nil {
		return
	}
	runEvery(stop, timerTick, func() { s.tick(stop) })
}

// tick is one round of every timer service.
func (s *timerService) tick(stop <-chan struct{}) {
	s.moveWriteTime()
	s.enqueue()
	s.dequeue(stop)
	s.ticks++
	if s.ticks%int(timerFlushInterval/timerTick) == 0 {
		s.flush()
	}
	if s.ticks%int(timerCleanInterval/timerTick) == 0 {
		s.deleteExpired()
	}
}

// deleteExpired deletes the timer log files whose messages the commitlog
// no longer has.
func (s *timerService) deleteExpired() {
	if n, err := s.files.DeleteExpired(s.store.CommitLogMinOffset()); err != nil {
		s.log.Error("delete expired timer log files", zap.Error(err))
	} else if n > 0 {
		s.log.Info("deleted expired timer log files", zap.Int("files", n))
	}
}

// moveWriteTime is maybeMoveWriteTime.
func (s *timerService) moveWriteTime() {
	now := s.formatTime(s.now().UnixMilli())
	s.mu.Lock()
	s.writeTime = max(s.writeTime, now)
	s.mu.Unlock()
}

// formatTime rounds ms down to the precision.
func (s *timerService) formatTime(ms int64) int64 {
	return ms / s.conf.precisionMs * s.conf.precisionMs
}

// flush is TimerFlushService's round: the checkpoint is prepared, the
// timer log and the wheel flushed, then the checkpoint written.
func (s *timerService) flush() {
	cp := s.prepareCheckpoint()
	err := s.files.Flush()
	if err == nil {
		err = s.files.WriteCheckpoint(cp)
	}
	if err != nil {
		s.log.Error("flush the timer files", zap.Error(err))
	}
}

// prepareCheckpoint is prepareTimerCheckPoint on a master: the data
// version moves when the read time or the queue offset did.
func (s *timerService) prepareCheckpoint() store.TimerCheckpoint {
	s.mu.Lock()
	defer s.mu.Unlock()
	cp := s.cp
	if cp.LastReadTimeMs != s.readTime || cp.MasterTimerQueueOffset != s.queueOffset {
		cp.StateVersion, cp.Timestamp, cp.Counter = 0, s.now().UnixMilli(), cp.Counter+1
	}
	cp.LastReadTimeMs, cp.LastTimerLogFlushPos = s.readTime, s.files.FlushedPos()
	cp.MasterTimerQueueOffset, cp.LastTimerQueueOffset = s.queueOffset, s.queueOffset
	s.cp = cp
	return cp
}

// close writes the checkpoint a last time and closes the files (after
// loop has returned).
func (s *timerService) close() {
	if s.files == nil {
		return
	}
	s.flush()
	if err := s.files.Close(); err != nil {
		s.log.Error("close the timer files", zap.Error(err))
	}
	s.files = nil
}

// checkpoint is the checkpoint last written (GET_TIMER_CHECK_POINT).
func (s *timerService) checkpoint() store.TimerCheckpoint {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cp
}
