package remoting

import (
	"context"
	"encoding/binary"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"
)

const echoCode RequestCode = 105

// startEchoServer serves echoCode by echoing extFields and body back.
func startEchoServer(t *testing.T, onClose func(*Channel)) *Server {
	t.Helper()
	log := zaptest.NewLogger(t)
	r, _ := echoRouter(log)
	s := NewServer(ServerOptions{Addr: "127.0.0.1:0", Router: r, Logger: log, EventLoops: 2, OnClose: onClose})
	require.NoError(t, s.Start())
	t.Cleanup(func() { _ = s.Shutdown() })
	return s
}

// echoRouter serves echoCode by echoing extFields and body back, on the
// pool it returns.
func echoRouter(log *zap.Logger) (*Router, *Pool) {
	r := NewRouter(log)
	pool := r.NewPool(PoolOptions{Name: "test", Workers: 2, Queue: 1024})
	r.Handle(echoCode, pool, func(req *Request) *Command {
		resp := NewResponse(req.Cmd, Success, "")
		resp.ExtFields = req.Cmd.ExtFields
		resp.Body = req.Cmd.Body
		return resp
	})
	return r, pool
}

func newTestClient(t *testing.T) *Client {
	c := NewClient(ClientOptions{Logger: zaptest.NewLogger(t)})
	t.Cleanup(c.Close)
	return c
}

func TestServerAnswersInTheRequestsEncoding(t *testing.T) {
	s := startEchoServer(t, nil)
	c := newTestClient(t)
	for _, st := range []SerializeType{SerializeJSON, SerializeRocketMQ} {
		req := NewRequest(echoCode, map[string]string{"topic": "TopicTest"})
		req.SerializeType = st
		req.Body = []byte("ping")
		resp, err := c.InvokeTimeout(s.Addr(), req, 3*time.Second)
		require.NoError(t, err)
		assert.Equal(t, int32(Success), resp.Code)
		assert.Equal(t, st, resp.SerializeType)
		assert.Equal(t, req.Opaque, resp.Opaque)
		assert.Equal(t, "TopicTest", resp.ExtString("topic"))
		assert.Equal(t, []byte("ping"), resp.Body)
	}
}

func TestUnknownCodeIsNotSupportedAndConnectionStays(t *testing.T) {
	s := startEchoServer(t, nil)
	c := newTestClient(t)
	resp, err := c.InvokeTimeout(s.Addr(), NewRequest(RequestCode(9999), nil), 3*time.Second)
	require.NoError(t, err)
	assert.Equal(t, int32(RequestCodeNotSupported), resp.Code)
	assert.Equal(t, " request type 9999 not supported", resp.Remark)
	resp, err = c.InvokeTimeout(s.Addr(), NewRequest(echoCode, nil), 3*time.Second)
	require.NoError(t, err)
	assert.Equal(t, int32(Success), resp.Code)
}

func TestManyConcurrentCallsMatchByOpaque(t *testing.T) {
	s := startEchoServer(t, nil)
	c := newTestClient(t)
	var wg sync.WaitGroup
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			body := []byte{byte(i), byte(i >> 8)}
			resp, err := c.InvokeTimeout(s.Addr(), &Command{Code: int32(echoCode), Body: body}, 5*time.Second)
			if assert.NoError(t, err) {
				assert.Equal(t, body, resp.Body)
			}
		}(i)
	}
	wg.Wait()
}

func TestAsyncAndOnewayCalls(t *testing.T) {
	s := startEchoServer(t, nil)
	c := newTestClient(t)
	got := make(chan *Command, 1)
	c.InvokeAsync(s.Addr(), NewRequest(echoCode, map[string]string{"k": "v"}), 3*time.Second, func(resp *Command, err error) {
		assert.NoError(t, err)
		got <- resp
	})
	assert.Equal(t, "v", (<-got).ExtString("k"))
	require.NoError(t, c.InvokeOneway(s.Addr(), NewRequest(echoCode, nil)))
	// A oneway request gets no answer: the next call's response is its own.
	resp, err := c.InvokeTimeout(s.Addr(), NewRequest(echoCode, map[string]string{"n": "2"}), 3*time.Second)
	require.NoError(t, err)
	assert.Equal(t, "2", resp.ExtString("n"))
}

func TestCallTimesOutWhenNoAnswer(t *testing.T) {
	log := zaptest.NewLogger(t)
	r := NewRouter(log)
	r.Handle(echoCode, r.NewPool(PoolOptions{Name: "silent"}), func(*Request) *Command { return nil })
	s := NewServer(ServerOptions{Addr: "127.0.0.1:0", Router: r, Logger: log})
	require.NoError(t, s.Start())
	t.Cleanup(func() { _ = s.Shutdown() })
	c := newTestClient(t)
	_, err := c.InvokeTimeout(s.Addr(), NewRequest(echoCode, nil), 100*time.Millisecond)
	assert.ErrorIs(t, err, ErrCallTimeout)
}

func TestBadFrameClosesOnlyThatConnection(t *testing.T) {
	closed := make(chan *Channel, 4)
	s := startEchoServer(t, func(ch *Channel) { closed <- ch })
	good := newTestClient(t)
	_, err := good.InvokeTimeout(s.Addr(), NewRequest(echoCode, nil), 3*time.Second)
	require.NoError(t, err)

	for name, garbage := range map[string][]byte{
		"garbage":  []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"),
		"oversize": binary.BigEndian.AppendUint32(nil, 1<<30),
	} {
		conn, err := net.Dial("tcp", s.Addr())
		require.NoError(t, err, name)
		_, err = conn.Write(garbage)
		require.NoError(t, err, name)
		require.NoError(t, conn.SetReadDeadline(time.Now().Add(5*time.Second)))
		_, err = io.ReadAll(conn)
		assert.NoError(t, err, "%s: the server closes the connection (EOF), it does not time out", name)
		_ = conn.Close()
		select {
		case <-closed:
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: server did not report the close", name)
		}
	}
	resp, err := good.InvokeTimeout(s.Addr(), NewRequest(echoCode, map[string]string{"still": "here"}), 3*time.Second)
	require.NoError(t, err)
	assert.Equal(t, "here", resp.ExtString("still"))
}

func TestServerInvokesClientOverItsConnection(t *testing.T) {
	// The broker asks producers (CHECK_TRANSACTION_STATE) over the
	// connection they opened; the client's router answers.
	log := zaptest.NewLogger(t)
	channels := make(chan *Channel, 1)
	s := NewServer(ServerOptions{Addr: "127.0.0.1:0", Logger: log, OnOpen: func(ch *Channel) { channels <- ch }})
	require.NoError(t, s.Start())
	t.Cleanup(func() { _ = s.Shutdown() })

	cr := NewRouter(log)
	cr.Handle(echoCode, cr.NewPool(PoolOptions{Name: "client"}), func(req *Request) *Command {
		resp := NewResponse(req.Cmd, Success, "from client")
		return resp
	})
	c := NewClient(ClientOptions{Logger: log, Router: cr})
	t.Cleanup(c.Close)
	_, err := c.Channel(s.Addr())
	require.NoError(t, err)
	ch := <-channels
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	resp, err := ch.Invoke(ctx, NewRequest(echoCode, nil))
	require.NoError(t, err)
	assert.Equal(t, "from client", resp.Remark)
}

func TestClosedChannelFailsPendingCalls(t *testing.T) {
	log := zaptest.NewLogger(t)
	r := NewRouter(log)
	r.Handle(echoCode, r.NewPool(PoolOptions{Name: "closer"}), func(req *Request) *Command {
		_ = req.Ch.Close()
		return nil
	})
	s := NewServer(ServerOptions{Addr: "127.0.0.1:0", Router: r, Logger: log})
	require.NoError(t, s.Start())
	t.Cleanup(func() { _ = s.Shutdown() })
	c := newTestClient(t)
	_, err := c.InvokeTimeout(s.Addr(), NewRequest(echoCode, nil), 10*time.Second)
	assert.ErrorIs(t, err, ErrChannelClosed)
}

func TestFullPoolAnswersSystemBusy(t *testing.T) {
	log := zaptest.NewLogger(t)
	r := NewRouter(log)
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	r.Handle(echoCode, r.NewPool(PoolOptions{Name: "tiny", Workers: 1, Queue: 1}), func(req *Request) *Command {
		started <- struct{}{}
		<-release
		return NewResponse(req.Cmd, Success, "")
	})
	s := NewServer(ServerOptions{Addr: "127.0.0.1:0", Router: r, Logger: log})
	require.NoError(t, s.Start())
	t.Cleanup(func() { _ = s.Shutdown() })
	c := newTestClient(t)
	results := make(chan *Command, 3)
	c.InvokeAsync(s.Addr(), NewRequest(echoCode, nil), 10*time.Second, func(r *Command, _ error) { results <- r })
	<-started // the worker is busy with the first
	c.InvokeAsync(s.Addr(), NewRequest(echoCode, nil), 10*time.Second, func(r *Command, _ error) { results <- r })
	// Frames of one connection are dispatched in order: the second waits
	// in the queue, so the third finds it full.
	resp, err := c.InvokeTimeout(s.Addr(), NewRequest(echoCode, nil), 10*time.Second)
	require.NoError(t, err)
	assert.Equal(t, int32(SystemBusy), resp.Code)
	assert.Equal(t, remarkOverload, resp.Remark)
	close(release)
	for i := 0; i < 2; i++ {
		assert.Equal(t, int32(Success), (<-results).Code)
	}
}

// A handler that answers later (a parked pull) resubmits its request to
// the pool that served it; the answer goes out through the normal reply
// path, with the request's opaque.
func TestResubmittedRequestIsAnsweredThroughItsPool(t *testing.T) {
	log := zaptest.NewLogger(t)
	r := NewRouter(log)
	pool := r.NewPool(PoolOptions{Name: "parking", Workers: 1, Queue: 8})
	parked := make(chan *Request, 1)
	r.Handle(echoCode, pool, func(req *Request) *Command {
		parked <- req
		return nil
	})
	s := NewServer(ServerOptions{Addr: "127.0.0.1:0", Router: r, Logger: log, EventLoops: 1})
	require.NoError(t, s.Start())
	t.Cleanup(func() { _ = s.Shutdown() })
	c := newTestClient(t)
	done := make(chan *Command, 1)
	go func() {
		resp, err := c.InvokeTimeout(s.Addr(), NewRequest(echoCode, nil), 10*time.Second)
		assert.NoError(t, err)
		done <- resp
	}()
	req := <-parked
	require.True(t, req.Resubmit(func(req *Request) *Command { return NewResponse(req.Cmd, PullNotFound, "woken") }))
	resp := <-done
	require.NotNil(t, resp)
	assert.Equal(t, int32(PullNotFound), resp.Code)
	assert.Equal(t, "woken", resp.Remark)
	assert.False(t, (&Request{Cmd: req.Cmd}).Resubmit(NotSupported), "a request that no pool served")
}
