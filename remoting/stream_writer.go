package remoting

import (
	"bufio"
	"io"
	"net"
	"sync"
	"sync/atomic"

	"go.uber.org/zap"
)

// streamWriterBuffer is the size of the buffer that gathers small frames
// into one write (one TLS record, up to 16 KiB each, instead of one per
// frame); larger parts are written straight through.
const streamWriterBuffer = 64 << 10

// streamWriter is the writer of a server connection served outside gnet
// (TLS, see server_tls.go): handlers queue frames and return at once, and
// one goroutine per connection writes them, so that a slow client stalls
// its own writer and never a handler pool. Queued bytes not yet written
// count against MaxOutbound as gnet's outbound buffer does: over it, the
// connection is closed. They count in the server's sum of unsent bytes
// too (total, MaxOutboundTotal), from when they are queued until they are
// written or dropped; the connection's reader holds itself back over that
// bound (Server.holdTLSReader).
type streamWriter struct {
	conn    io.Writer // the TLS conn
	raw     net.Conn  // the socket, closed to break a write or the connection
	max     int
	log     *zap.Logger
	remote  string
	onWrite func()
	total   *atomic.Int64 // the server's sum of unsent bytes, nil when unbounded

	// drained is signalled after each write; stopped is closed when run
	// returns.
	drained chan struct{}
	stopped chan struct{}

	mu     sync.Mutex
	frames [][]byte
	dones  []func()
	queued int
	closed bool
	wake   chan struct{}
	done   chan struct{}
}

func newStreamWriter(conn io.Writer, raw net.Conn, max int, total *atomic.Int64, log *zap.Logger, onWrite func()) *streamWriter {
	return &streamWriter{conn: conn, raw: raw, max: max, total: total, log: log, onWrite: onWrite,
		wake: make(chan struct{}, 1), done: make(chan struct{}),
		drained: make(chan struct{}, 1), stopped: make(chan struct{})}
}

func (w *streamWriter) writeFrame(frame []byte) error { return w.queue(nil, frame) }

func (w *streamWriter) writeFrameParts(parts [][]byte, done func()) error {
	return w.queue(done, parts...)
}

// close closes the socket: the reader sees it and tears the connection
// down.
func (w *streamWriter) close() error { return w.raw.Close() }

// queue adds frames for the writer goroutine; done, when set, runs once
// they are written or dropped.
func (w *streamWriter) queue(done func(), frames ...[]byte) error {
	n := 0
	for _, f := range frames {
		n += len(f)
	}
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		if done != nil {
			done()
		}
		return ErrChannelClosed
	}
	w.frames = append(w.frames, frames...)
	if done != nil {
		w.dones = append(w.dones, done)
	}
	w.queued += n
	w.count(n)
	over := w.max >= 0 && w.queued > w.max
	queued := w.queued
	w.mu.Unlock()
	if over {
		w.log.Warn("closing a connection that does not read its responses", zap.String("remote", w.remote),
			zap.Int("unsentBytes", queued), zap.Int("maxOutbound", w.max))
		_ = w.raw.Close()
		return nil
	}
	select {
	case w.wake <- struct{}{}:
	default:
	}
	return nil
}

// run writes what is queued until the connection is dropped or a write
// fails (then it closes the socket).
func (w *streamWriter) run() {
	defer close(w.stopped)
	bw := bufio.NewWriterSize(w.conn, streamWriterBuffer)
	for {
		select {
		case <-w.wake:
		case <-w.done:
			return
		}
		frames, dones, n := w.take()
		err := writeFrames(bw, frames)
		w.mu.Lock()
		w.queued -= n
		w.count(-n)
		w.mu.Unlock()
		select {
		case w.drained <- struct{}{}:
		default: // a signal is pending already
		}
		for _, done := range dones {
			done()
		}
		if err != nil {
			_ = w.raw.Close()
			return
		}
		w.onWrite()
	}
}

// take empties the queue.
func (w *streamWriter) take() (frames [][]byte, dones []func(), n int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	frames, dones = w.frames, w.dones
	w.frames, w.dones = nil, nil
	for _, f := range frames {
		n += len(f)
	}
	return frames, dones, n
}

// writeFrames writes frames through bw and flushes it.
func writeFrames(bw *bufio.Writer, frames [][]byte) error {
	for _, f := range frames {
		if _, err := bw.Write(f); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// drop discards what is queued, refuses what comes later and stops the
// writer goroutine; it runs once, when the connection has gone.
func (w *streamWriter) drop() {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return
	}
	dones := w.dones
	left := 0
	for _, f := range w.frames {
		left += len(f)
	}
	w.queued -= left
	w.count(-left)
	w.frames, w.dones, w.closed = nil, nil, true
	w.mu.Unlock()
	close(w.done)
	for _, done := range dones {
		done()
	}
}

// count adds n queued (or, negative, written or dropped) bytes to the
// server's sum (under mu).
func (w *streamWriter) count(n int) {
	if w.total != nil {
		w.total.Add(int64(n))
	}
}

// pending is what the connection owes: bytes queued and not yet written.
func (w *streamWriter) pending() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.queued
}
