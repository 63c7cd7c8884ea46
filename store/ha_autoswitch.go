package store

// Replication in controller mode: Java's AutoSwitchHAService. One object
// per store serves both roles: it always listens on the HA port (a
// connected slave gets an asConn, ha_autoswitch_master.go), and while the
// store is a slave it runs a client to its master (asClient,
// ha_autoswitch_slave.go). The broker drives it with the role changes the
// controller decides (ChangeToMaster, ChangeToSlave, ...), tells a slave
// its master's HA address (SetMasterHAAddress) and the SyncStateSet the
// controller confirmed (SetSyncStateSet); the service proposes changes of
// that set through onPropose (the broker sends them to the controller).
// The wire is drawn in ha_autoswitch_wire.go; the ack rules and the
// confirm offset in ha_autoswitch_acks.go.
//
// Differences from Java: role changes also set the store's role
// (Store.SetRole), which Java's broker does beside the HA call; the
// listener and client are goroutines with blocking I/O, not selectors;
// a slave reports its offset right after the handshake instead of at its
// next heartbeat (the wire is the same, the master starts sooner).

import (
	"context"
	"errors"
	"maps"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
)

// AutoSwitchHA is the controller mode's HA service of one store.
type AutoSwitchHA struct {
	s         *Store
	addr      string
	log       *zap.Logger
	epochs    *EpochFile
	onPropose func(newSet []int64)

	ln     net.Listener
	wg     sync.WaitGroup
	ctx    context.Context
	cancel context.CancelFunc

	localID    atomic.Int64
	hasLocalID atomic.Bool

	mu sync.Mutex
	// conns are the connected slaves.
	conns  map[*asConn]struct{}
	closed bool
	// syncSet is the controller-confirmed SyncStateSet; remoteSet the
	// last proposal, counted too while synchronizing (the in-flight rule).
	syncSet       map[int64]struct{}
	remoteSet     map[int64]struct{}
	synchronizing bool
	// caughtUp is each slave's last caught-up time (Unix ms), never
	// forgotten (Java's connectionCaughtUpTimeTable).
	caughtUp map[int64]int64
	client   *asClient
	masterHA string

	// waiters are the puts waiting for acks, woken as the acks rule comes
	// to hold for them (releaseAcksLocked).
	waiters ackWaiters
	// proposals run onPropose in order, off the caller's goroutine.
	proposals proposalQueue
}

// NewAutoSwitchHA returns the HA service of s (opened with
// ControllerMode), to listen on listenAddr ("host:port", port 0 picks
// one) once started. onPropose, when not nil, is called (on its own
// goroutine, in order) with every SyncStateSet the service wants the
// controller to adopt: expansion when a slave catches up, shrinking when
// an in-set slave disconnects.
func NewAutoSwitchHA(s *Store, listenAddr string, onPropose func(newSet []int64)) *AutoSwitchHA {
	h := &AutoSwitchHA{s: s, addr: listenAddr, log: s.log.Named("autoswitch"), onPropose: onPropose,
		conns: make(map[*asConn]struct{}), syncSet: make(map[int64]struct{}), remoteSet: make(map[int64]struct{}),
		caughtUp: make(map[int64]int64)}
	h.epochs = s.epochs
	if h.epochs == nil {
		h.log.Warn("the store is not in controller mode: the epoch list is kept in memory only")
		h.epochs = &EpochFile{log: h.log}
		s.epochs = h.epochs
	}
	h.ctx, h.cancel = context.WithCancel(context.Background())
	h.proposals.init(h.propose)
	s.autoHA.Store(h)
	return h
}

// Start listens for slaves until Close.
func (h *AutoSwitchHA) Start() error {
	ln, err := net.Listen("tcp", h.addr)
	if err != nil {
		return err
	}
	h.ln = ln
	h.wg.Add(1)
	go h.accept()
	h.log.Info("AutoSwitch HA listening", zap.String("addr", ln.Addr().String()))
	return nil
}

// Addr is the bound listen address, once started.
func (h *AutoSwitchHA) Addr() string { return h.ln.Addr().String() }

// Close stops listening and the client, drops every connection and waits
// for their goroutines.
func (h *AutoSwitchHA) Close() error {
	h.mu.Lock()
	h.closed = true
	client := h.client
	h.client = nil
	h.mu.Unlock()
	h.cancel()
	h.waiters.close() // the puts waiting for acks fail (FLUSH_SLAVE_TIMEOUT)
	var err error
	if h.ln != nil {
		err = h.ln.Close()
	}
	if client != nil {
		client.close()
	}
	h.closeConns()
	h.wg.Wait()
	h.proposals.close()
	return err
}

func (h *AutoSwitchHA) accept() {
	defer h.wg.Done()
	for {
		nc, err := h.ln.Accept()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				h.log.Warn("HA accept failed", zap.Error(err))
			}
			return
		}
		h.mu.Lock()
		if h.closed {
			h.mu.Unlock()
			nc.Close()
			return
		}
		c := newASConn(h, blockingIfTCP(nc))
		h.conns[c] = struct{}{}
		h.wg.Add(2)
		h.mu.Unlock()
		h.log.Info("HA slave connected", zap.String("slave", c.addr))
		go c.read()
		go c.write()
	}
}

// closeConns drops every slave connection (destroyConnections).
func (h *AutoSwitchHA) closeConns() {
	h.mu.Lock()
	conns := slices.Collect(maps.Keys(h.conns))
	h.mu.Unlock()
	for _, c := range conns {
		c.stop()
	}
}

// removeConn forgets a closed connection; a slave of the local
// SyncStateSet is proposed out of it (unless the service or store is
// closing).
func (h *AutoSwitchHA) removeConn(c *asConn) {
	h.mu.Lock()
	delete(h.conns, c)
	if h.closed || h.s.closed.Load() || !c.hasID.Load() {
		h.mu.Unlock()
		return
	}
	id := c.slaveID.Load()
	if _, in := h.syncSet[id]; in {
		set := maps.Clone(h.syncSet)
		delete(set, id)
		h.markSynchronizing(set)
	}
	released := h.releaseAcksLocked()
	h.mu.Unlock()
	finishAll(released)
}

// SetLocalID sets this store's controller id (brokerControllerId).
func (h *AutoSwitchHA) SetLocalID(id int64) {
	h.localID.Store(id)
	h.hasLocalID.Store(true)
}

// LocalID is the controller id, false when not set yet.
func (h *AutoSwitchHA) LocalID() (int64, bool) { return h.localID.Load(), h.hasLocalID.Load() }

// EpochEntries is the epoch list, the last entry's end math.MaxInt64.
func (h *AutoSwitchHA) EpochEntries() []EpochEntry { return h.epochs.Entries() }

// EpochFile is the epoch list with its file.
func (h *AutoSwitchHA) EpochFile() *EpochFile { return h.epochs }

// TruncateEpochFilePrefix drops the epochs that end at or before offset
// (the broker calls it after deleting expired commitlog files, with the
// new min offset - 1).
func (h *AutoSwitchHA) TruncateEpochFilePrefix(offset int64) { h.epochs.TruncatePrefixByOffset(offset) }

// refuseEpoch is the check of every role change: an epoch below the last
// one recorded is stale.
func (h *AutoSwitchHA) refuseEpoch(epoch int32, what string) bool {
	if last := h.epochs.LastEpoch(); epoch < last {
		h.log.Warn("new master epoch is lower than the last epoch, refusing "+what,
			zap.Int32("epoch", epoch), zap.Int32("lastEpoch", last))
		return true
	}
	return false
}

// appendEpoch records that epoch starts at the commitlog end, dropping
// the epochs at or above it first.
func (h *AutoSwitchHA) appendEpoch(epoch int32) EpochEntry {
	if h.epochs.LastEpoch() >= epoch {
		h.epochs.TruncateSuffixByEpoch(epoch)
	}
	e := EpochEntry{Epoch: epoch, StartOffset: h.s.CommitLogMaxOffset()}
	h.epochs.Append(e.Epoch, e.StartOffset)
	return e
}

// ChangeToMaster makes the store the master of epoch (Java's
// changeToMaster): drop every connection, stop the client, cut an
// unfinished record at the end, recompute the confirm offset, record the
// epoch, make the store a master and wait until the consume queues are
// built up to the confirm offset before puts are let in. False (nothing
// changed) when epoch is below the last recorded one or the cut failed.
func (h *AutoSwitchHA) ChangeToMaster(epoch int32) bool {
	if h.refuseEpoch(epoch, "change to master") {
		return false
	}
	h.closeConns()
	h.stopClient()
	s := h.s
	s.switching.Store(true)
	defer s.switching.Store(false)
	cut, err := s.truncateInvalid()
	if err != nil {
		h.log.Error("change to master: truncating the invalid tail failed", zap.Error(err))
		return false
	}
	s.SetConfirmOffset(h.computeConfirmOffset())
	if cut >= 0 {
		h.epochs.TruncateSuffixByOffset(cut)
	}
	e := h.appendEpoch(epoch)
	s.SetRole(RoleMaster)
	if err := s.disp.waitCaughtUp(h.ctx); err != nil {
		h.log.Warn("change to master: stopped waiting for dispatch", zap.Error(err))
	}
	s.refreshQueueOffsets()
	h.log.Info("Change ha to master success", zap.Int32("newMasterEpoch", epoch), zap.Int64("startOffset", e.StartOffset),
		zap.Int64("truncateOffset", cut), zap.Int64("confirmOffset", s.ConfirmOffset()))
	return true
}

// ChangeToMasterWhenLastRoleIsMaster records a new epoch of a store that
// stays master (the epoch-file steps of ChangeToMaster only).
func (h *AutoSwitchHA) ChangeToMasterWhenLastRoleIsMaster(epoch int32) bool {
	if h.refuseEpoch(epoch, "change to master") {
		return false
	}
	e := h.appendEpoch(epoch)
	h.log.Info("Change ha to master success, last role is master", zap.Int32("newMasterEpoch", epoch),
		zap.Int64("startOffset", e.StartOffset))
	return true
}

// ChangeToSlave makes the store a slave of epoch with controller id
// localID (Java's changeToSlave): drop every connection, make the store a
// slave and start a fresh client, which connects once SetMasterHAAddress
// names the master. False when epoch is below the last recorded one.
func (h *AutoSwitchHA) ChangeToSlave(epoch int32, localID int64) bool {
	if h.refuseEpoch(epoch, "change to slave") {
		return false
	}
	h.SetLocalID(localID)
	h.closeConns()
	h.s.SetRole(RoleSlave)
	h.stopClient()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return false
	}
	h.masterHA = ""
	h.client = newASClient(h)
	h.client.start()
	h.log.Info("Change ha to slave success", zap.Int32("newMasterEpoch", epoch), zap.Int64("localID", localID))
	return true
}

// ChangeToSlaveWhenMasterNotChange accepts a new epoch under the same
// master (Java only updates its state-machine version).
func (h *AutoSwitchHA) ChangeToSlaveWhenMasterNotChange(epoch int32) bool {
	return !h.refuseEpoch(epoch, "change to slave")
}

// stopClient stops the slave client, if any.
func (h *AutoSwitchHA) stopClient() {
	h.mu.Lock()
	c := h.client
	h.client = nil
	h.mu.Unlock()
	if c != nil {
		c.close()
	}
}

// SetMasterHAAddress tells a slave its master's HA address (the name
// server's haServerAddr); the client connects to it.
func (h *AutoSwitchHA) SetMasterHAAddress(addr string) {
	h.mu.Lock()
	h.masterHA = addr
	c := h.client
	h.mu.Unlock()
	if c != nil {
		c.setMaster(addr)
	}
}

// MasterHAAddress is the master's HA address as last set.
func (h *AutoSwitchHA) MasterHAAddress() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.masterHA
}

// waitCtx sleeps d unless ctx ends first; false when it ended.
func waitCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}
