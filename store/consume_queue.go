package store

import (
	"encoding/binary"
	"math"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"go.uber.org/zap"
)

// Consume queue unit, as Java's ConsumeQueue writes it (on-disk format:
// do not change). Unit i of a queue is at logical byte offset i*20, in
// file floor(i*20/fileSize), named by its first logical byte offset.
//
//	off size field
//	  0    8 commitlog offset of the record
//	  8    4 record size (TOTALSIZE)
//	 12    8 tagsCode: hashCode of TAGS, or the delivery time for
//	         SCHEDULE_TOPIC_XXXX
//
// A queue whose first file starts past offset 0 is pre-filled with blank
// units (0, 0x7FFFFFFF, 0) up to its first real unit.
const (
	cqUnitSize = 20
	// blankUnitSize marks a pre-fill unit.
	blankUnitSize = math.MaxInt32
)

// cqUnit is one decoded consume-queue unit.
type cqUnit struct {
	offset   int64
	size     int32
	tagsCode int64
}

func readUnit(b []byte) cqUnit {
	be := binary.BigEndian
	return cqUnit{offset: int64(be.Uint64(b)), size: int32(be.Uint32(b[8:])), tagsCode: int64(be.Uint64(b[12:]))}
}

func putUnit(b []byte, u cqUnit) {
	be := binary.BigEndian
	be.PutUint64(b, uint64(u.offset))
	be.PutUint32(b[8:], uint32(u.size))
	be.PutUint64(b[12:], uint64(u.tagsCode))
}

// putMappedUnit writes a unit into a mapped file so that a process killed
// while writing it leaves either no unit or the whole unit: the offset and
// the tags code first, then the size, whose non-zero value makes the unit
// valid (recovery stops at the first unit without one, and the tail past
// the queue's end is zero), in one aligned 32-bit store. A plain copy
// could leave a valid unit with a torn tags code (seen by
// TestCrashSIGKILL). b is 4-byte aligned at 8: the mapping is page
// aligned and units are 20 bytes.
func putMappedUnit(b []byte, u cqUnit) {
	be := binary.BigEndian
	be.PutUint64(b, uint64(u.offset))
	be.PutUint64(b[12:], uint64(u.tagsCode))
	var size [4]byte
	be.PutUint32(size[:], uint32(u.size))
	atomic.StoreUint32((*uint32)(unsafe.Pointer(&b[8])), binary.NativeEndian.Uint32(size[:]))
}

// blankUnits is n bytes of pre-fill units, which a queue's first file
// holds below its first unit when the queue starts inside the file.
func blankUnits(n int64) []byte {
	b := make([]byte, n)
	for p := int64(0); p+cqUnitSize <= n; p += cqUnitSize {
		putUnit(b[p:], cqUnit{size: blankUnitSize})
	}
	return b
}

// valid is Java's test for a unit holding data.
func (u cqUnit) valid() bool { return u.offset >= 0 && u.size > 0 }

// blank reports a pre-fill unit.
func (u cqUnit) blank() bool { return u.size == blankUnitSize && u.offset == 0 }

// consumeQueue is the index of one topic's queue into the commitlog. The
// dispatcher is its only writer; readers use snapshots of its files.
type consumeQueue struct {
	topic   string
	queueID int32
	files   *fileQueue
	log     *zap.Logger

	mu sync.Mutex // serialises appends and truncation
	// maxPhysicOffset is the commitlog end of the last unit, for the
	// dispatcher's duplicate check.
	maxPhysicOffset atomic.Int64
	// minLogicOffset is the logical byte offset of the first unit still
	// pointing into the commitlog.
	minLogicOffset atomic.Int64
	// dirtySince is the store time of the oldest record whose unit is not
	// yet flushed, 0 when every unit is (guarded by mu; read by the
	// flusher for the checkpoint).
	dirtySince atomic.Int64
	// dirtyAt is when (Unix ns) dirtySince was set, for flushing a queue
	// whose units have waited too long for enough dirty pages.
	dirtyAt atomic.Int64
}

func newConsumeQueue(topic string, queueID int32, dir string, fileSize int64, log *zap.Logger, readOnly bool) *consumeQueue {
	files := newFileQueue(dir, fileSize, log, readOnly)
	files.sparse = true
	cq := &consumeQueue{topic: topic, queueID: queueID, files: files, log: log}
	cq.maxPhysicOffset.Store(-1)
	return cq
}

// minOffset is the first logical offset a reader can ask for.
func (cq *consumeQueue) minOffset() int64 { return cq.minLogicOffset.Load() / cqUnitSize }

// maxOffset is one past the last unit (Java's getMaxOffsetInQueue).
func (cq *consumeQueue) maxOffset() int64 { return cq.files.maxOffset() / cqUnitSize }

// put appends the unit for a record stored at storeTs at logical offset
// cqOffset (the record's QUEUEOFFSET), as Java's putMessagePositionInfo: a record at or
// below the queue's commitlog high-water mark is a duplicate and skipped;
// a first file that starts past 0 is pre-filled with blank units; a gap
// is filled with blank units so every unit stays at its record's offset.
func (cq *consumeQueue) put(u cqUnit, cqOffset, storeTs int64) error {
	cq.mu.Lock()
	defer cq.mu.Unlock()
	if u.offset+int64(u.size) <= cq.maxPhysicOffset.Load() {
		return nil
	}
	expect := cqOffset * cqUnitSize
	current := cq.files.maxOffset()
	if cq.files.last() == nil {
		current = expect - expect%cq.files.fileSize
		cq.minLogicOffset.Store(expect)
	}
	if expect < current {
		cq.log.Warn("consume queue built repeatedly", zap.String("topic", cq.topic),
			zap.Int32("queueId", cq.queueID), zap.Int64("queueOffset", cqOffset), zap.Int64("expected", current/cqUnitSize))
		return nil
	}
	if expect > current && cq.files.last() != nil {
		cq.log.Error("consume queue gap filled with blank units", zap.String("topic", cq.topic),
			zap.Int32("queueId", cq.queueID), zap.Int64("from", current/cqUnitSize), zap.Int64("to", cqOffset))
	}
	for ; current < expect; current += cqUnitSize {
		if err := cq.appendUnit(current, cqUnit{size: blankUnitSize}); err != nil {
			return err
		}
	}
	if err := cq.appendUnit(expect, u); err != nil {
		return err
	}
	cq.maxPhysicOffset.Store(u.offset + int64(u.size))
	if cq.dirtySince.Load() == 0 {
		cq.markDirty(storeTs)
	}
	return nil
}

// markDirty records that units of records stored from storeTs on wait
// for a flush; mu is held.
func (cq *consumeQueue) markDirty(storeTs int64) {
	cq.dirtySince.Store(max(storeTs, 1))
	cq.dirtyAt.Store(time.Now().UnixNano())
}

// flush syncs the queue (see mappedFile.flush for least; units that have
// waited maxAge are synced whatever their number) and returns the store
// time of the oldest record whose unit is still not durable, 0 when all
// are. since is a store time read before the flush began: every unit
// appended after it belongs to a record stored at or after since.
func (cq *consumeQueue) flush(least int, since int64, maxAge time.Duration) (int64, error) {
	cq.mu.Lock()
	began := cq.files.maxOffset()
	if at := cq.dirtyAt.Load(); at != 0 && time.Since(time.Unix(0, at)) >= maxAge {
		least = 0
	}
	cq.mu.Unlock()
	if _, err := cq.files.flush(least); err != nil {
		return 0, err
	}
	cq.mu.Lock()
	defer cq.mu.Unlock()
	flushed := cq.files.flushedOffset()
	switch {
	case flushed >= cq.files.maxOffset():
		cq.dirtySince.Store(0)
		cq.dirtyAt.Store(0)
	case flushed >= began:
		// What is left was appended during the flush.
		cq.markDirty(since)
	}
	return cq.dirtySince.Load(), nil
}

// appendUnit writes one unit at logical offset at, the queue's end; a
// unit that starts a page is written through the file (see writeThrough),
// since the files are sparse.
func (cq *consumeQueue) appendUnit(at int64, u cqUnit) error {
	f, created, err := cq.files.lastWritable(at)
	if err != nil {
		return err
	}
	pos := at - f.start
	if created && pos > 0 {
		if err := f.writeThrough(blankUnits(pos), 0); err != nil {
			return err
		}
		f.wrote.Store(pos)
	}
	if firstTouch(pos, cqUnitSize) {
		var b [cqUnitSize]byte
		putUnit(b[:], u)
		if err := f.writeThrough(b[:], pos); err != nil {
			return err
		}
	} else {
		putMappedUnit(f.data[pos:], u)
	}
	f.wrote.Store(pos + cqUnitSize)
	return nil
}

// units returns the units from logical offset index to the end of the
// file holding it, held until release is called; ok is false when index
// is below the queue's minimum or past its end.
func (cq *consumeQueue) units(index int64) (data []byte, release func(), ok bool) {
	at := index * cqUnitSize
	if at < cq.minLogicOffset.Load() {
		return nil, nil, false
	}
	f := cq.files.find(at)
	if f == nil || !f.hold() {
		return nil, nil, false
	}
	pos, end := at-f.start, f.wrotePosition()
	if pos >= end {
		f.release()
		return nil, nil, false
	}
	return f.data[pos:end:end], f.release, true
}

// unitAt reads one unit.
func (cq *consumeQueue) unitAt(index int64) (cqUnit, bool) {
	data, release, ok := cq.units(index)
	if !ok {
		return cqUnit{}, false
	}
	defer release()
	return readUnit(data), true
}

// recover finds the last valid unit, from the third-last file on as Java
// does, and cuts the queue there.
func (cq *consumeQueue) recover() error {
	files := cq.files.snapshot()
	if len(files) == 0 {
		return nil
	}
	i := max(len(files)-3, 0)
	end := files[i].start
	for ; i < len(files); i++ {
		f := files[i]
		pos := int64(0)
		for ; pos+cqUnitSize <= f.size; pos += cqUnitSize {
			u := readUnit(f.data[pos:])
			if !u.valid() {
				break
			}
			if !u.blank() {
				cq.maxPhysicOffset.Store(u.offset + int64(u.size))
			}
		}
		end = f.start + pos
		if pos < f.size {
			break
		}
	}
	return cq.files.truncate(end)
}

// truncateAbove removes the units pointing at or past the commitlog
// offset end (Java's truncateDirtyLogicFiles). Units are in commitlog
// order, so only the last file whose first unit points below end is read.
func (cq *consumeQueue) truncateAbove(end int64) error {
	cq.mu.Lock()
	defer cq.mu.Unlock()
	files := cq.files.snapshot()
	i := len(files) - 1
	for ; i > 0; i-- {
		if u := readUnit(files[i].data); u.valid() && (u.blank() || u.offset < end) {
			break
		}
	}
	cq.maxPhysicOffset.Store(-1)
	if i < 0 {
		return nil
	}
	if i > 0 {
		// Every unit before this file points below end: its last says how far.
		prev := files[i-1]
		if last := readUnit(prev.data[prev.size-cqUnitSize:]); last.valid() && !last.blank() {
			cq.maxPhysicOffset.Store(last.offset + int64(last.size))
		}
	}
	f := files[i]
	cut := f.start
	for pos := int64(0); pos < f.wrotePosition(); pos += cqUnitSize {
		u := readUnit(f.data[pos:])
		if !u.valid() || (!u.blank() && u.offset >= end) {
			break
		}
		cut = f.start + pos + cqUnitSize
		if !u.blank() {
			cq.maxPhysicOffset.Store(u.offset + int64(u.size))
		}
	}
	return cq.files.truncate(cut)
}

// correctMinOffset sets the queue's minimum to its first unit pointing at
// or past the commitlog's minimum (Java's correctMinOffset).
func (cq *consumeQueue) correctMinOffset(commitLogMin int64) {
	f := cq.files.first()
	if f == nil {
		return
	}
	for pos := int64(0); pos < f.wrotePosition(); pos += cqUnitSize {
		u := readUnit(f.data[pos:])
		if u.offset >= commitLogMin && !u.blank() {
			cq.minLogicOffset.Store(f.start + pos)
			return
		}
	}
	// Every unit of the first file points below the commitlog: the queue
	// starts where that file ends.
	cq.minLogicOffset.Store(f.start + f.wrotePosition())
}

// lastUnit returns the queue's last unit.
func (cq *consumeQueue) lastUnit() (cqUnit, bool) {
	max := cq.maxOffset()
	if max == 0 {
		return cqUnit{}, false
	}
	return cq.unitAt(max - 1)
}
