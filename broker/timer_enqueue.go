package broker

// The timer's enqueue, as TimerMessageStore.enqueue and doEnqueue: each
// message of rmq_sys_wheel_timer queue 0 from the queue offset on is due
// at its TIMER_OUT_MS. One due before the write time is delivered at once
// (TIMER_ENQUEUE_MS Long.MAX_VALUE); any other gets a unit at the end of
// the timer log as the newest of its slot's chain. A message due a roll
// window (timerRollWindowSlot slots, 2 days) or more ahead gets a roll
// unit in a nearer slot instead (half the window ahead when it is due
// within a third of a window past it, else the window ahead), which puts
// the message back in the timer queue when its slot comes. A message with
// TIMER_DEL_UNIQKEY gets a delete unit: it cancels the message of that key
// in the same slot.
//
// Differences from Java: a message whose TIMER_OUT_MS is not a number is
// delivered at once (Java stops its enqueue on it for good); a unit that
// cannot be written, or a message that cannot be delivered at once, stops
// the round and is tried again on the next tick.

import (
	"math"
	"strconv"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/store"
)

// enqueue reads what the timer queue gained since the queue offset.
func (s *timerService) enqueue() {
	s.mu.Lock()
	from, writeTime := s.queueOffset, s.writeTime
	s.mu.Unlock()
	n := 0
	err := s.store.WalkQueueFrom(timerTopic, 0, from, func(at int64, u store.QueueUnit) error {
		if n == timerEnqueueBatch || !s.enqueueUnit(u, writeTime) {
			return store.ErrStopWalk
		}
		n++
		s.mu.Lock()
		s.queueOffset = at + 1
		s.mu.Unlock()
		return nil
	})
	if err != nil {
		s.log.Error("read the timer queue", zap.Error(err))
	}
}

// enqueueUnit takes one unit of the timer queue; false when it must be
// tried again.
func (s *timerService) enqueueUnit(u store.QueueUnit, writeTime int64) bool {
	if u.Blank {
		return true
	}
	rec, err := s.store.LookMessage(u.CommitLogOffset)
	if err != nil {
		s.log.Warn("a timer queue unit names no message; skipped", zap.Int64("offset", u.CommitLogOffset), zap.Error(err))
		return true
	}
	v, _ := rec.Property(propTimerOutMs)
	due, err := strconv.ParseInt(v, 10, 64)
	if err != nil || due < writeTime {
		return s.deliver(&rec, math.MaxInt64, false) != putRetry
	}
	return s.addUnit(&rec, u, due, writeTime)
}

// addUnit is doEnqueue: the message's unit goes into the wheel.
func (s *timerService) addUnit(rec *store.Record, u store.QueueUnit, due, writeTime int64) bool {
	realTopic, _ := rec.Property(propRealTopic)
	unit := store.TimerUnit{Magic: store.TimerMagicDefault, WriteTime: writeTime, OffsetPy: u.CommitLogOffset,
		SizePy: u.Size, TopicHash: store.JavaStringHash(realTopic)}
	at := s.rollTime(due, writeTime)
	if at != due {
		unit.Magic |= store.TimerMagicRoll
	}
	if _, del := rec.Property(propTimerDelUniq); del {
		unit.Magic |= store.TimerMagicDelete
	}
	unit.Delay = int32(at - writeTime)
	if _, err := s.files.Append(unit); err != nil {
		s.log.Error("append to the timer log", zap.Error(err))
		return false
	}
	slot := s.formatTime(at)
	n := int64(s.files.Slot(slot).Num)
	s.mu.Lock()
	s.slots.set(slot, n)
	s.mu.Unlock()
	return true
}

// rollTime is the slot time doEnqueue gives a message due at due: due
// itself, or a nearer one when due is a roll window or more ahead.
func (s *timerService) rollTime(due, writeTime int64) int64 {
	p := s.conf.precisionMs
	window := int64(timerRollWindowSlots) * p
	if due-writeTime < window {
		return due
	}
	if due-writeTime-window < int64(timerRollWindowSlots/3)*p {
		return writeTime + int64(timerRollWindowSlots/2)*p
	}
	return writeTime + window
}
