package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// Timer wheel, ${root}/timerwheel, as Java's TimerWheel keeps it (on-disk
// format: do not change): TimerWheelSlots*2 slots of 32 bytes, big-endian
// (604800*2*32 = 38707200 bytes, created sparse), slot i holding the time
// t with t/precision % (TimerWheelSlots*2) == i. Each is the head of a
// chain of timer log units (timer_log.go) linked by prevPos, newest first.
//
//	off size field
//	  0    8 time       the slot's time / timerPrecisionMs (0: never used)
//	  8    8 firstPos   timer log position of the slot's first unit
//	 16    8 lastPos    of its last unit: the chain's head
//	 24    4 num        units in it (a delete unit counts -1), for metrics
//	 28    4 magic      unused, 0
//
// Java keeps a copy of the wheel in memory and copies the bytes that
// changed into the mapping once a second (timerFlushIntervalMs); here the
// mapping is written at once and synced once a second. Either way, what a
// crash loses of the wheel is rebuilt from the timer log at start
// (TimerFiles.Recover).
const (
	timerWheelName = "timerwheel"
	timerSlotSize  = 32
	// TimerWheelSlots is TIMER_WHEEL_TTL_DAY * DAY_SECS: the wheel has
	// twice as many slots, whatever the precision.
	TimerWheelSlots = 7 * 24 * 3600
	// timerPosNone is a slot's "no unit" (TimerWheel.BLANK), and
	// timerPosIgnore leaves a position as it is (IGNORE).
	timerPosNone   = -1
	timerPosIgnore = -2
)

// TimerSlot is one slot of the wheel; TimeMs -1 for a slot that holds
// nothing for the time asked.
type TimerSlot struct {
	TimeMs, FirstPos, LastPos int64
	Num, Magic                int32
}

// emptySlot is what TimerWheel.getSlot answers for a slot of another time.
var emptySlot = TimerSlot{TimeMs: -1, FirstPos: timerPosNone, LastPos: timerPosNone}

// timerWheel is the mapped wheel. Not safe for concurrent use.
type timerWheel struct {
	file      *wholeFile
	slots     int64 // TimerWheelSlots*2
	precision int64
	// dirtyFrom and dirtyTo bound the bytes written since the last sync.
	dirtyFrom, dirtyTo int64
}

func openTimerWheel(root string, precisionMs int64) (*timerWheel, error) {
	path := filepath.Join(root, timerWheelName)
	slots := int64(TimerWheelSlots * 2)
	size := slots * timerSlotSize
	if n := fileSize(path); n > 0 && n != size {
		return nil, fmt.Errorf("%w: timer wheel length:%d != expected:%d (%s)", ErrCorrupt, n, size, path)
	}
	f, _, err := openWholeFile(path, size, false)
	if err != nil {
		return nil, err
	}
	return &timerWheel{file: f, slots: slots, precision: precisionMs, dirtyFrom: size}, nil
}

// index is getSlotIndex.
func (w *timerWheel) index(timeMs int64) int64 { return timeMs / w.precision % w.slots }

// raw reads the slot for timeMs whatever time it holds (getRawSlot).
func (w *timerWheel) raw(timeMs int64) TimerSlot { return w.at(w.index(timeMs)) }

func (w *timerWheel) at(i int64) TimerSlot {
	b := w.file.data[i*timerSlotSize:]
	be := binary.BigEndian
	return TimerSlot{TimeMs: int64(be.Uint64(b)) * w.precision, FirstPos: int64(be.Uint64(b[8:])),
		LastPos: int64(be.Uint64(b[16:])), Num: int32(be.Uint32(b[24:])), Magic: int32(be.Uint32(b[28:]))}
}

// slot is getSlot: the slot of timeMs, or emptySlot when it holds another
// time.
func (w *timerWheel) slot(timeMs int64) TimerSlot {
	s := w.raw(timeMs)
	if s.TimeMs != timeMs/w.precision*w.precision {
		return emptySlot
	}
	return s
}

// put is putSlot with num and magic.
func (w *timerWheel) put(timeMs, first, last int64, num, magic int32) {
	b := w.putPositions(timeMs, first, last)
	binary.BigEndian.PutUint32(b[24:], uint32(num))
	binary.BigEndian.PutUint32(b[28:], uint32(magic))
}

// putPositions is putSlot(timeMs, first, last): num and magic are left as
// they were. It returns the slot's bytes.
func (w *timerWheel) putPositions(timeMs, first, last int64) []byte {
	off := w.index(timeMs) * timerSlotSize
	b := w.file.data[off : off+timerSlotSize]
	be := binary.BigEndian
	be.PutUint64(b, uint64(timeMs/w.precision))
	be.PutUint64(b[8:], uint64(first))
	be.PutUint64(b[16:], uint64(last))
	w.dirtyFrom, w.dirtyTo = min(w.dirtyFrom, off), max(w.dirtyTo, off+timerSlotSize)
	return b
}

// revise is reviseSlot: it sets the positions not timerPosIgnore of the
// slot of timeMs, or with force makes the slot timeMs's when it holds
// another time.
func (w *timerWheel) revise(timeMs, first, last int64, force bool) {
	s := w.raw(timeMs)
	if s.TimeMs/w.precision != timeMs/w.precision {
		if force {
			if first == timerPosIgnore {
				first = last
			}
			w.putPositions(timeMs, first, last)
		}
		return
	}
	if first == timerPosIgnore {
		first = s.FirstPos
	}
	if last == timerPosIgnore {
		last = s.LastPos
	}
	w.putPositions(timeMs, first, last)
}

// each calls fn with the slots that hold a time in the wheel's span from
// fromMs on (the times getSlot finds from there), in index order; pages
// the file has no data for are skipped.
func (w *timerWheel) each(fromMs int64, fn func(TimerSlot)) {
	from := fromMs / w.precision * w.precision
	span := w.slots * w.precision
	w.dataRanges(func(lo, hi int64) {
		for i := lo / timerSlotSize; i < hi/timerSlotSize; i++ {
			s := w.at(i)
			if s.TimeMs >= from && s.TimeMs < from+span && w.index(s.TimeMs) == i {
				fn(s)
			}
		}
	})
}

// dataRanges calls fn with the byte ranges of the file that may hold data
// (SEEK_DATA / SEEK_HOLE; the whole file where they are not supported).
func (w *timerWheel) dataRanges(fn func(lo, hi int64)) {
	size := int64(len(w.file.data))
	fd := int(w.file.file.Fd())
	for off := int64(0); off < size; {
		lo, err := unix.Seek(fd, off, unix.SEEK_DATA)
		if errors.Is(err, unix.ENXIO) {
			return // no data past off
		}
		if err != nil {
			fn(off, size)
			return
		}
		hi, err := unix.Seek(fd, lo, unix.SEEK_HOLE)
		if err != nil || hi > size {
			hi = size
		}
		fn(lo&^(timerSlotSize-1), hi)
		off = hi
	}
}

// sync makes what was written since the last sync durable.
func (w *timerWheel) sync() error {
	if w.dirtyFrom >= w.dirtyTo {
		return nil
	}
	err := w.file.sync(w.dirtyFrom, w.dirtyTo)
	w.dirtyFrom, w.dirtyTo = int64(len(w.file.data)), 0
	return err
}

func (w *timerWheel) close() error { return w.file.close() }
