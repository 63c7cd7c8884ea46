package proxy

import (
	"crypto/tls"
	"io"
	"net"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/remoting"
)

// acceptOne accepts a connection and reads n bytes of it.
func acceptOne(t *testing.T, l net.Listener, n int) ([]byte, net.Conn) {
	t.Helper()
	c, err := l.Accept()
	require.NoError(t, err)
	buf := make([]byte, n)
	_, err = io.ReadFull(c, buf)
	require.NoError(t, err)
	return buf, c
}

// In permissive mode one port serves a plaintext connection as it comes
// and a TLS one through the handshake, with ALPN h2.
func TestSniffListenerServesPlaintextAndTLS(t *testing.T) {
	cert, err := remoting.SelfSignedCertificate()
	require.NoError(t, err)
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	l := newSniffListener(raw, remoting.TLSPermissive, &tls.Config{Certificates: []tls.Certificate{cert}})
	t.Cleanup(func() { _ = l.Close() })

	plain, err := net.Dial("tcp", raw.Addr().String())
	require.NoError(t, err)
	defer plain.Close()
	_, err = plain.Write([]byte("PRI * HTTP/2.0"))
	require.NoError(t, err)
	got, c := acceptOne(t, l, 14)
	require.Equal(t, "PRI * HTTP/2.0", string(got))
	_, isTLS := c.(*tls.Conn)
	require.False(t, isTLS)

	done := make(chan error, 1)
	go func() {
		tc, err := tls.Dial("tcp", raw.Addr().String(), &tls.Config{InsecureSkipVerify: true, NextProtos: []string{"h2"}})
		if err == nil {
			_, err = tc.Write([]byte("hello"))
			if err == nil && tc.ConnectionState().NegotiatedProtocol != "h2" {
				err = io.ErrUnexpectedEOF
			}
			defer tc.Close()
		}
		done <- err
	}()
	got, c = acceptOne(t, l, 5)
	require.Equal(t, "hello", string(got))
	_, isTLS = c.(*tls.Conn)
	require.True(t, isTLS)
	require.NoError(t, <-done)
}

// Enforcing mode closes a plaintext connection without handing it out.
func TestSniffListenerEnforcingClosesPlaintext(t *testing.T) {
	cert, err := remoting.SelfSignedCertificate()
	require.NoError(t, err)
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	l := newSniffListener(raw, remoting.TLSEnforcing, &tls.Config{Certificates: []tls.Certificate{cert}})
	t.Cleanup(func() { _ = l.Close() })
	plain, err := net.Dial("tcp", raw.Addr().String())
	require.NoError(t, err)
	defer plain.Close()
	_, err = plain.Write([]byte("PRI * HTTP/2.0"))
	require.NoError(t, err)
	_, err = plain.Read(make([]byte, 1))
	require.ErrorIs(t, err, io.EOF, "the proxy closed it")
}

// A load balancer's PROXY protocol header is taken off, and the
// connection handed out is the client's, at the address it names.
func TestSniffListenerTakesAProxyHeader(t *testing.T) {
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	l := newSniffListener(raw, remoting.TLSPermissive, nil)
	t.Cleanup(func() { _ = l.Close() })
	c, err := net.Dial("tcp", raw.Addr().String())
	require.NoError(t, err)
	defer c.Close()
	_, err = c.Write([]byte("PROXY TCP4 192.0.2.7 10.0.0.5 51234 8081\r\nPRI * HTTP/2.0"))
	require.NoError(t, err)
	got, conn := acceptOne(t, l, 14)
	require.Equal(t, "PRI * HTTP/2.0", string(got))
	require.Equal(t, "192.0.2.7:51234", conn.RemoteAddr().String())
}

// A closed listener's Accept answers an error, never a nil connection
// with a nil error: gRPC's Serve would take the nil connection and
// crash (the CI run of stop 39).
func TestSniffListenerAcceptAfterCloseIsAnError(t *testing.T) {
	for range 50 {
		raw, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		l := newSniffListener(raw, remoting.TLSPermissive, nil)
		require.NoError(t, l.Close())
		c, err := l.Accept()
		require.Nil(t, c)
		require.ErrorIs(t, err, net.ErrClosed)
	}
}
