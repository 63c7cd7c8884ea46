package store

// The controller mode's put rules and confirm offset on the master
// (Java's CommitLog.asyncPutMessage in controller mode, GroupTransferService
// and AutoSwitchHAService.computeConfirmOffset). A put that waits for its
// store (WAIT, the default) on a controller-mode master:
//
//  1. is refused before it is written with IN_SYNC_REPLICAS_NOT_ENOUGH
//     when InSyncReplicasNums < MinInSyncReplicas;
//  2. with AllAckInSyncStateSet waits until every other member of the
//     SyncStateSet (union while in flight) has a connection that acked
//     its end; a set of at most one member does not wait;
//  3. else waits for InSyncReplicas acks counting the master, over all
//     connections, SyncStateSet or not; 1 or less does not wait;
//  4. FLUSH_SLAVE_TIMEOUT after SlaveTimeout (the message is stored).
//
// Java answers a put while a slave with SERVICE_NOT_AVAILABLE before
// these; so does this store.

import (
	"math"
	"slices"
	"time"
)

// enoughInSyncReplicas is rule 1.
func (s *Store) enoughInSyncReplicas(m *Message) bool {
	if !s.opts.ControllerMode || !waitStoreMsgOK(m) {
		return true
	}
	h := s.autoHA.Load()
	return h == nil || h.InSyncReplicasNums() >= s.opts.AutoSwitch.MinInSyncReplicas
}

// autoSwitchReplicaWait is rules 2-4 for a put that ends at end.
func (s *Store) autoSwitchReplicaWait(m *Message, end int64) replicaWait {
	o := &s.opts.AutoSwitch
	h := s.autoHA.Load()
	if h == nil || !waitStoreMsgOK(m) || (!o.AllAckInSyncStateSet && o.InSyncReplicas <= 1) {
		return replicaWait{}
	}
	timeout := o.SlaveTimeout
	if timeout <= 0 {
		timeout = s.opts.SyncFlushTimeout
	}
	return replicaWait{waiters: &h.waiters, end: end, timeout: timeout,
		reason: "the in-sync replicas did not acknowledge the message in time"}
}

// releaseAcksLocked recomputes the offset the acks rule holds for and
// takes the puts it covers; it runs on every slave report and every change
// of the SyncStateSet or of the connections. mu held: the caller tells the
// puts with finishAll once it has released mu.
func (h *AutoSwitchHA) releaseAcksLocked() []*ackWaiter {
	return h.waiters.setTaking(h.replicatedLocked())
}

// replicatedLocked is the highest offset the acks rule (2 or 3) holds
// for: with AllAckInSyncStateSet, the smallest ack of the set's other
// members (every one needs a connection); else the InSyncReplicas-1'th
// highest ack of any connection. mu held.
func (h *AutoSwitchHA) replicatedLocked() int64 {
	o := &h.s.opts.AutoSwitch
	var acks []int64
	need := o.InSyncReplicas - 1
	if o.AllAckInSyncStateSet {
		set := h.syncStateSetLocked()
		if len(set) <= 1 {
			return math.MaxInt64
		}
		need = len(set) - 1
		for c := range h.conns {
			if _, in := set[c.slaveID.Load()]; in && c.hasID.Load() {
				acks = append(acks, c.ack.Load())
			}
		}
	} else {
		if need <= 0 {
			return math.MaxInt64
		}
		for c := range h.conns {
			acks = append(acks, c.ack.Load())
		}
	}
	if len(acks) < need {
		return -1
	}
	slices.Sort(acks)
	return acks[len(acks)-need]
}

// computeConfirmOffset is the master's confirm offset from the acks.
func (h *AutoSwitchHA) computeConfirmOffset() int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.computeConfirmOffsetLocked()
}

// computeConfirmOffsetLocked: the smallest positive ack of the
// SyncStateSet's connected members, at most the commitlog end; the stored
// value unchanged while a member other than this store has no connection
// (Java's fix of issue #6662). mu held.
func (h *AutoSwitchHA) computeConfirmOffsetLocked() int64 {
	set := h.syncStateSetLocked()
	confirm := h.s.CommitLogMaxOffset()
	connected := make(map[int64]bool, len(h.conns))
	for c := range h.conns {
		if c.hasID.Load() {
			connected[c.slaveID.Load()] = true
		}
	}
	if localID, ok := h.LocalID(); ok {
		for id := range set {
			if id != localID && !connected[id] {
				return h.s.StoredConfirmOffset()
			}
		}
	}
	for c := range h.conns {
		if _, in := set[c.slaveID.Load()]; in && c.hasID.Load() && c.ack.Load() > 0 {
			confirm = min(confirm, c.ack.Load())
		}
	}
	return confirm
}

// onSlaveAck is a slave's report of offset (Java's read service): it
// may catch the slave up (and expand the set), moves the confirm offset
// when the slave is in the local set, and wakes waiting puts.
func (h *AutoSwitchHA) onSlaveAck(c *asConn, offset int64) {
	id := c.slaveID.Load()
	if !c.asyncLearner.Load() && offset >= c.lastMasterMax.Load() {
		caught := c.lastTransferMs.Load()
		if h.s.CommitLogMaxOffset() == offset {
			caught = time.Now().UnixMilli()
		}
		h.updateCaughtUp(id, caught)
		h.maybeExpand(id, offset)
	}
	h.mu.Lock()
	if _, in := h.syncSet[id]; in {
		h.s.SetConfirmOffset(h.computeConfirmOffsetLocked())
	}
	released := h.releaseAcksLocked()
	h.mu.Unlock()
	finishAll(released)
}
