package store

import (
	"cmp"
	"encoding/binary"
	"slices"

	"go.uber.org/zap"
)

// Where recovery starts reading the commitlog.
//
// After a clean stop, as Java's recoverNormally: the first record of the
// third-last file, checked but not dispatched.
//
// After a crash, Java's recoverAbnormally starts at the first record of
// the last file whose first record was stored at or before the
// checkpoint's limit (isMappedFileMatchedRecover; the limit is
// min(physic, logics) - 3 s, with messageIndexSafe also the index time),
// and dispatches every record from there. Here the limit also covers the
// index (index_service.go keeps the newest index file when the checkpoint
// synced part of it and re-indexes the rest), and the start then moves on
// inside that file to the latest record the consume queues show stored at
// or before the limit: records are appended in store-time order (a store
// time is never below the one before it, commitlog.append), so every
// record before it is covered by the checkpoint as well. Recovery then
// reads what the checkpoint does not cover, about the last second of
// writes under load, whatever the size of the store, instead of up to a
// whole 1 GiB file plus that.
//
// The start must be a record boundary: the queue unit it comes from
// points at it, and the record there is decoded and checked (magic,
// lengths, CRC, its own offset, its store time) before it is used;
// anything doubtful falls back to the file's first record, as in Java.

// boundaryQueues is how many of the most recently written queues are
// searched for a later start.
const boundaryQueues = 8

// recoveryStart returns the commitlog offset to scan from and whether the
// scan must dispatch the records it reads.
func (s *Store) recoveryStart(files []*mappedFile) (int64, bool) {
	if s.lastExitOK {
		return files[max(len(files)-3, 0)].start, false
	}
	limit := s.recoveryLimit()
	for i := len(files) - 1; i >= 0; i-- {
		if ts := firstStoreTimestamp(files[i]); ts > 0 && ts <= limit {
			return s.queueBoundary(files[i].start, limit), !s.opts.ReadOnly
		}
	}
	return files[0].start, !s.opts.ReadOnly
}

// recoveryLimit is the store time up to which the checkpoint says the
// commitlog, the consume queues and the index are durable.
func (s *Store) recoveryLimit() int64 {
	limit := s.cp.minTimestamp()
	if s.opts.MessageIndexEnable && s.opts.MessageIndexSafe {
		limit = s.cp.minTimestampIndex()
	}
	if s.index != nil && s.index.rebuildFrom > 0 {
		limit = min(limit, s.index.rebuildFrom-1)
	}
	return limit
}

// firstStoreTimestamp is the store time of a file's first record, 0 when
// it does not start with a message (isMappedFileMatchedRecover).
func firstStoreTimestamp(f *mappedFile) int64 {
	if len(f.data) < 128 {
		return 0
	}
	magic := int32(binary.BigEndian.Uint32(f.data[posMagic:]))
	if magic != MagicV1 && magic != MagicV2 {
		return 0
	}
	sysFlag := int32(binary.BigEndian.Uint32(f.data[posSysFlag:]))
	return int64(binary.BigEndian.Uint64(f.data[storeTimestampPos(sysFlag):]))
}

// queueBoundary returns the latest record at or after from that the most
// recently written consume queues point at and that was stored at or
// before limit; from when there is none or it does not check out.
func (s *Store) queueBoundary(from, limit int64) int64 {
	best := from
	for _, cq := range s.busiestQueues(boundaryQueues) {
		if off, ok := s.lastUnitStoredBy(cq, from, limit); ok && off > best {
			best = off
		}
	}
	if best == from {
		return from
	}
	if !s.recordStoredBy(best, limit) {
		s.log.Warn("the consume queues point at no valid record before the checkpoint; recovering from the file start",
			zap.Int64("offset", best), zap.Int64("fileStart", from))
		return from
	}
	return best
}

// busiestQueues returns the n queues whose last unit points furthest
// into the commitlog.
func (s *Store) busiestQueues(n int) []*consumeQueue {
	all := s.cqs.all()
	slices.SortFunc(all, func(a, b *consumeQueue) int {
		return cmp.Compare(b.maxPhysicOffset.Load(), a.maxPhysicOffset.Load())
	})
	return all[:min(n, len(all))]
}

// lastUnitStoredBy binary-searches a queue for its last unit whose record
// was stored at or before limit (units pointing below from count as such)
// and returns that record's offset when it is at or after from.
func (s *Store) lastUnitStoredBy(cq *consumeQueue, from, limit int64) (int64, bool) {
	covered := func(i int64) (int64, bool) {
		u, ok := cq.unitAt(i)
		if !ok || !u.valid() {
			return 0, false
		}
		if u.blank() || u.offset < from {
			return u.offset, true
		}
		ts, ok := s.storeTimeAt(u.offset)
		return u.offset, ok && ts <= limit
	}
	lo, hi := cq.minOffset(), cq.maxOffset() // answer in [lo-1, hi)
	found := int64(-1)
	for lo < hi {
		mid := lo + (hi-lo)/2
		if off, ok := covered(mid); ok {
			found, lo = off, mid+1
		} else {
			hi = mid
		}
	}
	return found, found >= from
}

// storeTimeAt reads the store time of the record that starts at offset;
// false when no message record of that offset starts there.
func (s *Store) storeTimeAt(offset int64) (int64, bool) {
	f := s.cl.files.find(offset)
	if f == nil || !f.hold() {
		return 0, false
	}
	defer f.release()
	pos := offset - f.start
	if pos+posBornHost+8+20 > f.size {
		return 0, false
	}
	b := f.data[pos:]
	be := binary.BigEndian
	magic := int32(be.Uint32(b[posMagic:]))
	if (magic != MagicV1 && magic != MagicV2) || int64(be.Uint64(b[posPhysOffset:])) != offset {
		return 0, false
	}
	return int64(be.Uint64(b[storeTimestampPos(int32(be.Uint32(b[posSysFlag:]))):])), true
}

// recordStoredBy checks the whole record at offset, as recovery would,
// and that it was stored at or before limit.
func (s *Store) recordStoredBy(offset, limit int64) bool {
	f := s.cl.files.find(offset)
	if f == nil || !f.hold() {
		return false
	}
	defer f.release()
	r, check, _ := decodeRecord(f.data[offset-f.start:], s.opts.CheckCRCOnRecover)
	return check == recordOK && r.PhysicalOffset == offset && r.StoreTimestamp > 0 && r.StoreTimestamp <= limit
}
