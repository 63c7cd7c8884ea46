package remoting

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/panjf2000/gnet/v2"
	"go.uber.org/zap"
)

// ServerOptions configures a Server.
type ServerOptions struct {
	// Addr is "host:port" to listen on; port 0 picks a free one.
	Addr   string
	Router *Router
	Logger *zap.Logger
	// MaxFrame bounds a frame as Java's frameMaxLength does; 0 means
	// MaxFrameLength.
	MaxFrame int
	// EventLoops is the number of gnet event loops; 0 means
	// DefaultEventLoops.
	EventLoops int
	// IdleTimeout closes a connection that has neither read nor written
	// for this long, as Java's serverChannelMaxIdleTimeSeconds does; 0
	// never closes one (see hygiene.go).
	IdleTimeout time.Duration
	// MaxOutbound bounds the response bytes a connection may leave unread:
	// over it, the connection is closed. 0 means DefaultMaxOutbound; a
	// negative value leaves it unbounded (see hygiene.go).
	MaxOutbound int
	// MaxOutboundTotal bounds the sum over connections of their unsent
	// response bytes: over it, connections that do not read are held (see
	// outbound_total.go). 0 means DefaultMaxOutboundTotal; a negative
	// value leaves the sum unbounded.
	MaxOutboundTotal int
	// OnOpen and OnClose, when set, are told of each connection. A
	// connection that turns out to open a TLS handshake is told closed
	// and opened again as the TLS connection it becomes.
	OnOpen  func(*Channel)
	OnClose func(*Channel)
	// TLSMode is Java's tls.server.mode: what the server does with TLS
	// and plaintext connections (server_tls.go). The zero value,
	// TLSDisabled, serves plaintext only.
	TLSMode TLSMode
	// TLSConfig serves TLS connections in permissive and enforcing
	// modes; nil closes them, as Java does without an SSL context.
	TLSConfig *tls.Config
	// HTTP2, when set, is given the connections that speak HTTP/2 rather
	// than remoting: the proxy's remoting port passes them to its gRPC
	// server (server_http2.go). For TLS ones, TLSConfig must offer ALPN
	// "h2".
	HTTP2 func(net.Conn)
	// Diversions hand the connections that open with another protocol's
	// head, in plaintext or inside TLS, elsewhere: the controller's Raft
	// peers share its port (server_http2.go).
	Diversions []Diversion
}

// Server accepts remoting connections with gnet. The event loop only decodes
// frames and queues them; handlers run on the router's pools.
type Server struct {
	gnet.BuiltinEventEngine
	opts    ServerOptions
	log     *zap.Logger
	eng     gnet.Engine
	addr    net.Addr
	booted  chan error
	stopped chan error
	nextCh  atomic.Uint64
	nextID  atomic.Int32
	conns   atomic.Int64

	// epoch, clock and open serve the idle scan (hygiene.go): clock is
	// the time since epoch as of the last tick; open holds the
	// connections, as *serverConn keys, when IdleTimeout is set.
	epoch time.Time
	clock atomic.Int64
	open  sync.Map

	// tls holds the connections served over crypto/tls.
	tls tlsConns

	// outbound is the account of unsent bytes (outbound_total.go).
	outbound outboundTotal
	// nextIdleScan is the clock reading of the next idle scan (ticker
	// goroutine only).
	nextIdleScan int64
}

// DefaultEventLoops is half the cores, at least one. A loop reads, cuts
// frames and writes replies; the handlers run in the pools, on the other
// cores. Loops beyond that only wait: each waits in epoll_pwait, a system
// call the Go scheduler takes its processor from and hands back, which
// costs context switches on every wake-up (on 2 cores, one loop instead of
// two cut the broker's CPU per message by about 6 %; docs/cpu.md).
func DefaultEventLoops() int {
	return max(1, runtime.NumCPU()/2)
}

// NewServer returns a server that is not yet listening.
func NewServer(opts ServerOptions) *Server {
	if opts.Logger == nil {
		opts.Logger = zap.NewNop()
	}
	if opts.MaxFrame <= 0 {
		opts.MaxFrame = MaxFrameLength
	}
	if opts.Router == nil {
		opts.Router = NewRouter(opts.Logger)
	}
	if opts.EventLoops <= 0 {
		opts.EventLoops = DefaultEventLoops()
	}
	if opts.MaxOutbound == 0 {
		opts.MaxOutbound = DefaultMaxOutbound
	}
	if opts.MaxOutboundTotal == 0 {
		opts.MaxOutboundTotal = DefaultMaxOutboundTotal
	}
	return &Server{opts: opts, log: opts.Logger, booted: make(chan error, 1), stopped: make(chan error, 1),
		epoch: time.Now()}
}

// Start listens and serves in the background; it returns once the listener
// is bound, or with the reason it could not be.
func (s *Server) Start() error {
	s.opts.Router.Start()
	go func() {
		err := gnet.Run(s, "tcp://"+s.opts.Addr,
			gnet.WithMulticore(true),
			gnet.WithNumEventLoop(s.opts.EventLoops),
			gnet.WithReuseAddr(true),
			gnet.WithTCPNoDelay(gnet.TCPNoDelay),
			gnet.WithTicker(s.opts.IdleTimeout > 0 || s.boundsTotal()),
			gnet.WithLogger(s.log.Sugar()))
		select {
		case s.booted <- fmt.Errorf("remoting: listen on %s: %w", s.opts.Addr, errOrClosed(err)):
		default:
		}
		s.stopped <- err
	}()
	return <-s.booted
}

func errOrClosed(err error) error {
	if err == nil {
		return errors.New("server stopped")
	}
	return err
}

// Addr is the bound "host:port".
func (s *Server) Addr() string {
	if s.addr == nil {
		return s.opts.Addr
	}
	return s.addr.String()
}

// Connections is the number of open connections.
func (s *Server) Connections() int { return int(s.conns.Load()) }

// Close stops accepting, closes every connection and stops the pools.
func (s *Server) Close(ctx context.Context) error {
	err := s.eng.Stop(ctx)
	select {
	case <-s.stopped:
	case <-ctx.Done():
	}
	s.tls.closeAll()
	s.opts.Router.Stop()
	return err
}

// OnBoot records the bound address (gnet does not report it: a duplicate of
// the listening socket does).
func (s *Server) OnBoot(eng gnet.Engine) gnet.Action {
	s.eng = eng
	fd, err := eng.Dup()
	if err != nil {
		s.booted <- fmt.Errorf("remoting: dup listener: %w", err)
		return gnet.Shutdown
	}
	f := os.NewFile(uintptr(fd), "listener")
	ln, err := net.FileListener(f)
	_ = f.Close()
	if err != nil {
		s.booted <- fmt.Errorf("remoting: listener address: %w", err)
		return gnet.Shutdown
	}
	s.addr = ln.Addr()
	_ = ln.Close()
	s.booted <- nil
	return gnet.None
}

// serverConn is what a gnet connection carries as its context.
type serverConn struct {
	conn gnet.Conn
	ch   *Channel
	out  *outbox
	// buffered is what the connection's inbound buffer held when
	// OnTraffic last returned: more on the next call means bytes were
	// read (event loop only).
	buffered int
	// sniffed is set once the first bytes were looked at for a TLS
	// handshake (event loop only).
	sniffed bool
	// proxyChecked is set once the first bytes were looked at for a
	// PROXY protocol header (event loop only).
	proxyChecked bool
	// handedOver is set when the connection leaves gnet to be served
	// over TLS: its channel lives on (event loop only).
	handedOver bool
	// share is the connection's part in the bound on all unsent bytes.
	share outboundShare
	activity
}

func (sc *serverConn) remoteAddr() string { return sc.ch.remote }

func (sc *serverConn) closeConn() { _ = sc.conn.Close() }

// OnOpen creates the connection's channel.
func (s *Server) OnOpen(c gnet.Conn) ([]byte, gnet.Action) {
	out := newOutbox(c)
	ch := newChannel(s.nextCh.Add(1), addrString(c.LocalAddr()), addrString(c.RemoteAddr()), out, &s.nextID)
	sc := &serverConn{conn: c, ch: ch, out: out}
	ch.wake = func() { _ = c.Wake(nil) } // a closed connection has nothing to decode
	c.SetContext(sc)
	s.opened(ch, &sc.activity, sc)
	return nil, gnet.None
}

// opened counts a connection, registers it with the idle scan and tells
// the owner.
func (s *Server) opened(ch *Channel, a *activity, c idleConn) {
	s.trackOpen(a, c)
	s.conns.Add(1)
	s.log.Debug("connection opened", zap.String("remote", ch.remote))
	if s.opts.OnOpen != nil {
		s.opts.OnOpen(ch)
	}
}

// OnClose fails the channel's pending calls and tells the owner, unless
// the connection went on as TLS (server_tls.go).
func (s *Server) OnClose(c gnet.Conn, err error) gnet.Action {
	sc, ok := c.Context().(*serverConn)
	if !ok {
		return gnet.None
	}
	sc.out.drop()
	s.forget(sc)
	s.trackClose(sc)
	if !sc.handedOver {
		s.closed(sc.ch, err)
	}
	return gnet.None
}

// closed marks a connection's channel closed, stops counting it and tells
// the owner.
func (s *Server) closed(ch *Channel, err error) {
	ch.markClosed()
	s.conns.Add(-1)
	s.log.Debug("connection closed", zap.String("remote", ch.remote), zap.Error(err))
	if s.opts.OnClose != nil {
		s.opts.OnClose(ch)
	}
}

// OnTraffic writes the frames queued for the connection, then decodes
// every whole frame buffered, or as many as the bound on all unsent bytes
// allows (outbound_total.go), and dispatches them. It also runs when a
// handler or the ticker wakes the connection. A broken stream, or a client
// that leaves more than MaxOutbound bytes of responses unread, closes only
// this connection. A connection's first bytes decide whether it stays here
// or is served over TLS (server_tls.go).
func (s *Server) OnTraffic(c gnet.Conn) gnet.Action {
	sc := c.Context().(*serverConn)
	if !sc.sniffed {
		if action, left := s.sniff(c, sc); left {
			return action
		}
	}
	read := c.InboundBuffered() != sc.buffered
	wrote, queued := s.flush(sc)
	if wrote || read {
		s.touch(&sc.activity)
	}
	if s.overOutbound(sc) {
		return gnet.Close
	}
	allowance, closeIt := s.frameAllowance(sc)
	if closeIt {
		return gnet.Close
	}
	action := s.decode(c, sc.ch, allowance)
	sc.buffered = c.InboundBuffered()
	if s.boundsTotal() {
		s.watch(sc, queued || allowance >= 0 && sc.buffered > 0)
	}
	return action
}

// decode dispatches the whole frames buffered, at most allowance of them
// unless it is negative, and none while the connection's share of a
// bounded pool is full (pool_share.go); it closes the connection on a bad
// frame or an oversize length.
func (s *Server) decode(c gnet.Conn, ch *Channel, allowance int) gnet.Action {
	for ; allowance != 0; allowance-- {
		if ch.decodeStalled() {
			if c.InboundBuffered() <= s.opts.MaxFrame+readChunk {
				return gnet.None
			}
			allowance = 1 // past the inbound bound: one frame a turn (pool_share.go)
		}
		head, err := c.Peek(lengthFieldSize)
		if err != nil {
			return gnet.None
		}
		n, err := FrameLength(head, s.opts.MaxFrame)
		if err == nil {
			var frame []byte
			if frame, err = c.Peek(n); errors.Is(err, io.ErrShortBuffer) {
				return gnet.None
			} else if err == nil {
				var cmd *Command
				if cmd, err = decodeFrameBody(frame[lengthFieldSize:]); err == nil {
					_, _ = c.Discard(n)
					s.route(ch, cmd)
					continue
				}
			}
		}
		s.log.Warn("closing connection on a bad frame", zap.String("remote", ch.remote), zap.Error(err))
		return gnet.Close
	}
	return gnet.None
}

// route sends a response to its waiting call, and a request to the router.
func (s *Server) route(ch *Channel, cmd *Command) {
	if cmd.IsResponse() {
		if !ch.deliverResponse(cmd) {
			s.log.Debug("response matches no request", zap.String("remote", ch.remote), zap.Int32("opaque", cmd.Opaque))
		}
		return
	}
	s.opts.Router.dispatch(ch, cmd)
}

// addrString formats an address, "" for none.
func addrString(a net.Addr) string {
	if a == nil {
		return ""
	}
	return a.String()
}

// closeTimeout bounds how long a server close waits by default.
const closeTimeout = 10 * time.Second

// Shutdown closes the server, waiting at most closeTimeout.
func (s *Server) Shutdown() error {
	ctx, cancel := context.WithTimeout(context.Background(), closeTimeout)
	defer cancel()
	return s.Close(ctx)
}
