package remoting

import (
	"encoding/binary"
	"errors"
	"io"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"
)

// hygieneWait bounds every wait of these tests; nothing is asserted about
// how long a close takes, only that it comes.
const hygieneWait = 30 * time.Second

// eventually polls cond until it holds, failing the test after
// hygieneWait.
func eventually(t *testing.T, cond func() bool, msg string) {
	t.Helper()
	deadline := time.Now().Add(hygieneWait)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting: " + msg)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// startHygieneServer is the echo server with the given limits; closed
// receives each channel the server closes or loses. handlers, when set,
// are served too, on the same pool.
func startHygieneServer(t *testing.T, opts ServerOptions, handlers ...func(*Router, *Pool)) (*Server, chan *Channel) {
	t.Helper()
	log := zaptest.NewLogger(t)
	r := NewRouter(log)
	pool := r.NewPool(PoolOptions{Name: "test", Workers: 2, Queue: 1024})
	r.Handle(echoCode, pool, func(req *Request) *Command {
		resp := NewResponse(req.Cmd, Success, "")
		resp.Body = req.Cmd.Body
		return resp
	})
	for _, h := range handlers {
		h(r, pool)
	}
	closed := make(chan *Channel, 64)
	opts.Addr, opts.Router, opts.Logger, opts.EventLoops = "127.0.0.1:0", r, log, 2
	opts.OnClose = func(ch *Channel) { closed <- ch }
	s := NewServer(opts)
	require.NoError(t, s.Start())
	t.Cleanup(func() { _ = s.Shutdown() })
	return s, closed
}

// halfFrame is the start of a frame announcing 100 bytes, of which it
// carries 10.
func halfFrame() []byte {
	return append(binary.BigEndian.AppendUint32(nil, 100), make([]byte, 10)...)
}

func dialRaw(t *testing.T, addr string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	return conn
}

func TestIdleConnectionIsClosedAfterTheTimeout(t *testing.T) {
	s, closed := startHygieneServer(t, ServerOptions{IdleTimeout: time.Second})
	conn := dialRaw(t, s.Addr())
	_, err := conn.Write(halfFrame())
	require.NoError(t, err)

	eventually(t, func() bool { return len(closed) == 1 }, "the idle connection is closed")
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(hygieneWait)))
	_, err = io.ReadAll(conn)
	assert.NoError(t, err, "the client sees the close (EOF)")
	assert.Zero(t, s.Connections())
}

func TestActiveConnectionsStayOpen(t *testing.T) {
	const timeout = time.Second
	opened := make(chan *Channel, 2)
	s, closed := startHygieneServer(t, ServerOptions{IdleTimeout: timeout, OnOpen: func(ch *Channel) { opened <- ch }})

	// One client keeps sending requests; the other only reads what the
	// server sends it: write activity counts too, as ALL_IDLE does.
	c := newTestClient(t)
	_, err := c.Channel(s.Addr())
	require.NoError(t, err)
	<-opened
	listener := dialRaw(t, s.Addr())
	toListener := <-opened
	go func() { _, _ = io.Copy(io.Discard, listener) }()

	tick := time.NewTicker(timeout / 10)
	defer tick.Stop()
	for end := time.Now().Add(3 * timeout); time.Now().Before(end); <-tick.C {
		resp, err := c.InvokeTimeout(s.Addr(), NewRequest(echoCode, nil), hygieneWait)
		require.NoError(t, err)
		require.Equal(t, int32(Success), resp.Code)
		require.NoError(t, toListener.InvokeOneway(NewRequest(echoCode, nil)))
	}
	assert.Empty(t, closed, "no connection was closed")
	assert.Equal(t, 2, s.Connections())
}

func TestNoIdleTimeoutKeepsQuietConnections(t *testing.T) {
	s, closed := startHygieneServer(t, ServerOptions{})
	conn := dialRaw(t, s.Addr())
	_, err := conn.Write(halfFrame())
	require.NoError(t, err)
	eventually(t, func() bool { return s.Connections() == 1 }, "the connection is open")
	assert.Empty(t, closed)
	assert.Zero(t, s.clock.Load(), "no ticker runs without a timeout")
}

func TestClientThatDoesNotReadIsClosedAtTheOutboundBound(t *testing.T) {
	s, closed := startHygieneServer(t, ServerOptions{MaxOutbound: 256 << 10})
	good := newTestClient(t)

	flooder := dialRaw(t, s.Addr()).(*net.TCPConn)
	require.NoError(t, flooder.SetReadBuffer(4096))
	frame, err := (&Command{Code: int32(echoCode), Body: make([]byte, 64<<10)}).AppendFrame(nil)
	require.NoError(t, err)
	var sent atomic.Int64
	flooded := make(chan error, 1)
	go func() {
		// Requests without ever reading a response, until the server
		// closes the connection (or a gigabyte, far past any buffer).
		for sent.Load() < 1<<30 {
			if _, err := flooder.Write(frame); err != nil {
				flooded <- err
				return
			}
			sent.Add(int64(len(frame)))
		}
		flooded <- errors.New("the server took a gigabyte without closing")
	}()

	for len(closed) == 0 {
		resp, err := good.InvokeTimeout(s.Addr(), NewRequest(echoCode, nil), hygieneWait)
		require.NoError(t, err, "a reading client is served while another floods")
		require.Equal(t, int32(Success), resp.Code)
		if len(flooded) > 0 {
			break
		}
	}
	eventually(t, func() bool { return len(closed) == 1 }, "the flooder is closed")
	err = <-flooded
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "gigabyte")
	resp, err := good.InvokeTimeout(s.Addr(), NewRequest(echoCode, map[string]string{"still": "here"}), hygieneWait)
	require.NoError(t, err)
	assert.Equal(t, int32(Success), resp.Code)
	assert.Equal(t, 1, s.Connections(), "only the reading client is left")
	t.Logf("the flooder sent %d bytes before the close", sent.Load())
}

func TestIdleTick(t *testing.T) {
	assert.Equal(t, 100*time.Millisecond, idleTick(time.Second))
	assert.Equal(t, time.Second, idleTick(120*time.Second))
	assert.Equal(t, time.Millisecond, idleTick(time.Microsecond))
}
