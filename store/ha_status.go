package store

// What the HA services report about themselves (Java's HARuntimeInfo,
// GET_BROKER_HA_STATUS): on the master, each slave connection's address,
// acknowledged offset and next offset to send; on a slave, the master's
// HA address and when a frame last came and a report last went.

// HAConnStatus is one slave connection (HAConnectionRuntimeInfo).
type HAConnStatus struct {
	// Addr is the slave's host:port.
	Addr string
	// AckOffset is the offset the slave last reported (-1 before any).
	AckOffset int64
	// TransferFrom is the next offset to send it (-1 before it asked).
	TransferFrom int64
	// BytesPerSecond is what was sent to it in the last whole second
	// (transferredByteInSecond).
	BytesPerSecond int64
}

// Connections lists the connected slaves.
func (m *HAMaster) Connections() []HAConnStatus {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]HAConnStatus, 0, len(m.conns))
	for c := range m.conns {
		out = append(out, HAConnStatus{Addr: c.nc.RemoteAddr().String(), AckOffset: c.acked.Load(), TransferFrom: c.from.Load(),
			BytesPerSecond: c.flow.perSecond()})
	}
	return out
}

// HAClientStatus is a slave's side (HAClientRuntimeInfo).
type HAClientStatus struct {
	// MasterAddr is the master's HA address ("" when not known yet).
	MasterAddr string
	// LastReadMs and LastWriteMs are when a frame last came and an offset
	// report last went (Unix ms).
	LastReadMs, LastWriteMs int64
	// BytesPerSecond is what came from the master in the last whole second
	// (transferredByteInSecond).
	BytesPerSecond int64
}

// Status reports the slave's side.
func (c *HAClient) Status() HAClientStatus {
	return HAClientStatus{MasterAddr: c.MasterAddress(), LastReadMs: c.lastRead.Load(), LastWriteMs: c.lastWrite.Load(),
		BytesPerSecond: c.flow.perSecond()}
}

// AutoSwitchConnStatus is one slave connection of AutoSwitchHA.
type AutoSwitchConnStatus struct {
	// SlaveID is the slave's controller id (0 before its handshake).
	SlaveID int64
	Addr    string
	// State is HANDSHAKE or TRANSFER.
	State string
	// AckOffset is the offset the slave last reported (-1 before any).
	AckOffset int64
	// TransferFrom is the next offset to send it (-1 before it asked).
	TransferFrom int64
	AsyncLearner bool
	// InSync is membership of the SyncStateSet (union while in flight),
	// what haStatus prints as inSync in controller mode.
	InSync bool
	// BytesPerSecond is what was sent in the last whole second.
	BytesPerSecond int64
}

// Connections lists the connected slaves.
func (h *AutoSwitchHA) Connections() []AutoSwitchConnStatus {
	h.mu.Lock()
	defer h.mu.Unlock()
	set := h.syncStateSetLocked()
	out := make([]AutoSwitchConnStatus, 0, len(h.conns))
	for c := range h.conns {
		_, in := set[c.slaveID.Load()]
		out = append(out, AutoSwitchConnStatus{SlaveID: c.slaveID.Load(), Addr: c.addr, State: haState(c.state.Load()).String(),
			AckOffset: c.ack.Load(), TransferFrom: c.next.Load(), AsyncLearner: c.asyncLearner.Load(),
			InSync: in && c.hasID.Load(), BytesPerSecond: c.flow.perSecond()})
	}
	return out
}

// AutoSwitchClientStatus is a slave's side of AutoSwitchHA.
type AutoSwitchClientStatus struct {
	// MasterAddr is the master's HA address ("" when not known yet).
	MasterAddr string
	Connected  bool
	// State is READY, HANDSHAKE or TRANSFER.
	State string
	// LastReadMs and LastWriteMs are when a frame last came and a report
	// last went (Unix ms).
	LastReadMs, LastWriteMs int64
	BytesPerSecond          int64
}

// ClientStatus reports the slave's side; false when the store is not a
// slave of this service.
func (h *AutoSwitchHA) ClientStatus() (AutoSwitchClientStatus, bool) {
	h.mu.Lock()
	c := h.client
	h.mu.Unlock()
	if c == nil {
		return AutoSwitchClientStatus{}, false
	}
	return AutoSwitchClientStatus{MasterAddr: c.masterAddr(), Connected: c.connected.Load(), State: haState(c.state.Load()).String(),
		LastReadMs: c.lastRead.Load(), LastWriteMs: c.lastWrite.Load(), BytesPerSecond: c.flow.perSecond()}, true
}
