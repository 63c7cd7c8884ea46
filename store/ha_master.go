package store

// Replication, master side: Java's DefaultHAService / HAConnection (the
// 4.9 protocol, kept by 5.x when enableControllerMode is off). A slave
// connects to haListenPort and reports its commitlog end; the master
// streams its commitlog from there, raw, in frames of at most
// haTransferBatchSize bytes that never cross a file boundary.
//
// Wire format: do not change. Both directions are big-endian.
//
// slave -> master, first the request offset, then after every frame it
// appended and every haSendHeartbeatInterval:
//
//	+----------------------------+
//	| slave commitlog max offset |  int64
//	+----------------------------+
//	              8
//
// master -> slave:
//
//	+-----------+---------+-----------------------------------+
//	| phyOffset |  size   |  size bytes of the commitlog from  |
//	|   int64   |  int32  |  phyOffset, records as stored      |
//	+-----------+---------+-----------------------------------+
//	     8           4        0 .. haTransferBatchSize
//
// A frame of size 0 is a heartbeat, sent when nothing was written for
// haSendHeartbeatInterval; its phyOffset is where the next data starts.
// A request offset of 0 starts the transfer at the beginning of the
// master's last commitlog file. A later offset beyond the master's end
// closes the connection; so does silence for haHousekeepingInterval.

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
)

const (
	haOffsetLen = 8     // a slave's report: its commitlog max offset
	haHeaderLen = 8 + 4 // a master frame's phyOffset and size
)

// HAMaster serves the slaves of this store on the HA port: one reader and
// one writer goroutine per slave, the writer sending straight from the
// mapped commitlog files.
type HAMaster struct {
	s    *Store
	addr string
	log  *zap.Logger

	ln     net.Listener
	mu     sync.Mutex
	conns  map[*haConn]struct{} // guarded by mu
	closed bool                 // guarded by mu
	wg     sync.WaitGroup

	// acked is the highest offset any slave has acknowledged (Java's
	// push2SlaveMaxOffset); the puts waiting for it are woken as it grows.
	acked   atomic.Int64
	waiters ackWaiters
}

// NewHAMaster returns the HA master of s, to listen on addr
// ("host:port"; port 0 picks one, see Addr) once started.
func NewHAMaster(s *Store, addr string) *HAMaster {
	m := &HAMaster{s: s, addr: addr, log: s.log.Named("ha"), conns: make(map[*haConn]struct{})}
	s.haMaster.Store(m)
	return m
}

// Start listens and accepts slaves until Close.
func (m *HAMaster) Start() error {
	ln, err := net.Listen("tcp", m.addr)
	if err != nil {
		return err
	}
	m.ln = ln
	m.wg.Add(1)
	go m.accept()
	m.log.Info("HA master listening", zap.String("addr", ln.Addr().String()))
	return nil
}

// Addr is the bound address, once started.
func (m *HAMaster) Addr() string { return m.ln.Addr().String() }

// Close stops listening, drops every slave and waits for their
// goroutines.
func (m *HAMaster) Close() error {
	var err error
	if m.ln != nil {
		err = m.ln.Close()
	}
	m.mu.Lock()
	m.closed = true
	conns := make([]*haConn, 0, len(m.conns))
	for c := range m.conns {
		conns = append(conns, c)
	}
	m.mu.Unlock()
	for _, c := range conns {
		c.stop()
	}
	m.wg.Wait()
	return err
}

func (m *HAMaster) accept() {
	defer m.wg.Done()
	for {
		nc, err := m.ln.Accept()
		if err != nil {
			if !errors.Is(err, net.ErrClosed) {
				m.log.Warn("HA accept failed", zap.Error(err))
			}
			return
		}
		nc = blockingIfTCP(nc)
		c := &haConn{m: m, nc: nc, request: make(chan int64, 1), done: make(chan struct{}), flow: newFlowMeter()}
		c.acked.Store(-1)
		c.from.Store(-1)
		m.mu.Lock()
		if m.closed {
			m.mu.Unlock()
			nc.Close()
			return
		}
		m.conns[c] = struct{}{}
		m.mu.Unlock()
		m.log.Info("HA slave connected", zap.String("slave", nc.RemoteAddr().String()))
		m.wg.Add(2)
		go c.readAcks()
		go c.transfer()
	}
}

// Slaves is how many slaves are connected (Java's connectionCount).
func (m *HAMaster) Slaves() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.conns)
}

// AckedOffset is the highest commitlog offset a slave has acknowledged.
func (m *HAMaster) AckedOffset() int64 { return m.acked.Load() }

// SlaveOK reports whether a slave is connected and at most
// haSlaveFallbehindMax bytes behind putEnd (Java's isSlaveOK).
func (m *HAMaster) SlaveOK(putEnd int64) bool {
	return m.Slaves() > 0 && putEnd-m.acked.Load() < m.s.opts.HA.SlaveFallbehindMax
}

// noSlaveAck is the reason of a SYNC_MASTER put's SLAVE_NOT_AVAILABLE and
// FLUSH_SLAVE_TIMEOUT.
const noSlaveAck = "no slave acknowledged the message"

// classicReplicaWait is Java's handleHA for a SYNC_MASTER put that ends at
// end: SLAVE_NOT_AVAILABLE (and no wait) without a slave close enough,
// else a wait for a slave's ack of end, FLUSH_SLAVE_TIMEOUT after
// syncFlushTimeout.
func (s *Store) classicReplicaWait(end int64) (replicaWait, PutStatus) {
	m := s.haMaster.Load()
	if m == nil || !m.SlaveOK(end) {
		return replicaWait{reason: noSlaveAck}, PutSlaveNotAvailable
	}
	return replicaWait{waiters: &m.waiters, end: end, timeout: s.opts.SyncFlushTimeout, reason: noSlaveAck}, PutOK
}

// noteAck raises the acknowledged offset to off.
func (m *HAMaster) noteAck(off int64) {
	for {
		cur := m.acked.Load()
		if off <= cur {
			return
		}
		if m.acked.CompareAndSwap(cur, off) {
			m.waiters.raise(off)
			return
		}
	}
}

func (m *HAMaster) remove(c *haConn) {
	m.mu.Lock()
	_, ok := m.conns[c]
	delete(m.conns, c)
	m.mu.Unlock()
	if ok {
		m.log.Info("HA slave disconnected", zap.String("slave", c.nc.RemoteAddr().String()))
	}
}

// haConn is one slave's connection (Java's HAConnection).
type haConn struct {
	m  *HAMaster
	nc net.Conn
	// request carries the slave's first offset to the writer.
	request chan int64
	// acked is the slave's last report and from the next offset to send
	// (Java's slaveAckOffset and transferFromWhere), -1 before the first.
	acked, from atomic.Int64
	done        chan struct{}
	stopOnce    sync.Once
	// flow counts the bytes sent (Java's FlowMonitor).
	flow *flowMeter
}

// stop closes the connection and ends both goroutines.
func (c *haConn) stop() {
	c.stopOnce.Do(func() {
		close(c.done)
		c.nc.Close()
		c.m.remove(c)
	})
}

// readAcks reads the slave's offsets (Java's ReadSocketService).
func (c *haConn) readAcks() {
	defer c.m.wg.Done()
	defer c.stop()
	o := &c.m.s.opts.HA
	buf := make([]byte, haOffsetLen)
	br := bufio.NewReaderSize(c.nc, 4096)
	for first := true; ; first = false {
		if err := c.nc.SetReadDeadline(time.Now().Add(o.HousekeepingInterval)); err != nil {
			return
		}
		if _, err := io.ReadFull(br, buf); err != nil {
			c.m.log.Info("HA slave read ended", zap.String("slave", c.nc.RemoteAddr().String()), zap.Error(err))
			return
		}
		off := int64(binary.BigEndian.Uint64(buf))
		c.acked.Store(off)
		if first {
			c.request <- off
		} else if end := c.m.s.CommitLogMaxOffset(); off > end {
			c.m.log.Warn("slave request offset greater than local commitLog offset", zap.String("slave", c.nc.RemoteAddr().String()),
				zap.Int64("slaveOffset", off), zap.Int64("commitLogMaxOffset", end))
			return
		}
		if br.Buffered() >= haOffsetLen {
			continue // a later report is in already
		}
		c.m.noteAck(off)
	}
}

// transfer streams the commitlog to the slave from its request offset
// (Java's WriteSocketService).
func (c *haConn) transfer() {
	defer c.m.wg.Done()
	defer c.stop()
	var next int64
	select {
	case next = <-c.request:
	case <-c.done:
		return
	}
	if next == 0 {
		end := c.m.s.CommitLogMaxOffset()
		next = end - end%c.m.s.cl.files.fileSize
	}
	c.from.Store(next)
	c.m.log.Info("HA transfer starts", zap.String("slave", c.nc.RemoteAddr().String()), zap.Int64("offset", next))
	if err := c.sendFrom(next); err != nil {
		c.m.log.Info("HA transfer ended", zap.String("slave", c.nc.RemoteAddr().String()), zap.Error(err))
	}
}

// sendFrom sends data frames as the commitlog grows and heartbeats when
// idle, until the connection ends.
func (c *haConn) sendFrom(next int64) error {
	o := &c.m.s.opts.HA
	header := make([]byte, haHeaderLen)
	lastWrite := time.Now()
	idle := time.NewTimer(o.HeartbeatInterval)
	defer idle.Stop()
	for {
		grew := c.m.s.cl.grew.wait()
		data, release, ok := c.m.s.cl.dataFrom(next)
		if ok {
			data = data[:min(len(data), o.TransferBatchSize)]
			err := c.send(header, next, data)
			release()
			if err != nil {
				return err
			}
			next += int64(len(data))
			c.from.Store(next)
			lastWrite = time.Now()
			continue
		}
		wait := o.HeartbeatInterval - time.Since(lastWrite)
		if wait <= 0 {
			if err := c.send(header, next, nil); err != nil {
				return err
			}
			lastWrite = time.Now()
			continue
		}
		idle.Reset(wait)
		select {
		case <-c.done:
			return nil
		case <-grew:
		case <-idle.C:
		}
	}
}

// send writes one frame: the header and data (nil for a heartbeat).
func (c *haConn) send(header []byte, offset int64, data []byte) error {
	binary.BigEndian.PutUint64(header, uint64(offset))
	binary.BigEndian.PutUint32(header[8:], uint32(len(data)))
	if err := c.nc.SetWriteDeadline(time.Now().Add(c.m.s.opts.HA.HousekeepingInterval)); err != nil {
		return err
	}
	n, err := writeParts(c.nc, header, data)
	c.flow.add(int(n))
	return err
}
