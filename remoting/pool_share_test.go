package remoting

import (
	"crypto/tls"
	"net"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shareCode is served by a pool that bounds each connection's share.
const shareCode RequestCode = 11

// pipeline writes n requests of code on conn at once, their opaques 0 to
// n-1.
func pipeline(t *testing.T, conn net.Conn, code RequestCode, n int) {
	t.Helper()
	var frames []byte
	for i := range n {
		var err error
		frames, err = (&Command{Code: int32(code), Opaque: int32(i)}).AppendFrame(frames)
		require.NoError(t, err)
	}
	_, err := conn.Write(frames)
	require.NoError(t, err)
}

// readAnswers reads n responses from conn and returns their opaques.
func readAnswers(t *testing.T, conn net.Conn, n int) []int32 {
	t.Helper()
	var opaques []int32
	for range n {
		cmd, _, err := readOneFrame(conn)
		require.NoError(t, err)
		require.True(t, cmd.IsResponse())
		opaques = append(opaques, cmd.Opaque)
	}
	return opaques
}

// shareConns are the two ways a client reaches the server: plaintext on
// the event loop, and TLS, read by a goroutine of its own.
var shareConns = []struct {
	name string
	opts ServerOptions
	dial func(t *testing.T, addr string) net.Conn
}{
	{"plaintext", ServerOptions{}, dialRaw},
	{"tls", ServerOptions{TLSMode: TLSPermissive}, func(t *testing.T, addr string) net.Conn {
		return tls.Client(dialRaw(t, addr), clientTLS())
	}},
}

// overEachConnKind runs test as a subtest for each of shareConns, with
// the server options (TLS configured where it is on) and the dialer.
func overEachConnKind(t *testing.T, test func(*testing.T, ServerOptions, func(*testing.T, string) net.Conn)) {
	for _, sc := range shareConns {
		t.Run(sc.name, func(t *testing.T) {
			opts := sc.opts
			if opts.TLSMode != TLSDisabled {
				opts.TLSConfig = serverTLS(t)
			}
			test(t, opts, sc.dial)
		})
	}
}

func TestPoolHoldsAtMostItsShareOfOneConnection(t *testing.T) {
	overEachConnKind(t, testPoolShare)
}

func testPoolShare(t *testing.T, opts ServerOptions, dial func(*testing.T, string) net.Conn) {
	const (
		share = 2
		asks  = 12
	)
	var (
		mu              sync.Mutex
		running, most   int
		release         = make(chan struct{})
		arrived, served int
	)
	s, _ := startHygieneServer(t, opts, func(r *Router, _ *Pool) {
		pool := r.NewPool(PoolOptions{Name: "share", Workers: 8, Queue: 1024, PerConnection: share})
		r.Handle(shareCode, pool, func(req *Request) *Command {
			mu.Lock()
			running, arrived = running+1, arrived+1
			most = max(most, running)
			mu.Unlock()
			<-release
			mu.Lock()
			running, served = running-1, served+1
			mu.Unlock()
			return NewResponse(req.Cmd, Success, "")
		})
	})
	var once sync.Once
	t.Cleanup(func() { once.Do(func() { close(release) }) }) // a failed test leaves none blocked
	conn := dial(t, s.Addr())
	pipeline(t, conn, shareCode, asks)
	count := func(v *int) func() int { return func() int { mu.Lock(); defer mu.Unlock(); return *v } }
	arrivedNow, servedNow := count(&arrived), count(&served)
	for i := range asks {
		eventually(t, func() bool { return arrivedNow() == min(i+share, asks) }, "the next request is decoded once one is done")
		release <- struct{}{}
		eventually(t, func() bool { return servedNow() == i+1 }, "the released request is served")
	}
	// Any of the blocked handlers may take a release: every request is
	// answered once, in whatever order they were served.
	want := make([]int32, asks)
	for i := range want {
		want[i] = int32(i)
	}
	assert.ElementsMatch(t, want, readAnswers(t, conn, asks))
	assert.Equal(t, share, most, "at most the connection's share was in the pool at a time")
}

func TestParkedRequestsLeaveTheConnectionsShare(t *testing.T) {
	const asks = 10
	var (
		mu     sync.Mutex
		parked []*Request
	)
	s, _ := startHygieneServer(t, ServerOptions{}, func(r *Router, _ *Pool) {
		pool := r.NewPool(PoolOptions{Name: "share", Workers: 2, Queue: 1024, PerConnection: 2})
		r.Handle(shareCode, pool, func(req *Request) *Command {
			mu.Lock()
			parked = append(parked, req)
			mu.Unlock()
			return nil // answered later, as a long-polling pull
		})
	})
	conn := dialRaw(t, s.Addr())
	pipeline(t, conn, shareCode, asks)
	eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(parked) == asks },
		"every request reaches the handler: parked ones hold no share")
	mu.Lock()
	for _, req := range parked {
		resp := NewResponse(req.Cmd, Success, "")
		resp.Opaque, resp.Flag = req.Cmd.Opaque, resp.Flag|FlagResponse
		require.NoError(t, req.Ch.Send(resp))
	}
	mu.Unlock()
	assert.Len(t, readAnswers(t, conn, asks), asks)
}
