package store

import (
	"encoding/binary"
	"math"
)

// Index file, as Java's IndexFile and IndexHeader lay it out (on-disk
// format: do not change). Big-endian.
//
//	[ header 40 B ][ hashSlotNum slots x 4 B ][ indexNum entries x 20 B ]
//
//	header: 0 beginTimestamp(8) 8 endTimestamp(8) 16 beginPhyOffset(8)
//	        24 endPhyOffset(8) 32 hashSlotCount(4) 36 indexCount(4)
//	slot:   number of the newest entry of the bucket (0: empty)
//	entry:  0 keyHash(4) 4 phyOffset(8) 12 timeDiff(4, seconds since
//	        beginTimestamp) 16 previous entry of the bucket(4, 0: none)
//
// Entry 0 is never used: indexCount starts at 1. The file is full when
// indexCount reaches indexNum. Keys are "topic#key" for every word of
// KEYS and for UNIQ_KEY; keyHash is abs(String.hashCode).
const (
	indexHeaderSize = 40
	indexSlotSize   = 4
	indexEntrySize  = 20

	hdrBeginTimestamp = 0
	hdrEndTimestamp   = 8
	hdrBeginPhyOffset = 16
	hdrEndPhyOffset   = 24
	hdrHashSlotCount  = 32
	hdrIndexCount     = 36
)

// indexFileSize is the size of an index file for the given geometry.
func indexFileSize(slots, entries int) int64 {
	return indexHeaderSize + int64(slots)*indexSlotSize + int64(entries)*indexEntrySize
}

// indexFile is one mapped index file. Writes come from the dispatcher
// only; queries read concurrently (a torn read at worst misses the entry
// being written, as in Java).
//
// The file is sparse, as Java's is; its writer reserves the blocks of the
// header and slots before its first write, and puts each entry that
// reaches a new page through the file, so a full disk is an error, never
// a fault (see mapping.sparse). It holds about 20 MB and its entries, as
// Java's does once keys have reached most slots, where reserving it whole
// held 400 MB a file.
type indexFile struct {
	mf      *mappedFile
	slots   int
	entries int
	// headReserved is set once the header's and slots' blocks are.
	headReserved bool
}

func (ix *indexFile) u32(at int) int32 { return int32(binary.BigEndian.Uint32(ix.mf.data[at:])) }
func (ix *indexFile) u64(at int) int64 { return int64(binary.BigEndian.Uint64(ix.mf.data[at:])) }
func (ix *indexFile) put32(at int, v int32) {
	binary.BigEndian.PutUint32(ix.mf.data[at:], uint32(v))
}
func (ix *indexFile) put64(at int, v int64) {
	binary.BigEndian.PutUint64(ix.mf.data[at:], uint64(v))
}

func (ix *indexFile) beginTimestamp() int64 { return ix.u64(hdrBeginTimestamp) }
func (ix *indexFile) endTimestamp() int64   { return ix.u64(hdrEndTimestamp) }
func (ix *indexFile) beginPhyOffset() int64 { return ix.u64(hdrBeginPhyOffset) }
func (ix *indexFile) endPhyOffset() int64   { return ix.u64(hdrEndPhyOffset) }

// indexCount is the next entry number; a value below 1 reads as 1.
func (ix *indexFile) indexCount() int32 { return max(ix.u32(hdrIndexCount), 1) }

func (ix *indexFile) full() bool { return int(ix.indexCount()) >= ix.entries }

// startAfter initialises a new file's header from the previous file's
// end, as Java's IndexFile constructor does.
func (ix *indexFile) startAfter(endPhyOffset, endTimestamp int64) {
	if endPhyOffset > 0 {
		ix.put64(hdrBeginPhyOffset, endPhyOffset)
		ix.put64(hdrEndPhyOffset, endPhyOffset)
	}
	if endTimestamp > 0 {
		ix.put64(hdrBeginTimestamp, endTimestamp)
		ix.put64(hdrEndTimestamp, endTimestamp)
	}
}

func (ix *indexFile) slotPos(hash int32) int {
	return indexHeaderSize + int(hash%int32(ix.slots))*indexSlotSize
}

func (ix *indexFile) entryPos(n int32) int {
	return indexHeaderSize + ix.slots*indexSlotSize + int(n)*indexEntrySize
}

// putKey adds an entry (IndexFile.putKey); false when the file is full.
// As Java's, the first entry of a file stores its time relative to the
// begin time the file had (the previous file's end, startAfter), which
// then becomes the entry's: that entry reads as that gap later.
func (ix *indexFile) putKey(hash int32, phyOffset, storeTimestamp int64) (bool, error) {
	count := ix.indexCount()
	if int(count) >= ix.entries {
		return false, nil
	}
	if err := ix.reserveHead(); err != nil {
		return false, err
	}
	slot := ix.slotPos(hash)
	prev := ix.u32(slot)
	if prev <= 0 || prev > count {
		prev = 0
	}
	timeDiff := int64(0)
	if begin := ix.beginTimestamp(); begin > 0 {
		timeDiff = min(max((storeTimestamp-begin)/1000, 0), math.MaxInt32)
	}
	if err := ix.putEntry(count, hash, phyOffset, int32(timeDiff), prev); err != nil {
		return false, err
	}
	ix.put32(slot, count)
	if count <= 1 {
		ix.put64(hdrBeginPhyOffset, phyOffset)
		ix.put64(hdrBeginTimestamp, storeTimestamp)
	}
	if prev == 0 {
		ix.put32(hdrHashSlotCount, ix.u32(hdrHashSlotCount)+1)
	}
	ix.put32(hdrIndexCount, count+1)
	ix.put64(hdrEndPhyOffset, phyOffset)
	ix.put64(hdrEndTimestamp, storeTimestamp)
	return true, nil
}

// reserveHead reserves the blocks of the header, the slots and entry 0
// (never used) once.
func (ix *indexFile) reserveHead() error {
	if ix.headReserved {
		return nil
	}
	if err := ix.mf.reserveRange(0, int64(ix.entryPos(1))); err != nil {
		return err
	}
	ix.headReserved = true
	return nil
}

// putEntry writes entry n: through the file when it reaches a page the
// entries before it did not.
func (ix *indexFile) putEntry(n, hash int32, phyOffset int64, timeDiff, prev int32) error {
	var e [indexEntrySize]byte
	binary.BigEndian.PutUint32(e[0:], uint32(hash))
	binary.BigEndian.PutUint64(e[4:], uint64(phyOffset))
	binary.BigEndian.PutUint32(e[12:], uint32(timeDiff))
	binary.BigEndian.PutUint32(e[16:], uint32(prev))
	at := int64(ix.entryPos(n))
	if firstTouch(at, indexEntrySize) {
		return ix.mf.writeThrough(e[:], at)
	}
	copy(ix.mf.data[at:], e[:])
	return nil
}

// timeMatched is IndexFile.isTimeMatched.
func (ix *indexFile) timeMatched(begin, end int64) bool {
	b, e := ix.beginTimestamp(), ix.endTimestamp()
	return (begin < b && end > e) || (begin >= b && begin <= e) || (end >= b && end <= e)
}

// selectOffsets appends the commitlog offsets of entries with the hash
// stored within [begin, end] (IndexFile.selectPhyOffset), up to maxNum in
// total; hash collisions are left to the caller.
func (ix *indexFile) selectOffsets(out []int64, hash int32, maxNum int, begin, end int64) []int64 {
	count := ix.indexCount()
	n := ix.u32(ix.slotPos(hash))
	if n <= 0 || n > count || count <= 1 {
		return out
	}
	beginTs := ix.beginTimestamp()
	for len(out) < maxNum {
		at := ix.entryPos(n)
		timeDiff := int64(ix.u32(at + 12))
		if timeDiff < 0 {
			break
		}
		timeRead := beginTs + timeDiff*1000
		if ix.u32(at) == hash && timeRead >= begin && timeRead <= end {
			out = append(out, ix.u64(at+4))
		}
		prev := ix.u32(at + 16)
		if prev <= 0 || prev > count || prev == n || timeRead < begin {
			break
		}
		n = prev
	}
	return out
}

// hasEntry reports whether the bucket of hash already holds an entry for
// phyOffset, looking only at the entries for phyOffset or later (the
// newest of the bucket): re-dispatching the last indexed record after a
// crash then adds only the keys it is missing.
func (ix *indexFile) hasEntry(hash int32, phyOffset int64) bool {
	count := ix.indexCount()
	n := ix.u32(ix.slotPos(hash))
	for n > 0 && n < count {
		at := ix.entryPos(n)
		off := ix.u64(at + 4)
		if off < phyOffset {
			return false
		}
		if off == phyOffset && ix.u32(at) == hash {
			return true
		}
		prev := ix.u32(at + 16)
		if prev >= n {
			return false
		}
		n = prev
	}
	return false
}
