package remoting

// The HAProxy PROXY protocol (haproxy.org/download/2.8/doc/proxy-protocol.txt):
// a load balancer that speaks it opens each connection with a header
// naming the client it stands for. 5.x servers detect it on the first
// bytes of every connection (NettyRemotingServer.HandshakeHandler, Netty's
// HAProxyMessageDecoder; the proxy's gRPC port too) and take the client's
// address from it: the address a broker lists for a client, logs, and
// checks ACLs against. Here the server does the same before it looks for
// TLS or HTTP/2 (server.go's sniff), and Channel.RemoteAddr is the
// header's source.
//
//	v1 (text, at most 107 bytes):  "PROXY TCP4 192.0.2.7 10.0.0.5 51234 8080\r\n"
//	                               "PROXY UNKNOWN ...\r\n" (no address)
//	v2 (binary):  12-byte signature  \r \n \r \n \0 \r \n Q U I T \n
//	              1 byte   version 2 (high nibble), command LOCAL 0 / PROXY 1 (low nibble)
//	              1 byte   family AF_INET 1 / AF_INET6 2 / AF_UNIX 3 (high), STREAM 1 / DGRAM 2 (low)
//	              2 bytes  length of what follows, big-endian
//	              addresses: IPv4 src 4, dst 4, src port 2, dst port 2 (12 bytes);
//	                         IPv6 16, 16, 2, 2 (36 bytes); then TLVs (type 1, length 2, value)
//
// A connection cannot open a remoting frame so: "PROX" or "\r\n\r\n" read as
// a frame length is over any frame bound. Differences from Java: the TLVs
// are read past, not kept (Java keeps each ASCII one as a channel attribute
// proxy_protocol_tlv_0x<type>, which no processor reads); a LOCAL or
// UNKNOWN header leaves the connection's own address, as Netty does.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"net"
	"strconv"
	"strings"

	"github.com/panjf2000/gnet/v2"
	"go.uber.org/zap"
)

const (
	proxyV1Prefix = "PROXY"
	proxyV1Max    = 107
	proxyV2Head   = 16
)

var proxyV2Signature = []byte("\r\n\r\n\x00\r\nQUIT\n")

// errProxyHeaderShort is a header not wholly read yet.
var errProxyHeaderShort = errors.New("remoting: PROXY protocol header incomplete")

// ErrBadProxyHeader is a PROXY protocol header that cannot be read.
var ErrBadProxyHeader = errors.New("remoting: bad PROXY protocol header")

// DetectProxyHeader tells whether b opens with a PROXY protocol header
// (v1 or v2), or may once more bytes are in.
func DetectProxyHeader(b []byte) (detected, needMore bool) {
	for _, sig := range [][]byte{proxyV2Signature, []byte(proxyV1Prefix)} {
		n := min(len(b), len(sig))
		if bytes.Equal(b[:n], sig[:n]) {
			return n == len(sig), n < len(sig)
		}
	}
	return false, false
}

// ParseProxyHeader reads the header at the start of b: its length, and
// the client's address ("" when the header names none: LOCAL, UNKNOWN or
// a unix socket). ok is false when more bytes are needed.
func ParseProxyHeader(b []byte) (n int, source string, ok bool, err error) {
	if bytes.HasPrefix(b, proxyV2Signature) {
		n, source, err = parseProxyV2(b)
	} else {
		n, source, err = parseProxyV1(b)
	}
	if errors.Is(err, errProxyHeaderShort) {
		return 0, "", false, nil
	}
	return n, source, err == nil, err
}

func parseProxyV1(b []byte) (int, string, error) {
	end := bytes.Index(b, []byte("\r\n"))
	if end < 0 {
		if len(b) < proxyV1Max {
			return 0, "", errProxyHeaderShort
		}
		return 0, "", ErrBadProxyHeader
	}
	if end+2 > proxyV1Max {
		return 0, "", ErrBadProxyHeader
	}
	f := strings.Split(string(b[:end]), " ")
	switch {
	case len(f) >= 2 && f[0] == proxyV1Prefix && f[1] == "UNKNOWN":
		return end + 2, "", nil
	case len(f) != 6 || f[0] != proxyV1Prefix || (f[1] != "TCP4" && f[1] != "TCP6"):
		return 0, "", ErrBadProxyHeader
	}
	ip := net.ParseIP(f[2])
	port, err := strconv.ParseUint(f[4], 10, 16)
	if ip == nil || err != nil || net.ParseIP(f[3]) == nil {
		return 0, "", ErrBadProxyHeader
	}
	return end + 2, net.JoinHostPort(ip.String(), strconv.FormatUint(port, 10)), nil
}

func parseProxyV2(b []byte) (int, string, error) {
	if len(b) < proxyV2Head {
		return 0, "", errProxyHeaderShort
	}
	verCmd, family := b[12], b[13]
	n := proxyV2Head + int(binary.BigEndian.Uint16(b[14:16]))
	switch {
	case verCmd>>4 != 2 || verCmd&0x0f > 1:
		return 0, "", ErrBadProxyHeader
	case len(b) < n:
		return 0, "", errProxyHeaderShort
	case verCmd&0x0f == 0: // LOCAL: the balancer's own connection (a health check)
		return n, "", nil
	}
	addr := b[proxyV2Head:n]
	var ip net.IP
	var portAt int
	switch family >> 4 {
	case 1:
		if len(addr) < 12 {
			return 0, "", ErrBadProxyHeader
		}
		ip, portAt = net.IP(addr[0:4]), 8
	case 2:
		if len(addr) < 36 {
			return 0, "", ErrBadProxyHeader
		}
		ip, portAt = net.IP(addr[0:16]), 32
	default: // unspecified or a unix socket: no address
		return n, "", nil
	}
	port := binary.BigEndian.Uint16(addr[portAt : portAt+2])
	return n, net.JoinHostPort(ip.String(), strconv.Itoa(int(port))), nil
}

// readProxyHeader takes a PROXY protocol header off the start of a
// connection: it reports true when the connection waits for more bytes
// or is closed (a header that cannot be read), false to go on sniffing
// what follows (or, with nothing read yet, to write what is queued).
func (s *Server) readProxyHeader(c gnet.Conn, sc *serverConn) (gnet.Action, bool) {
	if c.InboundBuffered() == 0 {
		return gnet.None, false // woken to write: nothing to look at yet
	}
	buf, _ := c.Peek(c.InboundBuffered())
	detected, needMore := DetectProxyHeader(buf)
	if needMore {
		return gnet.None, true
	}
	if !detected {
		sc.proxyChecked = true
		return gnet.None, false
	}
	n, source, ok, err := ParseProxyHeader(buf)
	if err != nil {
		s.log.Warn("closing a connection whose PROXY protocol header cannot be read",
			zap.String("remote", sc.ch.remote), zap.Error(err))
		return gnet.Close, true
	}
	if !ok {
		return gnet.None, true
	}
	sc.proxyChecked = true
	_, _ = c.Discard(n)
	if source != "" {
		sc.ch.proxied.Store(&source)
	}
	return gnet.None, c.InboundBuffered() == 0
}

// proxiedConn is a connection handed on with the client's address a
// PROXY protocol header gave.
type proxiedConn struct {
	net.Conn
	remote net.Addr
}

func (c *proxiedConn) RemoteAddr() net.Addr { return c.remote }

// withRemote gives a handed-on connection the channel's remote address
// when a PROXY protocol header set one.
func withRemote(conn net.Conn, ch *Channel) net.Conn {
	p := ch.proxied.Load()
	if p == nil {
		return conn
	}
	addr, err := net.ResolveTCPAddr("tcp", *p)
	if err != nil {
		return conn
	}
	return &proxiedConn{Conn: conn, remote: addr}
}
