package remoting

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// Errors of calls made over a channel.
var (
	ErrChannelClosed = errors.New("remoting: channel closed")
	ErrCallTimeout   = errors.New("remoting: call timed out")
	// errInProcessFrame would mean a frame was written to an in-process
	// connection, whose commands pass as values (inprocess.go).
	errInProcessFrame = errors.New("remoting: a frame written to an in-process connection")
)

// frameWriter is what a channel writes encoded frames to: a gnet connection
// on the server side, a net.Conn on the client side.
type frameWriter interface {
	writeFrame(frame []byte) error
	writeFrameParts(parts [][]byte, done func()) error
	close() error
}

// Channel is one connection, accepted or dialled. Both ends may send
// requests on it: responses are matched to calls by opaque.
type Channel struct {
	id     uint64
	remote string
	// proxied is the client's address a PROXY protocol header gave
	// (haproxy.go), which RemoteAddr answers instead of remote.
	proxied atomic.Pointer[string]
	local   string
	// w is the connection's writer; a server connection that turns to
	// TLS gets a new one (server_tls.go).
	w      atomic.Pointer[writerBox]
	nextID *atomic.Int32
	calls  pendingCalls
	closed atomic.Bool
	// attrs holds what handlers keep per connection (client ids, groups).
	attrs sync.Map
	// poolShare counts the connection's requests in pools that bound
	// them (pool_share.go).
	poolShare
	// peer, set on the ends of an in-process connection, receives what
	// this end sends, unencoded (inprocess.go).
	peer func(*Command)
	// inProcess marks the ends of an in-process connection.
	inProcess bool
}

func newChannel(id uint64, local, remote string, w frameWriter, nextID *atomic.Int32) *Channel {
	ch := &Channel{id: id, local: local, remote: remote, nextID: nextID,
		calls: pendingCalls{m: make(map[int32]*call)}}
	ch.setWriter(w)
	return ch
}

// writerBox holds a frameWriter for atomic.Pointer.
type writerBox struct{ frameWriter }

// setWriter makes w the channel's writer.
func (ch *Channel) setWriter(w frameWriter) { ch.w.Store(&writerBox{w}) }

// writer is the channel's current writer.
func (ch *Channel) writer() frameWriter { return ch.w.Load().frameWriter }

// ID is unique among the channels of one server or client.
func (ch *Channel) ID() uint64 { return ch.id }

// RemoteAddr is the peer's "host:port".
func (ch *Channel) RemoteAddr() string {
	if p := ch.proxied.Load(); p != nil {
		return *p
	}
	return ch.remote
}

// LocalAddr is this end's "host:port".
func (ch *Channel) LocalAddr() string { return ch.local }

// InProcess tells whether the connection is an in-process one
// (inprocess.go): a proxy of this process on the other end.
func (ch *Channel) InProcess() bool { return ch.inProcess }

// Closed tells whether the connection has gone.
func (ch *Channel) Closed() bool { return ch.closed.Load() }

// Attr returns a value stored with SetAttr.
func (ch *Channel) Attr(key any) (any, bool) { return ch.attrs.Load(key) }

// SetAttr keeps a value with the channel for as long as it lives.
func (ch *Channel) SetAttr(key, value any) { ch.attrs.Store(key, value) }

// Send encodes cmd and writes it without waiting for an answer.
func (ch *Channel) Send(cmd *Command) error {
	if ch.closed.Load() {
		return ErrChannelClosed
	}
	if ch.peer != nil {
		return ch.sendInProcess(cmd)
	}
	frame, err := cmd.AppendFrame(make([]byte, 0, 256+len(cmd.Body)))
	if err != nil {
		return err
	}
	return ch.writer().writeFrame(frame)
}

// SendParts writes a command whose body is given as parts, in order, after
// the header, without copying them; done runs once the parts are no longer
// needed (written or failed).
func (ch *Channel) SendParts(cmd *Command, parts [][]byte, done func()) error {
	if ch.closed.Load() {
		done()
		return ErrChannelClosed
	}
	if ch.peer != nil {
		return ch.sendPartsInProcess(cmd, parts, done)
	}
	size := 0
	for _, p := range parts {
		size += len(p)
	}
	head, err := cmd.AppendHeader(make([]byte, 0, 256), size)
	if err != nil {
		done()
		return err
	}
	return ch.writer().writeFrameParts(append([][]byte{head}, parts...), done)
}

// Close closes the connection.
func (ch *Channel) Close() error { return ch.writer().close() }

// Invoke sends req and waits for its response until ctx ends.
func (ch *Channel) Invoke(ctx context.Context, req *Command) (*Command, error) {
	c := ch.startCall(req)
	if err := ch.Send(req); err != nil {
		ch.calls.take(req.Opaque)
		return nil, err
	}
	select {
	case <-c.done:
		return c.resp, c.err
	case <-ctx.Done():
		ch.calls.take(req.Opaque)
		return nil, fmt.Errorf("%w: code %d to %s: %v", ErrCallTimeout, req.Code, ch.remote, ctx.Err())
	}
}

// InvokeTimeout is Invoke with a timeout instead of a context.
func (ch *Channel) InvokeTimeout(req *Command, timeout time.Duration) (*Command, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return ch.Invoke(ctx, req)
}

// InvokeAsync sends req and calls cb once with the response or an error
// (timeout, closed channel). cb runs on its own goroutine or the reader's.
func (ch *Channel) InvokeAsync(req *Command, timeout time.Duration, cb func(*Command, error)) {
	c := ch.startCall(req)
	c.cb = cb
	c.timer = time.AfterFunc(timeout, func() {
		if ch.calls.take(req.Opaque) != nil {
			cb(nil, fmt.Errorf("%w: code %d to %s after %v", ErrCallTimeout, req.Code, ch.remote, timeout))
		}
	})
	if err := ch.Send(req); err != nil {
		if ch.calls.take(req.Opaque) != nil {
			c.timer.Stop()
			cb(nil, err)
		}
	}
}

// InvokeOneway sends req with the oneway bit; no answer is expected.
func (ch *Channel) InvokeOneway(req *Command) error {
	req.Opaque = ch.nextID.Add(1)
	req.Flag |= FlagOneway
	req.Flag &^= FlagResponse
	return ch.Send(req)
}

// startCall numbers req and registers the call awaiting its response.
func (ch *Channel) startCall(req *Command) *call {
	req.Opaque = ch.nextID.Add(1)
	req.Flag &^= FlagResponse | FlagOneway
	c := &call{done: make(chan struct{})}
	ch.calls.put(req.Opaque, c)
	if ch.closed.Load() {
		ch.calls.failAll(ErrChannelClosed)
	}
	return c
}

// deliverResponse hands a response frame to the call waiting for it. It
// reports false when nobody waits for that opaque (late or unknown).
func (ch *Channel) deliverResponse(resp *Command) bool {
	c := ch.calls.take(resp.Opaque)
	if c == nil {
		return false
	}
	c.finish(resp, nil)
	return true
}

// markClosed fails every call still waiting on the channel.
func (ch *Channel) markClosed() {
	ch.closed.Store(true)
	ch.calls.failAll(fmt.Errorf("%w: %s", ErrChannelClosed, ch.remote))
}

// call is one request awaiting its response.
type call struct {
	done  chan struct{}
	resp  *Command
	err   error
	cb    func(*Command, error)
	timer *time.Timer
}

// finish completes the call once; the caller has taken it from the table.
func (c *call) finish(resp *Command, err error) {
	c.resp, c.err = resp, err
	if c.timer != nil {
		c.timer.Stop()
	}
	close(c.done)
	if c.cb != nil {
		c.cb(resp, err)
	}
}

// pendingCalls maps opaques to calls awaiting a response.
type pendingCalls struct {
	mu sync.Mutex
	m  map[int32]*call
}

func (p *pendingCalls) put(opaque int32, c *call) {
	p.mu.Lock()
	p.m[opaque] = c
	p.mu.Unlock()
}

// take removes and returns the call for opaque, or nil.
func (p *pendingCalls) take(opaque int32) *call {
	p.mu.Lock()
	c := p.m[opaque]
	delete(p.m, opaque)
	p.mu.Unlock()
	return c
}

// failAll completes every waiting call with err.
func (p *pendingCalls) failAll(err error) {
	p.mu.Lock()
	calls := p.m
	p.m = make(map[int32]*call)
	p.mu.Unlock()
	for _, c := range calls {
		c.finish(nil, err)
	}
}
