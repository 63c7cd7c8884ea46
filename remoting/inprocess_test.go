package remoting

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"
)

const partsCode RequestCode = 106

// inProcessPair is a started server that serves echoCode (echo) and
// partsCode (a body sent as parts), and a client that reaches it in
// process at a name no socket listens on.
func inProcessPair(t *testing.T, opened, closed chan *Channel, clientRouter *Router) (*Client, *InProcess) {
	t.Helper()
	log := zaptest.NewLogger(t)
	r, pool := echoRouter(log)
	r.Handle(partsCode, pool, func(req *Request) *Command {
		part := []byte("ab")
		released := false
		require.NoError(t, req.SendParts(NewResponse(req.Cmd, Success, "parts"), [][]byte{part, []byte("cd")}, func() { released = true }))
		assert.True(t, released, "parts released once sent")
		part[0] = 'x' // the sender's buffer is its own again
		return nil
	})
	s := NewServer(ServerOptions{Addr: "127.0.0.1:0", Router: r, Logger: log,
		OnOpen: func(ch *Channel) { opened <- ch }, OnClose: func(ch *Channel) { closed <- ch }})
	require.NoError(t, s.Start())
	t.Cleanup(func() { _ = s.Shutdown() })
	ip := &InProcess{Addr: "broker-in-process:10911", Server: s, Remote: "127.0.0.1:8081"}
	c := NewClient(ClientOptions{Logger: log, InProcess: ip, Router: clientRouter})
	t.Cleanup(c.Close)
	return c, ip
}

func TestInProcessCallsReachTheServerWithoutASocket(t *testing.T) {
	opened, closed := make(chan *Channel, 4), make(chan *Channel, 4)
	c, ip := inProcessPair(t, opened, closed, nil)

	req := NewRequest(echoCode, map[string]string{"topic": "TopicTest"})
	req.Body = []byte("ping")
	resp, err := c.InvokeTimeout(ip.Addr, req, 3*time.Second)
	require.NoError(t, err)
	assert.Equal(t, int32(Success), resp.Code)
	assert.Equal(t, "TopicTest", resp.ExtString("topic"))
	assert.Equal(t, []byte("ping"), resp.Body)
	srv := <-opened
	assert.Equal(t, "127.0.0.1:8081", srv.RemoteAddr(), "the server sees the client at Remote")
	assert.Equal(t, 1, ip.Server.Connections())

	resp, err = c.InvokeTimeout(ip.Addr, NewRequest(partsCode, nil), 3*time.Second)
	require.NoError(t, err)
	assert.Equal(t, "parts", resp.Remark)
	assert.Equal(t, []byte("abcd"), resp.Body, "a body sent as parts arrives joined, copied before they were released")

	resp, err = c.InvokeTimeout(ip.Addr, NewRequest(RequestCode(9999), nil), 3*time.Second)
	require.NoError(t, err)
	assert.Equal(t, int32(RequestCodeNotSupported), resp.Code)

	require.NoError(t, c.InvokeOneway(ip.Addr, NewRequest(echoCode, nil)))
}

func TestInProcessServerInvokesTheClientsRouter(t *testing.T) {
	log := zaptest.NewLogger(t)
	cr := NewRouter(log)
	cr.Handle(echoCode, cr.NewPool(PoolOptions{Name: "client"}), func(req *Request) *Command {
		return NewResponse(req.Cmd, Success, "from client "+req.Cmd.ExtString("q"))
	})
	opened, closed := make(chan *Channel, 4), make(chan *Channel, 4)
	c, ip := inProcessPair(t, opened, closed, cr)
	_, err := c.Channel(ip.Addr)
	require.NoError(t, err)
	srv := <-opened
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	resp, err := srv.Invoke(ctx, NewRequest(echoCode, map[string]string{"q": "check"}))
	require.NoError(t, err)
	assert.Equal(t, "from client check", resp.Remark)
}

func TestInProcessCloseFailsCallsTellsBothEndsAndRedials(t *testing.T) {
	opened, closed := make(chan *Channel, 4), make(chan *Channel, 4)
	c, ip := inProcessPair(t, opened, closed, nil)
	cli, err := c.Channel(ip.Addr)
	require.NoError(t, err)
	srv := <-opened

	require.NoError(t, srv.Close(), "the server closes the connection (an expired client)")
	assert.Same(t, srv, <-closed, "the server's OnClose is told")
	assert.True(t, cli.Closed())
	assert.Equal(t, 0, ip.Server.Connections())
	_, err = cli.InvokeTimeout(NewRequest(echoCode, nil), time.Second)
	assert.ErrorIs(t, err, ErrChannelClosed)
	assert.ErrorIs(t, srv.Send(NewRequest(echoCode, nil)), ErrChannelClosed)

	resp, err := c.InvokeTimeout(ip.Addr, NewRequest(echoCode, nil), 3*time.Second)
	require.NoError(t, err, "the next call opens a new in-process connection")
	assert.Equal(t, int32(Success), resp.Code)
	assert.NotSame(t, srv, <-opened)
}

func TestInProcessDialOpensAConnectionPerClient(t *testing.T) {
	log := zaptest.NewLogger(t)
	cr := NewRouter(log)
	cr.Handle(echoCode, cr.NewPool(PoolOptions{Name: "client"}), func(req *Request) *Command {
		return NewResponse(req.Cmd, Success, "answered on "+req.Ch.LocalAddr())
	})
	cr.Start()
	t.Cleanup(cr.Stop)
	opened, closed := make(chan *Channel, 4), make(chan *Channel, 4)
	_, ip := inProcessPair(t, opened, closed, nil)
	gone := make(chan *Channel, 2)
	a := ip.Dial("10.0.0.1:5001", cr, func(ch *Channel) { gone <- ch })
	b := ip.Dial("10.0.0.2:5002", cr, func(ch *Channel) { gone <- ch })
	srvA, srvB := <-opened, <-opened
	assert.Equal(t, "10.0.0.1:5001", srvA.RemoteAddr())
	assert.Equal(t, "10.0.0.2:5002", srvB.RemoteAddr())
	assert.True(t, a.InProcess() && srvA.InProcess())
	assert.Equal(t, 2, ip.Server.Connections())

	resp, err := a.InvokeTimeout(NewRequest(echoCode, map[string]string{"k": "v"}), 3*time.Second)
	require.NoError(t, err)
	assert.Equal(t, "v", resp.ExtString("k"))
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	resp, err = srvB.Invoke(ctx, NewRequest(echoCode, nil))
	require.NoError(t, err)
	assert.Equal(t, "answered on 10.0.0.2:5002", resp.Remark, "the server's request reaches the client on its own connection")

	require.NoError(t, srvA.Close())
	assert.Same(t, a, <-gone)
	assert.Same(t, srvA, <-closed)
	assert.False(t, b.Closed(), "closing one leaves the other")
	require.NoError(t, b.Close())
	assert.Same(t, b, <-gone)
	assert.Equal(t, 0, ip.Server.Connections())
}
