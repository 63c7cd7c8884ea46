package remoting

import (
	"encoding/binary"
	"io"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// proxyV2 builds a v2 PROXY header for src -> dst (TCP over IPv4 or
// IPv6), with one TLV.
func proxyV2(src, dst *net.TCPAddr) []byte {
	b := append([]byte{}, proxyV2Signature...)
	var addr []byte
	family := byte(0x11)
	if src.IP.To4() == nil {
		family = 0x21
		addr = append(append(addr, src.IP.To16()...), dst.IP.To16()...)
	} else {
		addr = append(append(addr, src.IP.To4()...), dst.IP.To4()...)
	}
	addr = binary.BigEndian.AppendUint16(addr, uint16(src.Port))
	addr = binary.BigEndian.AppendUint16(addr, uint16(dst.Port))
	addr = append(addr, 0x04, 0, 3, 'a', 'b', 'c') // a TLV, read past
	b = append(b, 0x21, family)
	b = binary.BigEndian.AppendUint16(b, uint16(len(addr)))
	return append(b, addr...)
}

func TestParseProxyHeader(t *testing.T) {
	v4 := &net.TCPAddr{IP: net.ParseIP("192.0.2.7"), Port: 51234}
	v6 := &net.TCPAddr{IP: net.ParseIP("2001:db8::7"), Port: 443}
	dst := &net.TCPAddr{IP: net.ParseIP("10.0.0.5"), Port: 8080}
	dst6 := &net.TCPAddr{IP: net.ParseIP("2001:db8::5"), Port: 8080}
	for _, c := range []struct {
		name, in, source string
	}{
		{"v1 TCP4", "PROXY TCP4 192.0.2.7 10.0.0.5 51234 8080\r\n", "192.0.2.7:51234"},
		{"v1 TCP6", "PROXY TCP6 2001:db8::7 2001:db8::5 443 8080\r\n", "[2001:db8::7]:443"},
		{"v1 UNKNOWN", "PROXY UNKNOWN\r\n", ""},
		{"v2 TCP4", string(proxyV2(v4, dst)), "192.0.2.7:51234"},
		{"v2 TCP6", string(proxyV2(v6, dst6)), "[2001:db8::7]:443"},
		{"v2 LOCAL", string(append(append([]byte{}, proxyV2Signature...), 0x20, 0x00, 0, 0)), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			detected, more := DetectProxyHeader([]byte(c.in))
			require.True(t, detected)
			require.False(t, more)
			n, source, ok, err := ParseProxyHeader([]byte(c.in + "rest"))
			require.NoError(t, err)
			require.True(t, ok)
			assert.Equal(t, len(c.in), n)
			assert.Equal(t, c.source, source)
			_, _, ok, err = ParseProxyHeader([]byte(c.in[:len(c.in)-1]))
			assert.False(t, ok, "a header cut short waits")
			assert.NoError(t, err)
		})
	}
	for _, bad := range []string{"PROXY TCP4 nonsense\r\n", "PROXY TCP4 192.0.2.7 10.0.0.5 99999 8080\r\n",
		"PROXY " + string(make([]byte, 120))} {
		_, _, _, err := ParseProxyHeader([]byte(bad))
		assert.ErrorIs(t, err, ErrBadProxyHeader, "%q", bad)
	}
	detected, more := DetectProxyHeader([]byte("PRO"))
	assert.False(t, detected)
	assert.True(t, more, "three bytes of PROXY: wait")
	detected, more = DetectProxyHeader([]byte("PRI * HTTP/2.0"))
	assert.False(t, detected || more, "the HTTP/2 preface is not a PROXY header")
	detected, more = DetectProxyHeader([]byte{0, 0, 0, 20})
	assert.False(t, detected || more, "a remoting frame")
}

// remoteCode answers the connection's remote address as the body.
const remoteCode RequestCode = 9998

func TestAProxyHeaderGivesTheConnectionTheClientsAddress(t *testing.T) {
	s, _ := startHygieneServer(t, ServerOptions{}, func(r *Router, p *Pool) {
		r.Handle(remoteCode, p, func(req *Request) *Command {
			resp := NewResponse(req.Cmd, Success, "")
			resp.Body = []byte(req.Ch.RemoteAddr())
			return resp
		})
	})
	for _, header := range [][]byte{
		[]byte("PROXY TCP4 192.0.2.7 10.0.0.5 51234 8080\r\n"),
		proxyV2(&net.TCPAddr{IP: net.ParseIP("192.0.2.7"), Port: 51234}, &net.TCPAddr{IP: net.ParseIP("10.0.0.5"), Port: 8080}),
	} {
		conn := dialRaw(t, s.Addr())
		frame, err := NewRequest(remoteCode, nil).AppendFrame(nil)
		require.NoError(t, err)
		// the header in two writes, the request in the second
		_, err = conn.Write(header[:5])
		require.NoError(t, err)
		_, err = conn.Write(append(header[5:], frame...))
		require.NoError(t, err)
		resp := readResponse(t, conn)
		assert.Equal(t, "192.0.2.7:51234", string(resp.Body))
	}
}

func TestAProxyHeaderBeforeHTTP2GivesTheHTTP2ServerTheClientsAddress(t *testing.T) {
	h2, got := http2Echo(t)
	s, _ := startHygieneServer(t, ServerOptions{HTTP2: h2})
	conn := dialRaw(t, s.Addr())
	_, err := conn.Write(append([]byte("PROXY TCP6 2001:db8::7 2001:db8::5 443 8080\r\n"), testPreface...))
	require.NoError(t, err)
	assert.Equal(t, "h2:"+testPreface[:16], readLine(t, conn))
	assert.Equal(t, "[2001:db8::7]:443", (<-got).RemoteAddr().String())
}

func TestABadProxyHeaderClosesTheConnection(t *testing.T) {
	s, closed := startHygieneServer(t, ServerOptions{})
	conn := dialRaw(t, s.Addr())
	_, err := io.WriteString(conn, "PROXY TCP4 nonsense\r\n")
	require.NoError(t, err)
	select {
	case <-closed:
	case <-time.After(hygieneWait):
		t.Fatal("a connection with a bad PROXY header stayed open")
	}
}

// readResponse reads one frame off conn.
func readResponse(t *testing.T, conn net.Conn) *Command {
	t.Helper()
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(hygieneWait)))
	var lenBuf [4]byte
	_, err := io.ReadFull(conn, lenBuf[:])
	require.NoError(t, err)
	rest := make([]byte, binary.BigEndian.Uint32(lenBuf[:]))
	_, err = io.ReadFull(conn, rest)
	require.NoError(t, err)
	cmd, _, err := DecodeFrame(append(lenBuf[:], rest...), MaxFrameLength)
	require.NoError(t, err)
	return cmd
}
