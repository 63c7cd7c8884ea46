package store

// AutoSwitch replication, slave side (Java's AutoSwitchHAClient): one
// goroutine that keeps a connection to the master's HA address. Frames
// are drawn in ha_autoswitch_wire.go.
//
//  1. READY: cut an unfinished record at the commitlog end (and the
//     epochs from there); connect when the master's address is known,
//     else wait 5 s.
//  2. HANDSHAKE: send the handshake; the master answers with its epoch
//     list and end. With an empty epoch file nothing is cut; otherwise the
//     log is cut at the consistent point of both lists (epoch_file.go),
//     commitlog, consume queues and all, and the epochs from there.
//     No consistent point: wait 2 s and drop the connection (Java's
//     "Failed to find a consistent point"); it is retried for ever.
//  3. TRANSFER: report the commitlog end (Java waits for its next
//     heartbeat to do so); then for each frame: a frame whose offset is not
//     the commitlog end (unless the log is empty) drops the connection; a
//     new epoch in the header is appended to the epoch file; the body is
//     appended as it is; the confirm offset becomes min(the frame's, the
//     commitlog end); the new end is reported. A report also goes out
//     when nothing was written for haSendHeartbeatInterval, and the
//     connection is dropped after haHousekeepingInterval without a frame.
//
// Any failure closes the connection and the client waits 5 s in READY.

import (
	"bufio"
	"context"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
)

// Waits of the slave, as Java's.
const (
	asNoConsistentPointWait = 2 * time.Second
	asMaxHandshakeBody      = asMaxEpochEntries * asEpochEntryLen
)

// asClient replicates the master's commitlog into the store.
type asClient struct {
	h   *AutoSwitchHA
	s   *Store
	log *zap.Logger

	mu     sync.Mutex
	master string
	wake   chan struct{}
	// dropConn ends the current connection (nil when there is none): a
	// new master address replaces a connection to the old one at once.
	dropConn context.CancelFunc

	state     atomic.Int32 // haState
	connected atomic.Bool
	// lastRead and lastWrite are when a frame last came and a report
	// last went (Unix ms).
	lastRead, lastWrite atomic.Int64
	flow                *flowMeter

	cancel context.CancelFunc
	done   chan struct{}
}

func newASClient(h *AutoSwitchHA) *asClient {
	c := &asClient{h: h, s: h.s, log: h.log.Named("client"), wake: make(chan struct{}, 1), done: make(chan struct{}),
		flow: newFlowMeter()}
	now := time.Now().UnixMilli()
	c.lastRead.Store(now)
	c.lastWrite.Store(now)
	return c
}

func (c *asClient) start() {
	ctx, cancel := context.WithCancel(c.h.ctx)
	c.cancel = cancel
	go func() {
		defer close(c.done)
		c.run(ctx)
	}()
}

func (c *asClient) close() {
	c.cancel()
	<-c.done
}

// setMaster takes the master's HA address. A connection to another
// address is dropped, so that the client follows the new master at once.
// (Java's client keeps a connection it has; one to a broker that became a
// slave meanwhile then never gets the new master's data, and the set
// never fills again.)
func (c *asClient) setMaster(addr string) {
	c.mu.Lock()
	old := c.master
	c.master = addr
	drop := c.dropConn
	c.mu.Unlock()
	if old != addr {
		c.log.Info("update master HA address", zap.String("old", old), zap.String("new", addr))
		if drop != nil {
			drop()
		}
		signal(c.wake)
	}
}

func (c *asClient) masterAddr() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.master
}

// run is the client's loop.
func (c *asClient) run(ctx context.Context) {
	for ctx.Err() == nil {
		c.state.Store(int32(haReady))
		c.truncateInvalid()
		if addr := c.masterAddr(); addr != "" {
			err := c.replicate(ctx, addr)
			if ctx.Err() != nil {
				return
			}
			c.log.Warn("HA connection to master ended", zap.String("master", addr), zap.Error(err))
		}
		select {
		case <-ctx.Done():
		case <-c.wake:
		case <-time.After(haRetry):
		}
	}
}

// truncateInvalid cuts an unfinished tail and the epochs from there.
func (c *asClient) truncateInvalid() {
	cut, err := c.s.truncateInvalid()
	if err != nil {
		c.log.Error("truncating the invalid tail failed", zap.Error(err))
		return
	}
	if cut >= 0 {
		c.h.epochs.TruncateSuffixByOffset(cut)
	}
}

// replicate runs one connection, until it fails, ctx ends or the master
// address changes.
func (c *asClient) replicate(ctx context.Context, addr string) error {
	ctx, drop := context.WithCancel(ctx)
	defer drop()
	c.mu.Lock()
	if c.master != addr {
		c.mu.Unlock()
		return nil // changed meanwhile
	}
	c.dropConn = drop
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		c.dropConn = nil
		c.mu.Unlock()
	}()
	nc, hangUp, err := dialHAMaster(ctx, addr)
	if err != nil {
		return err
	}
	defer hangUp()
	c.log.Info("AutoSwitchHAClient connect to master", zap.String("master", addr))
	c.connected.Store(true)
	defer c.connected.Store(false)
	c.lastRead.Store(time.Now().UnixMilli())
	r := &asReporter{nc: nc, timeout: c.s.opts.HA.HousekeepingInterval, wrote: &c.lastWrite}
	c.state.Store(int32(haHandshake))
	if err := c.handshake(ctx, nc, r); err != nil {
		return err
	}
	c.state.Store(int32(haTransfer))
	if err := r.report(c.s.CommitLogMaxOffset()); err != nil {
		return err
	}
	return withHeartbeats(func(done <-chan struct{}) { c.heartbeats(r, done) }, func() error { return c.receive(nc, r) })
}

// handshake sends the handshake and processes the master's answer.
func (c *asClient) handshake(ctx context.Context, nc net.Conn, r *asReporter) error {
	o := &c.s.opts.AutoSwitch
	id, _ := c.h.LocalID()
	frame := appendSlaveHandshake(nil, slaveHandshake{SyncFromLastFile: o.SyncFromLastFile, AsyncLearner: o.AsyncLearner, SlaveID: id})
	if err := r.write(frame); err != nil {
		return err
	}
	header := make([]byte, asMasterHandshakeLen)
	if err := c.readFull(nc, nc, header); err != nil {
		return err
	}
	h := decodeMasterHeader(header)
	if h.State != haHandshake {
		return errorf("State not matched, masterState: %s, slaveState: %s", h.State, haHandshake)
	}
	if h.BodySize < 0 || h.BodySize > asMaxHandshakeBody {
		return errorf("handshake body of %d bytes", h.BodySize)
	}
	body := make([]byte, h.BodySize)
	if err := c.readFull(nc, nc, body); err != nil {
		return err
	}
	return c.truncateToMaster(ctx, decodeEpochEntries(body), h.Offset)
}

// truncateToMaster cuts the log at the consistent point with the
// master's epochs (Java's doTruncate).
func (c *asClient) truncateToMaster(ctx context.Context, master []EpochEntry, masterEnd int64) error {
	if c.h.epochs.Len() == 0 {
		c.log.Info("Slave local epochCache is empty, skip truncate log")
		return nil
	}
	local := chainEpochs(c.h.epochs.Entries(), c.s.CommitLogMaxOffset())
	point := FindConsistentPoint(local, chainEpochs(master, masterEnd))
	if point < 0 {
		c.log.Error("Failed to find a consistent point between masterEpoch and slaveEpoch",
			zap.Any("master", master), zap.Any("local", local))
		waitCtx(ctx, asNoConsistentPointWait)
		return errorf("no consistent point with the master's epochs")
	}
	if err := c.s.truncateFiles(point); err != nil {
		return err
	}
	c.h.epochs.TruncateSuffixByOffset(point)
	c.log.Info("Truncate slave log success, change to transfer state", zap.Int64("offset", point))
	return nil
}

// readFull reads len(b) bytes from r (the connection nc, or a buffer
// over it), dropping the connection after haHousekeepingInterval of
// silence.
func (c *asClient) readFull(nc net.Conn, r io.Reader, b []byte) error {
	if err := nc.SetReadDeadline(time.Now().Add(c.s.opts.HA.HousekeepingInterval)); err != nil {
		return err
	}
	if _, err := io.ReadFull(r, b); err != nil {
		return err
	}
	c.lastRead.Store(time.Now().UnixMilli())
	c.flow.add(len(b))
	return nil
}

// heartbeats reports the commitlog end when nothing was written for
// haSendHeartbeatInterval; a failed write closes the connection.
func (c *asClient) heartbeats(r *asReporter, done <-chan struct{}) {
	every := c.s.opts.HA.HeartbeatInterval
	tick := time.NewTicker(max(every/4, time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
			if time.Now().UnixMilli()-c.lastWrite.Load() < every.Milliseconds() {
				continue
			}
			if err := r.report(r.reported.Load()); err != nil {
				r.nc.Close()
				return
			}
		}
	}
}

// receive processes transfer frames until the connection fails. The
// connection is read through a buffer, and the new end is reported once
// the frames already received are applied (as Java's slave reports after
// handling every whole frame its read brought).
func (c *asClient) receive(nc net.Conn, r *asReporter) error {
	br := bufio.NewReaderSize(nc, haReadBuffer)
	header := make([]byte, asMasterTransferLen)
	var body []byte
	lastEpoch := int32(-1)
	for {
		if br.Buffered() < asMasterTransferLen {
			// reported what came: now the dispatcher (appendRaw)
			c.s.cl.signalAppended()
		}
		if err := c.readFull(nc, br, header[:asMasterHandshakeLen]); err != nil {
			return err
		}
		h := decodeMasterHeader(header)
		if h.State != haTransfer {
			return errorf("State not matched, masterState: %s, slaveState: %s", h.State, haTransfer)
		}
		if err := c.readFull(nc, br, header[asMasterHandshakeLen:]); err != nil {
			return err
		}
		h.decodeTransferTail(header)
		if h.BodySize < 0 || int64(h.BodySize) > c.s.cl.files.fileSize {
			return errorf("frame of %d bytes at %d", h.BodySize, h.Offset)
		}
		body = growTo(body, int(h.BodySize))
		if err := c.readFull(nc, br, body); err != nil {
			return err
		}
		if err := c.apply(h, body, &lastEpoch); err != nil {
			return err
		}
		if br.Buffered() >= asMasterTransferLen {
			continue // another frame is in: report after it
		}
		if end := c.s.CommitLogMaxOffset(); end > r.reported.Load() {
			if err := r.report(end); err != nil {
				return err
			}
		}
	}
}

// apply processes one transfer frame.
func (c *asClient) apply(h masterHeader, body []byte, lastEpoch *int32) error {
	if end := c.s.CommitLogMaxOffset(); end != 0 && end != h.Offset {
		return mismatch(end, h.Offset)
	}
	if h.Epoch != *lastEpoch {
		*lastEpoch = h.Epoch
		c.h.epochs.Append(h.Epoch, h.EpochStart)
	}
	if len(body) > 0 {
		if err := c.s.cl.appendRaw(h.Offset, body); err != nil {
			return err
		}
	}
	c.s.SetConfirmOffset(min(h.ConfirmOffset, c.s.CommitLogMaxOffset()))
	return nil
}

// asReporter writes the slave's frames; the receiver and the heartbeat
// both use it.
type asReporter struct {
	nc      net.Conn
	timeout time.Duration
	// wrote is stamped with the time of each write (Unix ms).
	wrote *atomic.Int64
	// reported is the last offset reported.
	reported atomic.Int64
	mu       sync.Mutex
	buf      []byte
}

// report sends a report of offset.
func (r *asReporter) report(offset int64) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf = appendSlaveReport(r.buf[:0], offset)
	if err := r.writeLocked(r.buf); err != nil {
		return err
	}
	r.reported.Store(offset)
	return nil
}

// write sends a frame.
func (r *asReporter) write(frame []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.writeLocked(frame)
}

func (r *asReporter) writeLocked(frame []byte) error {
	if err := r.nc.SetWriteDeadline(time.Now().Add(r.timeout)); err != nil {
		return err
	}
	if _, err := r.nc.Write(frame); err != nil {
		return err
	}
	r.wrote.Store(time.Now().UnixMilli())
	return nil
}
