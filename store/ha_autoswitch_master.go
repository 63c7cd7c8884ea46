package store

// AutoSwitch replication, master side: one connection per slave (Java's
// AutoSwitchHAConnection), a reader goroutine for the slave's handshakes
// and reports and a writer goroutine for the answers and the commitlog.
// Frames are drawn in ha_autoswitch_wire.go.
//
// The connection starts in HANDSHAKE: each slave handshake is answered
// with the epoch list and the commitlog end. The slave's first report
// switches it to TRANSFER and fixes where the transfer starts: an offset
// of 0 means the master's first file (its last with syncFromLastFile),
// anything else that offset. The start must lie in an epoch of the
// master's list, or nothing is sent (heartbeats only, retried every 500
// ms, as Java). Data goes out in frames of at most haTransferBatchSize
// that never cross a commitlog file or an epoch; a heartbeat (an empty
// frame) goes out when nothing was written for haSendHeartbeatInterval.
// Java's flow control (haFlowControlEnable) is not implemented; the bytes
// are metered for the status only.

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
)

// Waits of the master's writer, as Java's.
const (
	asNoStartRetry = 500 * time.Millisecond // no commitlog or no epoch for the start
	asIdleWait     = 100 * time.Millisecond // nothing to send, or no next epoch yet
)

// errStopped ends a connection's goroutine quietly.
var errStopped = errors.New("store: HA connection stopped")

// errorf is a replication error.
func errorf(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrReplication}, a...)...)
}

// asConn is one slave's connection.
type asConn struct {
	h    *AutoSwitchHA
	nc   net.Conn
	addr string

	slaveID                        atomic.Int64
	hasID                          atomic.Bool
	asyncLearner, syncFromLastFile atomic.Bool
	state                          atomic.Int32 // haState
	// ack is the slave's last report and request its first (-1 before).
	ack, request atomic.Int64
	// next is the next offset to send (-1 before the start is known).
	next atomic.Int64
	// lastMasterMax and lastTransferMs are the master's commitlog end
	// and the time when data was last sent (for the caught-up rule).
	lastMasterMax, lastTransferMs atomic.Int64

	handshake chan struct{} // a slave handshake waits for its answer
	kick      chan struct{} // any frame from the slave
	done      chan struct{}
	stopOnce  sync.Once
	flow      *flowMeter
}

func newASConn(h *AutoSwitchHA, nc net.Conn) *asConn {
	c := &asConn{h: h, nc: nc, addr: nc.RemoteAddr().String(), handshake: make(chan struct{}, 1),
		kick: make(chan struct{}, 1), done: make(chan struct{}), flow: newFlowMeter()}
	c.state.Store(int32(haHandshake))
	c.ack.Store(-1)
	c.request.Store(-1)
	c.next.Store(-1)
	c.lastMasterMax.Store(-1)
	return c
}

// stop closes the connection; both goroutines end.
func (c *asConn) stop() {
	c.stopOnce.Do(func() {
		close(c.done)
		c.nc.Close()
		c.h.removeConn(c)
		c.h.log.Info("HA slave disconnected", zap.String("slave", c.addr), zap.Int64("slaveID", c.slaveID.Load()))
	})
}

func signal(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// read processes the slave's frames (Java's ReadSocketService).
func (c *asConn) read() {
	defer c.h.wg.Done()
	defer c.stop()
	buf := make([]byte, asSlaveHandshakeLen)
	br := bufio.NewReaderSize(c.nc, 4096)
	for {
		if err := c.readFrame(br, buf); err != nil {
			c.h.log.Info("HA slave read ended", zap.String("slave", c.addr), zap.Error(err))
			return
		}
		signal(c.kick)
	}
}

// readFrame reads and processes one frame, from a buffer over the
// connection.
func (c *asConn) readFrame(br *bufio.Reader, buf []byte) error {
	if err := c.nc.SetReadDeadline(time.Now().Add(c.h.s.opts.HA.HousekeepingInterval)); err != nil {
		return err
	}
	if _, err := io.ReadFull(br, buf[:asSlaveReportLen]); err != nil {
		return err
	}
	switch st := haState(int32(binary.BigEndian.Uint32(buf))); st {
	case haHandshake:
		if _, err := io.ReadFull(br, buf[asSlaveReportLen:asSlaveHandshakeLen]); err != nil {
			return err
		}
		c.onHandshake(decodeSlaveHandshake(buf))
	case haTransfer:
		c.onReport(int64(binary.BigEndian.Uint64(buf[4:])))
	default:
		return errorf("Current state illegal %s", st)
	}
	return nil
}

func (c *asConn) onHandshake(hs slaveHandshake) {
	c.slaveID.Store(hs.SlaveID)
	c.hasID.Store(true)
	if hs.SyncFromLastFile {
		c.syncFromLastFile.Store(true)
	}
	if hs.AsyncLearner {
		c.asyncLearner.Store(true)
	}
	c.state.Store(int32(haHandshake))
	signal(c.handshake)
	c.h.log.Info("Receive slave handshake", zap.String("slave", c.addr), zap.Int64("slaveID", hs.SlaveID),
		zap.Bool("syncFromLastFile", hs.SyncFromLastFile), zap.Bool("asyncLearner", hs.AsyncLearner))
}

func (c *asConn) onReport(offset int64) {
	c.ack.Store(offset)
	c.request.CompareAndSwap(-1, offset)
	c.h.onSlaveAck(c, offset)
	c.state.Store(int32(haTransfer))
}

// write answers handshakes and streams the commitlog (Java's
// WriteSocketService).
func (c *asConn) write() {
	defer c.h.wg.Done()
	defer c.stop()
	w := &asWriter{c: c, lastWrite: time.Now(), header: make([]byte, asMasterTransferLen)}
	w.tx.epoch = -1
	w.timer = time.NewTimer(time.Hour)
	defer w.timer.Stop()
	for {
		var err error
		if haState(c.state.Load()) == haHandshake {
			err = w.handshakeRound()
		} else {
			err = w.transferRound()
		}
		if err != nil {
			if err != errStopped {
				c.h.log.Info("HA transfer ended", zap.String("slave", c.addr), zap.Error(err))
			}
			return
		}
	}
}

// asWriter is the writer goroutine's state.
type asWriter struct {
	c         *asConn
	lastWrite time.Time
	header    []byte
	timer     *time.Timer
	// from is the start computed last, for heartbeats before it is usable.
	from int64
	tx   struct {
		epoch      int32
		epochStart int64
		epochEnd   int64 // -1: the last epoch, unbounded
	}
}

// wait blocks until d passes or anything happens; errStopped when the
// connection is done.
func (w *asWriter) wait(d time.Duration, also <-chan struct{}) error {
	w.timer.Reset(d)
	defer w.timer.Stop()
	select {
	case <-w.c.done:
		return errStopped
	case <-w.c.kick:
	case <-w.c.handshake:
		signal(w.c.handshake) // keep it for handshakeRound
	case <-also:
	case <-w.timer.C:
	}
	return nil
}

// handshakeRound answers a pending slave handshake.
func (w *asWriter) handshakeRound() error {
	select {
	case <-w.c.done:
		return errStopped
	case <-w.c.kick:
		return nil
	case <-w.c.handshake:
	}
	h := w.c.h
	entries := h.epochs.Entries()
	if len(entries) > asMaxEpochEntries {
		return errorf("%d epoch entries do not fit a handshake", len(entries))
	}
	frame := appendMasterHandshake(nil, masterHandshake{MaxOffset: h.s.CommitLogMaxOffset(),
		LastEpoch: h.epochs.LastEpoch(), Entries: entries})
	return w.send(frame, nil)
}

// transferRound sends what is due once.
func (w *asWriter) transferRound() error {
	c := w.c
	if c.request.Load() < 0 {
		return w.wait(asIdleWait, nil)
	}
	if c.next.Load() < 0 && !w.start() {
		if err := w.heartbeatIfDue(); err != nil {
			return err
		}
		return w.wait(asNoStartRetry, nil)
	}
	if err := w.heartbeatIfDue(); err != nil {
		return err
	}
	return w.sendData()
}

// start fixes where the transfer starts and its epoch; false when it
// cannot yet (no commitlog, or no epoch holds the start).
func (w *asWriter) start() bool {
	c, s := w.c, w.c.h.s
	from := c.request.Load()
	if from == 0 {
		switch {
		case !s.CommitLogHasFiles():
			from = -1
		case c.syncFromLastFile.Load():
			end := s.CommitLogMaxOffset()
			from = max(end-end%s.cl.files.fileSize, 0)
		default:
			from = s.CommitLogMinOffset()
		}
	}
	w.from = from
	if from < 0 {
		return false
	}
	e, ok := c.h.epochs.FindEntryByOffset(from)
	if !ok {
		c.h.log.Error("Failed to find an epochEntry to match nextTransferFromWhere", zap.String("slave", c.addr),
			zap.Int64("nextTransferFromWhere", from))
		c.next.Store(-1)
		return false
	}
	w.switchEpoch(e)
	c.next.Store(from)
	c.h.log.Info("HA transfer starts", zap.String("slave", c.addr), zap.Int64("offset", from), zap.Int32("epoch", e.Epoch))
	return true
}

// switchEpoch makes e the epoch being transferred.
func (w *asWriter) switchEpoch(e EpochEntry) {
	w.tx.epoch, w.tx.epochStart, w.tx.epochEnd = e.Epoch, e.StartOffset, e.EndOffset
	if e.Epoch == w.c.h.epochs.LastEpoch() {
		w.tx.epochEnd = -1
	}
}

// heartbeatIfDue sends an empty frame when nothing was written for
// haSendHeartbeatInterval; its epoch is the transfer's, or the first
// one's when that is gone (none at all: no heartbeat).
func (w *asWriter) heartbeatIfDue() error {
	if time.Since(w.lastWrite) <= w.c.h.s.opts.HA.HeartbeatInterval {
		return nil
	}
	e, ok := w.c.h.epochs.Entry(w.tx.epoch)
	if !ok {
		if e, ok = w.c.h.epochs.FirstEntry(); !ok {
			return nil
		}
	}
	next := w.c.next.Load()
	if next < 0 {
		next = w.from
	}
	return w.sendTransfer(next, e.Epoch, e.StartOffset, nil)
}

// sendData sends the next frame of data, or waits for some.
func (w *asWriter) sendData() error {
	c, s := w.c, w.c.h.s
	grew := s.cl.grew.wait()
	next := c.next.Load()
	data, release, ok := s.cl.dataFrom(next)
	if !ok {
		c.h.updateCaughtUp(c.slaveID.Load(), time.Now().UnixMilli())
		return w.wait(min(asIdleWait, s.opts.HA.HeartbeatInterval), grew)
	}
	defer release()
	size := int64(min(len(data), s.opts.HA.TransferBatchSize))
	if w.tx.epochEnd != -1 && next+size > w.tx.epochEnd {
		ne, ok := c.h.epochs.NextEntry(w.tx.epoch)
		if !ok {
			c.h.log.Error("Can't find a bigger epochEntry than epoch", zap.Int32("epoch", w.tx.epoch))
			return w.wait(asIdleWait, nil)
		}
		size = w.tx.epochEnd - next
		w.switchEpoch(ne)
	}
	c.lastMasterMax.Store(s.CommitLogMaxOffset())
	c.lastTransferMs.Store(time.Now().UnixMilli())
	if err := w.sendTransfer(next, w.tx.epoch, w.tx.epochStart, data[:size]); err != nil {
		return err
	}
	c.next.Store(next + size)
	return nil
}

// sendTransfer writes one transfer frame.
func (w *asWriter) sendTransfer(offset int64, epoch int32, epochStart int64, body []byte) error {
	putTransferHeader(w.header, masterHeader{BodySize: int32(len(body)), Offset: offset, Epoch: epoch,
		EpochStart: epochStart, ConfirmOffset: w.c.h.s.ConfirmOffset()})
	return w.send(w.header, body)
}

// send writes a header and a body.
func (w *asWriter) send(header, body []byte) error {
	if err := w.c.nc.SetWriteDeadline(time.Now().Add(w.c.h.s.opts.HA.HousekeepingInterval)); err != nil {
		return err
	}
	n, err := writeParts(w.c.nc, header, body)
	w.c.flow.add(int(n))
	if n > 0 {
		w.lastWrite = time.Now()
	}
	return err
}
