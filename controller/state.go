package controller

// The replicated state: Java's ReplicasInfoManager tables
// (docs/reference/controller.md §4.1). Two maps keyed by broker name, as
// Java keeps them; a broker set exists only while it is in both. Both are
// changed only by applying events (events.go), on every controller, in
// the order the Raft log commits them.

import (
	"slices"
	"sync"
)

// replica is a registered controller id: the address of the broker that
// claimed it and the check code it claimed it with.
type replica struct {
	addr, checkCode string
}

// replicaInfo is BrokerReplicaInfo.
type replicaInfo struct {
	cluster, name string
	// nextID is nextAssignBrokerId: 1 at first, +1 for every id added.
	nextID int64
	ids    map[int64]replica
}

// syncInfo is SyncStateInfo. master 0 is Java's null (controller ids
// start at 1).
type syncInfo struct {
	cluster, name string
	masterEpoch   int32
	sssEpoch      int32
	sss           []int64 // ascending
	master        int64
}

func (s *syncInfo) inSSS(id int64) bool { return slices.Contains(s.sss, id) }

// updateMaster is SyncStateInfo.updateMasterInfo: a new master (0: none)
// and the next master epoch.
func (s *syncInfo) updateMaster(id int64) {
	s.master = id
	s.masterEpoch++
}

// updateSSS is updateSyncStateSetInfo: a new set and the next set epoch.
func (s *syncInfo) updateSSS(ids []int64) {
	s.sss = sortedIDs(ids)
	s.sssEpoch++
}

func sortedIDs(ids []int64) []int64 {
	out := slices.Clone(ids)
	slices.Sort(out)
	return slices.Compact(out)
}

// tables is the state under one lock: the Raft FSM writes it, the leader's
// request loop and the read requests read it.
type tables struct {
	mu       sync.RWMutex
	replicas map[string]*replicaInfo
	syncs    map[string]*syncInfo
}

func newTables() *tables {
	return &tables{replicas: map[string]*replicaInfo{}, syncs: map[string]*syncInfo{}}
}

// set returns both records of a broker set, ok only when both exist
// (isContainsBroker). Callers hold mu.
func (t *tables) set(name string) (*replicaInfo, *syncInfo, bool) {
	r, ok1 := t.replicas[name]
	s, ok2 := t.syncs[name]
	return r, s, ok1 && ok2
}

// apply changes the tables by one committed event (applyEvent).
func (t *tables) apply(e event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch e.kind {
	case eventAlterSyncStateSet:
		if _, s, ok := t.set(e.brokerName); ok {
			s.updateSSS(e.ids)
		}
	case eventApplyBrokerID:
		t.applyBrokerID(e)
	case eventElectMaster:
		t.applyElectMaster(e)
	case eventCleanBrokerData:
		t.applyClean(e)
	case eventUpdateBrokerAddress:
		if r, _, ok := t.set(e.brokerName); ok {
			if old, found := r.ids[e.brokerID]; found {
				r.ids[e.brokerID] = replica{addr: e.brokerAddress, checkCode: old.checkCode}
			}
		}
	}
}

func (t *tables) applyBrokerID(e event) {
	r, _, ok := t.set(e.brokerName)
	if !ok {
		r = &replicaInfo{cluster: e.clusterName, name: e.brokerName, nextID: 1, ids: map[int64]replica{}}
		t.replicas[e.brokerName] = r
		t.syncs[e.brokerName] = &syncInfo{cluster: e.clusterName, name: e.brokerName}
	}
	if _, used := r.ids[e.brokerID]; !used {
		r.ids[e.brokerID] = replica{addr: e.brokerAddress, checkCode: e.checkCode}
		r.nextID++
	}
}

func (t *tables) applyElectMaster(e event) {
	_, s, ok := t.set(e.brokerName)
	if !ok {
		return
	}
	if e.elected {
		s.updateMaster(e.brokerID)
		s.updateSSS([]int64{e.brokerID})
		return
	}
	// no one could be elected: no master, the next master epoch, the set kept
	s.updateMaster(0)
}

func (t *tables) applyClean(e event) {
	if len(e.ids) == 0 {
		delete(t.replicas, e.brokerName)
		delete(t.syncs, e.brokerName)
		return
	}
	r, s, ok := t.set(e.brokerName)
	if !ok {
		return
	}
	for _, id := range e.ids {
		delete(r.ids, id)
		s.sss = slices.DeleteFunc(s.sss, func(x int64) bool { return x == id })
	}
	if len(r.ids) == 0 {
		delete(t.replicas, e.brokerName)
	}
	if len(s.sss) == 0 {
		delete(t.syncs, e.brokerName)
	}
}
