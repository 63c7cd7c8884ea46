package store

import (
	"errors"
	"fmt"

	"go.uber.org/zap"
)

// TimerFiles are the files of the 5.x timer wheel (Java's
// TimerMessageStore keeps them; timer_checkpoint.go, timer_wheel.go,
// timer_log.go draw them): what a timer service that shares them with the
// Java broker reads at start and writes as it goes. The service itself
// (which messages go in, when they come out) is the broker's. Not safe for
// concurrent use: one goroutine owns them.
type TimerFiles struct {
	log   *timerLog
	wheel *timerWheel
	cp    *timerCheckpointFile
	opts  TimerOptions
}

// TimerOptions say where the files are and how they are cut.
type TimerOptions struct {
	// RootDir is storePathRootDir.
	RootDir string
	// LogFileSize is mappedFileSizeTimerLog.
	LogFileSize int64
	// PrecisionMs is timerPrecisionMs (100, 200, 500 or 1000).
	PrecisionMs int64
}

// OpenTimerFiles maps the timer checkpoint, wheel and log of a store,
// creating those missing. Recover must run before the first write.
func OpenTimerFiles(o TimerOptions, log *zap.Logger) (*TimerFiles, error) {
	if o.LogFileSize < TimerUnitSize+timerBlankLen || o.PrecisionMs <= 0 {
		return nil, fmt.Errorf("store: timer log files of %d bytes, precision %d ms", o.LogFileSize, o.PrecisionMs)
	}
	t := &TimerFiles{opts: o}
	var err error
	if t.cp, err = openTimerCheckpoint(o.RootDir); err != nil {
		return nil, err
	}
	if t.wheel, err = openTimerWheel(o.RootDir, o.PrecisionMs); err != nil {
		t.cp.file.close()
		return nil, err
	}
	if t.log, err = openTimerLog(o.RootDir, o.LogFileSize, log); err != nil {
		t.wheel.close()
		t.cp.file.close()
		return nil, err
	}
	return t, nil
}

// Checkpoint is the checkpoint as the file holds it; existed is false
// when the file was made by OpenTimerFiles.
func (t *TimerFiles) Checkpoint() (cp TimerCheckpoint, existed bool) {
	return t.cp.read(), t.cp.existed
}

// WriteCheckpoint stores cp in the file and syncs it.
func (t *TimerFiles) WriteCheckpoint(cp TimerCheckpoint) error { return t.cp.write(cp) }

// Slot is the wheel's slot for timeMs (TimeMs -1 when it holds nothing
// for that time).
func (t *TimerFiles) Slot(timeMs int64) TimerSlot { return t.wheel.slot(timeMs) }

// Slots calls fn with every slot that holds a time in the wheel's span
// from fromMs on, in no particular order.
func (t *TimerFiles) Slots(fromMs int64, fn func(TimerSlot)) { t.wheel.each(fromMs, fn) }

// Append is doEnqueue's write: u goes at the end of the log as the newest
// unit of the slot of u.DelayedTime() (its PrevPos is set here), and the
// slot counts it (-1 for a delete unit). It returns the unit's position.
func (t *TimerFiles) Append(u TimerUnit) (int64, error) {
	at := u.DelayedTime()
	s := t.wheel.slot(at)
	u.PrevPos = s.LastPos
	pos, err := t.log.append(u)
	if err != nil {
		return 0, err
	}
	first, num := s.FirstPos, s.Num+1
	if first == timerPosNone {
		first = pos
	}
	if u.Delete() {
		num = s.Num - 1
	}
	t.wheel.put(at, first, pos, num, s.Magic)
	return pos, nil
}

// Units reads the chain of slot s, oldest unit first; a unit the log no
// longer has ends the chain.
func (t *TimerFiles) Units(s TimerSlot) []TimerUnit {
	var chain []TimerUnit
	for pos := s.LastPos; pos != timerPosNone; {
		u, ok := t.log.unit(pos)
		if !ok {
			break
		}
		chain = append(chain, u)
		pos = u.PrevPos
	}
	for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
		chain[i], chain[j] = chain[j], chain[i]
	}
	return chain
}

// TimerRecovery is what Recover found.
type TimerRecovery struct {
	// End is the position after the log's last valid unit (processOffset).
	End int64
	// Last is that unit, when HasLast.
	Last    TimerUnit
	HasLast bool
}

// Recover is the file part of TimerMessageStore.recover: the log is read
// from one file before the checkpoint's flushed position to its end, each
// unit made its slot's newest (reviseSlot), and cut after the last valid
// unit (truncateDirtyFiles).
func (t *TimerFiles) Recover() (TimerRecovery, error) {
	from := t.cp.read().LastTimerLogFlushPos
	if t.log.files.last() != nil {
		from -= t.opts.LogFileSize
	}
	end := t.log.scan(max(from, 0), true, t.reviseUnit)
	if err := t.log.files.truncate(end); err != nil {
		return TimerRecovery{}, err
	}
	r := TimerRecovery{End: end}
	if end >= TimerUnitSize {
		r.Last, r.HasLast = t.log.unit(end - TimerUnitSize)
	}
	return r, nil
}

func (t *TimerFiles) reviseUnit(pos int64, u TimerUnit) {
	t.wheel.revise(u.DelayedTime(), timerPosIgnore, pos, true)
}

// ReviseFrom is recover's second look: when a slot from readTimeMs on
// names a unit past end (the wheel reached the disk, the log did not), the
// log is read again from the earliest first unit of such slots.
func (t *TimerFiles) ReviseFrom(readTimeMs, end int64) {
	minFirst := int64(-1)
	t.wheel.each(readTimeMs, func(s TimerSlot) {
		if s.LastPos > end && (minFirst < 0 || s.FirstPos < minFirst) {
			minFirst = s.FirstPos
		}
	})
	if minFirst >= 0 && minFirst < end {
		t.log.scan(minFirst, false, t.reviseUnit)
	}
}

// FlushedPos is how far the log is durable (getFlushedWhere).
func (t *TimerFiles) FlushedPos() int64 { return t.log.files.flushedOffset() }

// Flush makes the log and the wheel durable (TimerFlushService's round,
// but for the checkpoint: WriteCheckpoint).
func (t *TimerFiles) Flush() error {
	_, err := t.log.files.flush(0)
	return errors.Join(err, t.wheel.sync())
}

// DeleteExpired deletes the log files whose messages all precede the
// commitlog's first offset minPy.
func (t *TimerFiles) DeleteExpired(minPy int64) (int, error) { return t.log.deleteExpired(minPy) }

// Close flushes and unmaps the files.
func (t *TimerFiles) Close() error {
	err := t.Flush()
	t.log.files.closeAll()
	return errors.Join(err, t.wheel.close(), t.cp.file.close())
}
