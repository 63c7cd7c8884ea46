package remoting

// The bound on unsent responses across connections.
//
// MaxOutbound bounds one connection's unsent response bytes (hygiene.go);
// MaxOutboundTotal bounds their sum over the server's gnet connections.
// While the sum is within it, nothing changes. Above it:
//
//   - a connection hands gnet what its socket takes and at most one more
//     16 KiB chunk: the rest of its responses wait in its outbox, where a
//     pull's frames still point into the mapped commitlog instead of being
//     copied into gnet's buffer;
//   - a connection that holds unsent bytes is held: its buffered requests
//     are not decoded (no new responses are made for it) until it has
//     handed all its bytes to the socket, or until the sum falls below half
//     the bound (the low-water mark);
//   - a connection that holds nothing decodes one request per turn, so a
//     burst of pipelined requests cannot slip in whole.
//
// Java 5.x holds each connection the same way with Netty's write-buffer
// marks (64 KiB high, 32 KiB low: it stops reading a channel that is not
// writable); 4.9.x has no bound at all.
//
// gnet cannot stop reading a socket, so a held connection's requests wait
// in its inbound buffer; that buffer is bounded as a half-received frame
// is (MaxFrame plus one read): a held client that sends more is closed.
//
// gnet drains a connection's outbound buffer without telling the handler,
// so each connection's share of the sum is its outbound buffer as of its
// last turn. Connections that owe bytes, or hold requests or responses
// back, are watched: every recheckTick the server wakes those that hold
// something back, and, while the sum is over the low-water mark, those
// that owe bytes, so that their share is counted again and held ones go
// on.
//
// A connection served over crypto/tls (server_tls.go) counts in the sum
// what its writer goroutine holds, from the moment a response is queued
// until it is written. Its reader goroutine does the holding itself, after
// each request it routes: while the sum is over the bound, it waits until
// the connection has written all it owes or the sum falls below half the
// bound; one that owes nothing waits a recheckTick, so it too decodes one
// request a turn. Its requests then wait in the socket, not in memory.

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/panjf2000/gnet/v2"
	"go.uber.org/zap"
)

// DefaultMaxOutboundTotal is the bound on the sum of the connections'
// unsent response bytes when ServerOptions.MaxOutboundTotal is 0: a
// quarter of the broker's default memory limit (128 MiB). At 64 MiB, 2,000
// slow readers peaked at 145 MiB of anonymous memory (gnet keeps freed
// buffers pooled until the collector runs); at 32 MiB, at 120 MiB
// (docs/memory.md).
const DefaultMaxOutboundTotal = 32 << 20

// recheckTick is how often watched connections are woken.
const recheckTick = 50 * time.Millisecond

// readChunk is what one gnet read takes at most (its default read buffer).
const readChunk = 64 << 10

// outboundTotal is the server's account of its connections' unsent bytes.
type outboundTotal struct {
	bytes atomic.Int64

	mu sync.Mutex
	// watched maps each watched connection to whether it holds requests
	// or responses back.
	watched map[*serverConn]bool
}

// outboundShare is what the account keeps on a connection (event loop
// only).
type outboundShare struct {
	// counted is the connection's share of the sum.
	counted int
	// held is set while the connection's requests are not decoded.
	held bool
	// watched and holdingBack mirror the connection's entry in watched.
	watched, holdingBack bool
}

// OutboundBytes is the sum of the connections' unsent response bytes, as
// of each connection's last turn.
func (s *Server) OutboundBytes() int64 { return s.outbound.bytes.Load() }

// boundsTotal tells whether MaxOutboundTotal applies.
func (s *Server) boundsTotal() bool { return s.opts.MaxOutboundTotal > 0 }

// sparingChunk is what a connection hands gnet at a time while the sum is
// over its bound.
const sparingChunk = 16 << 10

// flush writes the connection's queued frames: all of them while the sum
// is within its bound, else only what the socket takes, and one chunk;
// queued tells whether some were left for later (event loop only).
func (s *Server) flush(sc *serverConn) (wrote, queued bool) {
	if s.boundsTotal() && s.outbound.bytes.Load() > int64(s.opts.MaxOutboundTotal) {
		return sc.out.flushSparingly(sparingChunk)
	}
	return sc.out.flush(), false
}

// recount brings the connection's share of the sum up to date (event loop
// only).
func (s *Server) recount(sc *serverConn) {
	if n := sc.conn.OutboundBuffered(); n != sc.share.counted {
		s.outbound.bytes.Add(int64(n - sc.share.counted))
		sc.share.counted = n
	}
}

// frameAllowance is how many frames the connection may decode this turn:
// -1 for all of them. close is set for a held connection whose requests
// have outgrown the inbound bound (event loop only).
func (s *Server) frameAllowance(sc *serverConn) (allowance int, close bool) {
	if !s.boundsTotal() {
		return -1, false
	}
	s.recount(sc)
	total, bound := s.outbound.bytes.Load(), int64(s.opts.MaxOutboundTotal)
	switch {
	case sc.share.held && (sc.share.counted == 0 || total < bound/2):
		sc.share.held = false
	case !sc.share.held && total > bound && sc.share.counted > 0:
		sc.share.held = true
		s.log.Debug("holding the requests of a connection that does not read", zap.String("remote", sc.ch.remote),
			zap.Int("unsentBytes", sc.share.counted), zap.Int64("unsentTotal", total))
	}
	switch {
	case sc.share.held && sc.conn.InboundBuffered() > s.opts.MaxFrame+readChunk:
		s.log.Warn("closing a held connection that keeps sending", zap.String("remote", sc.ch.remote),
			zap.Int("bufferedBytes", sc.conn.InboundBuffered()), zap.Int64("unsentTotal", total))
		return 0, true
	case sc.share.held:
		return 0, false
	case total > bound:
		return 1, false
	}
	return -1, false
}

// watch records whether the connection must be woken: it owes bytes, or
// holdingBack says it holds requests or responses back (event loop only).
func (s *Server) watch(sc *serverConn, holdingBack bool) {
	watched := sc.share.counted > 0 || holdingBack
	if watched == sc.share.watched && holdingBack == sc.share.holdingBack {
		return
	}
	sc.share.watched, sc.share.holdingBack = watched, holdingBack
	s.outbound.mu.Lock()
	defer s.outbound.mu.Unlock()
	if !watched {
		delete(s.outbound.watched, sc)
		return
	}
	if s.outbound.watched == nil {
		s.outbound.watched = make(map[*serverConn]bool)
	}
	s.outbound.watched[sc] = holdingBack
}

// forget removes a closed connection's share (event loop only).
func (s *Server) forget(sc *serverConn) {
	s.outbound.bytes.Add(-int64(sc.share.counted))
	sc.share.counted = 0
	s.watch(sc, false)
}

// wakeWatched wakes the watched connections that hold something back, and
// while the sum is over the low-water mark those that owe bytes.
func (s *Server) wakeWatched() {
	all := s.outbound.bytes.Load() >= int64(s.opts.MaxOutboundTotal)/2
	var wake []gnet.Conn
	s.outbound.mu.Lock()
	for sc, holdingBack := range s.outbound.watched {
		if holdingBack || all {
			wake = append(wake, sc.conn)
		}
	}
	s.outbound.mu.Unlock()
	for _, c := range wake {
		_ = c.Wake(nil) // a closed connection has nothing left to do
	}
}

// holdingRoute wraps a TLS connection's route: after each request, the
// reader holds back while the sum is over the bound (see above).
func (s *Server) holdingRoute(w *streamWriter, route func(*Channel, *Command)) func(*Channel, *Command) {
	if !s.boundsTotal() {
		return route
	}
	return func(ch *Channel, cmd *Command) {
		route(ch, cmd)
		s.holdTLSReader(w)
	}
}

// holdTLSReader waits, when the sum is over the bound, until w has
// written all it owes (having owed something, or after a recheckTick when
// it owed nothing), the sum is below half the bound, or w has stopped.
func (s *Server) holdTLSReader(w *streamWriter) {
	bound := int64(s.opts.MaxOutboundTotal)
	if s.outbound.bytes.Load() <= bound {
		return
	}
	tick := time.NewTimer(recheckTick)
	defer tick.Stop()
	ticked := false
	for {
		if s.outbound.bytes.Load() < bound/2 || (ticked && w.pending() == 0) {
			return
		}
		select {
		case <-w.drained:
			if w.pending() == 0 {
				return
			}
		case <-tick.C:
			ticked = true
			tick.Reset(recheckTick)
		case <-w.stopped:
			return
		}
	}
}
