package main

// The produce and consume tests run against this project's own name
// server and broker, in process, on free ports.

import (
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/broker"
	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/namesrv"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// startNameServer runs a name server on a free port.
func startNameServer(t *testing.T) *namesrv.NameServer {
	o := namesrv.DefaultOptions()
	o.ListenAddr, o.KVConfigPath, o.Logger = "127.0.0.1:0", filepath.Join(t.TempDir(), "kv.json"), zap.NewNop()
	ns, err := namesrv.New(o)
	require.NoError(t, err)
	require.NoError(t, ns.Start())
	t.Cleanup(func() { _ = ns.Close() })
	return ns
}

// testBroker is a running broker and where its store lives.
type testBroker struct {
	*broker.Broker
	storeDir string
}

// startBroker runs broker-a of DefaultCluster on a free port, registered
// with the name server at nsAddr, with small store files.
func startBroker(t *testing.T, nsAddr string) *testBroker {
	return startBrokerOfLine(t, nsAddr, protocol.Line4)
}

// startBrokerOfLine is startBroker speaking as a broker of line (5: POP).
func startBrokerOfLine(t *testing.T, nsAddr string, line protocol.Line) *testBroker {
	dir := t.TempDir()
	c := conf.DefaultBrokerConfigs(conf.Env{HostName: "bench", LocalAddress: "127.0.0.1",
		SysProps: map[string]string{"user.home": dir}, Vars: map[string]string{"ROCKETMQ_HOME": dir}})
	c.NettyServer.ListenPort = 0
	c.Store.HaListenPort = 0
	c.Broker.BrokerName, c.Broker.NamesrvAddr = "broker-a", nsAddr
	c.Store.StorePathRootDir, c.Store.StorePathCommitLog = dir+"/store", dir+"/store/commitlog"
	c.Store.MappedFileSizeCommitLog, c.Store.MappedFileSizeConsumeQueue = 4<<20, 20*1000
	b, err := broker.New(broker.Options{Configs: c, Line: line, ListenHost: "127.0.0.1", Logger: zap.NewNop()})
	require.NoError(t, err)
	require.NoError(t, b.Start())
	t.Cleanup(func() { _ = b.Close() })
	return &testBroker{Broker: b, storeDir: dir + "/store"}
}

// committed sums a group's committed offsets over a topic's queues.
func (b *testBroker) committed(t *testing.T, group, topic string, queues int) int64 {
	c := remoting.NewClient(remoting.ClientOptions{})
	defer c.Close()
	var sum int64
	for q := range queues {
		req := remoting.NewRequest(remoting.QueryConsumerOffset, map[string]string{"consumerGroup": group, "topic": topic, "queueId": strconv.Itoa(q)})
		resp, err := c.InvokeTimeout(b.Addr(), req, 5*time.Second)
		require.NoError(t, err)
		n, _ := strconv.ParseInt(resp.ExtString("offset"), 10, 64)
		sum += n
	}
	return sum
}

// consumers lists a group's online consumers (none: the broker answers
// SYSTEM_ERROR).
func (b *testBroker) consumers(t *testing.T, group string) int32 {
	c := remoting.NewClient(remoting.ClientOptions{})
	defer c.Close()
	resp, err := c.InvokeTimeout(b.Addr(), remoting.NewRequest(remoting.GetConsumerListByGroup, map[string]string{"consumerGroup": group}), 5*time.Second)
	require.NoError(t, err)
	return resp.Code
}

// stopAndOpenStore stops the broker and opens its store read-only.
func (b *testBroker) stopAndOpenStore(t *testing.T) *store.Store {
	require.NoError(t, b.Close())
	o := store.DefaultOptions()
	o.RootDir, o.ReadOnly = b.storeDir, true
	o.CommitLogFileSize, o.ConsumeQueueFileSize = 4<<20, 20*1000
	st, err := store.Open(o, zap.NewNop())
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	return st
}
