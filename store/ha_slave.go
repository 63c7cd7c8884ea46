package store

// Replication, slave side: Java's HAClient. Connect to the master's HA
// address, report the commitlog end (at once, after every frame appended
// and every haSendHeartbeatInterval), append every frame's bytes at the
// end; the dispatcher builds the consume queues and the index from them.
// A frame that does not start at the end is an error (Java: "master pushed
// offset not equal the max phy offset in slave"): the connection is dropped
// and made again. The frame format is drawn in ha_master.go.

import (
	"bufio"
	"context"
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

// haRetry is how long the slave waits before connecting again after a
// failed or dropped connection (Java waits 5 s after a failed connect).
const haRetry = 5 * time.Second

// HAClient replicates a master's commitlog into this store: one goroutine
// that keeps a connection to the master's HA address.
type HAClient struct {
	s   *Store
	log *zap.Logger

	mu     sync.Mutex
	master string
	// wake is signalled when the master address changes.
	wake chan struct{}

	connected atomic.Bool
	// lastRead and lastWrite are when a frame last came and an offset
	// report last went (Unix ms; Java's lastReadTimestamp and
	// lastWriteTimestamp, the start time before any).
	lastRead, lastWrite atomic.Int64
	// flow counts the bytes received (Java's FlowMonitor).
	flow   *flowMeter
	cancel context.CancelFunc
	done   chan struct{}
}

// NewHAClient returns the slave side of s, replicating from master (an HA
// "host:port"; empty until SetMasterAddress) once started.
func NewHAClient(s *Store, master string) *HAClient {
	c := &HAClient{s: s, log: s.log.Named("ha"), master: master, wake: make(chan struct{}, 1), done: make(chan struct{})}
	now := time.Now().UnixMilli()
	c.lastRead.Store(now)
	c.lastWrite.Store(now)
	c.flow = newFlowMeter()
	return c
}

// SetMasterAddress sets the master's HA address (the name server tells a
// slave its master's); a change takes effect at the next connection.
func (c *HAClient) SetMasterAddress(addr string) {
	c.mu.Lock()
	old := c.master
	c.master = addr
	c.mu.Unlock()
	if old != addr {
		c.log.Info("update master address", zap.String("old", old), zap.String("new", addr))
		select {
		case c.wake <- struct{}{}:
		default:
		}
	}
}

// MasterAddress is the master's HA address as last set.
func (c *HAClient) MasterAddress() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.master
}

// Connected reports whether the client holds a connection to the master.
func (c *HAClient) Connected() bool { return c.connected.Load() }

// Start runs the client until Close.
func (c *HAClient) Start() {
	ctx, cancel := context.WithCancel(context.Background())
	c.cancel = cancel
	go func() {
		defer close(c.done)
		c.run(ctx)
	}()
}

// Close drops the connection and waits for the goroutine.
func (c *HAClient) Close() {
	if c.cancel != nil {
		c.cancel()
		<-c.done
	}
}

// run connects, replicates until the connection ends, and again.
func (c *HAClient) run(ctx context.Context) {
	for ctx.Err() == nil {
		addr := c.MasterAddress()
		if addr != "" {
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

// replicate runs one connection.
func (c *HAClient) replicate(ctx context.Context, addr string) error {
	nc, hangUp, err := dialHAMaster(ctx, addr)
	if err != nil {
		return err
	}
	defer hangUp()
	c.log.Info("HA connected to master", zap.String("master", addr))
	c.connected.Store(true)
	defer c.connected.Store(false)
	r := &haReporter{nc: nc, timeout: c.s.opts.HA.HousekeepingInterval, wrote: &c.lastWrite}
	if err := r.report(c.s.CommitLogMaxOffset()); err != nil {
		return err
	}
	return withHeartbeats(func(done <-chan struct{}) { c.heartbeats(r, done) }, func() error { return c.receive(nc, r) })
}

// dialHAMaster connects a slave to its master's HA port; the connection
// closes when ctx ends, and hangUp closes it and forgets ctx.
func dialHAMaster(ctx context.Context, addr string) (nc net.Conn, hangUp func(), err error) {
	d := net.Dialer{Timeout: 3 * time.Second}
	if nc, err = d.DialContext(ctx, "tcp", addr); err != nil {
		return nil, nil, err
	}
	nc = blockingIfTCP(nc)
	stop := context.AfterFunc(ctx, func() { nc.Close() })
	return nc, func() { stop(); nc.Close() }, nil
}

// withHeartbeats runs receive while beat sends the slave's periodic
// reports, and waits for beat to end once receive has.
func withHeartbeats(beat func(done <-chan struct{}), receive func() error) error {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		beat(done)
	}()
	defer wg.Wait()
	defer close(done)
	return receive()
}

// heartbeats reports the commitlog end every haSendHeartbeatInterval;
// a failed write closes the connection, which ends receive.
func (c *HAClient) heartbeats(r *haReporter, done <-chan struct{}) {
	tick := time.NewTicker(c.s.opts.HA.HeartbeatInterval)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
			if err := r.report(c.s.CommitLogMaxOffset()); err != nil {
				r.nc.Close()
				return
			}
		}
	}
}

// receive appends the master's frames and reports the new end once the
// frames already received are appended: the connection is read through a
// buffer, so a burst of frames costs a few reads and one report, as Java's
// slave reads its socket into a 4 MiB buffer and reports after handling
// every whole frame in it.
func (c *HAClient) receive(nc net.Conn, r *haReporter) error {
	o := &c.s.opts.HA
	br := bufio.NewReaderSize(nc, haReadBuffer)
	header := make([]byte, haHeaderLen)
	var spare []byte
	appended := false
	for {
		if appended && br.Buffered() < haHeaderLen {
			// reported (or only heartbeats in since): now the dispatcher
			c.s.cl.signalAppended()
			appended = false
		}
		if err := nc.SetReadDeadline(time.Now().Add(o.HousekeepingInterval)); err != nil {
			return err
		}
		if _, err := io.ReadFull(br, header); err != nil {
			return err
		}
		c.lastRead.Store(time.Now().UnixMilli())
		c.flow.add(haHeaderLen)
		offset := int64(binary.BigEndian.Uint64(header))
		size := int64(int32(binary.BigEndian.Uint32(header[8:])))
		if end := c.s.CommitLogMaxOffset(); end != 0 && end != offset {
			return mismatch(end, offset)
		}
		if size < 0 || size > c.s.cl.files.fileSize {
			return fmt.Errorf("%w: frame of %d bytes at %d", ErrReplication, size, offset)
		}
		if size == 0 {
			continue
		}
		body, err := readBody(br, int(size), &spare)
		if err != nil {
			return err
		}
		c.flow.add(len(body))
		err = c.s.cl.appendRaw(offset, body)
		if derr := discardPeeked(br, body); err == nil {
			err = derr
		}
		if err != nil {
			return err
		}
		appended = true
		if br.Buffered() >= haHeaderLen {
			continue // another frame is in: report after it
		}
		if err := r.report(c.s.CommitLogMaxOffset()); err != nil {
			return err
		}
	}
}

// haReadBuffer is the slave's read buffer: several transfer batches.
const haReadBuffer = 256 << 10

// readBody returns the next n bytes of br: in br's own buffer when they
// fit (Peek: appended to the commitlog from there, one copy less; the
// caller then calls discardPeeked), else read into *spare, grown to n.
func readBody(br *bufio.Reader, n int, spare *[]byte) ([]byte, error) {
	if n <= br.Size() {
		return br.Peek(n)
	}
	*spare = growTo(*spare, n)
	_, err := io.ReadFull(br, *spare)
	return *spare, err
}

// discardPeeked drops body from br when readBody peeked it.
func discardPeeked(br *bufio.Reader, body []byte) error {
	if len(body) <= br.Size() {
		_, err := br.Discard(len(body))
		return err
	}
	return nil
}

// growTo returns b resized to n bytes, reallocated only when too small.
func growTo(b []byte, n int) []byte {
	if cap(b) < n {
		return make([]byte, n)
	}
	return b[:n]
}

// haReporter writes the slave's offset reports; the receiver and the
// heartbeat both use it.
type haReporter struct {
	nc      net.Conn
	timeout time.Duration
	// wrote is stamped with the time of each report sent (Unix ms).
	wrote *atomic.Int64
	mu    sync.Mutex
	buf   [haOffsetLen]byte
}

// report sends offset to the master.
func (r *haReporter) report(offset int64) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	binary.BigEndian.PutUint64(r.buf[:], uint64(offset))
	if err := r.nc.SetWriteDeadline(time.Now().Add(r.timeout)); err != nil {
		return err
	}
	_, err := r.nc.Write(r.buf[:])
	if err == nil {
		r.wrote.Store(time.Now().UnixMilli())
	}
	if errors.Is(err, net.ErrClosed) {
		return fmt.Errorf("store: HA report: %w", err)
	}
	return err
}
