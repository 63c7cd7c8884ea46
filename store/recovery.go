package store

import (
	"fmt"

	"go.uber.org/zap"
)

// recover finds the end of the valid data and makes every file agree
// with it (Java's DefaultMessageStore.recover):
//
//  1. each consume queue is cut after its last valid unit;
//  2. the commitlog is scanned record by record, checking size, magic and
//     body CRC: after a clean stop from the third-last file, after a crash
//     from where the checkpoint says the files stop being durable
//     (recovery_start.go), dispatching every record into the queues and
//     the index on the way;
//  3. the commitlog is cut after its last valid record (the tail zeroed),
//     and queue units pointing past it are removed;
//  4. the next queue offsets are rebuilt from the queues;
//  5. after a crash, what the killed process left unflushed in the page
//     cache is synced, so that the checkpoint moves on from data that is
//     on disk.
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
	from, dispatch := s.recoveryStart(files)
	total := files[len(files)-1].end() - from
	s.log.Info("recovering commitlog", zap.Bool("lastExitOK", s.lastExitOK), zap.Int64("from", from),
		zap.String("file", fileName(from-from%s.cl.files.fileSize)), zap.Int64("bytesAtMost", total),
		zap.Int64("skippedInFile", from%s.cl.files.fileSize), zap.Bool("dispatch", dispatch),
		zap.Int64("maxOffsetInConsumeQueues", maxCQ))
	scan, err := s.scanCommitLog(files, from, dispatch)
	if err != nil {
		return err
	}
	if err := s.cl.files.truncate(scan.end); err != nil {
		return err
	}
	s.recovery = RecoveryInfo{LastExitOK: s.lastExitOK, From: from, End: scan.end, Scanned: scan.end - from,
		Files: scan.files, Records: scan.records, Stop: scan.stop, QueuesCut: maxCQ > scan.end}
	if maxCQ > scan.end {
		s.log.Warn("consume queues point past the commitlog end, truncating them", zap.Int64("end", scan.end))
		if err := s.truncateConsumeQueues(scan.end); err != nil {
			return err
		}
	}
	s.cl.lastStoreTimestamp.Store(max(scan.lastStoreTimestamp, s.cl.lastStoreTimestamp.Load()))
	s.refreshQueueOffsets()
	dispatchFrom := max(s.cl.files.minOffset(), s.cqs.maxPhysicOffset())
	if dispatch {
		dispatchFrom = scan.end
		if scan.undispatched >= 0 {
			dispatchFrom = scan.undispatched
		}
		if err := s.syncRecovered(from); err != nil {
			return err
		}
		s.clampConfirmOffset(scan.dispatchedEnd)
	} else {
		s.clampConfirmOffset(scan.end)
	}
	s.disp.from.Store(dispatchFrom)
	s.log.Info("recovered commitlog", zap.Int64("end", scan.end), zap.Int64("records", scan.records),
		zap.Int64("scannedBytes", scan.end-from), zap.Int("files", scan.files), zap.Int64("dispatchFrom", dispatchFrom))
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

// syncRecovered fsyncs, after a crash, the commitlog files from the one
// recovery started in, the last file of every consume queue and the
// newest index file: the killed process may have left their last writes
// in the page cache only, and the files are taken as flushed from here on.
func (s *Store) syncRecovered(from int64) error {
	var files []*mappedFile
	for _, f := range s.cl.files.snapshot() {
		if f.end() > from {
			files = append(files, f)
		}
	}
	for _, cq := range s.cqs.all() {
		if f := cq.files.last(); f != nil {
			files = append(files, f)
		}
	}
	if s.index != nil {
		if ix := s.index.newest(); ix != nil {
			files = append(files, ix.mf)
		}
	}
	for _, f := range files {
		if err := f.file.Sync(); err != nil {
			return fmt.Errorf("store: sync %s after recovery: %w", f.path, err)
		}
	}
	return nil
}

// scanResult is where a commitlog scan ended.
type scanResult struct {
	end                int64
	records            int64
	files              int
	lastStoreTimestamp int64
	// stop says why the scan stopped at something other than the zeros
	// after the last record ("" for a clean end).
	stop string
	// dispatchedEnd is where the last record dispatched ends, and
	// undispatched the first record left to the dispatcher (-1: none): in
	// controller mode recovery dispatches only what the confirm offset
	// covers (Java's recoverAbnormally).
	dispatchedEnd, undispatched int64
}

// RecoveryInfo tells what recovery found when the store was opened.
type RecoveryInfo struct {
	// LastExitOK is false when the previous run did not stop cleanly.
	LastExitOK bool
	// From is the commitlog offset the scan started at.
	From int64
	// End is the commitlog end recovery settled on.
	End int64
	// Scanned is how many commitlog bytes were read (End - From), Files
	// in how many files, and Records how many records they held.
	Scanned int64
	Files   int
	Records int64
	// Stop, when not empty, says why the commitlog ends at a record that
	// is not the zeroed end of the log (a torn or corrupt record); what
	// followed was dropped (read-only: is not served).
	Stop string
	// QueuesCut reports consume-queue units that pointed past End.
	QueuesCut bool
}

// Recovery returns what recovery found at Open.
func (s *Store) Recovery() RecoveryInfo { return s.recovery }

// scanCommitLog walks the records from offset from until the first
// invalid one (or the blank record of the last file).
func (s *Store) scanCommitLog(files []*mappedFile, from int64, dispatch bool) (scanResult, error) {
	res := scanResult{end: from, dispatchedEnd: from, undispatched: -1}
	first := int((from - files[0].start) / s.cl.files.fileSize)
	progress := newScanProgress(s.log, files[len(files)-1].end()-from, progressEvery)
	for i := first; i < len(files); i++ {
		f := files[i]
		pos := max(from-f.start, 0)
		res.files++
		s.log.Info("recovering commitlog file", zap.String("file", f.name()), zap.Int64("from", pos),
			zap.String("progress", fmt.Sprintf("%d/%d", i-first+1, len(files)-first)))
		pos, blank, err := s.scanFile(f, pos, dispatch, &res, progress)
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

// scanFile walks one file from pos; blank reports that it ended with the
// blank record (so the scan goes on with the next file).
func (s *Store) scanFile(f *mappedFile, pos int64, dispatch bool, res *scanResult, p *scanProgress) (int64, bool, error) {
	for pos < f.size {
		p.at(f, pos)
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
			if err := s.recoveryDispatch(&r, f.start+pos, res); err != nil {
				return pos, false, err
			}
		}
		pos += int64(r.Size)
		res.records++
		res.lastStoreTimestamp = r.StoreTimestamp
	}
	return pos, false, nil
}

// recoveryDispatch dispatches a record recovery read at offset; in
// controller mode only when it ends at or before the stored confirm
// offset (the rest waits for the dispatcher).
func (s *Store) recoveryDispatch(r *Record, offset int64, res *scanResult) error {
	end := offset + int64(r.Size)
	if s.opts.ControllerMode && (res.undispatched >= 0 || end > s.cp.confirmPhyOffset.Load()) {
		if res.undispatched < 0 {
			res.undispatched = offset
		}
		return nil
	}
	req := dispatchRequestOf(r, s.delays)
	if err := s.dispatch(&req); err != nil {
		return err
	}
	res.dispatchedEnd = end
	return nil
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
