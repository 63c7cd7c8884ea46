package broker

import (
	"bytes"
	"encoding/binary"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// pairNamesrv is a name server for a master and its slave: it answers a
// slave's registration with the master's HA address and address, as
// Java's RouteInfoManager does, once master is set.
type pairNamesrv struct {
	addr   string
	master atomic.Pointer[Broker]
}

func startMasterNamesrv(t *testing.T) *pairNamesrv {
	ns := &pairNamesrv{}
	r := remoting.NewRouter(zaptest.NewLogger(t))
	p := r.NewPool(remoting.PoolOptions{Name: "ns", Workers: 2, Queue: 100})
	r.Handle(remoting.RegisterBroker, p, func(req *remoting.Request) *remoting.Command {
		resp := remoting.NewResponse(req.Cmd, remoting.Success, "")
		if m := ns.master.Load(); m != nil && req.Cmd.ExtString("brokerId") != "0" {
			resp.SetExt("haServerAddr", m.ha.master.Addr())
			resp.SetExt("masterAddr", m.Addr())
		}
		return resp
	})
	r.Handle(remoting.UnregisterBroker, p, func(req *remoting.Request) *remoting.Command {
		return remoting.NewResponse(req.Cmd, remoting.Success, "")
	})
	s := remoting.NewServer(remoting.ServerOptions{Addr: "127.0.0.1:0", Router: r, Logger: zaptest.NewLogger(t), EventLoops: 1})
	require.NoError(t, s.Start())
	t.Cleanup(func() { _ = s.Shutdown() })
	ns.addr = s.Addr()
	return ns
}

// slaveConfigs are broker-t's slave (brokerId 1) in dir.
func slaveConfigs(dir, namesrv string) *conf.BrokerConfigs {
	c := testConfigs(dir, namesrv)
	c.Broker.BrokerId = 1
	c.Store.BrokerRole = conf.Slave
	return c
}

func TestReplicaFollowsMasterByteForByte(t *testing.T) {
	ns := startMasterNamesrv(t)
	master := startBroker(t, testConfigs(t.TempDir(), ns.addr), nil)
	ns.master.Store(master)
	c := newClient(t, nil)
	for i := range 30 {
		body := []byte("before-" + strconv.Itoa(i))
		require.Equal(t, int32(remoting.Success), invoke(t, c, master.Addr(), withBody(sendRequest("HA1", int32(i%4), body, nil), body)).Code)
	}
	// No haMasterAddress: the slave learns it from the name server.
	slave := startBroker(t, slaveConfigs(t.TempDir(), ns.addr), nil)
	for i := range 200 {
		body := bytes.Repeat([]byte{byte(i)}, 100+i*13)
		require.Equal(t, int32(remoting.Success), invoke(t, c, master.Addr(), withBody(sendRequest("HA1", int32(i%4), body, nil), body)).Code)
	}
	end := master.store.CommitLogMaxOffset()
	eventually(t, func() bool {
		return slave.store.CommitLogMaxOffset() == end && master.ha.master.AckedOffset() == end
	}, "the slave has the master's commitlog")
	mdir := master.settings.load().Store.StorePathCommitLog
	sdir := slave.settings.load().Store.StorePathCommitLog
	names, err := os.ReadDir(mdir)
	require.NoError(t, err)
	size := int64(master.settings.load().Store.MappedFileSizeCommitLog)
	for i, n := range names {
		if int64(i)*size >= end {
			break
		}
		a, err := os.ReadFile(filepath.Join(mdir, n.Name()))
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(sdir, n.Name()))
		require.NoError(t, err)
		require.True(t, bytes.Equal(a, b), "commitlog %s differs", n.Name())
	}
	dispatched(t, slave)
	dispatched(t, master)
	for q := range int32(4) {
		require.Equal(t, master.store.MaxOffset("HA1", q), slave.store.MaxOffset("HA1", q))
	}
}

func TestSlaveRefusesSend(t *testing.T) {
	ns := startMasterNamesrv(t)
	slave := startBroker(t, slaveConfigs(t.TempDir(), ns.addr), nil)
	resp := invoke(t, newClient(t, nil), slave.Addr(), withBody(sendRequest("HA2", 0, []byte("x"), nil), []byte("x")))
	require.Equal(t, int32(remoting.ServiceNotAvailable), resp.Code)
	require.Contains(t, resp.Remark, "service not available now")
}

// startSyncMaster starts a SYNC_MASTER with syncFlushTimeout ms (0: the
// default) and the name server its slaves learn it from.
func startSyncMaster(t *testing.T, syncFlushTimeout int32) (*pairNamesrv, *Broker) {
	ns := startMasterNamesrv(t)
	c := testConfigs(t.TempDir(), ns.addr)
	c.Store.BrokerRole = conf.SyncMaster
	if syncFlushTimeout > 0 {
		c.Store.SyncFlushTimeout = syncFlushTimeout
	}
	master := startBroker(t, c, nil)
	ns.master.Store(master)
	return ns, master
}

func TestSyncMasterWithoutSlaveAnswersSlaveNotAvailable(t *testing.T) {
	ns, master := startSyncMaster(t, 200)
	cl := newClient(t, nil)
	resp := invoke(t, cl, master.Addr(), withBody(sendRequest("HA3", 0, []byte("x"), nil), []byte("x")))
	require.Equal(t, int32(remoting.SlaveNotAvailable), resp.Code)
	require.NotEmpty(t, resp.ExtString("msgId"), "stored: the ids go back with the code")
	slave := startBroker(t, slaveConfigs(t.TempDir(), ns.addr), nil)
	eventually(t, func() bool { return slave.ha.client.Connected() && master.ha.master.Slaves() == 1 }, "slave connected")
	eventually(t, func() bool {
		return invoke(t, cl, master.Addr(), withBody(sendRequest("HA3", 0, []byte("y"), nil), []byte("y"))).Code == int32(remoting.Success)
	}, "a send the slave acknowledged")
}

func TestSyncMasterAnswersEveryConcurrentSendOnceTheSlaveHasIt(t *testing.T) {
	ns, master := startSyncMaster(t, 0)
	slave := startBroker(t, slaveConfigs(t.TempDir(), ns.addr), nil)
	eventually(t, func() bool { return slave.ha.client.Connected() && master.ha.master.Slaves() == 1 }, "slave connected")
	cl := newClient(t, nil)
	const senders, each = 32, 25
	offsets := make(chan string, senders*each)
	var wg sync.WaitGroup
	for s := range senders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				body := []byte(strconv.Itoa(s*each + i))
				resp := invoke(t, cl, master.Addr(), withBody(sendRequest("HA4", 0, body, nil), body))
				if !assert.Equal(t, int32(remoting.Success), resp.Code, resp.Remark) {
					return
				}
				_, at, err := store.DecodeMessageID(resp.ExtString("msgId"))
				assert.NoError(t, err)
				assert.Greater(t, slave.store.CommitLogMaxOffset(), at, "answered before the slave had it")
				offsets <- resp.ExtString("queueOffset")
			}
		}()
	}
	wg.Wait()
	close(offsets)
	seen := map[string]bool{}
	for o := range offsets {
		require.False(t, seen[o], "queue offset %s answered twice", o)
		seen[o] = true
	}
	require.Len(t, seen, senders*each, "every send answered with its own queue offset")
	require.GreaterOrEqual(t, master.ha.master.AckedOffset(), master.store.CommitLogMaxOffset(), "the slave acked all")
}

func TestSyncMasterWhoseSlaveNeverAcksAnswersFlushSlaveTimeout(t *testing.T) {
	_, master := startSyncMaster(t, 300)
	// A slave that reports where it is once and then never again: connected
	// and close enough (SlaveOK), but no put it waits for is acknowledged.
	hc, err := net.Dial("tcp", master.ha.master.Addr())
	require.NoError(t, err)
	defer hc.Close()
	report := binary.BigEndian.AppendUint64(nil, uint64(master.store.CommitLogMaxOffset()))
	_, err = hc.Write(report)
	require.NoError(t, err)
	eventually(t, func() bool { return master.ha.master.Slaves() == 1 }, "the silent slave connected")
	cl := newClient(t, nil)
	began := time.Now()
	resp := invoke(t, cl, master.Addr(), withBody(sendRequest("HA5", 0, []byte("x"), nil), []byte("x")))
	require.Equal(t, int32(remoting.FlushSlaveTimeout), resp.Code, resp.Remark)
	require.NotEmpty(t, resp.ExtString("msgId"), "stored: the ids go back with the code")
	require.GreaterOrEqual(t, time.Since(began), 300*time.Millisecond, "not before syncFlushTimeout")
}
