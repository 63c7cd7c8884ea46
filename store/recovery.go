package store

import (
	"encoding/binary"
	"fmt"

	"go.uber.org/zap"
)

// recover finds the end of the valid data and makes every file agree
// with it (Java's DefaultMessageStore.recover):
//
//  1. each consume queue is cut after its last valid unit;
//  2. the commitlog is scanned record by record, checking size, magic and
//     body CRC: after a clean stop from the third-last file, after a crash
//     from the last file whose first record is older than the checkpoint,
//     dispatching every record into the queues and the index on the way;
//  3. the commitlog is cut after its last valid record (the tail zeroed),
//     and queue units pointing past it are removed;
//  4. the next queue offsets are rebuilt from the queues.
func (s *Store) recover() error {
	for _, cq := range s.cqs.all() {
		if err := cq.recover(); err != nil {
			return err
		}
	}
	maxCQ := s.cqs.maxPhysicOffset()
	files := s.cl.files.snapshot()
	if len(files) == 0 {
		return s.recoverEmpty(maxCQ)
	}
	start, dispatch := s.recoveryStart(files)
	s.log.Info("recovering commitlog", zap.Bool("lastExitOK", s.lastExitOK), zap.String("from", files[start].name()),
		zap.Int("files", len(files)-start), zap.Bool("dispatch", dispatch), zap.Int64("maxOffsetInConsumeQueues", maxCQ))
	scan, err := s.scanCommitLog(files, start, dispatch)
	if err != nil {
		return err
	}
	if err := s.cl.files.truncate(scan.end); err != nil {
		return err
	}
	s.recovery = RecoveryInfo{LastExitOK: s.lastExitOK, End: scan.end, Stop: scan.stop, QueuesCut: maxCQ > scan.end}
	if maxCQ > scan.end {
		s.log.Warn("consume queues point past the commitlog end, truncating them", zap.Int64("end", scan.end))
		if err := s.truncateConsumeQueues(scan.end); err != nil {
			return err
		}
	}
	s.cl.lastStoreTimestamp.Store(scan.lastStoreTimestamp)
	s.refreshQueueOffsets()
	from := max(s.cl.files.minOffset(), s.cqs.maxPhysicOffset())
	if dispatch {
		from = scan.end
	}
	s.disp.from.Store(from)
	s.log.Info("recovered commitlog", zap.Int64("end", scan.end), zap.Int64("records", scan.records),
		zap.Int64("dispatchFrom", from))
	return nil
}

// recoverEmpty handles a store without commitlog files: its consume
// queues describe nothing and are dropped, as Java's destroyLogics does.
func (s *Store) recoverEmpty(maxCQ int64) error {
	if maxCQ >= 0 && !s.opts.ReadOnly {
		s.log.Warn("the commitlog files are deleted, deleting the consume queues")
		for _, cq := range s.cqs.all() {
			if err := cq.files.destroyAll(); err != nil {
				return err
			}
			s.cqs.remove(cq.topic)
		}
	}
	s.refreshQueueOffsets()
	return nil
}

// recoveryStart picks the file to scan from and whether the scan must
// dispatch: after a crash, the last file whose first record is older than
// what the checkpoint says is durable (and than the oldest index file
// deleted at load, so its keys are rebuilt).
func (s *Store) recoveryStart(files []*mappedFile) (int, bool) {
	if s.lastExitOK {
		return max(len(files)-3, 0), false
	}
	limit := s.cp.minTimestamp()
	if s.opts.MessageIndexEnable && s.opts.MessageIndexSafe {
		limit = s.cp.minTimestampIndex()
	}
	if s.index != nil && s.index.rebuildFrom > 0 {
		limit = min(limit, s.index.rebuildFrom-1)
	}
	for i := len(files) - 1; i >= 0; i-- {
		if ts := firstStoreTimestamp(files[i]); ts > 0 && ts <= limit {
			return i, !s.opts.ReadOnly
		}
	}
	return 0, !s.opts.ReadOnly
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

// scanResult is where a commitlog scan ended.
type scanResult struct {
	end                int64
	records            int64
	lastStoreTimestamp int64
	// stop says why the scan stopped at something other than the zeros
	// after the last record ("" for a clean end).
	stop string
}

// RecoveryInfo tells what recovery found when the store was opened.
type RecoveryInfo struct {
	// LastExitOK is false when the previous run did not stop cleanly.
	LastExitOK bool
	// End is the commitlog end recovery settled on.
	End int64
	// Stop, when not empty, says why the commitlog ends at a record that
	// is not the zeroed end of the log (a torn or corrupt record); what
	// followed was dropped (read-only: is not served).
	Stop string
	// QueuesCut reports consume-queue units that pointed past End.
	QueuesCut bool
}

// Recovery returns what recovery found at Open.
func (s *Store) Recovery() RecoveryInfo { return s.recovery }

// scanCommitLog walks the records from files[start] until the first
// invalid one (or the blank record of the last file).
func (s *Store) scanCommitLog(files []*mappedFile, start int, dispatch bool) (scanResult, error) {
	res := scanResult{end: files[start].start}
	for i := start; i < len(files); i++ {
		f := files[i]
		s.log.Info("recovering commitlog file", zap.String("file", f.name()),
			zap.String("progress", fmt.Sprintf("%d/%d", i-start+1, len(files)-start)))
		pos, blank, err := s.scanFile(f, dispatch, &res)
		if err != nil {
			return res, err
		}
		res.end = f.start + pos
		if !blank {
			break
		}
	}
	return res, nil
}

// scanFile walks one file; blank reports that it ended with the blank
// record (so the scan goes on with the next file).
func (s *Store) scanFile(f *mappedFile, dispatch bool, res *scanResult) (pos int64, blank bool, err error) {
	for pos < f.size {
		r, check, why := decodeRecord(f.data[pos:], s.opts.CheckCRCOnRecover)
		switch check {
		case recordBlank:
			return pos, true, nil
		case recordInvalid:
			if !allZero(f.data[pos:min(pos+8, f.size)]) {
				res.stop = fmt.Sprintf("invalid record at %d: %s", f.start+pos, why)
				s.log.Warn("commitlog ends at an invalid record", zap.String("file", f.name()),
					zap.Int64("offset", f.start+pos), zap.String("reason", why))
			}
			return pos, false, nil
		}
		if r.PhysicalOffset != f.start+pos {
			res.stop = fmt.Sprintf("record at %d says it is at %d", f.start+pos, r.PhysicalOffset)
			s.log.Warn("commitlog ends at a record written for another offset", zap.Int64("offset", f.start+pos),
				zap.Int64("recordOffset", r.PhysicalOffset))
			return pos, false, nil
		}
		if dispatch {
			req := dispatchRequestOf(&r, s.delays)
			if err := s.dispatch(&req); err != nil {
				return pos, false, err
			}
		}
		pos += int64(r.Size)
		res.records++
		res.lastStoreTimestamp = r.StoreTimestamp
	}
	return pos, false, nil
}

// truncateConsumeQueues cuts every queue at the commitlog end.
func (s *Store) truncateConsumeQueues(end int64) error {
	for _, cq := range s.cqs.all() {
		if err := cq.truncateAbove(end); err != nil {
			return err
		}
	}
	return nil
}
