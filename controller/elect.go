package controller

// CONTROLLER_ELECT_MASTER (1002, write) and DefaultElectPolicy
// (docs/reference/controller.md §4.2, §5).
//
// Request header: clusterName (""), brokerName (""), brokerId (-1),
// designateElect (false). Three senders: a broker (its own controller id),
// mqadmin electMaster (the id to prefer, designateElect=true) and the
// controller itself (brokerName only).
// Response header: masterBrokerId, masterAddress, masterEpoch,
// syncStateSetEpoch on SUCCESS and CONTROLLER_MASTER_STILL_EXIST; body
// ElectMasterResponseBody (the member group and [newMaster], or only the
// current set when the master stays).
// Codes: CONTROLLER_BROKER_NEED_TO_BE_REGISTERED (unknown set),
// CONTROLLER_MASTER_STILL_EXIST, CONTROLLER_MASTER_NOT_AVAILABLE (the
// controller's own election found nobody: the set is left without a
// master and its master epoch still goes up), CONTROLLER_ELECT_MASTER_FAILED
// (a broker's or admin's found nobody: nothing changes).
//
// The policy tries the SyncStateSet's live replicas, then, with
// enableElectUncleanMaster, every live replica: the old master if it is
// among them (and not overruled by a preferred id), else the preferred id
// if alive (never another), else the best by the heartbeat table: higher
// epoch, then higher maxOffset, then lower electionPriority, ties to the
// smaller id. The offset comparison truncates the difference to 32 bits,
// as Java's (int) cast does.

import (
	"fmt"
	"slices"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

func (m *manager) electMaster(h header) answer {
	name := h.str("brokerName", "")
	requested := h.long("brokerId", -1)
	designate := h.bool("designateElect", false)
	m.t.mu.RLock()
	defer m.t.mu.RUnlock()
	r, s, known := m.t.set(name)
	if !known {
		return fail(remoting.ControllerBrokerNeedToBeRegistered, "Broker hasn't been registered")
	}
	cluster := s.cluster
	candidate := int64(-1)
	if s.masterEpoch == 0 {
		candidate = requested // the set's first election: the asker, unchecked
	}
	if candidate == 0 || candidate == -1 {
		var all []int64
		if m.unclean() {
			all = sortedIDs(mapKeys(r.ids))
		}
		var preferred int64
		if designate {
			preferred = requested
		}
		candidate = m.elect(cluster, name, s.sss, all, s.master, preferred)
	}
	switch {
	case candidate != 0 && candidate == s.master:
		a := fail(remoting.ControllerMasterStillExist, fmt.Sprintf(
			"The old master %d is still alive, not need to elect new master for broker %s", s.master, name))
		m.masterHeader(&a, r, s.master, s.masterEpoch, s.sssEpoch)
		a.body = protocol.AppendElectMasterResponse(nil, nil, s.sss)
		return a
	case candidate != 0:
		a := answer{code: remoting.Success, events: []event{{kind: eventElectMaster, brokerName: name, elected: true, brokerID: candidate}}}
		m.masterHeader(&a, r, candidate, s.masterEpoch+1, s.sssEpoch+1)
		group := &protocol.BrokerMemberGroup{Cluster: cluster, BrokerName: name}
		for _, id := range sortedIDs(mapKeys(r.ids)) {
			group.BrokerAddrs.Set(id, r.ids[id].addr)
		}
		a.body = protocol.AppendElectMasterResponse(nil, group, []int64{candidate})
		return a
	case requested == 0 || requested == -1:
		return answer{code: remoting.ControllerMasterNotAvailable, remark: "Old master has down and failed to elect a new broker master",
			events: []event{{kind: eventElectMaster, brokerName: name, elected: false}}}
	}
	return fail(remoting.ControllerElectMasterFailed, "Failed to elect a new master")
}

func (m *manager) masterHeader(a *answer, r *replicaInfo, master int64, masterEpoch, sssEpoch int32) {
	a.setLong("masterBrokerId", master)
	a.set("masterAddress", r.ids[master].addr)
	a.setLong("masterEpoch", int64(masterEpoch))
	a.setLong("syncStateSetEpoch", int64(sssEpoch))
}

// elect is DefaultElectPolicy.elect; 0 means no candidate.
func (m *manager) elect(cluster, name string, sss, all []int64, old, preferred int64) int64 {
	if id := m.tryElect(cluster, name, sss, old, preferred); id != 0 {
		return id
	}
	if all != nil {
		return m.tryElect(cluster, name, all, old, preferred)
	}
	return 0
}

func (m *manager) tryElect(cluster, name string, ids []int64, old, preferred int64) int64 {
	type live struct {
		id   int64
		info brokerLive
	}
	var alive []live
	for _, id := range sortedIDs(ids) {
		if info, ok := m.hb.info(cluster, name, id); ok && m.hb.alive(cluster, name, id) {
			alive = append(alive, live{id, info})
		}
	}
	if len(alive) == 0 {
		return 0
	}
	has := func(id int64) bool {
		return slices.ContainsFunc(alive, func(l live) bool { return l.id == id })
	}
	if old != 0 && has(old) && (preferred == 0 || preferred == old) {
		return old
	}
	if preferred != 0 {
		if has(preferred) {
			return preferred
		}
		return 0
	}
	slices.SortStableFunc(alive, func(x, y live) int { return compareLive(x.info, y.info) })
	return alive[0].id
}

// compareLive is DefaultElectPolicy's comparator, overflow included.
func compareLive(x, y brokerLive) int {
	if x.epoch != y.epoch {
		return int(y.epoch - x.epoch)
	}
	if x.maxOffset != y.maxOffset {
		return int(int32(y.maxOffset - x.maxOffset))
	}
	return int(x.priority - y.priority)
}

func mapKeys[V any](m map[int64]V) []int64 {
	out := make([]int64, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
