package remoting

import (
	"bytes"
	"crypto/tls"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"
)

var (
	testCertOnce sync.Once
	testCert     tls.Certificate
	testCertErr  error
)

// serverTLS is a server config with one self-signed certificate, made
// once for the package's tests.
func serverTLS(t *testing.T) *tls.Config {
	t.Helper()
	testCertOnce.Do(func() { testCert, testCertErr = SelfSignedCertificate() })
	require.NoError(t, testCertErr)
	return &tls.Config{Certificates: []tls.Certificate{testCert}}
}

// clientTLS trusts any server, as Java's client does without
// tls.client.authServer.
func clientTLS() *tls.Config { return &tls.Config{InsecureSkipVerify: true} }

func newTLSTestClient(t *testing.T) *Client {
	c := NewClient(ClientOptions{Logger: zaptest.NewLogger(t), TLSConfig: clientTLS()})
	t.Cleanup(c.Close)
	return c
}

// echo calls echoCode with body and checks the answer carries it back.
func echo(t *testing.T, c *Client, addr string, st SerializeType, body []byte) {
	t.Helper()
	req := NewRequest(echoCode, map[string]string{"topic": "TopicTest"})
	req.SerializeType = st
	req.Body = body
	resp, err := c.InvokeTimeout(addr, req, 20*time.Second)
	require.NoError(t, err)
	assert.Equal(t, int32(Success), resp.Code)
	assert.Equal(t, st, resp.SerializeType)
	assert.Equal(t, req.Opaque, resp.Opaque)
	assert.True(t, bytes.Equal(body, resp.Body), "body of %d bytes comes back intact", len(body))
}

// largeBody is a body of several TLS records and buffer sizes, with a
// pattern that shows a lost or reordered chunk.
func largeBody() []byte {
	b := make([]byte, 5<<20+123)
	for i := range b {
		b[i] = byte(i * 7 / 13)
	}
	return b
}

func TestTLSClientIsServedInPermissiveAndEnforcingModes(t *testing.T) {
	for _, mode := range []TLSMode{TLSPermissive, TLSEnforcing} {
		t.Run(mode.String(), func(t *testing.T) {
			s, _ := startHygieneServer(t, ServerOptions{TLSMode: mode, TLSConfig: serverTLS(t)})
			c := newTLSTestClient(t)
			for _, st := range []SerializeType{SerializeJSON, SerializeRocketMQ} {
				echo(t, c, s.Addr(), st, []byte("ping"))
			}
			echo(t, c, s.Addr(), SerializeJSON, largeBody())
			assert.Equal(t, 1, s.Connections())
		})
	}
}

func TestManyConcurrentTLSCallsMatchByOpaque(t *testing.T) {
	s, _ := startHygieneServer(t, ServerOptions{TLSMode: TLSEnforcing, TLSConfig: serverTLS(t)})
	c := newTLSTestClient(t)
	var wg sync.WaitGroup
	for i := 0; i < 100; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			echo(t, c, s.Addr(), SerializeRocketMQ, bytes.Repeat([]byte{byte(i)}, i*100))
		}(i)
	}
	wg.Wait()
}

func TestPlaintextClientIsServedInPermissiveMode(t *testing.T) {
	s, _ := startHygieneServer(t, ServerOptions{TLSMode: TLSPermissive, TLSConfig: serverTLS(t)})
	plain := newTestClient(t)
	echo(t, plain, s.Addr(), SerializeJSON, largeBody())
	echo(t, newTLSTestClient(t), s.Addr(), SerializeJSON, []byte("both on one port"))
	assert.Equal(t, 2, s.Connections())
}

func TestPlaintextClientIsClosedInEnforcingMode(t *testing.T) {
	s, closed := startHygieneServer(t, ServerOptions{TLSMode: TLSEnforcing, TLSConfig: serverTLS(t)})
	conn := dialRaw(t, s.Addr())
	frame, err := NewRequest(echoCode, nil).AppendFrame(nil)
	require.NoError(t, err)
	_, err = conn.Write(frame)
	require.NoError(t, err)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(hygieneWait)))
	n, err := conn.Read(make([]byte, 64))
	assert.Equal(t, 0, n, "no answer")
	assert.ErrorIs(t, err, io.EOF, "the server closed the connection")
	<-closed
	_, err = newTestClient(t).InvokeTimeout(s.Addr(), NewRequest(echoCode, nil), 20*time.Second)
	assert.Error(t, err)
}

func TestTLSClientIsClosedInDisabledModeOrWithoutConfig(t *testing.T) {
	for name, opts := range map[string]ServerOptions{
		"disabled":             {TLSMode: TLSDisabled, TLSConfig: serverTLS(t)},
		"permissive no config": {TLSMode: TLSPermissive},
	} {
		t.Run(name, func(t *testing.T) {
			s, closed := startHygieneServer(t, opts)
			_, err := newTLSTestClient(t).InvokeTimeout(s.Addr(), NewRequest(echoCode, nil), 20*time.Second)
			assert.ErrorContains(t, err, "TLS handshake")
			<-closed
			echo(t, newTestClient(t), s.Addr(), SerializeJSON, []byte("plaintext still served"))
		})
	}
}

func TestTLSConnectionCloseIsReported(t *testing.T) {
	s, closed := startHygieneServer(t, ServerOptions{TLSMode: TLSEnforcing, TLSConfig: serverTLS(t)})
	c := newTLSTestClient(t)
	echo(t, c, s.Addr(), SerializeJSON, []byte("ping"))
	c.CloseChannel(s.Addr())
	ch := <-closed
	assert.True(t, ch.Closed())
	eventually(t, func() bool { return s.Connections() == 0 }, "the TLS connection is no longer counted")
}

func TestIdleTLSConnectionIsClosed(t *testing.T) {
	s, closed := startHygieneServer(t, ServerOptions{TLSMode: TLSEnforcing, TLSConfig: serverTLS(t),
		IdleTimeout: 200 * time.Millisecond})
	c := newTLSTestClient(t)
	echo(t, c, s.Addr(), SerializeJSON, []byte("ping"))
	<-closed
	eventually(t, func() bool { return s.Connections() == 0 }, "the idle TLS connection is closed")
}

func TestServerCloseClosesTLSConnections(t *testing.T) {
	log := zaptest.NewLogger(t)
	r := NewRouter(log)
	r.Handle(echoCode, r.NewPool(PoolOptions{Name: "test", Workers: 1, Queue: 16}), func(req *Request) *Command {
		resp := NewResponse(req.Cmd, Success, "")
		resp.Body = req.Cmd.Body
		return resp
	})
	s := NewServer(ServerOptions{Addr: "127.0.0.1:0", Router: r, Logger: log, TLSMode: TLSPermissive, TLSConfig: serverTLS(t)})
	require.NoError(t, s.Start())
	c := newTLSTestClient(t)
	echo(t, c, s.Addr(), SerializeJSON, []byte("ping"))
	ch, err := c.Channel(s.Addr())
	require.NoError(t, err)
	require.NoError(t, s.Shutdown())
	eventually(t, ch.Closed, "the client sees its TLS connection closed")
}

func TestParseTLSModeIsJavas(t *testing.T) {
	for in, want := range map[string]TLSMode{"disabled": TLSDisabled, "permissive": TLSPermissive,
		"enforcing": TLSEnforcing, "": TLSPermissive, "ENFORCING": TLSPermissive, "strict": TLSPermissive} {
		assert.Equal(t, want, ParseTLSMode(in), in)
	}
}

// splitConn writes its first byte alone, so that the server may see a
// connection's first byte before the rest of the TLS ClientHello.
type splitConn struct {
	net.Conn
	split bool
}

func (c *splitConn) Write(p []byte) (int, error) {
	if c.split || len(p) < 2 {
		return c.Conn.Write(p)
	}
	c.split = true
	if _, err := c.Conn.Write(p[:1]); err != nil {
		return 0, err
	}
	n, err := c.Conn.Write(p[1:])
	return n + 1, err
}

func TestTLSHandshakeSentInPiecesIsServed(t *testing.T) {
	s, _ := startHygieneServer(t, ServerOptions{TLSMode: TLSEnforcing, TLSConfig: serverTLS(t)})
	raw := dialRaw(t, s.Addr())
	tc := tls.Client(&splitConn{Conn: raw}, clientTLS())
	require.NoError(t, tc.Handshake())
	frame, err := NewRequest(echoCode, nil).AppendFrame(nil)
	require.NoError(t, err)
	_, err = tc.Write(frame)
	require.NoError(t, err)
	resp, _, err := readOneFrame(tc)
	require.NoError(t, err)
	assert.Equal(t, int32(Success), resp.Code)
}

// readOneFrame reads one whole frame from r.
func readOneFrame(r io.Reader) (*Command, int, error) {
	var head [4]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return nil, 0, err
	}
	n, err := FrameLength(head[:], MaxFrameLength)
	if err != nil {
		return nil, 0, err
	}
	rest := make([]byte, n-4)
	if _, err := io.ReadFull(r, rest); err != nil {
		return nil, 0, err
	}
	return DecodeFrame(append(head[:], rest...), MaxFrameLength)
}

func TestManyTLSAndPlaintextConnectionsAtOnce(t *testing.T) {
	s, _ := startHygieneServer(t, ServerOptions{TLSMode: TLSPermissive, TLSConfig: serverTLS(t)})
	var wg sync.WaitGroup
	for i := 0; i < 40; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			var c *Client
			if i%2 == 0 {
				c = newTLSTestClient(t)
			} else {
				c = newTestClient(t)
			}
			for j := 0; j < 5; j++ {
				echo(t, c, s.Addr(), SerializeRocketMQ, bytes.Repeat([]byte{byte(i)}, 1000*j))
			}
		}(i)
	}
	wg.Wait()
	assert.Equal(t, 40, s.Connections())
}
