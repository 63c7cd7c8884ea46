package store

// The SyncStateSet as AutoSwitchHA keeps it (Java's AutoSwitchHAService
// syncStateSet, remoteSyncStateSet and isSynchronizingSyncStateSet): the
// set the controller confirmed (local), and while a proposal of the
// service is in flight, that proposal (remote). In flight, the set used
// for acks and the confirm offset is the union of both and the in-sync
// count the larger of the two, so an expansion counts the new member at
// once and a shrink waits for the controller. Only SetSyncStateSet ends
// the flight, even when the controller refused the proposal.
//
// Proposals come from an expansion (a slave caught up, §9.6), a shrink on
// disconnect, and CheckSyncStateSet's shrink on lag, which the broker
// runs periodically and proposes itself.

import (
	"maps"
	"slices"
	"sync"
	"time"

	"go.uber.org/zap"
)

// SetSyncStateSet adopts the controller-confirmed set, ends the flight
// of any proposal and recomputes the confirm offset.
func (h *AutoSwitchHA) SetSyncStateSet(ids []int64) {
	h.mu.Lock()
	h.synchronizing = false
	h.syncSet = idSet(ids)
	h.s.SetConfirmOffset(h.computeConfirmOffsetLocked())
	released := h.releaseAcksLocked()
	h.mu.Unlock()
	finishAll(released)
}

// SyncStateSet is the set acks and the confirm offset use: the local
// set, united with the proposal in flight. Sorted.
func (h *AutoSwitchHA) SyncStateSet() []int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return sortedIDs(h.syncStateSetLocked())
}

// LocalSyncStateSet is the controller-confirmed set, sorted.
func (h *AutoSwitchHA) LocalSyncStateSet() []int64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return sortedIDs(h.syncSet)
}

// IsSynchronizingSyncStateSet reports a proposal in flight.
func (h *AutoSwitchHA) IsSynchronizingSyncStateSet() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.synchronizing
}

// InSyncReplicasNums is the in-sync count checked against
// minInSyncReplicas: the local set's size, or in flight the larger of
// the local and proposed sets.
func (h *AutoSwitchHA) InSyncReplicasNums() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.synchronizing {
		return max(len(h.syncSet), len(h.remoteSet))
	}
	return len(h.syncSet)
}

// localSetSize is the local set's size.
func (h *AutoSwitchHA) localSetSize() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.syncSet)
}

// CheckSyncStateSet is the shrink-on-lag rule (Java's
// maybeShrinkSyncStateSet and checkSyncStateSetAndDoReport): from the
// local set drop every slave not caught up for haMaxTimeSlaveNotCatchup
// and every other id never seen caught up, add the local id. A removal
// puts the result in flight; changed reports that it differs from the
// local set, when the broker should propose it.
func (h *AutoSwitchHA) CheckSyncStateSet() (newSet []int64, changed bool) {
	limit := h.s.opts.AutoSwitch.HaMaxTimeSlaveNotCatchup.Milliseconds()
	now := time.Now().UnixMilli()
	localID, hasLocal := h.LocalID()
	h.mu.Lock()
	defer h.mu.Unlock()
	set := maps.Clone(h.syncSet)
	removed := false
	for id := range set {
		caught, seen := h.caughtUp[id]
		if (seen && now-caught > limit) || (!seen && !(hasLocal && id == localID)) {
			delete(set, id)
			removed = true
		}
	}
	if removed {
		h.markSynchronizing(set)
	}
	if hasLocal {
		set[localID] = struct{}{}
	}
	return sortedIDs(set), !maps.Equal(set, h.syncSet)
}

// maybeExpand adds a caught-up slave to the set (proposed, in flight)
// when it holds everything confirmed and the current epoch's start.
func (h *AutoSwitchHA) maybeExpand(id, slaveMax int64) {
	confirm := h.s.ConfirmOffset()
	last, ok := h.epochs.LastEntry()
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, in := h.syncSet[id]; in || !ok || slaveMax < confirm || slaveMax < last.StartOffset {
		return
	}
	h.log.Info("The slave has caught up", zap.Int64("slave", id), zap.Int64("slaveMaxOffset", slaveMax),
		zap.Int64("confirmOffset", confirm), zap.Int32("epoch", last.Epoch), zap.Int64("epochStart", last.StartOffset))
	set := maps.Clone(h.syncSet)
	set[id] = struct{}{}
	h.markSynchronizing(set)
}

// markSynchronizing puts set in flight and proposes it (mu held).
func (h *AutoSwitchHA) markSynchronizing(set map[int64]struct{}) {
	h.remoteSet = maps.Clone(set)
	h.synchronizing = true
	h.proposals.push(sortedIDs(set))
}

// updateCaughtUp raises a slave's caught-up time to ms.
func (h *AutoSwitchHA) updateCaughtUp(id, ms int64) {
	h.mu.Lock()
	h.caughtUp[id] = max(h.caughtUp[id], ms)
	h.mu.Unlock()
}

// syncStateSetLocked is the union of local and in-flight sets (mu held).
func (h *AutoSwitchHA) syncStateSetLocked() map[int64]struct{} {
	set := maps.Clone(h.syncSet)
	if h.synchronizing {
		maps.Copy(set, h.remoteSet)
	}
	return set
}

func (h *AutoSwitchHA) propose(set []int64) {
	h.log.Info("Notify the syncStateSet has been changed", zap.Int64s("set", set))
	if h.onPropose != nil {
		h.onPropose(set)
	}
}

func idSet(ids []int64) map[int64]struct{} {
	set := make(map[int64]struct{}, len(ids))
	for _, id := range ids {
		set[id] = struct{}{}
	}
	return set
}

func sortedIDs(set map[int64]struct{}) []int64 {
	return slices.Sorted(maps.Keys(set))
}

// proposalQueue runs a function over pushed sets, in order, on one
// goroutine (Java's listener executor).
type proposalQueue struct {
	mu      sync.Mutex
	pending [][]int64
	wake    chan struct{}
	done    chan struct{}
	stopped chan struct{}
}

func (q *proposalQueue) init(fn func([]int64)) {
	q.wake = make(chan struct{}, 1)
	q.done = make(chan struct{})
	q.stopped = make(chan struct{})
	go q.run(fn)
}

func (q *proposalQueue) push(set []int64) {
	q.mu.Lock()
	q.pending = append(q.pending, set)
	q.mu.Unlock()
	select {
	case q.wake <- struct{}{}:
	default:
	}
}

func (q *proposalQueue) run(fn func([]int64)) {
	defer close(q.stopped)
	for {
		q.mu.Lock()
		batch := q.pending
		q.pending = nil
		q.mu.Unlock()
		for _, set := range batch {
			fn(set)
		}
		select {
		case <-q.done:
			return
		case <-q.wake:
		}
	}
}

func (q *proposalQueue) close() {
	select {
	case <-q.done:
	default:
		close(q.done)
	}
	<-q.stopped
}
