package remoting

import (
	"bufio"
	"crypto/tls"
	"io"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const testPreface = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"

// http2Echo stands for the gRPC server: each connection handed to it
// answers its first line read back, prefixed with "h2:", and the
// connection goes on the channel.
func http2Echo(t *testing.T) (func(net.Conn), chan net.Conn) {
	got := make(chan net.Conn, 4)
	return func(c net.Conn) {
		t.Cleanup(func() { _ = c.Close() })
		got <- c
		line, err := bufio.NewReader(c).ReadString('\n')
		if err == nil {
			_, _ = io.WriteString(c, "h2:"+line)
		}
	}, got
}

// readLine reads one line from c within the hygiene wait.
func readLine(t *testing.T, c net.Conn) string {
	t.Helper()
	require.NoError(t, c.SetReadDeadline(time.Now().Add(hygieneWait)))
	line, err := bufio.NewReader(c).ReadString('\n')
	require.NoError(t, err)
	return line
}

func TestHTTP2PrefaceLeavesForTheHTTP2Server(t *testing.T) {
	h2, got := http2Echo(t)
	s, _ := startHygieneServer(t, ServerOptions{HTTP2: h2})
	conn := dialRaw(t, s.Addr())
	// the preface in pieces: the server waits for four bytes
	_, err := io.WriteString(conn, "PR")
	require.NoError(t, err)
	_, err = io.WriteString(conn, testPreface[2:])
	require.NoError(t, err)
	assert.Equal(t, "h2:"+testPreface[:16], readLine(t, conn), "the bytes read before the hand-over are replayed")
	handed := <-got
	assert.Equal(t, conn.LocalAddr().String(), handed.RemoteAddr().String(), "the HTTP/2 server sees the client's address")
	// remoting on the same port is served as before
	echo(t, newTestClient(t), s.Addr(), SerializeJSON, []byte("remoting beside HTTP/2"))
}

func TestTLSConnectionThatChoseH2LeavesForTheHTTP2Server(t *testing.T) {
	h2, got := http2Echo(t)
	cfg := serverTLS(t)
	cfg.NextProtos = []string{"h2"}
	s, _ := startHygieneServer(t, ServerOptions{TLSMode: TLSPermissive, TLSConfig: cfg, HTTP2: h2})
	client := clientTLS()
	client.NextProtos = []string{"h2"}
	conn, err := tls.Dial("tcp", s.Addr(), client)
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	_, err = io.WriteString(conn, testPreface)
	require.NoError(t, err)
	assert.Equal(t, "h2:"+testPreface[:16], readLine(t, conn))
	_, isTLS := (<-got).(*tls.Conn)
	assert.True(t, isTLS, "the HTTP/2 server is given the connection decrypted")
	// a TLS remoting client (no ALPN) and a plaintext one stay here
	echo(t, newTLSTestClient(t), s.Addr(), SerializeRocketMQ, []byte("remoting over TLS"))
	echo(t, newTestClient(t), s.Addr(), SerializeJSON, []byte("plaintext remoting"))
}

func TestPrefaceWithoutHTTP2ServerIsABadFrame(t *testing.T) {
	s, closed := startHygieneServer(t, ServerOptions{})
	conn := dialRaw(t, s.Addr())
	_, err := io.WriteString(conn, testPreface)
	require.NoError(t, err)
	select {
	case <-closed:
	case <-time.After(hygieneWait):
		t.Fatal("a server without HTTP2 kept a connection whose frame length is the preface")
	}
}

// raftLike is a Diversion for "RAFT": each connection handed to it goes on
// the channel, and answers its first line read back, prefixed with "took:".
func raftLike(t *testing.T) (Diversion, chan net.Conn) {
	got := make(chan net.Conn, 4)
	return Diversion{Head: "RAFT", Take: func(c net.Conn) {
		t.Cleanup(func() { _ = c.Close() })
		got <- c
		line, err := bufio.NewReader(c).ReadString('\n')
		if err == nil {
			_, _ = io.WriteString(c, "took:"+line)
		}
	}}, got
}

func TestTLSConnectionOpeningWithADiversionHeadIsDiverted(t *testing.T) {
	for _, mode := range []TLSMode{TLSPermissive, TLSEnforcing} {
		t.Run(mode.String(), func(t *testing.T) {
			d, got := raftLike(t)
			s, closed := startHygieneServer(t, ServerOptions{TLSMode: mode, TLSConfig: serverTLS(t), Diversions: []Diversion{d}})
			conn, err := tls.Dial("tcp", s.Addr(), clientTLS())
			require.NoError(t, err)
			t.Cleanup(func() { _ = conn.Close() })
			// the head in pieces, inside TLS
			_, err = io.WriteString(conn, "RA")
			require.NoError(t, err)
			_, err = io.WriteString(conn, "FT over TLS\n")
			require.NoError(t, err)
			assert.Equal(t, "took:RAFT over TLS\n", readLine(t, conn), "the decrypted bytes read before the hand-over are replayed")
			handed := <-got
			assert.Equal(t, conn.LocalAddr().String(), handed.RemoteAddr().String(), "the Diversion sees the client's address")
			<-closed // its channel is told closed, having carried no frame
			// a TLS remoting client stays here
			echo(t, newTLSTestClient(t), s.Addr(), SerializeRocketMQ, []byte("remoting over TLS beside the Diversion"))
			assert.Equal(t, 1, s.Connections(), "the diverted connection no longer counts")
		})
	}
}

func TestPlaintextDiversionHeadIsDivertedUnlessEnforcing(t *testing.T) {
	for _, mode := range []TLSMode{TLSDisabled, TLSPermissive, TLSEnforcing} {
		t.Run(mode.String(), func(t *testing.T) {
			d, got := raftLike(t)
			s, closed := startHygieneServer(t, ServerOptions{TLSMode: mode, TLSConfig: serverTLS(t), Diversions: []Diversion{d}})
			conn := dialRaw(t, s.Addr())
			_, err := io.WriteString(conn, "RAFT in plaintext\n")
			require.NoError(t, err)
			if mode != TLSEnforcing {
				assert.Equal(t, "took:RAFT in plaintext\n", readLine(t, conn))
				<-got
				return
			}
			require.NoError(t, conn.SetReadDeadline(time.Now().Add(hygieneWait)))
			n, err := conn.Read(make([]byte, 64))
			assert.Equal(t, 0, n, "no answer")
			assert.ErrorIs(t, err, io.EOF, "the enforcing server closed the connection")
			<-closed
			assert.Empty(t, got, "nothing was handed to the Diversion")
		})
	}
}

func TestTLSDiversionHeadIsRefusedInDisabledMode(t *testing.T) {
	d, got := raftLike(t)
	s, closed := startHygieneServer(t, ServerOptions{TLSMode: TLSDisabled, TLSConfig: serverTLS(t), Diversions: []Diversion{d}})
	raw := dialRaw(t, s.Addr())
	conn := tls.Client(raw, clientTLS())
	require.NoError(t, conn.SetDeadline(time.Now().Add(hygieneWait)))
	assert.Error(t, conn.Handshake(), "a disabled server closes a TLS connection")
	<-closed
	assert.Empty(t, got)
}
