package store

import (
	"errors"
	"fmt"
	"path/filepath"
)

// Walking the store, for inspection and verification: every record of
// the commitlog, every unit of a queue, every file.

// QueueUnit is one consume-queue unit.
type QueueUnit struct {
	CommitLogOffset int64
	Size            int32
	TagsCode        int64
	// Blank marks a pre-fill unit (0, 0x7FFFFFFF, 0) that stands for no
	// message.
	Blank bool
}

// CorruptRecordError reports where and why a walk of the commitlog met a
// record that is not valid.
type CorruptRecordError struct {
	Offset int64
	Reason string
}

func (e *CorruptRecordError) Error() string {
	return fmt.Sprintf("store: invalid record at commitlog offset %d: %s", e.Offset, e.Reason)
}

// Unwrap makes errors.Is(err, ErrCorrupt) hold.
func (e *CorruptRecordError) Unwrap() error { return ErrCorrupt }

// WalkCommitLog calls fn for every record from offset from (a record
// boundary) to the end of the written commitlog, checking each record's
// CRC; Record fields point into the file and are valid during the call.
// It stops at fn's first error, or at an invalid record with a
// *CorruptRecordError.
func (s *Store) WalkCommitLog(from int64, fn func(r *Record) error) error {
	for from < s.cl.files.maxOffset() {
		f := s.cl.files.find(from)
		if f == nil || !f.hold() {
			return fmt.Errorf("store: commitlog offset %d is not stored", from)
		}
		next, err := walkFile(f, from, fn)
		f.release()
		if err != nil {
			return err
		}
		from = next
	}
	return nil
}

// walkFile walks one file from offset from and returns where to go on.
func walkFile(f *mappedFile, from int64, fn func(r *Record) error) (int64, error) {
	pos, end := from-f.start, f.wrotePosition()
	for pos < end {
		r, check, why := decodeRecord(f.data[pos:end], true)
		switch check {
		case recordBlank:
			return f.end(), nil
		case recordInvalid:
			return 0, &CorruptRecordError{Offset: f.start + pos, Reason: why}
		}
		if r.PhysicalOffset != f.start+pos {
			return 0, &CorruptRecordError{Offset: f.start + pos,
				Reason: fmt.Sprintf("record says it is at offset %d", r.PhysicalOffset)}
		}
		if err := fn(&r); err != nil {
			return 0, err
		}
		pos += int64(r.Size)
	}
	return f.start + end, nil
}

// WalkQueue calls fn for every unit of a queue from its minimum offset to
// its maximum.
func (s *Store) WalkQueue(topic string, queueID int32, fn func(queueOffset int64, u QueueUnit) error) error {
	return s.WalkQueueFrom(topic, queueID, 0, fn)
}

// ErrStopWalk, returned by a walk's fn, ends the walk without an error.
var ErrStopWalk = errors.New("store: stop walk")

// WalkQueueFrom calls fn for every unit of a queue from offset from (or
// its minimum offset, if that is later) to its maximum, as they are when
// the walk reaches them. fn returning ErrStopWalk ends the walk with nil.
func (s *Store) WalkQueueFrom(topic string, queueID int32, from int64, fn func(queueOffset int64, u QueueUnit) error) error {
	err := s.walkQueueFrom(topic, queueID, from, fn)
	if errors.Is(err, ErrStopWalk) {
		return nil
	}
	return err
}

func (s *Store) walkQueueFrom(topic string, queueID int32, from int64, fn func(queueOffset int64, u QueueUnit) error) error {
	cq := s.cqs.find(topic, queueID)
	if cq == nil {
		return nil
	}
	for at := max(from, cq.minOffset()); at < cq.maxOffset(); {
		units, release, ok := cq.units(at)
		if !ok {
			return fmt.Errorf("store: %s queue %d: offset %d is not stored", topic, queueID, at)
		}
		for i := 0; i+cqUnitSize <= len(units); i += cqUnitSize {
			u := readUnit(units[i:])
			err := fn(at, QueueUnit{CommitLogOffset: u.offset, Size: u.size, TagsCode: u.tagsCode, Blank: u.blank()})
			if err != nil {
				release()
				return err
			}
			at++
		}
		release()
	}
	return nil
}

// ExpectedTagsCode is the tagsCode the dispatcher computes for a record
// (the TAGS hash, or the delivery time for the schedule topic).
func (s *Store) ExpectedTagsCode(r *Record) int64 {
	return dispatchRequestOf(r, s.delays).tagsCode
}

// IndexKeys returns the index keys of a record: its UNIQ_KEY, then every
// word of its KEYS; none for a rolled-back transaction record.
func IndexKeys(r *Record) []string {
	if r.TransactionType() == SysFlagTxRollback {
		return nil
	}
	var keys []string
	if u, ok := r.Property(PropertyUniqKey); ok {
		keys = append(keys, u)
	}
	if k, ok := r.Property(PropertyKeys); ok {
		keys = append(keys, splitKeys(k)...)
	}
	return keys
}

func splitKeys(keys string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(keys); i++ {
		if i == len(keys) || keys[i] == KeySeparator[0] {
			if i > start {
				out = append(out, keys[start:i])
			}
			start = i + 1
		}
	}
	return out
}

// FileInfo describes one file of the store.
type FileInfo struct {
	Kind    string // "commitlog", "consumequeue" or "index"
	Path    string
	Topic   string // consume queues
	QueueID int32  // consume queues
	// Start is the offset in the file's name (commitlog bytes, or logical
	// consume-queue bytes); Wrote how much of it holds data.
	Start, Size, Wrote int64
	// Index file header.
	BeginTimestamp, EndTimestamp, BeginPhyOffset, EndPhyOffset int64
	HashSlotCount, IndexCount                                  int32
}

// Files lists the commitlog, consume-queue and index files.
func (s *Store) Files() []FileInfo {
	var out []FileInfo
	for _, f := range s.cl.files.snapshot() {
		out = append(out, FileInfo{Kind: "commitlog", Path: f.path, Start: f.start, Size: f.size, Wrote: f.wrotePosition()})
	}
	for _, cq := range s.cqs.all() {
		for _, f := range cq.files.snapshot() {
			out = append(out, FileInfo{Kind: "consumequeue", Path: f.path, Topic: cq.topic, QueueID: cq.queueID,
				Start: f.start, Size: f.size, Wrote: f.wrotePosition()})
		}
	}
	if s.index != nil {
		s.index.mu.RLock()
		files := s.index.files
		s.index.mu.RUnlock()
		for _, ix := range files {
			out = append(out, FileInfo{Kind: "index", Path: ix.mf.path, Size: ix.mf.size,
				BeginTimestamp: ix.beginTimestamp(), EndTimestamp: ix.endTimestamp(),
				BeginPhyOffset: ix.beginPhyOffset(), EndPhyOffset: ix.endPhyOffset(),
				HashSlotCount: ix.u32(hdrHashSlotCount), IndexCount: ix.indexCount()})
		}
	}
	return out
}

// RootDir is the store's root directory.
func (s *Store) RootDir() string { return filepath.Clean(s.opts.RootDir) }
