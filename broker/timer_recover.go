package broker

// The timer's start on a store, as TimerMessageStore.recover: the files
// recover (store.TimerFiles.Recover: the timer log read from one file
// before its flushed position on, each unit made its slot's newest, the
// log cut after its last valid unit); the queue offset is the one after
// the message of the log's last unit (reviseQueueOffset: its queue offset,
// checked against the queue), else the checkpoint's, but never past the
// checkpoint's master offset; the read time is the checkpoint's, but no
// older than the wheel's span less TIMER_BLANK_SLOTS. So what Java had
// taken into its wheel is delivered from the wheel, what it had not is read
// from the queue, and the slots it had delivered are not delivered again.
// As in Java, what the last second before a crash delivered or took in is
// done again: the read time and the queue offset of the checkpoint are
// those of its last flush (at least once).
//
// A store of an older rmqgo has no timercheck (or one never written) but
// config/rmqgoTimer.json (how far the queue was read, and the offsets read
// but not delivered): it is read once, those messages taken into the
// wheel, and the file removed once timercheck is written.

import (
	"encoding/json"
	"errors"
	"os"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/store"
)

// legacyTimerFile is the timer progress of rmqgo before it kept Java's.
const legacyTimerFile = "rmqgoTimer.json"

// timerReviseScan bounds the queue units reviseQueueOffset looks back.
const timerReviseScan = 20000

// recover sets the state from the files.
func (s *timerService) recover() error {
	cp, _ := s.files.Checkpoint()
	r, err := s.files.Recover()
	if err != nil {
		return err
	}
	offset := cp.LastTimerQueueOffset
	if r.HasLast {
		if q, ok := s.queueOffsetOf(r.Last); ok {
			offset = q + 1
		}
	}
	offset = min(offset, cp.MasterTimerQueueOffset)
	offset = max(min(offset, s.store.MaxOffset(timerTopic, 0)), s.store.MinOffset(timerTopic, 0))
	now := s.formatTime(s.now().UnixMilli())
	p := s.conf.precisionMs
	readTime := max(cp.LastReadTimeMs, now-int64(store.TimerWheelSlots)*p+timerBlankSlots*p)
	s.files.ReviseFrom(readTime, r.End)
	s.mu.Lock()
	s.readTime, s.writeTime, s.queueOffset, s.cp = readTime, now, offset, cp
	s.mu.Unlock()
	s.indexSlots(readTime)
	s.log.Info("timer recovered", zap.Int64("readTime", readTime), zap.Int64("queueOffset", offset),
		zap.Int64("checkpointQueueOffset", cp.LastTimerQueueOffset), zap.Int64("timerLogEnd", r.End))
	if cp == (store.TimerCheckpoint{}) {
		s.upgrade()
	}
	return nil
}

// indexSlots reads the slots that hold units from readTime on.
func (s *timerService) indexSlots(readTime int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.slots = newTimerSlots()
	s.files.Slots(readTime, func(sl store.TimerSlot) {
		if sl.LastPos >= 0 {
			s.slots.set(sl.TimeMs, int64(sl.Num))
		}
	})
}

// queueOffsetOf is reviseQueueOffset: the timer queue offset of unit u's
// message, the stored one unless the queue has that message a little
// lower.
func (s *timerService) queueOffsetOf(u store.TimerUnit) (int64, bool) {
	rec, err := s.store.LookMessage(u.OffsetPy)
	if err != nil {
		return 0, false
	}
	for at, n := rec.QueueOffset, 0; at >= 0 && n < timerReviseScan; at, n = at-1, n+1 {
		if q, ok := s.queueUnit(at); ok && q.CommitLogOffset == u.OffsetPy && q.Size == u.SizePy {
			return at, true
		}
	}
	return rec.QueueOffset, true
}

// queueUnit reads the timer queue's unit at offset at.
func (s *timerService) queueUnit(at int64) (unit store.QueueUnit, ok bool) {
	_ = s.store.WalkQueueFrom(timerTopic, 0, at, func(off int64, u store.QueueUnit) error {
		unit, ok = u, off == at
		return store.ErrStopWalk
	})
	return unit, ok
}

// legacyProgress is rmqgoTimer.json.
type legacyProgress struct {
	Scanned int64   `json:"scanned"`
	Pending []int64 `json:"pending"`
}

// upgrade takes an older rmqgo's rmqgoTimer.json, if there is one, into
// the wheel: its pending messages go in (or out, when due), the queue
// is read on from where it had been read, and the file goes once the
// checkpoint holds that.
func (s *timerService) upgrade() {
	data, err := os.ReadFile(s.legacyPath)
	if errors.Is(err, os.ErrNotExist) {
		return
	}
	var p legacyProgress
	if err == nil {
		err = json.Unmarshal(data, &p)
	}
	if err != nil {
		s.log.Error("rmqgoTimer.json is not readable; the timer queue is read from its start", zap.Error(err))
		return
	}
	s.mu.Lock()
	writeTime := s.writeTime
	s.mu.Unlock()
	for _, off := range p.Pending {
		if u, ok := s.queueUnit(off); ok {
			s.enqueueUnit(u, writeTime)
		}
	}
	s.mu.Lock()
	s.queueOffset = max(s.queueOffset, min(p.Scanned, s.store.MaxOffset(timerTopic, 0)))
	s.mu.Unlock()
	s.flush()
	if err := os.Remove(s.legacyPath); err != nil {
		s.log.Warn("remove rmqgoTimer.json", zap.Error(err))
	}
	s.log.Info("the timer progress of rmqgoTimer.json is now in timercheck", zap.Int("pending", len(p.Pending)),
		zap.Int64("queueOffset", p.Scanned))
}
