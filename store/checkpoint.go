package store

import (
	"encoding/binary"
	"fmt"
	"sync/atomic"
)

// Checkpoint file, as Java's StoreCheckpoint keeps it (on-disk format: do
// not change): 4096 bytes, big-endian longs, the rest zero.
//
//	off size field
//	  0    8 physicMsgTimestamp  store time of the last flushed commitlog record
//	  8    8 logicsMsgTimestamp  store time of the last record in a flushed consume queue
//	 16    8 indexMsgTimestamp   end time of the last full, flushed index file
//	 24    8 masterFlushedOffset (5.x)
//	 32    8 confirmPhyOffset    (5.x)
//
// Abnormal recovery starts from the last commitlog file whose first record
// is older than min(physic, logics) - 3 s, so these must never run ahead of
// what is durable; zero is always safe.
//
// Java moves physic on every commitlog flush, logics on the consume queues'
// thorough flush (every 60 s) and index only when an index file fills, and
// writes the file with the thorough consume-queue flush: after a crash it
// re-reads up to a minute of writes, and the whole newest index file is
// lost. Here each flush moves its time as far as it made data durable
// (flush.go): physic on every commitlog flush that reached the end, logics
// on every consume-queue round to the oldest unit still unflushed (a unit
// waits CheckpointInterval at most), index every CheckpointInterval
// after syncing the newest index file; the file is written after every
// consume-queue round that moved a time. Java
// reads the same three longs, so either broker recovers the other's store.
const (
	checkpointSize = osPageSize
	// checkpointSafety is how far before the checkpoint recovery starts.
	checkpointSafety = 3000
)

// checkpoint holds the three timestamps in memory and writes them to the
// mapped file on flush. Each is only ever set to a value that is already
// durable in the files it describes.
type checkpoint struct {
	file *wholeFile

	physicMsgTimestamp atomic.Int64
	logicsMsgTimestamp atomic.Int64
	indexMsgTimestamp  atomic.Int64
	// confirmPhyOffset is the controller mode's stored confirm offset
	// (confirm_offset.go), read from the file and written back with the
	// timestamps: a store outside controller mode keeps what it found.
	confirmPhyOffset atomic.Int64
}

// openCheckpoint maps the checkpoint file, creating it zeroed when absent.
// A read-only open of a store without one gives an all-zero checkpoint.
func openCheckpoint(path string, readOnly bool) (*checkpoint, error) {
	f, _, err := openWholeFile(path, checkpointSize, readOnly)
	if err != nil {
		return nil, fmt.Errorf("store: checkpoint: %w", err)
	}
	cp := &checkpoint{file: f}
	if data := f.data; data != nil {
		be := binary.BigEndian
		cp.physicMsgTimestamp.Store(int64(be.Uint64(data[0:])))
		cp.logicsMsgTimestamp.Store(int64(be.Uint64(data[8:])))
		cp.indexMsgTimestamp.Store(int64(be.Uint64(data[16:])))
		cp.confirmPhyOffset.Store(int64(be.Uint64(data[32:])))
	}
	return cp, nil
}

// flush writes the timestamps and syncs them, when they changed.
func (cp *checkpoint) flush() error {
	data := cp.file.data
	if data == nil {
		return nil
	}
	be := binary.BigEndian
	var now [40]byte
	be.PutUint64(now[0:], uint64(cp.physicMsgTimestamp.Load()))
	be.PutUint64(now[8:], uint64(cp.logicsMsgTimestamp.Load()))
	be.PutUint64(now[16:], uint64(cp.indexMsgTimestamp.Load()))
	copy(now[24:32], data[24:32]) // masterFlushedOffset: kept as found
	be.PutUint64(now[32:], uint64(cp.confirmPhyOffset.Load()))
	if string(now[:]) == string(data[:40]) {
		return nil // unchanged: no write, no sync
	}
	copy(data, now[:])
	if err := cp.file.sync(0, checkpointSize); err != nil {
		return fmt.Errorf("store: flush checkpoint: %w", err)
	}
	return nil
}

// advance moves a timestamp forward to ts, never back: several flushers
// may report the same field, the slower with an older time.
func advance(v *atomic.Int64, ts int64) {
	for {
		cur := v.Load()
		if ts <= cur || v.CompareAndSwap(cur, ts) {
			return
		}
	}
}

// minTimestamp is getMinTimestamp: the oldest of the two data timestamps,
// less a safety margin.
func (cp *checkpoint) minTimestamp() int64 {
	m := min(cp.physicMsgTimestamp.Load(), cp.logicsMsgTimestamp.Load()) - checkpointSafety
	return max(m, 0)
}

// minTimestampIndex is getMinTimestampIndex.
func (cp *checkpoint) minTimestampIndex() int64 {
	return min(cp.minTimestamp(), cp.indexMsgTimestamp.Load())
}

func (cp *checkpoint) close() error { return cp.file.close() }
