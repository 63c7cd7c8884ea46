package remoting

// HTTP/2 connections on a remoting port (ServerOptions.HTTP2), and the
// other protocols a port may share with remoting (ServerOptions.Diversions).
//
// Java's proxy serves remoting and gRPC on one port, its remotingListenPort
// (8080): ProtocolNegotiationHandler looks at a connection's first bytes
// and pipes HTTP/2 to the gRPC port. A Server with HTTP2 set does the same:
// a plaintext connection that opens with the HTTP/2 client preface, or a
// TLS connection whose handshake chose ALPN "h2", leaves the server and is
// given to HTTP2 as a net.Conn (replaying what was already read of it).
// It no longer counts among the server's connections: its channel is told
// closed, having carried no frame.
//
// Why four bytes tell: a remoting frame opens with its length, big-endian,
// and "PRI " read so is 1,347,569,952, over any frame bound (MaxFrameLength
// is 16 MiB). A connection whose first byte is 'P' is held until four bytes
// are in.
//
// A Diversion works the same way for a head of its own: the controller's
// Raft peers open with "RAFT" (1,380,009,556 as a frame length). It is
// looked for in plaintext connections (except in enforcing mode, which
// closes them first) and, in permissive and enforcing modes, in the first
// bytes a TLS connection carries after its handshake: a Raft peer that
// speaks TLS writes its head inside TLS, and the Diversion is given the
// *tls.Conn (replaying what was read of it). That sniff, rather than an
// ALPN protocol id of its own, keeps one rule for both kinds of
// connection and needs nothing of the server's TLS config, which
// internal/tlsconf builds and reloads without knowing of Diversions; its
// cost is a server with Diversions reading a TLS connection's first bytes
// before it decodes frames, which it does next anyway.
//
// Difference from Java: Java forwards the HTTP/2 bytes to
// 127.0.0.1:grpcServerPort over a socket of its own; here the connection
// goes to the gRPC server in process, with the client's own address.

import (
	"bufio"
	"bytes"
	"net"
	"os"
	"syscall"

	"github.com/panjf2000/gnet/v2"
	"go.uber.org/zap"
)

// http2PrefaceHead is how the HTTP/2 client preface
// ("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n") opens.
const http2PrefaceHead = "PRI "

// alpnHTTP2 is the ALPN protocol id of HTTP/2 over TLS.
const alpnHTTP2 = "h2"

// Diversion hands the connections that open with Head (plaintext, or
// decrypted after a TLS handshake) to Take, on a goroutine of its own, as
// a net.Conn that replays what was read of them: a protocol sharing a
// remoting port, as DLedger's peer protocol shares the controller's. Head
// must not open a remoting frame: its first byte must be above 0x01 (a
// frame's length is under 16 MiB), and not 0x16 (TLS) or 'P' (HTTP/2 and
// the PROXY protocol).
type Diversion struct {
	Head string
	Take func(net.Conn)
}

// sniffDiversion reports where a plaintext connection goes (to: HTTP/2 or
// a Diversion), or that it may yet go somewhere (wait: fewer bytes are in
// than a head that matches so far).
func (s *Server) sniffDiversion(c gnet.Conn) (to func(net.Conn), wait bool) {
	heads := s.opts.Diversions
	if s.opts.HTTP2 != nil {
		heads = append([]Diversion{{Head: http2PrefaceHead, Take: s.opts.HTTP2}}, heads...)
	}
	return matchHead(heads, c.Peek)
}

// sniffTLSDiversion reports the Diversion whose head opens a TLS
// connection's decrypted bytes, or nil. It reads through r, which keeps
// what it read for the frames or the Diversion; it returns at once on a
// server without Diversions, and otherwise waits for the client's first
// bytes (IdleTimeout and Close still end the wait). HTTP/2 over TLS is
// told by ALPN, not here.
func (s *Server) sniffTLSDiversion(r *bufio.Reader) func(net.Conn) {
	if len(s.opts.Diversions) == 0 {
		return nil
	}
	to, _ := matchHead(s.opts.Diversions, r.Peek)
	return to
}

// matchHead is the head of heads that a connection's first bytes, as
// peek gives them, open with (to), or wait when a head matches so far and
// peek has fewer bytes than it (peek fails when it cannot give n bytes).
func matchHead(heads []Diversion, peek func(n int) ([]byte, error)) (to func(net.Conn), wait bool) {
	if len(heads) == 0 {
		return nil, false
	}
	first, err := peek(1)
	if err != nil {
		return nil, false
	}
	for _, d := range heads {
		if first[0] != d.Head[0] {
			continue
		}
		head, err := peek(len(d.Head))
		if err != nil {
			return nil, true
		}
		if string(head) == d.Head {
			return d.Take, false
		}
	}
	return nil, false
}

// takeDiverted hands a plaintext connection to a Diversion (or HTTP/2):
// its socket is duplicated, what gnet read of it is replayed, and gnet
// closes its descriptor.
func (s *Server) takeDiverted(c gnet.Conn, sc *serverConn, to func(net.Conn)) gnet.Action {
	fd, err := c.Dup()
	if err != nil {
		s.log.Warn("closing a diverted connection that could not leave the event loop",
			zap.String("remote", sc.ch.remote), zap.Error(err))
		return gnet.Close
	}
	head, _ := c.Peek(c.InboundBuffered())
	head = bytes.Clone(head)
	go s.giveDiverted(fd, head, sc.ch, to)
	return gnet.Close
}

func (s *Server) giveDiverted(fd int, head []byte, ch *Channel, to func(net.Conn)) {
	remote := ch.RemoteAddr()
	f := os.NewFile(uintptr(fd), "diverted")
	raw, err := net.FileConn(f)
	_ = f.Close()
	if err != nil {
		_ = syscall.Close(fd)
		s.log.Warn("closing a diverted connection", zap.String("remote", remote), zap.Error(err))
		return
	}
	to(withRemote(&replayConn{Conn: raw, head: head}, ch))
}

// negotiatedHTTP2 reports whether a TLS connection's handshake chose
// HTTP/2, for a server that hands such connections on.
func (s *Server) negotiatedHTTP2(c *tlsConn) bool {
	return s.opts.HTTP2 != nil && c.tc.ConnectionState().NegotiatedProtocol == alpnHTTP2
}
