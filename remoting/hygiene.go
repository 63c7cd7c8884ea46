package remoting

// Connection hygiene: what the server keeps per connection, and for how
// long, whatever a client does.
//
// Idle connections. Java's NettyRemotingServer puts an
// IdleStateHandler(0, 0, serverChannelMaxIdleTimeSeconds) in every
// connection's pipeline: when a connection has seen neither a read nor a
// write for that long (ALL_IDLE, default 120 s), NettyConnectManageHandler
// logs "NETTY SERVER PIPELINE: IDLE exception" at warn and closes it. Here
// ServerOptions.IdleTimeout does the same. Every connection records when it
// last read bytes or handed frames to the socket, on a coarse clock that
// gnet's ticker advances; the same tick scans the open connections and
// closes those idle for the timeout. No goroutine or timer per connection:
// a connection costs one map entry and an atomic word, and a scan of
// thousands takes microseconds. A connection is closed between IdleTimeout
// and IdleTimeout plus one tick (a tenth of the timeout, at most a second)
// after it went quiet. Difference: Netty counts a write when its bytes
// have left for the socket; here when they were handed to gnet, which
// sends them or buffers what the socket does not take. A client that
// neither reads nor sends is closed by either rule once the timeout passes.
//
// Half-received frames. A frame is read whole before it is decoded, so a
// connection holds at most MaxFrame bytes (Java's frameMaxLength, 16 MiB
// by default) of a frame it has not finished sending, plus what one read
// took past it (gnet's read buffer, 64 KiB). A declared length over
// MaxFrame closes the connection at once, as Java's decoder does. A client
// that announces a large frame and trickles it is bounded by that, and by
// the idle timeout if it stops; Java bounds it the same way.
//
// Outbound bytes. Handlers queue their responses in the connection's
// outbox; the event loop hands them to gnet, which keeps in its outbound
// buffer what the socket does not take. A client that sends requests and
// never reads its responses would make that buffer grow without end.
// ServerOptions.MaxOutbound bounds it: once a connection's unsent bytes
// exceed it, the connection is logged and closed; everyone else keeps
// being served. Difference: Java's 5.x server stops reading from a
// connection whose Netty write buffer is over its high water mark
// (writeBufferHighWaterMark, Netty's 64 KiB unless set) and resumes below
// the low one, and the idle timeout eventually closes a client that never
// drains; 4.9.x does not even stop reading, so its buffer is unbounded.
// Here the per-connection bound stays far above what a slow but live
// client holds (DefaultMaxOutbound, 64 MiB: hundreds of full pull
// responses), and ServerOptions.MaxOutboundTotal bounds the sum over
// connections by holding back the requests of those that do not read
// (outbound_total.go).
//
// Settings of Java's NettyServerConfig that size Netty's threads
// (serverSelectorThreads, serverWorkerThreads,
// serverCallbackExecutorThreads) and buffers have no counterpart here;
// docs/connections.md says which apply and why.

import (
	"sync/atomic"
	"time"

	"github.com/panjf2000/gnet/v2"
	"go.uber.org/zap"
)

// DefaultMaxOutbound is the bound on a connection's unsent response
// bytes when ServerOptions.MaxOutbound is 0.
const DefaultMaxOutbound = 64 << 20

// maxIdleTick bounds the interval of the idle scan.
const maxIdleTick = time.Second

// idleTick is how often the connections are scanned for a timeout: a
// tenth of it, at most a second, so a close comes at most a tenth late.
func idleTick(timeout time.Duration) time.Duration {
	return min(max(timeout/10, time.Millisecond), maxIdleTick)
}

// now is the server's coarse clock: time since it was built, advanced by
// each tick.
func (s *Server) now() int64 { return s.clock.Load() }

// activity is what the idle scan keeps of a connection: lastActive is
// the server clock at the last read or write; idleClosed is set once the
// scan closed the connection.
type activity struct {
	lastActive atomic.Int64
	idleClosed atomic.Bool
}

// idleConn is a connection the idle scan can close: a gnet one
// (*serverConn) or a TLS one (*tlsConn).
type idleConn interface {
	remoteAddr() string
	closeConn()
}

// touch records activity on a connection.
func (s *Server) touch(a *activity) {
	if now := s.now(); a.lastActive.Load() != now {
		a.lastActive.Store(now)
	}
}

// trackOpen registers a new connection with the idle scan.
func (s *Server) trackOpen(a *activity, c idleConn) {
	if s.opts.IdleTimeout <= 0 {
		return
	}
	a.lastActive.Store(s.now())
	s.open.Store(c, a)
}

// trackClose removes a closed connection from the idle scan.
func (s *Server) trackClose(c idleConn) {
	if s.opts.IdleTimeout > 0 {
		s.open.Delete(c)
	}
}

// OnTick advances the coarse clock and closes the connections idle for
// IdleTimeout, and wakes the connections the bound on all unsent bytes
// watches (outbound_total.go). gnet runs it on its own goroutine, never on
// an event loop; closing or waking a connection from here only queues the
// work to its loop.
func (s *Server) OnTick() (time.Duration, gnet.Action) {
	next := maxIdleTick
	if s.opts.IdleTimeout > 0 {
		next = idleTick(s.opts.IdleTimeout)
		now := int64(time.Since(s.epoch))
		s.clock.Store(now)
		if now >= s.nextIdleScan {
			s.closeIdle(now)
			s.nextIdleScan = now + int64(next)
		}
	}
	if s.boundsTotal() {
		s.wakeWatched()
		next = min(next, recheckTick)
	}
	return next, gnet.None
}

// closeIdle closes every connection quiet since before now-IdleTimeout.
func (s *Server) closeIdle(now int64) {
	limit := int64(s.opts.IdleTimeout)
	s.open.Range(func(k, v any) bool {
		c, a := k.(idleConn), v.(*activity)
		if now-a.lastActive.Load() < limit || a.idleClosed.Swap(true) {
			return true
		}
		// Java's wording, so that operators' log searches keep working.
		s.log.Warn("NETTY SERVER PIPELINE: IDLE exception", zap.String("remote", c.remoteAddr()),
			zap.Duration("idle", time.Duration(now-a.lastActive.Load())))
		c.closeConn()
		return true
	})
}

// overOutbound tells whether the connection holds more unsent bytes than
// MaxOutbound allows, logging it once (event loop only).
func (s *Server) overOutbound(sc *serverConn) bool {
	if s.opts.MaxOutbound < 0 {
		return false
	}
	n := sc.conn.OutboundBuffered()
	if n <= s.opts.MaxOutbound {
		return false
	}
	s.log.Warn("closing a connection that does not read its responses", zap.String("remote", sc.ch.remote),
		zap.Int("unsentBytes", n), zap.Int("maxOutbound", s.opts.MaxOutbound))
	return true
}
