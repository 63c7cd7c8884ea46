package proxy

// TLS and plaintext on the gRPC port (ProxyAndTlsProtocolNegotiator, as
// tls.server.mode says): each connection's first byte decides — a TLS
// handshake record (0x16) is served over TLS (ALPN h2), anything else
// plaintext; enforcing mode closes plaintext, disabled mode closes TLS.
// A PROXY protocol header before it (a load balancer's) is taken off, and
// the connection's remote address is the client it names.
// The first byte is read off the accept loop, so a silent connection
// holds up no other.

import (
	"bufio"
	"crypto/tls"
	"net"
	"sync"
	"time"

	"github.com/rmqgo/rmqgo/remoting"
)

// tlsRecordHandshake is the first byte of a TLS ClientHello.
const tlsRecordHandshake = 0x16

// sniffTimeout bounds how long a new connection may stay silent.
const sniffTimeout = 10 * time.Second

// sniffListener hands out connections once their first byte said what
// they are.
type sniffListener struct {
	net.Listener
	mode  remoting.TLSMode
	tls   *tls.Config
	ready chan net.Conn
	done  chan struct{}
	once  sync.Once
	err   error
}

func newSniffListener(l net.Listener, mode remoting.TLSMode, cfg *tls.Config) net.Listener {
	if cfg != nil {
		cfg = cfg.Clone()
		cfg.NextProtos = []string{"h2"}
	}
	s := &sniffListener{Listener: l, mode: mode, tls: cfg, ready: make(chan net.Conn), done: make(chan struct{})}
	go s.acceptLoop()
	return s
}

func (s *sniffListener) acceptLoop() {
	for {
		c, err := s.Listener.Accept()
		if err != nil {
			s.stop(err)
			return
		}
		go s.sniff(c)
	}
}

// sniff reads the first byte and hands the connection on.
func (s *sniffListener) sniff(c net.Conn) {
	br := bufio.NewReader(c)
	_ = c.SetReadDeadline(time.Now().Add(sniffTimeout))
	source, err := takeProxyHeader(br)
	var first []byte
	if err == nil {
		first, err = br.Peek(1)
	}
	_ = c.SetReadDeadline(time.Time{})
	if err != nil {
		_ = c.Close()
		return
	}
	pc := &peekedConn{Conn: c, r: br}
	if source != "" {
		pc.remote, _ = net.ResolveTCPAddr("tcp", source)
	}
	var out net.Conn = pc
	isTLS := first[0] == tlsRecordHandshake
	switch {
	case isTLS && (s.mode == remoting.TLSDisabled || s.tls == nil):
		_ = c.Close()
		return
	case isTLS:
		out = tls.Server(out, s.tls)
	case s.mode == remoting.TLSEnforcing:
		_ = c.Close()
		return
	}
	select {
	case s.ready <- out:
	case <-s.done:
		_ = c.Close()
	}
}

// handOver serves a connection that another port found to be HTTP/2
// (the remoting port's), already decrypted when it came over TLS.
func (s *sniffListener) handOver(c net.Conn) {
	select {
	case s.ready <- c:
	case <-s.done:
		_ = c.Close()
	}
}

func (s *sniffListener) Accept() (net.Conn, error) {
	select {
	case c := <-s.ready:
		return c, nil
	case <-s.done:
		return nil, s.err
	}
}

func (s *sniffListener) Close() error {
	err := s.Listener.Close()
	s.stop(net.ErrClosed)
	return err
}

// stop ends Accept with the first cause: err is written before done is
// closed, so Accept never reads it unset (gRPC's Serve takes a nil
// connection with a nil error for a live one).
func (s *sniffListener) stop(err error) {
	s.once.Do(func() {
		s.err = err
		close(s.done)
	})
}

// peekedConn reads through the reader that peeked; remote, when set, is
// the client a PROXY protocol header named.
type peekedConn struct {
	net.Conn
	r      *bufio.Reader
	remote net.Addr
}

func (c *peekedConn) Read(p []byte) (int, error) { return c.r.Read(p) }

func (c *peekedConn) RemoteAddr() net.Addr {
	if c.remote != nil {
		return c.remote
	}
	return c.Conn.RemoteAddr()
}

// takeProxyHeader reads a PROXY protocol header off the start of a
// connection, as Java's gRPC port detects one (remoting/haproxy.go): the
// client's address it names, "" for none.
func takeProxyHeader(br *bufio.Reader) (string, error) {
	for want := 1; ; want = br.Buffered() + 1 {
		if _, err := br.Peek(want); err != nil {
			return "", err
		}
		buf, _ := br.Peek(br.Buffered())
		detected, needMore := remoting.DetectProxyHeader(buf)
		if needMore {
			continue
		}
		if !detected {
			return "", nil
		}
		n, source, ok, err := remoting.ParseProxyHeader(buf)
		if err != nil {
			return "", err
		}
		if ok {
			_, err = br.Discard(n)
			return source, err
		}
	}
}
