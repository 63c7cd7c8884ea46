package controller

import (
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/rmqgo/rmqgo/remoting"
)

// freeAddrs reserves n loopback ports for a group's members (Raft needs
// each member's address before it starts).
func freeAddrs(t *testing.T, n int) []string {
	t.Helper()
	var addrs []string
	var lns []net.Listener
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		lns = append(lns, ln)
		addrs = append(addrs, ln.Addr().String())
	}
	for _, ln := range lns {
		_ = ln.Close()
	}
	return addrs
}

func groupOf(addrs []string) []Member {
	var ms []Member
	for i, a := range addrs {
		ms = append(ms, Member{ID: "n" + strconv.Itoa(i), RaftAddr: a, ControllerAddr: a})
	}
	return ms
}

// testController starts member self of the group with its store in dir.
func testController(t *testing.T, members []Member, self int, dir string, tune func(*Options)) *Controller {
	t.Helper()
	o := DefaultOptions()
	o.ListenAddr = members[self].ControllerAddr
	o.Group = "group1"
	o.Members, o.Self = members, self
	o.StoreDir = dir
	o.Logger = zaptest.NewLogger(t).Named(members[self].ID)
	o.ScanNotActiveBrokerInterval = 200 * time.Millisecond
	o.ScanInactiveMasterInterval = 200 * time.Millisecond
	if tune != nil {
		tune(&o)
	}
	c, err := New(o)
	require.NoError(t, err)
	require.NoError(t, c.Start())
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func newClient(t *testing.T) *remoting.Client {
	c := remoting.NewClient(remoting.ClientOptions{Logger: zaptest.NewLogger(t)})
	t.Cleanup(c.Close)
	return c
}

func call(t *testing.T, c *remoting.Client, addr string, code remoting.RequestCode, ext map[string]string, body []byte) *remoting.Command {
	t.Helper()
	req := remoting.NewRequest(code, ext)
	req.Body = body
	resp, err := c.InvokeTimeout(addr, req, 10*time.Second)
	require.NoError(t, err)
	return resp
}

// leaderOf waits until one of the controllers leads and serves writes.
func leaderOf(t *testing.T, cs ...*Controller) *Controller {
	t.Helper()
	var leader *Controller
	require.Eventually(t, func() bool {
		for _, c := range cs {
			if c.IsLeader() {
				leader = c
				return true
			}
		}
		return false
	}, 20*time.Second, 20*time.Millisecond, "no controller became the leader")
	return leader
}

// fakeBroker is a broker's remoting port: it records the
// NOTIFY_BROKER_ROLE_CHANGED it is sent.
type fakeBroker struct {
	srv      *remoting.Server
	notified chan *remoting.Command
}

func startFakeBroker(t *testing.T) *fakeBroker {
	t.Helper()
	b := &fakeBroker{notified: make(chan *remoting.Command, 16)}
	r := remoting.NewRouter(zaptest.NewLogger(t))
	pool := r.NewPool(remoting.PoolOptions{Name: "admin", Workers: 1, Queue: 16})
	r.Handle(remoting.NotifyBrokerRoleChanged, pool, func(req *remoting.Request) *remoting.Command {
		b.notified <- req.Cmd
		return nil
	})
	b.srv = remoting.NewServer(remoting.ServerOptions{Addr: "127.0.0.1:0", Router: r, Logger: zaptest.NewLogger(t)})
	require.NoError(t, b.srv.Start())
	t.Cleanup(func() { _ = b.srv.Shutdown() })
	return b
}
