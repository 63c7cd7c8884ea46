package broker

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/configfile"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// masterLateNamesrv answers REGISTER_BROKER without a master until
// withoutMaster registrations have come, then with masterHA: a new master
// whose own registration comes after its slave's.
type masterLateNamesrv struct {
	addr          string
	masterHA      string
	withoutMaster int
	mu            sync.Mutex
	regs          int
}

func startMasterLateNamesrv(t *testing.T, withoutMaster int) *masterLateNamesrv {
	ns := &masterLateNamesrv{masterHA: "127.0.0.9:10912", withoutMaster: withoutMaster}
	r := remoting.NewRouter(zaptest.NewLogger(t))
	p := r.NewPool(remoting.PoolOptions{Name: "ns", Workers: 1, Queue: 100})
	r.Handle(remoting.RegisterBroker, p, func(req *remoting.Request) *remoting.Command {
		resp := remoting.NewResponse(req.Cmd, remoting.Success, "")
		ns.mu.Lock()
		defer ns.mu.Unlock()
		ns.regs++
		if ns.regs > ns.withoutMaster {
			resp.SetExt("haServerAddr", ns.masterHA)
			resp.SetExt("masterAddr", "127.0.0.9:10911")
		}
		return resp
	})
	s := remoting.NewServer(remoting.ServerOptions{Addr: "127.0.0.1:0", Router: r, Logger: zaptest.NewLogger(t), EventLoops: 1})
	require.NoError(t, s.Start())
	t.Cleanup(func() { _ = s.Shutdown() })
	ns.addr = s.Addr()
	return ns
}

func (ns *masterLateNamesrv) registrations() int {
	ns.mu.Lock()
	defer ns.mu.Unlock()
	return ns.regs
}

// controllerSlaveRegistrar is the registrar of a controller-mode broker
// that is a slave now; learned receives the master HA addresses answered.
func controllerSlaveRegistrar(t *testing.T, namesrv string, role conf.BrokerRole) (*registrar, chan string) {
	c := testConfigs(t.TempDir(), namesrv)
	c.Broker.EnableControllerMode = true
	c.Store.BrokerRole = role
	live := newLiveSettings(c)
	l := newLine(protocol.Line5)
	topics, err := newTopicTable(configfile.Dir{Path: t.TempDir(), Line: l.Line}, live, zaptest.NewLogger(t), time.Now)
	require.NoError(t, err)
	r := newRegistrar(zaptest.NewLogger(t), l, live, newIdentity(c), topics, nil)
	r.masterRetryDelay = time.Millisecond
	t.Cleanup(r.client.Close)
	learned := make(chan string, 100)
	r.onMaster = func(haServerAddr, _ string) { learned <- haServerAddr }
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() { defer close(done); r.loop(stop) }()
	t.Cleanup(func() { close(stop); <-done })
	return r, learned
}

func TestASlaveWhoseNewMasterHasNotRegisteredYetRegistersAgainUntilItHasIt(t *testing.T) {
	ns := startMasterLateNamesrv(t, 2)
	r, learned := controllerSlaveRegistrar(t, ns.addr, conf.Slave)
	r.roleChangedNow()
	assert.Equal(t, "", answered(t, learned), "the first answer names no master")
	assert.Equal(t, "", answered(t, learned), "nor the second")
	assert.Equal(t, ns.masterHA, answered(t, learned), "the third does")
	require.Never(t, func() bool { return ns.registrations() > 3 }, 200*time.Millisecond, 5*time.Millisecond,
		"no registration once the master is known")
}

func TestAMasterDoesNotRegisterAgainForAMissingMaster(t *testing.T) {
	ns := startMasterLateNamesrv(t, 1000)
	r, learned := controllerSlaveRegistrar(t, ns.addr, conf.SyncMaster)
	r.roleChangedNow()
	assert.Equal(t, "", answered(t, learned))
	require.Never(t, func() bool { return ns.registrations() > 1 }, 200*time.Millisecond, 5*time.Millisecond,
		"a master does not wait for a master")
}

// answered is the next master HA address a registration was answered
// with; the periodic registration being 30 s away, none within 10 s means
// none came.
func answered(t *testing.T, learned chan string) string {
	t.Helper()
	select {
	case ha := <-learned:
		return ha
	case <-time.After(10 * time.Second):
		t.Fatal("no registration")
		return ""
	}
}
