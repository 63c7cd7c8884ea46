package store

// A replication connection read and written with blocking system calls
// instead of through Go's network poller. A HA connection carries one
// stream each way, each served by one goroutine that does nothing else;
// a blocking read() is woken by the kernel itself when a frame or an ack
// arrives, where a poller-driven read parks the goroutine and the poller
// wakes it on whichever thread and P are free, a hand-over that costs
// the ack's round trip a few wake-ups on a busy two-core host. (Java's
// HAConnection gives each direction a thread and a selector of its own.)
//
// Deadlines become SO_RCVTIMEO and SO_SNDTIMEO: the time a single read or
// write may block, which is what the HA code's per-call deadlines (the
// housekeeping interval from now) say. They are set again only when the
// interval asked for changes by more than an eighth. Close shuts the
// socket down first, which wakes a read or write blocked in the kernel.
//
// Measured on the SYNC_MASTER pair (two alternating runs each, blocking
// against poller-driven): 1 sender 5,987 and 5,990 sends a second against
// 5,754 and 5,721; 16 senders 32,628 and 32,479 against 31,796 and 28,960;
// master and slave CPU a message 2-12 % lower.

import (
	"errors"
	"io"
	"net"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// blockingConn is a TCP connection in blocking mode.
type blockingConn struct {
	*net.TCPConn
	rc syscall.RawConn
	// readTimeout and writeTimeout are the socket's SO_RCVTIMEO and
	// SO_SNDTIMEO (0: none); each is set by one goroutine at a time (a
	// direction's own, or the slave's reporters under their lock).
	readTimeout, writeTimeout time.Duration
}

// blockingIfTCP is nc in blocking mode when it is a TCP connection that
// can be turned; nc as it is otherwise.
func blockingIfTCP(nc net.Conn) net.Conn {
	if bc, err := newBlockingConn(nc); err == nil {
		return bc
	}
	return nc
}

// writeParts writes a frame's header and body: in one writev on a
// blocking connection (net.Buffers would write them one by one there).
func writeParts(nc net.Conn, header, body []byte) (int64, error) {
	if bc, ok := nc.(*blockingConn); ok {
		return bc.Writev([][]byte{header, body})
	}
	bufs := net.Buffers{header, body}
	return bufs.WriteTo(nc)
}

// newBlockingConn turns nc to blocking mode; nc is not to be read or
// written but through the result.
func newBlockingConn(nc net.Conn) (*blockingConn, error) {
	tc, ok := nc.(*net.TCPConn)
	if !ok {
		return nil, errors.New("store: not a TCP connection")
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return nil, err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = unix.SetNonblock(int(fd), false) }); err != nil {
		return nil, err
	}
	if serr != nil {
		return nil, serr
	}
	return &blockingConn{TCPConn: tc, rc: rc}, nil
}

func (b *blockingConn) Read(p []byte) (int, error) {
	var n int
	var err error
	cerr := b.rc.Control(func(fd uintptr) {
		for {
			n, err = unix.Read(int(fd), p)
			if err != unix.EINTR {
				return
			}
		}
	})
	switch {
	case cerr != nil:
		return 0, cerr
	case err == unix.EAGAIN:
		return 0, os.ErrDeadlineExceeded
	case err != nil:
		return 0, &net.OpError{Op: "read", Net: "tcp", Err: err}
	case n == 0 && len(p) > 0:
		return 0, io.EOF
	}
	return n, nil
}

func (b *blockingConn) Write(p []byte) (int, error) {
	n, err := b.Writev([][]byte{p})
	return int(n), err
}

// Writev writes every byte of bufs, in as few writev calls as it takes.
func (b *blockingConn) Writev(bufs [][]byte) (int64, error) {
	var total int64
	var err error
	cerr := b.rc.Control(func(fd uintptr) {
		for len(bufs) > 0 {
			var n int
			n, err = unix.Writev(int(fd), bufs)
			if err == unix.EINTR {
				err = nil
				continue
			}
			if err != nil {
				return
			}
			total += int64(n)
			for len(bufs) > 0 && n >= len(bufs[0]) { // written whole, or empty
				n -= len(bufs[0])
				bufs = bufs[1:]
			}
			if len(bufs) > 0 {
				bufs[0] = bufs[0][n:]
			}
		}
	})
	switch {
	case cerr != nil:
		return total, cerr
	case err == unix.EAGAIN:
		return total, os.ErrDeadlineExceeded
	case err != nil:
		return total, &net.OpError{Op: "write", Net: "tcp", Err: err}
	}
	return total, nil
}

func (b *blockingConn) SetReadDeadline(t time.Time) error {
	return b.setTimeout(unix.SO_RCVTIMEO, &b.readTimeout, t)
}

func (b *blockingConn) SetWriteDeadline(t time.Time) error {
	return b.setTimeout(unix.SO_SNDTIMEO, &b.writeTimeout, t)
}

func (b *blockingConn) SetDeadline(t time.Time) error {
	return errors.Join(b.SetReadDeadline(t), b.SetWriteDeadline(t))
}

// setTimeout sets opt to the time until t (none for a zero t) unless it
// is within an eighth of that already.
func (b *blockingConn) setTimeout(opt int, cur *time.Duration, t time.Time) error {
	d := time.Duration(0)
	if !t.IsZero() {
		d = max(time.Until(t), time.Millisecond)
	}
	if diff := d - *cur; (d == 0) == (*cur == 0) && max(diff, -diff) <= *cur/8 {
		return nil
	}
	tv := unix.NsecToTimeval(d.Nanoseconds())
	var serr error
	if err := b.rc.Control(func(fd uintptr) { serr = unix.SetsockoptTimeval(int(fd), unix.SOL_SOCKET, opt, &tv) }); err != nil {
		return err
	}
	if serr == nil {
		*cur = d
	}
	return serr
}

// Close wakes a read or write blocked in the kernel (shutdown), then
// closes.
func (b *blockingConn) Close() error {
	_ = b.rc.Control(func(fd uintptr) { _ = unix.Shutdown(int(fd), unix.SHUT_RDWR) })
	return b.TCPConn.Close()
}
