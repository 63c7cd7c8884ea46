package store

import (
	"encoding/binary"
	"path/filepath"
	"sync/atomic"
	"unsafe"

	"go.uber.org/zap"
)

// Timer log, ${root}/timerlog/, as Java's TimerLog writes it (on-disk
// format: do not change): mapped files of mappedFileSizeTimerLog bytes
// (100 MiB) named by their start offset, each a run of 52-byte units,
// big-endian, appended in order. A unit's position is its offset in the
// whole log (file start + position in the file).
//
//	off size field
//	  0    4 size       52
//	  4    8 prevPos    position of the slot's previous unit, -1 for its first
//	 12    4 magic      TimerMagic* bits
//	 16    8 writeTime  the wheel's write time when the unit was appended (ms)
//	 24    4 delay      the unit's slot time - writeTime (ms)
//	 28    8 offsetPy   commitlog offset of the message
//	 36    4 sizePy     the message's size
//	 40    4 topicHash  String.hashCode of the message's REAL_TOPIC (metrics)
//	 44    8 reserved   0
//
// A unit that would leave less than 16 bytes at the end of a file starts
// the next file; the rest of the file gets a blank head:
// [int rest][long 0][int BLANK_MAGIC_CODE]. A unit is written with its
// size last, in one aligned store, so a process killed while writing one
// leaves the whole unit or none (recovery stops at a unit whose size is
// not 52).
const (
	timerLogName = "timerlog"
	// TimerUnitSize is a unit's size.
	TimerUnitSize = 52
	// timerBlankLen is the blank head's size (MIN_BLANK_LEN).
	timerBlankLen = 16
	// timerBlankMagic is BLANK_MAGIC_CODE, 0xBBCCDDEE ^ (1880681586 + 8),
	// as the unsigned bits of the int Java writes.
	timerBlankMagic = 0xBBCCDDEE ^ (1880681586 + 8)
)

// Timer unit magic bits (MAGIC_DEFAULT, MAGIC_ROLL, MAGIC_DELETE).
const (
	TimerMagicDefault = 1
	TimerMagicRoll    = 1 << 1
	TimerMagicDelete  = 1 << 2
)

// TimerUnit is one unit of the timer log.
type TimerUnit struct {
	PrevPos   int64
	Magic     int32
	WriteTime int64
	Delay     int32
	OffsetPy  int64
	SizePy    int32
	TopicHash int32
}

// DelayedTime is the unit's slot time.
func (u TimerUnit) DelayedTime() int64 { return u.WriteTime + int64(u.Delay) }

// Roll tells whether the unit only moves its message on (needRoll).
func (u TimerUnit) Roll() bool { return u.Magic&TimerMagicRoll != 0 }

// Delete tells whether the unit cancels another message (needDelete).
func (u TimerUnit) Delete() bool { return u.Magic&TimerMagicDelete != 0 }

// timerMagicOK is isMagicOK: no bit above the low four.
func timerMagicOK(magic int32) bool { return magic|0xF == 0xF }

// encodeTimerUnit writes u into b (52 bytes), the size last, atomically
// when b is 4-byte aligned.
func encodeTimerUnit(b []byte, u TimerUnit) {
	be := binary.BigEndian
	be.PutUint64(b[4:], uint64(u.PrevPos))
	be.PutUint32(b[12:], uint32(u.Magic))
	be.PutUint64(b[16:], uint64(u.WriteTime))
	be.PutUint32(b[24:], uint32(u.Delay))
	be.PutUint64(b[28:], uint64(u.OffsetPy))
	be.PutUint32(b[36:], uint32(u.SizePy))
	be.PutUint32(b[40:], uint32(u.TopicHash))
	be.PutUint64(b[44:], 0)
	var size [4]byte
	be.PutUint32(size[:], TimerUnitSize)
	if uintptr(unsafe.Pointer(&b[0]))%4 == 0 {
		atomic.StoreUint32((*uint32)(unsafe.Pointer(&b[0])), binary.NativeEndian.Uint32(size[:]))
	} else {
		copy(b, size[:])
	}
}

// decodeTimerUnit reads a unit's fields from b (52 bytes); size is its
// size field.
func decodeTimerUnit(b []byte) (u TimerUnit, size int32) {
	be := binary.BigEndian
	return TimerUnit{PrevPos: int64(be.Uint64(b[4:])), Magic: int32(be.Uint32(b[12:])),
		WriteTime: int64(be.Uint64(b[16:])), Delay: int32(be.Uint32(b[24:])), OffsetPy: int64(be.Uint64(b[28:])),
		SizePy: int32(be.Uint32(b[36:])), TopicHash: int32(be.Uint32(b[40:]))}, int32(be.Uint32(b))
}

// timerLog is the mapped timer log. Not safe for concurrent use but for
// its fileQueue's own locking.
type timerLog struct {
	files *fileQueue
}

func openTimerLog(root string, fileSize int64, log *zap.Logger) (*timerLog, error) {
	q := newFileQueue(filepath.Join(root, timerLogName), fileSize, log, false)
	if err := q.load(); err != nil {
		return nil, err
	}
	return &timerLog{files: q}, nil
}

// append writes u at the log's end and returns its position.
func (l *timerLog) append(u TimerUnit) (int64, error) {
	f, _, err := l.files.lastWritable(0)
	if err != nil {
		return 0, err
	}
	if pos := f.wrotePosition(); pos+TimerUnitSize+timerBlankLen > f.size {
		var blank [timerBlankLen]byte
		binary.BigEndian.PutUint32(blank[:], uint32(f.size-pos))
		binary.BigEndian.PutUint32(blank[12:], timerBlankMagic)
		copy(f.data[pos:], blank[:])
		f.wrote.Store(f.size)
		if f, _, err = l.files.lastWritable(0); err != nil {
			return 0, err
		}
	}
	pos := f.wrotePosition()
	encodeTimerUnit(f.data[pos:pos+TimerUnitSize], u)
	f.wrote.Store(pos + TimerUnitSize)
	return f.start + pos, nil
}

// unit reads the unit at position pos; false when no file holds it or
// what is there is not a unit.
func (l *timerLog) unit(pos int64) (TimerUnit, bool) {
	f := l.files.find(pos)
	if f == nil || !f.hold() {
		return TimerUnit{}, false
	}
	defer f.release()
	at := pos - f.start
	if at < 0 || at+TimerUnitSize > f.wrotePosition() {
		return TimerUnit{}, false
	}
	u, size := decodeTimerUnit(f.data[at:])
	if size != TimerUnitSize || !timerMagicOK(u.Magic) {
		return TimerUnit{}, false
	}
	return u, true
}

// scan is recoverAndRevise's walk: from the file holding from (the first
// file when none does) to the end, it calls fn with each unit's position,
// moving to the next file at a blank. With check it reads whole files and
// stops at the first position that is not a unit; without, it reads what
// was written. It returns the position it stopped at.
func (l *timerLog) scan(from int64, check bool, fn func(pos int64, u TimerUnit)) int64 {
	files := l.files.snapshot()
	if len(files) == 0 {
		return 0
	}
	i := len(files) - 1
	for i > 0 && from < files[i].start {
		i--
	}
	end := files[i].start
	for ; i < len(files); i++ {
		f := files[i]
		limit := f.size
		if !check {
			limit = f.wrotePosition()
		}
		pos, stop := scanTimerFile(f, limit, check, fn)
		end = f.start + pos
		if stop {
			break
		}
	}
	return end
}

// scanTimerFile walks one file's units up to limit; stop reports a
// position that is not a unit (with check).
func scanTimerFile(f *mappedFile, limit int64, check bool, fn func(pos int64, u TimerUnit)) (pos int64, stop bool) {
	for ; pos+timerBlankLen <= limit; pos += TimerUnitSize {
		b := f.data[pos:]
		if binary.BigEndian.Uint32(b[12:]) == timerBlankMagic {
			return pos, false
		}
		if pos+TimerUnitSize > limit {
			return pos, true
		}
		u, size := decodeTimerUnit(b)
		ok := size == TimerUnitSize && timerMagicOK(u.Magic)
		if check && !ok {
			return pos, true
		}
		if ok {
			fn(f.start+pos, u)
		}
	}
	return pos, check
}

// lastUnitOffset is getOffsetForLastUnit: where the last unit of a full
// file starts.
func (l *timerLog) lastUnitOffset() int64 {
	size := l.files.fileSize
	return size - (size-timerBlankLen)%TimerUnitSize - timerBlankLen - TimerUnitSize
}

// deleteExpired is deleteExpiredFileByOffsetForTimerLog: the files, but
// the last, whose last unit's message is below the commitlog's first
// offset minPy, oldest first until one is not.
func (l *timerLog) deleteExpired(minPy int64) (int, error) {
	files := l.files.snapshot()
	at := l.lastUnitOffset()
	n := 0
	for ; n < len(files)-1; n++ {
		u, size := decodeTimerUnit(files[n].data[at:])
		if size != TimerUnitSize || !timerMagicOK(u.Magic) || u.OffsetPy >= minPy {
			break
		}
	}
	for _, f := range l.files.removeFirst(n) {
		if err := f.destroy(); err != nil {
			return 0, err
		}
	}
	return n, nil
}
