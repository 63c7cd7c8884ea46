package controller

// The SyncStateSet requests (docs/reference/controller.md §4.2):
//
//	CONTROLLER_ALTER_SYNC_STATE_SET (1001, write)
//	  header brokerName, masterBrokerId, masterEpoch; body SyncStateSet
//	  (the proposed set, the current set epoch) -> newSyncStateSetEpoch
//	  and body SyncStateSet (the set, its new epoch); AlterSyncStateSetEvent.
//	  Refusals in Java's order: 2013 unknown set or unchanged set, 2002 not
//	  the master, 2000 stale master epoch, 2001 stale set epoch, 2003 an
//	  unknown id, 2006 a dead id, 2013 the master left out.
//	CONTROLLER_GET_REPLICA_INFO (1004, read)
//	  header brokerName -> masterBrokerId, masterAddress (absent without
//	  a master), masterEpoch; body SyncStateSet. Liveness is not asked: a
//	  dead master is reported until an election replaces it.
//	CONTROLLER_GET_SYNC_STATE_DATA (1006, read)
//	  body ["broker-a",...] -> BrokerReplicasInfo; unknown names skipped;
//	  an empty or unreadable body is SYSTEM_ERROR "not set any response
//	  code", as Java's null answer becomes.

import (
	"fmt"
	"slices"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

func (m *manager) alterSyncStateSet(h header, body []byte) answer {
	name := h.str("brokerName", "")
	master, masterEpoch := h.long("masterBrokerId", 0), h.int("masterEpoch", 0)
	proposed, err := protocol.ReadSyncStateSet(body)
	if err != nil {
		return fail(remoting.SystemError, "the body is not a SyncStateSet: "+err.Error())
	}
	want := sortedIDs(proposed.Members)
	m.t.mu.RLock()
	defer m.t.mu.RUnlock()
	r, s, known := m.t.set(name)
	const refusing = "Rejecting alter syncStateSet request because "
	switch {
	case !known:
		return fail(remoting.ControllerAlterSyncStateSetFailed, "Broker metadata is not existed")
	case slices.Equal(want, s.sss):
		return fail(remoting.ControllerAlterSyncStateSetFailed, "The newSyncStateSet is equal with oldSyncStateSet, no needed to update syncStateSet")
	case s.master == 0 || s.master != master:
		return fail(remoting.ControllerInvalidMaster, fmt.Sprintf(refusing+"the current leader is:{%s}, not {%s}", nullable(s.master), nullable(master)))
	case masterEpoch != s.masterEpoch:
		return fail(remoting.ControllerFencedMasterEpoch, fmt.Sprintf(refusing+"the current master epoch is:{%d}, not {%d}", s.masterEpoch, masterEpoch))
	case proposed.Epoch != s.sssEpoch:
		return fail(remoting.ControllerFencedSyncStateSetEpoch, fmt.Sprintf(refusing+"the current syncStateSet epoch is:{%d}, not {%d}", s.sssEpoch, proposed.Epoch))
	}
	for _, id := range want {
		if _, ok := r.ids[id]; !ok {
			return fail(remoting.ControllerInvalidReplicas, fmt.Sprintf(refusing+"the replicas {%d} don't exist", id))
		}
		if !m.hb.alive(s.cluster, name, id) {
			return fail(remoting.ControllerBrokerNotAlive, fmt.Sprintf(refusing+"the replicas {%d} don't alive", id))
		}
	}
	if !slices.Contains(want, s.master) {
		return fail(remoting.ControllerAlterSyncStateSetFailed, fmt.Sprintf(refusing+"the newSyncStateSet don't contains origin leader {%d}", s.master))
	}
	a := answer{code: remoting.Success, events: []event{{kind: eventAlterSyncStateSet, brokerName: name, ids: want}}}
	a.setLong("newSyncStateSetEpoch", int64(s.sssEpoch+1))
	a.body = (&protocol.SyncStateSet{Members: want, Epoch: s.sssEpoch + 1}).AppendJSON(nil)
	return a
}

func (m *manager) getReplicaInfo(h header) answer {
	name := h.str("brokerName", "")
	m.t.mu.RLock()
	defer m.t.mu.RUnlock()
	r, s, known := m.t.set(name)
	if !known {
		return fail(remoting.ControllerBrokerMetadataNotExist, "Broker metadata is not existed")
	}
	a := answer{code: remoting.Success}
	if s.master != 0 {
		a.setLong("masterBrokerId", s.master)
		a.set("masterAddress", r.ids[s.master].addr)
	}
	a.setLong("masterEpoch", int64(s.masterEpoch))
	a.body = (&protocol.SyncStateSet{Members: s.sss, Epoch: s.sssEpoch}).AppendJSON(nil)
	return a
}

func (m *manager) getSyncStateData(body []byte) answer {
	names, err := protocol.ReadBrokerNames(body)
	if err != nil || len(names) == 0 {
		return fail(remoting.SystemError, "not set any response code")
	}
	m.t.mu.RLock()
	defer m.t.mu.RUnlock()
	out := protocol.BrokerReplicasInfo{}
	for _, name := range names {
		r, s, known := m.t.set(name)
		if !known {
			continue
		}
		info := protocol.ReplicasInfo{MasterBrokerID: s.master, MasterEpoch: s.masterEpoch, SyncStateSetEpoch: s.sssEpoch}
		if s.master != 0 {
			info.MasterAddress = r.ids[s.master].addr
		}
		for _, id := range sortedIDs(mapKeys(r.ids)) {
			rep := protocol.ReplicaIdentity{BrokerName: name, BrokerID: id, BrokerAddress: r.ids[id].addr,
				Alive: m.hb.alive(s.cluster, name, id)}
			if s.inSSS(id) {
				info.InSync = append(info.InSync, rep)
			} else {
				info.NotInSync = append(info.NotInSync, rep)
			}
		}
		out[name] = info
	}
	return answer{code: remoting.Success, body: out.AppendJSON(nil)}
}
