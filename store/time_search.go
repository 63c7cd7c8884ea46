package store

// Finding a queue offset by store time (SEARCH_OFFSET_BY_TIMESTAMP, reset
// by time), step for step as each Java line's getOffsetInQueueByTime does
// it: the console pages, mqadmin resets and lite-pull consumers seek with
// its answers, so an answer that is merely "reasonable" shows duplicates
// or skips. Both lines search one consume-queue file; the unit positions
// below are byte offsets in that file, as Java keeps them (a search that
// finds nothing answers (fileStart - 1) / 20, Java's integer division).
//
// 4.9.x (Nearest):
//
//   - the file is the first whose modification time is at or after the
//     time, else the last (getMappedFileByTime); none, or an empty one: 0;
//   - binary search over the units from the queue's minimum: a unit whose
//     record lies below the commitlog's minimum counts as older; a store
//     time that cannot be read answers 0; the first unit the search hits
//     at exactly the time is the answer;
//   - else the nearer of the two last neighbours the search saw (the
//     earlier on a tie), the newer one when none was older, the older one
//     when none was newer: after the last message, its offset.
//
// 5.x (Lower, Upper: BoundaryType):
//
//   - the file: Lower takes the first non-last file whose last unit's
//     store time is at or after the time, else the last; Upper the last
//     file whose first unit's store time is at or before it (none: 0).
//     The two times are cached per file once read (MappedFile's start and
//     stop timestamps);
//   - the newest unit older than the time answers one past it (Lower) or
//     itself (Upper); the oldest unit newer than the time answers the
//     file's first unit (Lower) or 0 (Upper);
//   - binary search as 4.x; a hit walks to the first (Lower) or last
//     (Upper) unit of the same time; no hit answers the newer (Lower) or
//     older (Upper) neighbour;
//   - the answer is clamped to [min offset, max offset] of the queue.

import "sync/atomic"

// TimeSearch is the rule OffsetByTime follows.
type TimeSearch uint8

const (
	// Nearest is 4.9.x's getOffsetInQueueByTime.
	Nearest TimeSearch = iota
	// Lower is 5.x's with BoundaryType LOWER (its default).
	Lower
	// Upper is 5.x's with BoundaryType UPPER.
	Upper
)

// notFound is the byte position Java's search leaves when it found no
// unit on the wanted side (its -1 sentinel).
const notFound = -1

// OffsetByTime finds the queue offset of a store time by rule (see the
// file comment); a queue that does not exist answers 0.
func (s *Store) OffsetByTime(topic string, queueID int32, ts int64, rule TimeSearch) int64 {
	cq := s.cqs.find(topic, queueID)
	if cq == nil {
		return 0
	}
	if rule == Nearest {
		return s.nearestByTime(cq, ts)
	}
	off := s.boundaryByTime(cq, ts, rule == Upper)
	return min(max(off, cq.minOffset()), cq.maxOffset())
}

// fileSearch reads the units of one held consume-queue file.
type fileSearch struct {
	cl     *commitLog
	f      *mappedFile
	ts     int64
	minPhy int64
}

// unit reads the unit at byte position pos.
func (t fileSearch) unit(pos int64) cqUnit { return readUnit(t.f.data[pos:]) }

// storeTime is pickupStoreTimestamp of the unit at pos (-1: unreadable).
func (t fileSearch) storeTime(pos int64) int64 {
	u := t.unit(pos)
	return t.cl.storeTimestampAt(u.offset, int(u.size))
}

// answer is Java's (fileFromOffset + pos) / 20.
func (t fileSearch) answer(pos int64) int64 { return (t.f.start + pos) / cqUnitSize }

// bisection is the state Java's binary search leaves.
type bisection struct {
	target, left, right int64 // byte positions, notFound when unset
	leftTime, rightTime int64 // store times of left and right, -1 unset
	unreadable          bool  // a store time could not be read
}

// bisect is the binary search both lines share, over [low, high].
func (t fileSearch) bisect(low, high int64) bisection {
	b := bisection{target: notFound, left: notFound, right: notFound, leftTime: -1, rightTime: -1}
	for high >= low {
		mid := (low + high) / (2 * cqUnitSize) * cqUnitSize
		if t.unit(mid).offset < t.minPhy {
			low, b.left = mid+cqUnitSize, mid
			continue
		}
		switch st := t.storeTime(mid); {
		case st < 0:
			b.unreadable = true
			return b
		case st == t.ts:
			b.target = mid
			return b
		case st > t.ts:
			high, b.right, b.rightTime = mid-cqUnitSize, mid, st
		default:
			low, b.left, b.leftTime = mid+cqUnitSize, mid, st
		}
	}
	return b
}

// searchLow is the first byte position of f the queue still serves.
func searchLow(cq *consumeQueue, f *mappedFile) int64 {
	return max(cq.minLogicOffset.Load()-f.start, 0)
}

// nearestByTime is 4.9.x's search.
func (s *Store) nearestByTime(cq *consumeQueue, ts int64) int64 {
	f := fileByModTime(cq.files.snapshot(), ts)
	if f == nil || !f.hold() {
		return 0
	}
	defer f.release()
	end := f.wrotePosition()
	if end == 0 {
		return 0
	}
	t := fileSearch{cl: s.cl, f: f, ts: ts, minPhy: s.cl.files.minOffset()}
	b := t.bisect(searchLow(cq, f), end-cqUnitSize)
	switch {
	case b.unreadable:
		return 0
	case b.target != notFound:
		return t.answer(b.target)
	case b.leftTime == -1:
		return t.answer(b.right)
	case b.rightTime == -1:
		return t.answer(b.left)
	case abs(ts-b.leftTime) > abs(ts-b.rightTime):
		return t.answer(b.right)
	}
	return t.answer(b.left)
}

// fileByModTime is getMappedFileByTime: the first file modified at or
// after ts, else the last.
func fileByModTime(files []*mappedFile, ts int64) *mappedFile {
	for _, f := range files {
		if f.modTime().UnixMilli() >= ts {
			return f
		}
	}
	if len(files) == 0 {
		return nil
	}
	return files[len(files)-1]
}

// boundaryByTime is 5.x's search, before the clamp.
func (s *Store) boundaryByTime(cq *consumeQueue, ts int64, upper bool) int64 {
	f := s.fileByStoreTime(cq.files.snapshot(), ts, upper)
	if f == nil || !f.hold() {
		return 0
	}
	defer f.release()
	size := f.size
	if w := f.wrotePosition(); w != 0 && w != f.size {
		size = w
	}
	if size > f.wrotePosition() {
		return 0 // selectMappedBuffer(0, fileSize) of an empty file
	}
	t := fileSearch{cl: s.cl, f: f, ts: ts, minPhy: s.cl.files.minOffset()}
	floor, ceiling := searchLow(cq, f), size-cqUnitSize
	if t.storeTime(ceiling) < ts {
		if upper {
			return t.answer(ceiling)
		}
		return t.answer(ceiling + cqUnitSize)
	}
	if floor > ceiling {
		return 0 // Java's buffer read fails here; unreachable while the last unit is readable
	}
	if t.storeTime(floor) > ts {
		if upper {
			return 0
		}
		return t.answer(0)
	}
	b := t.bisect(floor, ceiling)
	switch {
	case b.unreadable:
		return 0
	case b.target == notFound && upper:
		return t.answer(b.left)
	case b.target == notFound:
		return t.answer(b.right)
	}
	return t.answer(t.sameTimeEdge(b.target, floor, ceiling, upper))
}

// sameTimeEdge walks from pos to the first (or, upper, the last) unit
// stored at the same time, within [floor, ceiling].
func (t fileSearch) sameTimeEdge(pos, floor, ceiling int64, upper bool) int64 {
	step := int64(-cqUnitSize)
	if upper {
		step = cqUnitSize
	}
	for next := pos + step; next >= floor && next <= ceiling && t.storeTime(next) == t.ts; next += step {
		pos = next
	}
	return pos
}

// fileByStoreTime is getConsumeQueueMappedFileByTime.
func (s *Store) fileByStoreTime(files []*mappedFile, ts int64, upper bool) *mappedFile {
	if upper {
		for i := len(files) - 1; i >= 0; i-- {
			if s.edgeTime(files[i], &files[i].startTime, 0) <= ts {
				return files[i]
			}
		}
		return nil
	}
	for i, f := range files {
		if i == len(files)-1 {
			return f
		}
		if s.edgeTime(f, &f.stopTime, f.size-cqUnitSize) >= ts {
			return f
		}
	}
	return nil
}

// edgeTime is the store time of the unit at pos of f, cached in *cache
// once read as positive (MappedFile's start and stop timestamps); -1 when
// it cannot be read.
func (s *Store) edgeTime(f *mappedFile, cache *atomic.Int64, pos int64) int64 {
	if v := cache.Load(); v > 0 {
		return v
	}
	if pos+cqUnitSize > f.wrotePosition() || !f.hold() {
		return -1
	}
	defer f.release()
	u := readUnit(f.data[pos:])
	v := s.cl.storeTimestampAt(u.offset, int(u.size))
	if v > 0 {
		cache.Store(v)
	}
	return v
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
