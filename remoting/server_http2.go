package remoting

// HTTP/2 connections on a remoting port (ServerOptions.HTTP2).
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
// Difference from Java: Java forwards the HTTP/2 bytes to
// 127.0.0.1:grpcServerPort over a socket of its own; here the connection
// goes to the gRPC server in process, with the client's own address.

import (
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

// sniffHTTP2 reports whether a plaintext connection opens with the HTTP/2
// preface (take) or may yet (wait: fewer than four bytes are in).
func (s *Server) sniffHTTP2(c gnet.Conn) (take, wait bool) {
	if s.opts.HTTP2 == nil {
		return false, false
	}
	first, err := c.Peek(1)
	if err != nil || first[0] != http2PrefaceHead[0] {
		return false, false
	}
	head, err := c.Peek(len(http2PrefaceHead))
	if err != nil {
		return false, true
	}
	return string(head) == http2PrefaceHead, false
}

// takeHTTP2 hands a plaintext HTTP/2 connection to ServerOptions.HTTP2:
// its socket is duplicated, what gnet read of it is replayed, and gnet
// closes its descriptor.
func (s *Server) takeHTTP2(c gnet.Conn, sc *serverConn) gnet.Action {
	fd, err := c.Dup()
	if err != nil {
		s.log.Warn("closing an HTTP/2 connection that could not leave the event loop",
			zap.String("remote", sc.ch.remote), zap.Error(err))
		return gnet.Close
	}
	head, _ := c.Peek(c.InboundBuffered())
	head = bytes.Clone(head)
	go s.giveHTTP2(fd, head, sc.ch)
	return gnet.Close
}

func (s *Server) giveHTTP2(fd int, head []byte, ch *Channel) {
	remote := ch.RemoteAddr()
	f := os.NewFile(uintptr(fd), "http2")
	raw, err := net.FileConn(f)
	_ = f.Close()
	if err != nil {
		_ = syscall.Close(fd)
		s.log.Warn("closing an HTTP/2 connection", zap.String("remote", remote), zap.Error(err))
		return
	}
	s.opts.HTTP2(withRemote(&replayConn{Conn: raw, head: head}, ch))
}

// negotiatedHTTP2 reports whether a TLS connection's handshake chose
// HTTP/2, for a server that hands such connections on.
func (s *Server) negotiatedHTTP2(c *tlsConn) bool {
	return s.opts.HTTP2 != nil && c.tc.ConnectionState().NegotiatedProtocol == alpnHTTP2
}
