package remoting

import (
	"crypto/tls"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// blobCode is answered with blobSize bytes, as a pull is with messages.
const (
	blobCode RequestCode = 106
	blobSize             = 64 << 10
)

// blobServer serves blobCode and counts the requests it answered, by the
// client's address.
type blobServer struct {
	mu       sync.Mutex
	answered map[string]int
}

func (b *blobServer) register(r *Router, pool *Pool) {
	blob := make([]byte, blobSize)
	r.Handle(blobCode, pool, func(req *Request) *Command {
		b.mu.Lock()
		b.answered[req.Ch.RemoteAddr()]++
		b.mu.Unlock()
		resp := NewResponse(req.Cmd, Success, "")
		resp.Body = blob
		return resp
	})
}

func (b *blobServer) answeredTo(c net.Conn) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.answered[c.LocalAddr().String()]
}

// dialNonReader opens a connection with dial that sends n blob requests
// at once and never reads (a small receive buffer, so the server's bytes
// back up).
func dialNonReader(t *testing.T, dial func(*testing.T, string) net.Conn, addr string, n int) net.Conn {
	t.Helper()
	conn := dial(t, addr)
	raw := conn
	if tc, ok := conn.(*tls.Conn); ok {
		raw = tc.NetConn()
	}
	require.NoError(t, raw.(*net.TCPConn).SetReadBuffer(4096))
	pipeline(t, conn, blobCode, n)
	return conn
}

// peakSampler records the largest OutboundBytes seen, every millisecond,
// until stopped.
func peakSampler(s *Server) (stop func() int64) {
	var peak int64
	done, exited := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(exited)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			peak = max(peak, s.OutboundBytes())
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	}()
	return func() int64 { close(done); <-exited; return peak }
}

func TestClientsThatDoNotReadAreHeldOverTheTotalBound(t *testing.T) {
	overEachConnKind(t, testHeldOverTheTotalBound)
}

// testHeldOverTheTotalBound fills the sum of unsent bytes past its bound
// with one connection that does not read, then opens more such
// connections: each is served, its requests are held back, and a client
// that reads is still answered.
func testHeldOverTheTotalBound(t *testing.T, opts ServerOptions, dial func(*testing.T, string) net.Conn) {
	const (
		bound      = 1 << 20
		fillerAsks = 256 // 16 MiB of answers: the sum goes over the bound
		readers    = 8
		readerAsks = 256
	)
	blobs := &blobServer{answered: map[string]int{}}
	opts.MaxOutboundTotal = bound
	s, _ := startHygieneServer(t, opts, blobs.register)
	good := newTestClient(t)

	// The filler's answers take the sum over the bound; those of its
	// requests not yet decoded by then are held (over TLS the reader
	// decodes record by record while the handlers answer), so how many of
	// them are answered depends on the timing: at most all of them.
	filler := dialNonReader(t, dial, s.Addr(), fillerAsks)
	eventually(t, func() bool { return s.OutboundBytes() > bound }, "the unsent bytes go over the bound")

	stop := peakSampler(s)
	before := s.OutboundBytes()
	var conns []net.Conn
	for range readers {
		conns = append(conns, dialNonReader(t, dial, s.Addr(), readerAsks))
	}
	for _, c := range conns {
		eventually(t, func() bool { return blobs.answeredTo(c) > 0 }, "each reader is served")
	}
	for range 20 {
		resp, err := good.InvokeTimeout(s.Addr(), NewRequest(echoCode, nil), hygieneWait)
		require.NoError(t, err, "a client that reads is answered")
		require.Equal(t, int32(Success), resp.Code)
	}
	peak := stop()

	for _, c := range conns {
		assert.Less(t, blobs.answeredTo(c), readerAsks, "a reader's requests are held back")
	}
	// Each reader adds what its socket took, and then at most a few
	// answers (one per turn, decoded before the previous one was queued).
	assert.LessOrEqual(t, peak, int64(fillerAsks*blobSize+readers*4*blobSize),
		"the sum grows by a few answers a reader, not by the %d MiB they asked for", readers*readerAsks*blobSize>>20)
	t.Logf("unsent bytes: %d before the readers came, peak %d", before, peak)

	for _, c := range append(conns, filler) {
		require.NoError(t, c.Close())
	}
	eventually(t, func() bool { return s.OutboundBytes() == 0 }, "closed connections leave the account")
}
