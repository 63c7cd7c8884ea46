package controller

// The broker's way to a controller id (docs/reference/controller.md §4.2,
// §7.3):
//
//	CONTROLLER_GET_NEXT_BROKER_ID (1012, read)
//	  header clusterName, brokerName -> clusterName, brokerName, nextBrokerId
//	  (1 for an unknown set, else nextAssignBrokerId)
//	CONTROLLER_APPLY_BROKER_ID (1013, write)
//	  header clusterName, brokerName, appliedBrokerId, registerCheckCode
//	  ("addr;timestamp") -> clusterName, brokerName; ApplyBrokerIdEvent.
//	  CONTROLLER_BROKER_ID_INVALID when the id is another broker's, or is
//	  not 1 for an unknown set.
//	CONTROLLER_REGISTER_BROKER (1003, write)
//	  header clusterName, brokerName, brokerId, brokerAddress ->
//	  clusterName, brokerName, and masterBrokerId, masterAddress,
//	  masterEpoch, syncStateSetEpoch when a live master is recorded; body
//	  the SyncStateSet. UpdateBrokerAddressEvent when the address changed.
//	  CONTROLLER_BROKER_NEED_TO_BE_REGISTERED for an unknown set or id.

import (
	"fmt"
	"strings"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

func (m *manager) getNextBrokerID(h header) answer {
	cluster, name := h.str("clusterName", ""), h.str("brokerName", "")
	m.t.mu.RLock()
	defer m.t.mu.RUnlock()
	next := int64(1)
	if r, _, ok := m.t.set(name); ok {
		next = r.nextID
	}
	a := answer{code: remoting.Success}
	a.set("clusterName", cluster)
	a.set("brokerName", name)
	a.setLong("nextBrokerId", next)
	return a
}

func (m *manager) applyBrokerID(h header) answer {
	cluster, name := h.str("clusterName", ""), h.str("brokerName", "")
	id := h.long("appliedBrokerId", 0)
	code := h.str("registerCheckCode", "")
	addr, _, _ := strings.Cut(code, ";")
	m.t.mu.RLock()
	defer m.t.mu.RUnlock()
	r, _, known := m.t.set(name)
	switch {
	case !known && id != 1:
		return fail(remoting.ControllerBrokerIdInvalid, fmt.Sprintf(
			"Broker-set: %s hasn't been registered in controller, but broker try to apply brokerId: %d", name, id))
	case known:
		if used, ok := r.ids[id]; ok && used.checkCode != code {
			return fail(remoting.ControllerBrokerIdInvalid, fmt.Sprintf("Fail to apply brokerId: %d in broker-set: %s", id, name))
		}
	}
	a := answer{code: remoting.Success, events: []event{{
		kind: eventApplyBrokerID, clusterName: cluster, brokerName: name,
		brokerID: id, brokerAddress: addr, checkCode: code,
	}}}
	a.set("clusterName", cluster)
	a.set("brokerName", name)
	return a
}

func (m *manager) registerBroker(h header) answer {
	cluster, name := h.str("clusterName", ""), h.str("brokerName", "")
	id, addr := h.long("brokerId", 0), h.str("brokerAddress", "")
	m.t.mu.RLock()
	defer m.t.mu.RUnlock()
	r, s, known := m.t.set(name)
	if !known {
		return fail(remoting.ControllerBrokerNeedToBeRegistered, fmt.Sprintf("Broker-set: %s hasn't been registered in controller", name))
	}
	stored, ok := r.ids[id]
	if !ok {
		return fail(remoting.ControllerBrokerNeedToBeRegistered, fmt.Sprintf("BrokerId: %d hasn't been registered in broker-set: %s", id, name))
	}
	a := answer{code: remoting.Success}
	a.set("clusterName", cluster)
	a.set("brokerName", name)
	if s.master != 0 && m.hb.alive(cluster, name, s.master) {
		a.setLong("masterBrokerId", s.master)
		a.set("masterAddress", r.ids[s.master].addr)
		a.setLong("masterEpoch", int64(s.masterEpoch))
		a.setLong("syncStateSetEpoch", int64(s.sssEpoch))
	}
	a.body = (&protocol.SyncStateSet{Members: s.sss, Epoch: s.sssEpoch}).AppendJSON(nil)
	if addr != stored.addr {
		a.events = []event{{kind: eventUpdateBrokerAddress, clusterName: cluster, brokerName: name, brokerID: id, brokerAddress: addr}}
	}
	return a
}
