package remoting

import (
	"net"
	"sync"
	"time"
)

// connWriter writes a dialled connection's frames. Callers on many
// goroutines share one connection (a producer's senders, a proxy's
// calls to its broker): the first caller to find no write under way
// writes, and goes on writing, in one writev each time, what the others
// queued meanwhile, until nothing is left; the others return at once.
// Under load many frames leave in one system call instead of one each
// (a Java client's Netty channel coalesces its flushes the same way),
// with no goroutine of its own and no wait for a batch to fill.
//
// A frame another caller wrote for you reports no write error: a failed
// write closes the connection, and every call waiting on it fails with
// ErrChannelClosed from the reader.
type connWriter struct {
	conn    net.Conn
	timeout time.Duration

	mu      sync.Mutex
	pending [][]byte
	dones   []func()
	// writing is set while a caller writes what is pending.
	writing bool
	// failed is the error of the write that broke the connection.
	failed error
	// spare is the list the writer wrote last, kept for reuse.
	spare [][]byte
}

func (w *connWriter) writeFrame(frame []byte) error { return w.queue(nil, frame) }

func (w *connWriter) writeFrameParts(parts [][]byte, done func()) error {
	return w.queue(done, parts...)
}

func (w *connWriter) close() error { return w.conn.Close() }

// queue adds the buffers (done, when set, runs once they are written or
// dropped) and writes unless another caller is writing.
func (w *connWriter) queue(done func(), bufs ...[]byte) error {
	w.mu.Lock()
	if w.failed != nil {
		err := w.failed
		w.mu.Unlock()
		if done != nil {
			done()
		}
		return err
	}
	w.pending = append(w.pending, bufs...)
	if done != nil {
		w.dones = append(w.dones, done)
	}
	if w.writing {
		w.mu.Unlock()
		return nil
	}
	w.writing = true
	dropped, err := w.writePending()
	w.writing = false
	w.mu.Unlock()
	for _, d := range dropped {
		d()
	}
	return err
}

// writePending writes until nothing is pending, with w.mu held on entry
// and on return (released around each write). After a failed write it
// returns the dones of the frames it dropped, to run once w.mu is free.
func (w *connWriter) writePending() ([]func(), error) {
	for len(w.pending) > 0 {
		bufs, dones := w.pending, w.dones
		w.pending, w.dones = w.spare[:0], nil
		w.mu.Unlock()
		_ = w.conn.SetWriteDeadline(time.Now().Add(w.timeout))
		list := net.Buffers(bufs)
		_, err := list.WriteTo(w.conn)
		for _, d := range dones {
			d()
		}
		clear(bufs)
		w.mu.Lock()
		w.spare = bufs[:0]
		if err != nil {
			return w.fail(err), err
		}
	}
	return nil, nil
}

// fail refuses every later frame, drops what is pending (returning its
// dones) and closes the connection: the reader then fails the calls
// waiting on it. w.mu is held.
func (w *connWriter) fail(err error) []func() {
	w.failed = err
	dropped := w.dones
	w.pending, w.dones = nil, nil
	_ = w.conn.Close()
	return dropped
}
