package inspect

import (
	"errors"
	"fmt"
	"slices"

	"github.com/rmqgo/rmqgo/store"
)

// maxProblems caps the problems a report lists.
const maxProblems = 100

// indexQueryCap is Java's maxMsgsNumBatch: a key shared by more messages
// within one second cannot be checked record by record.
const indexQueryCap = 64

// Report is what Verify found.
type Report struct {
	CommitLogMinOffset int64
	CommitLogMaxOffset int64
	Records            int64 // valid commitlog records
	QueuedRecords      int64 // records that belong in a consume queue
	Queues             int
	QueueUnits         int64 // units from every queue's min to max
	IndexedKeys        int64 // keys checked against the index
	NotDispatched      int64 // records past the dispatched offset
	Problems           []string
	// MoreProblems counts problems beyond the listed ones.
	MoreProblems int
}

// OK reports a store without problems.
func (r *Report) OK() bool { return len(r.Problems) == 0 }

func (r *Report) problem(format string, a ...any) {
	if len(r.Problems) >= maxProblems {
		r.MoreProblems++
		return
	}
	r.Problems = append(r.Problems, fmt.Sprintf(format, a...))
}

// Verify checks the store: where recovery found the commitlog to end
// (a torn or corrupt record there is a problem); every commitlog record's
// size, magic and CRC;
// every queue unit against the record it points at (topic, queue, queue
// offset, size, tagsCode); every queued record against its unit; and with
// checkIndex every record's keys against the index.
func Verify(s *store.Store, checkIndex bool) (*Report, error) {
	rep := &Report{CommitLogMinOffset: s.CommitLogMinOffset(), CommitLogMaxOffset: s.CommitLogMaxOffset()}
	if rec := s.Recovery(); rec.Stop != "" {
		rep.problem("the commitlog ends at %d: %s; what follows is not served", rec.End, rec.Stop)
	}
	if err := verifyQueues(s, rep); err != nil {
		return rep, err
	}
	dispatched := s.DispatchedOffset()
	err := s.WalkCommitLog(rep.CommitLogMinOffset, func(r *store.Record) error {
		rep.Records++
		if r.PhysicalOffset >= dispatched {
			rep.NotDispatched++
			return nil
		}
		verifyRecordUnit(s, r, rep)
		if checkIndex {
			verifyRecordKeys(s, r, rep)
		}
		return nil
	})
	var corrupt *store.CorruptRecordError
	if errors.As(err, &corrupt) {
		rep.problem("%v", err)
		return rep, nil
	}
	return rep, err
}

// verifyQueues checks every unit of every queue.
func verifyQueues(s *store.Store, rep *Report) error {
	for _, q := range sortedQueues(s) {
		rep.Queues++
		err := s.WalkQueue(q.Topic, q.QueueID, func(at int64, u store.QueueUnit) error {
			rep.QueueUnits++
			if u.Blank {
				return nil
			}
			r, err := s.LookMessage(u.CommitLogOffset)
			if err != nil {
				rep.problem("%s/%d@%d: unit points at commitlog %d: %v", q.Topic, q.QueueID, at, u.CommitLogOffset, err)
				return nil
			}
			switch {
			case r.Topic != q.Topic || r.QueueID != q.QueueID || r.QueueOffset != at:
				rep.problem("%s/%d@%d: unit points at a record of %s/%d@%d", q.Topic, q.QueueID, at, r.Topic, r.QueueID, r.QueueOffset)
			case r.Size != u.Size:
				rep.problem("%s/%d@%d: unit size %d, record size %d", q.Topic, q.QueueID, at, u.Size, r.Size)
			case s.ExpectedTagsCode(&r) != u.TagsCode:
				rep.problem("%s/%d@%d: tagsCode %d, expected %d", q.Topic, q.QueueID, at, u.TagsCode, s.ExpectedTagsCode(&r))
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// verifyRecordUnit checks that a queued record has its unit (when its
// queue still reaches back to it).
func verifyRecordUnit(s *store.Store, r *store.Record, rep *Report) {
	t := r.TransactionType()
	if t != store.SysFlagTxNotType && t != store.SysFlagTxCommit {
		return
	}
	rep.QueuedRecords++
	if r.QueueOffset < s.MinOffset(r.Topic, r.QueueID) {
		return
	}
	if r.QueueOffset >= s.MaxOffset(r.Topic, r.QueueID) {
		rep.problem("commitlog %d (%s/%d@%d): no consume-queue unit", r.PhysicalOffset, r.Topic, r.QueueID, r.QueueOffset)
		return
	}
	res := s.GetMessages(r.Topic, r.QueueID, r.QueueOffset, 1, nil)
	defer res.Release()
	if len(res.Messages) != 1 || res.Messages[0].CommitLogOffset != r.PhysicalOffset {
		rep.problem("commitlog %d (%s/%d@%d): its unit points elsewhere", r.PhysicalOffset, r.Topic, r.QueueID, r.QueueOffset)
	}
}

// verifyRecordKeys checks that the index finds the record by each key.
func verifyRecordKeys(s *store.Store, r *store.Record, rep *Report) {
	for _, key := range store.IndexKeys(r) {
		rep.IndexedKeys++
		// The index keeps times in whole seconds after its file's start.
		offs := s.IndexedOffsets(r.Topic, key, indexQueryCap, r.StoreTimestamp-1000, r.StoreTimestamp)
		if !slices.Contains(offs, r.PhysicalOffset) && len(offs) < indexQueryCap {
			rep.problem("commitlog %d: key %q of %s is not in the index", r.PhysicalOffset, key, r.Topic)
		}
	}
}
