package store

import (
	"slices"

	"golang.org/x/sys/unix"
)

// QueryResult is what QueryMessages found: whole records, held until
// Release, and the newest index file's end (for the response header).
type QueryResult struct {
	GetResult
	IndexLastUpdateTimestamp int64
	IndexLastUpdatePhyOffset int64
}

// QueryMessages finds messages by key (a word of KEYS, or a UNIQ_KEY)
// stored between begin and end (ms), at most maxNum (capped at
// maxMsgsNumBatch), as DefaultMessageStore.queryMessage: records whose key
// hash collides are included, the caller compares keys.
func (s *Store) QueryMessages(topic, key string, maxNum int, begin, end int64) *QueryResult {
	res := &QueryResult{}
	if s.index == nil {
		return res
	}
	maxNum = min(maxNum, s.opts.MaxMsgsNumBatch)
	last := end
	for range 3 {
		found := s.index.query(topic, key, maxNum, begin, last)
		if len(found.Offsets) == 0 {
			break
		}
		slices.Sort(found.Offsets)
		found.Offsets = slices.Compact(found.Offsets) // a key indexed in two files
		res.IndexLastUpdateTimestamp = found.LastUpdateTimestamp
		res.IndexLastUpdatePhyOffset = found.LastUpdatePhyOffset
		for i, off := range found.Offsets {
			data, release, ok := s.cl.recordAt(off)
			if !ok {
				continue
			}
			if i == 0 {
				last = s.cl.storeTimestampAt(off, len(data))
			}
			res.add(StoredMessage{Data: data, CommitLogOffset: off}, release)
		}
		if res.TotalBytes > 0 || last < begin {
			break
		}
	}
	return res
}

// IndexedOffsets returns the commitlog offsets the index holds for a key,
// without reading the records (for inspection and tests).
func (s *Store) IndexedOffsets(topic, key string, maxNum int, begin, end int64) []int64 {
	if s.index == nil {
		return nil
	}
	offs := s.index.query(topic, key, maxNum, begin, end).Offsets
	slices.Sort(offs)
	return slices.Compact(offs)
}

// totalMemory is the machine's RAM in bytes (StoreUtil.TOTAL_PHYSICAL_MEMORY_SIZE).
func totalMemory() int64 {
	var si unix.Sysinfo_t
	if err := unix.Sysinfo(&si); err != nil {
		return 8 << 30
	}
	return int64(si.Totalram) * int64(si.Unit)
}
