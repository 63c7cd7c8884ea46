package store

// The confirm offset of controller mode (Java's CommitLog.confirmOffset):
// how far the commitlog is known to be held by the replicas that count.
// The dispatcher builds consume queues and the index only up to it (Java's
// getReputEndOffset), so a message becomes visible to consumers once
// confirmed; with Options.AutoSwitch.ReadUnCommitted it dispatches
// everything written, as outside controller mode.
//
// Which value counts (getConfirmOffset):
//
//   - a master that is not fenced: the commitlog end when its local
//     SyncStateSet has one member or AllAckInSyncStateSet is off; else the
//     stored value (AutoSwitchHA computes it from the slaves' acks);
//   - a slave or a fenced store: the stored value (a slave takes it from
//     its master's frames).
//
// The stored value is kept in the checkpoint file at byte 32
// (confirmPhyOffset, checkpoint.go), as Java keeps it, and written with the
// checkpoint. Outside controller mode nothing here is used: the
// dispatcher runs to the commitlog end, recovery does not touch the stored
// value, and ConfirmOffset is the commitlog end (the flushed end with
// SYNC_FLUSH), as Java's getConfirmOffset answers there.

import "go.uber.org/zap"

// ConfirmOffset is the confirm offset as the store uses it now.
func (s *Store) ConfirmOffset() int64 {
	if !s.opts.ControllerMode {
		if s.opts.Flush == SyncFlush {
			return s.cl.files.flushedOffset()
		}
		return s.cl.files.maxOffset()
	}
	if s.IsSlave() || s.Fenced() {
		return s.cp.confirmPhyOffset.Load()
	}
	ha := s.autoHA.Load()
	if !s.opts.AutoSwitch.AllAckInSyncStateSet || ha == nil || ha.localSetSize() == 1 {
		return s.cl.files.maxOffset()
	}
	if s.cp.confirmPhyOffset.Load() < 0 {
		s.SetConfirmOffset(ha.computeConfirmOffset())
	}
	return s.cp.confirmPhyOffset.Load()
}

// StoredConfirmOffset is the stored confirm offset, whatever the role
// (Java's getConfirmOffsetDirectly).
func (s *Store) StoredConfirmOffset() int64 { return s.cp.confirmPhyOffset.Load() }

// SetConfirmOffset stores the confirm offset; the checkpoint writes it
// with its next flush. The dispatcher is woken, as it may now go further.
func (s *Store) SetConfirmOffset(o int64) {
	if s.cp.confirmPhyOffset.Swap(o) != o {
		s.wakeDispatcher()
	}
}

// dispatchEnd is how far the dispatcher may go (getReputEndOffset): the
// commitlog end, or in controller mode the confirm offset.
func (s *Store) dispatchEnd() int64 {
	end := s.cl.files.maxOffset()
	if !s.opts.ControllerMode || s.opts.AutoSwitch.ReadUnCommitted {
		return end
	}
	return min(end, s.ConfirmOffset())
}

// DispatchBehindBytes is how much the dispatcher still has to do
// (dispatchBehindBytes): up to the confirm offset in controller mode.
func (s *Store) DispatchBehindBytes() int64 {
	return max(s.dispatchEnd()-s.disp.from.Load(), 0)
}

// wakeDispatcher makes the dispatcher look again without an append.
func (s *Store) wakeDispatcher() {
	if s.cl == nil {
		return
	}
	select {
	case s.cl.appended <- struct{}{}:
	default:
	}
}

// clampConfirmOffset keeps the stored confirm offset within [the
// commitlog's first offset, hi] after recovery (controller mode only),
// with Java's log lines.
func (s *Store) clampConfirmOffset(hi int64) {
	if !s.opts.ControllerMode || s.opts.ReadOnly {
		return
	}
	c, lo := s.cp.confirmPhyOffset.Load(), s.cl.files.minOffset()
	switch {
	case c < lo:
		s.log.Error("confirmOffset is less than minPhyOffset, correct confirmOffset to minPhyOffset",
			zap.Int64("confirmOffset", c), zap.Int64("minPhyOffset", lo))
		s.SetConfirmOffset(lo)
	case c > hi:
		s.log.Error("confirmOffset is larger than the last valid offset, correct confirmOffset to it",
			zap.Int64("confirmOffset", c), zap.Int64("processOffset", hi))
		s.SetConfirmOffset(hi)
	}
}
