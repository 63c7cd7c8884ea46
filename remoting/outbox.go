package remoting

import (
	"sync"

	"github.com/panjf2000/gnet/v2"
)

// maxIovecs is how many buffers one writev takes (Linux's IOV_MAX); a
// longer list gets EINVAL.
const maxIovecs = 1024

// outbox is a server connection's writer. Handlers run on pool goroutines
// and queue their frames here; the connection's event loop writes
// everything queued with as few writev calls as it takes, when it is woken
// for it or reads from the connection. Under load, the replies to many
// requests of one connection leave in one system call instead of one each.
type outbox struct {
	c gnet.Conn

	mu     sync.Mutex
	frames [][]byte
	dones  []func()
	// woken is set while a wake-up for the queued frames is pending.
	woken  bool
	closed bool

	// spare is the frame list the event loop wrote last, kept for reuse;
	// only flush touches it.
	spare [][]byte
}

func newOutbox(c gnet.Conn) *outbox { return &outbox{c: c} }

func (o *outbox) writeFrame(frame []byte) error { return o.queue(nil, frame) }

func (o *outbox) writeFrameParts(parts [][]byte, done func()) error {
	return o.queue(done, parts...)
}

func (o *outbox) close() error { return o.c.Close() }

// queue adds frames (done, when set, runs once they are written or
// dropped) and wakes the event loop unless a wake-up is already pending.
func (o *outbox) queue(done func(), frames ...[]byte) error {
	o.mu.Lock()
	if o.closed {
		o.mu.Unlock()
		if done != nil {
			done()
		}
		return ErrChannelClosed
	}
	o.frames = append(o.frames, frames...)
	if done != nil {
		o.dones = append(o.dones, done)
	}
	wake := !o.woken
	o.woken = true
	o.mu.Unlock()
	if !wake {
		return nil
	}
	if err := o.c.Wake(nil); err != nil {
		o.drop()
		return err
	}
	return nil
}

// flush writes everything queued and tells whether there was anything; it
// runs on the connection's event loop. gnet keeps what the socket does not
// take at once in its own buffer, so the frames are no longer needed when
// Writev returns.
func (o *outbox) flush() bool {
	o.mu.Lock()
	frames, dones := o.frames, o.dones
	o.frames, o.dones, o.woken = o.spare[:0], nil, false
	o.mu.Unlock()
	o.write(frames)
	clear(frames)
	o.spare = frames
	for _, done := range dones {
		done()
	}
	return len(frames) > 0
}

// flushSparingly is flush while the bound on all unsent bytes is exceeded
// (outbound_total.go): it hands the queued frames to gnet about chunk
// bytes at a time, and only while gnet holds none of the connection's
// bytes, so that gnet copies at most one chunk that the socket does not
// take; the rest stays queued, where a pull's frames still point into the
// mapped commitlog. The dones run once nothing is left. It tells whether
// it wrote anything and whether frames are left (event loop only).
func (o *outbox) flushSparingly(chunk int) (wrote, left bool) {
	for o.c.OutboundBuffered() == 0 {
		frames, dones, rest := o.takeChunk(chunk)
		o.write(frames)
		clear(frames)
		for _, done := range dones {
			done()
		}
		wrote = wrote || len(frames) > 0
		if left = rest; !left {
			return wrote, false
		}
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return wrote, len(o.frames) > 0
}

// takeChunk takes the queued frames up to about chunk bytes (one at
// least), and the dones once nothing is left; left tells whether frames
// remain.
func (o *outbox) takeChunk(chunk int) (frames [][]byte, dones []func(), left bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.woken = false
	n := 0
	for size := 0; n < len(o.frames) && (n == 0 || size+len(o.frames[n]) <= chunk); n++ {
		size += len(o.frames[n])
	}
	frames, o.frames = o.frames[:n:n], o.frames[n:]
	if len(o.frames) == 0 {
		dones, o.dones = o.dones, nil
	}
	return frames, dones, len(o.frames) > 0
}

// write hands frames to gnet in as few writev calls as IOV_MAX allows.
func (o *outbox) write(frames [][]byte) {
	for rest := frames; len(rest) > 0; {
		n := min(len(rest), maxIovecs)
		if _, err := o.c.Writev(rest[:n]); err != nil {
			return // gnet closes the connection; OnClose drops the rest
		}
		rest = rest[n:]
	}
}

// drop discards what is queued, for a connection that has gone, and
// refuses what comes later.
func (o *outbox) drop() {
	o.mu.Lock()
	dones := o.dones
	o.frames, o.dones, o.closed = nil, nil, true
	o.mu.Unlock()
	for _, done := range dones {
		done()
	}
}
