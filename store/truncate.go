package store

// Cutting the commitlog back at run time, for AutoSwitch HA: a slave cuts
// what it does not share with its new master (the consistent point), and
// a store becoming master or a slave reconnecting cuts an unfinished
// record at its end. Java's DefaultMessageStore.truncateFiles and
// AutoSwitchHAService.truncateInvalidMsg.
//
// Java stops and restarts its reput service around the cut; here the
// dispatcher's lock is held instead, and puts (and a slave's appends) are
// kept out by the commitlog's put lock. The consume queues lose their
// units at or past the cut and the dispatcher restarts there at the
// latest. Index files keep their entries past the cut, as in Java (a key
// query compares the records it reads); unlike Java the newest index
// file's end offset is moved back to the cut, so that the records written
// there again are indexed again (Java skips them as already indexed).

import (
	"fmt"

	"go.uber.org/zap"
)

// truncateFiles cuts the commitlog, consume queues and index at offset,
// which must be the start of a valid record (or the end of the log);
// nothing when offset is at or past the end.
func (s *Store) truncateFiles(offset int64) error {
	if end := s.CommitLogMaxOffset(); offset >= end {
		s.log.Info("no need to truncate files", zap.Int64("offset", offset), zap.Int64("maxPhyOffset", end))
		return nil
	}
	if !s.offsetAligned(offset) {
		return fmt.Errorf("%w: offset %d is not align, truncate failed, need manual fix", ErrReplication, offset)
	}
	return s.truncateDirtyFiles(offset)
}

// offsetAligned reports whether a valid record (or the blank record)
// starts at offset, or nothing is written there (isOffsetAligned).
func (s *Store) offsetAligned(offset int64) bool {
	f := s.cl.files.find(offset)
	if f == nil || !f.hold() {
		return true
	}
	defer f.release()
	pos, end := offset-f.start, f.wrotePosition()
	if pos >= end {
		return true
	}
	_, check, _ := decodeRecord(f.data[pos:end], true)
	return check != recordInvalid
}

// truncateDirtyFiles cuts everything at offset (truncateDirtyFiles).
func (s *Store) truncateDirtyFiles(offset int64) error {
	s.log.Info("truncate dirty files", zap.Int64("offset", offset), zap.Int64("maxPhyOffset", s.CommitLogMaxOffset()))
	s.disp.mu.Lock()
	defer s.disp.mu.Unlock()
	if err := s.cutAt(offset); err != nil {
		return err
	}
	if s.disp.from.Load() > offset {
		s.disp.from.Store(offset)
	}
	if s.cp.confirmPhyOffset.Load() > offset {
		s.SetConfirmOffset(offset)
	}
	s.refreshQueueOffsets()
	return nil
}

// cutAt truncates the queues, the index's end and the commitlog with the
// put lock held.
func (s *Store) cutAt(offset int64) error {
	s.cl.putMu.Lock()
	defer s.cl.putMu.Unlock()
	if err := s.truncateConsumeQueues(offset); err != nil {
		return err
	}
	if s.index != nil {
		s.index.rewindTo(offset)
	}
	return s.cl.files.truncate(offset)
}

// rewindTo moves the newest index file's end offset back to offset, so
// that records written again from there are indexed.
func (s *indexService) rewindTo(offset int64) {
	if ix := s.newest(); ix != nil && ix.endPhyOffset() > offset {
		ix.put64(hdrEndPhyOffset, max(offset, ix.beginPhyOffset()))
	}
}

// validEnd walks the commitlog from the dispatcher's offset and returns
// where the last whole valid record ends (the end of the log when all
// are): what follows is an unfinished record a master sent in part, or
// damage.
func (s *Store) validEnd() int64 {
	at, end := s.disp.from.Load(), s.CommitLogMaxOffset()
	for at < end {
		f := s.cl.files.find(at)
		if f == nil || !f.hold() {
			return at
		}
		next, ok := validEndInFile(f, at)
		f.release()
		if !ok || next == at {
			return next
		}
		at = next
	}
	return at
}

// validEndInFile walks one file from at; ok=false when it stopped at an
// invalid or unfinished record (next is where), else next is where the
// next file starts or the written end.
func validEndInFile(f *mappedFile, at int64) (next int64, ok bool) {
	pos, end := at-f.start, f.wrotePosition()
	for pos < end {
		r, check, _ := decodeRecord(f.data[pos:end], false)
		switch check {
		case recordBlank:
			return f.end(), true
		case recordInvalid:
			return f.start + pos, false
		}
		pos += int64(r.Size)
	}
	return f.start + pos, true
}

// truncateInvalid cuts an unfinished or invalid tail after the
// dispatcher's offset (Java's truncateInvalidMsg, which looks only when
// dispatch is behind; here always: a master that cut a record in two must
// not be appended to after the half). It returns the cut offset, -1 when
// nothing was cut.
func (s *Store) truncateInvalid() (int64, error) {
	cut := s.validEnd()
	if cut >= s.CommitLogMaxOffset() {
		return -1, nil
	}
	s.log.Info("Truncate commitLog to the last valid record", zap.Int64("offset", cut))
	if err := s.truncateDirtyFiles(cut); err != nil {
		return -1, err
	}
	return cut, nil
}
