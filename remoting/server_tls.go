package remoting

// TLS connections of a server.
//
// Java's NettyRemotingServer puts a HandshakeHandler first in every
// connection's pipeline. It looks at the first byte the client sends: 0x16
// (a TLS handshake record) adds an SslHandler, in permissive and enforcing
// modes, and closes the connection in disabled mode ("Clients intend to
// establish an SSL connection while this server is running in SSL disabled
// mode"); any other byte is served as plaintext, except in enforcing mode,
// where the connection is closed ("Clients intend to establish an insecure
// connection while this server is running in SSL enforcing mode"). With
// no SSL context (its certificate could not be loaded) a TLS connection is
// closed ("Trying to establish an SSL connection but sslContext is
// null"). Here ServerOptions.TLSMode and TLSConfig do the same, with
// Java's log lines.
//
// Design. gnet has no TLS. The gnet engine keeps the port and every
// plaintext connection, on the zero-copy path of server.go. The first
// bytes of a connection are looked at in OnTraffic; when they open a TLS
// handshake, the connection leaves gnet: its socket is duplicated (one
// fcntl, which does not block), what gnet already read of the handshake
// is copied out, and gnet closes its descriptor (the socket stays open
// through the duplicate). A goroutine then serves the connection with
// crypto/tls over a net.Conn on the duplicate: it reads frames through the
// same decoder into the same Router, and its Channel writes through a
// per-connection writer goroutine. The trade-off: a TLS connection costs
// two goroutines and is served by Go's poller instead of gnet's event
// loops, while plaintext connections cost what they did before and the
// event loop never waits for a handshake. The alternatives were worse:
// listening with net.Listen and enrolling plaintext connections into gnet
// would put a goroutine and a blocking peek in front of every plaintext
// connection, and a TLS state machine on the event loop would make it do
// the handshakes' cryptography.
//
// A TLS connection keeps the rules of hygiene.go: it is closed after
// IdleTimeout without reads or writes, when a frame is bad or over
// MaxFrame, and when its unsent responses exceed MaxOutbound. Its unsent
// responses count in MaxOutboundTotal's sum, and over that bound its
// reader holds back as a gnet connection does (outbound_total.go).
//
// Difference from Java: in enforcing mode Java closes a plaintext
// connection and still hands its first bytes to the decoder, so a request
// in them may run with its response written to a closed channel; here the
// connection is closed before anything in it is decoded.

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"io"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/panjf2000/gnet/v2"
	"go.uber.org/zap"
)

// tlsHandshakeTimeout bounds a TLS handshake, as Netty's SslHandler's
// default handshakeTimeoutMillis (10 s) does.
const tlsHandshakeTimeout = 10 * time.Second

// tlsReadBuffer is the size of a TLS connection's read buffer.
const tlsReadBuffer = 64 << 10

// sniff decides, on a connection's first bytes, whether it stays on the
// plaintext path: it reports the action and true when the connection
// leaves it (handed over to TLS or HTTP/2, or closed) or must wait for
// more bytes, false when there is nothing to look at yet or the connection
// is plaintext remoting and allowed.
func (s *Server) sniff(c gnet.Conn, sc *serverConn) (gnet.Action, bool) {
	if !sc.proxyChecked {
		if action, left := s.readProxyHeader(c, sc); left {
			return action, true
		}
	}
	first, err := c.Peek(1)
	if err != nil {
		return gnet.None, false
	}
	if first[0] == tlsHandshakeByte {
		sc.sniffed = true
		return s.takeTLS(c, sc), true
	}
	if s.opts.TLSMode == TLSEnforcing {
		sc.sniffed = true
		s.log.Warn("Clients intend to establish an insecure connection while this server is running in SSL enforcing mode",
			zap.String("remote", sc.ch.remote))
		return gnet.Close, true
	}
	to, wait := s.sniffDiversion(c)
	if wait {
		return gnet.None, true
	}
	sc.sniffed = true
	if to != nil {
		return s.takeDiverted(c, sc, to), true
	}
	return gnet.None, false
}

// takeTLS hands a connection that opens with a TLS handshake over to a
// goroutine of serveTLS, or closes it when the mode or a missing config
// refuses TLS. gnet then closes its descriptor; the duplicate keeps the
// socket, and the channel lives on with a TLS writer.
func (s *Server) takeTLS(c gnet.Conn, sc *serverConn) gnet.Action {
	remote := zap.String("remote", sc.ch.remote)
	switch {
	case s.opts.TLSMode == TLSDisabled:
		s.log.Warn("Clients intend to establish an SSL connection while this server is running in SSL disabled mode", remote)
		return gnet.Close
	case s.opts.TLSConfig == nil:
		s.log.Error("Trying to establish an SSL connection but sslContext is null", remote)
		return gnet.Close
	}
	fd, err := c.Dup()
	if err != nil {
		s.log.Warn("closing a TLS connection that could not leave the event loop", remote, zap.Error(err))
		return gnet.Close
	}
	if !s.tls.start() {
		_ = syscall.Close(fd)
		return gnet.Close
	}
	head, _ := c.Peek(c.InboundBuffered())
	sc.handedOver = true
	go s.serveTLS(fd, bytes.Clone(head), sc.ch)
	return gnet.Close
}

// serveTLS runs the handshake on the duplicated socket, then reads the
// connection's frames until it fails or is closed. A connection whose
// handshake chose ALPN "h2" goes to HTTP2, one whose first decrypted
// bytes are a Diversion's head to that Diversion (server_http2.go).
func (s *Server) serveTLS(fd int, hello []byte, ch *Channel) {
	defer s.tls.wg.Done()
	c, err := s.acceptTLS(fd, hello, ch)
	if err != nil {
		s.log.Warn("TLS handshake failed", zap.String("remote", ch.remote), zap.Error(err))
		s.closed(ch, err)
		return
	}
	if s.negotiatedHTTP2(c) {
		s.tls.untrack(c)
		s.closed(ch, nil)
		s.opts.HTTP2(withRemote(c.tc, ch))
		return
	}
	s.trackOpen(&c.activity, c)
	r := bufio.NewReaderSize(activeReader{r: c.tc, s: s, a: &c.activity}, tlsReadBuffer)
	if to := s.sniffTLSDiversion(r); to != nil {
		s.trackClose(c)
		s.tls.untrack(c)
		s.closed(ch, nil)
		head, _ := r.Peek(r.Buffered())
		go to(withRemote(&replayConn{Conn: c.tc, head: bytes.Clone(head)}, ch))
		return
	}
	s.tls.wg.Add(1)
	go func() {
		defer s.tls.wg.Done()
		c.w.run()
	}()
	err = readFrames(r, s.opts.MaxFrame, ch, s.holdingRoute(c.w, stallingRoute(ch, s.route)))
	_ = c.raw.Close()
	c.w.drop()
	s.tls.untrack(c)
	s.trackClose(c)
	s.closed(ch, err)
}

// acceptTLS makes a net.Conn of the duplicated socket, replaying what
// gnet read of it, runs the TLS handshake and gives the channel its TLS
// writer. Server.Close interrupts a handshake.
func (s *Server) acceptTLS(fd int, hello []byte, ch *Channel) (*tlsConn, error) {
	f := os.NewFile(uintptr(fd), "tls")
	raw, err := net.FileConn(f)
	_ = f.Close()
	if err != nil {
		return nil, err
	}
	c := &tlsConn{raw: raw, ch: ch, tc: tls.Server(&replayConn{Conn: raw, head: hello}, s.opts.TLSConfig)}
	if !s.tls.track(c) {
		_ = raw.Close()
		return nil, net.ErrClosed
	}
	if err := handshake(c.tc, tlsHandshakeTimeout); err != nil {
		_ = raw.Close()
		s.tls.untrack(c)
		return nil, err
	}
	var total *atomic.Int64
	if s.boundsTotal() {
		total = &s.outbound.bytes
	}
	c.w = newStreamWriter(c.tc, raw, s.opts.MaxOutbound, total, s.log, func() { s.touch(&c.activity) })
	c.w.remote = ch.remote
	ch.setWriter(c.w)
	return c, nil
}

// handshake runs a TLS handshake within timeout.
func handshake(tc *tls.Conn, timeout time.Duration) error {
	_ = tc.SetDeadline(time.Now().Add(timeout))
	if err := tc.Handshake(); err != nil {
		return err
	}
	return tc.SetDeadline(time.Time{})
}

// tlsConn is a server connection served over crypto/tls.
type tlsConn struct {
	activity
	raw net.Conn // the socket under the TLS conn: closing it never blocks
	tc  *tls.Conn
	ch  *Channel
	w   *streamWriter
}

func (c *tlsConn) remoteAddr() string { return c.ch.remote }

func (c *tlsConn) closeConn() { _ = c.raw.Close() }

// tlsConns is the set of a server's TLS connections, closed with it.
type tlsConns struct {
	mu     sync.Mutex
	m      map[*tlsConn]struct{}
	closed bool
	// wg counts the goroutines serving TLS connections.
	wg sync.WaitGroup
}

// start counts a goroutine about to serve a connection, unless the
// server is closing.
func (t *tlsConns) start() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return false
	}
	t.wg.Add(1)
	return true
}

// track adds a connection whose handshake is done, unless the server is
// closing.
func (t *tlsConns) track(c *tlsConn) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return false
	}
	if t.m == nil {
		t.m = make(map[*tlsConn]struct{})
	}
	t.m[c] = struct{}{}
	return true
}

func (t *tlsConns) untrack(c *tlsConn) {
	t.mu.Lock()
	delete(t.m, c)
	t.mu.Unlock()
}

// closeAll closes every TLS connection, refuses new ones and waits until
// their goroutines have ended.
func (t *tlsConns) closeAll() {
	t.mu.Lock()
	t.closed = true
	for c := range t.m {
		c.closeConn()
	}
	t.mu.Unlock()
	t.wg.Wait()
}

// replayConn is a net.Conn whose first reads return head: the bytes gnet
// read before the connection left it.
type replayConn struct {
	net.Conn
	head []byte
}

func (c *replayConn) Read(p []byte) (int, error) {
	if len(c.head) > 0 {
		n := copy(p, c.head)
		c.head = c.head[n:]
		return n, nil
	}
	return c.Conn.Read(p)
}

// activeReader records a read on the server's coarse clock.
type activeReader struct {
	r io.Reader
	s *Server
	a *activity
}

func (r activeReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if n > 0 {
		r.s.touch(r.a)
	}
	return n, err
}
