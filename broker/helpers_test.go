package broker

import (
	"context"
	"encoding/binary"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/fastjson"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

const testWait = 20 * time.Second

// testConfigs are a broker's defaults on 127.0.0.1:0 with its store in
// dir and small files.
func testConfigs(dir, namesrv string) *conf.BrokerConfigs {
	c := conf.DefaultBrokerConfigs(conf.Env{HostName: "testhost", LocalAddress: "127.0.0.1",
		SysProps: map[string]string{"user.home": dir}, Vars: map[string]string{"ROCKETMQ_HOME": dir}})
	c.NettyServer.ListenPort = 0
	c.Store.HaListenPort = 0
	c.Broker.BrokerName, c.Broker.BrokerClusterName = "broker-t", "TestCluster"
	c.Broker.NamesrvAddr = namesrv
	c.Store.StorePathRootDir = dir + "/store"
	c.Store.StorePathCommitLog = dir + "/store/commitlog"
	c.Store.MappedFileSizeCommitLog = 1 << 20
	c.Store.MappedFileSizeConsumeQueue = 20 * 1000
	c.Store.MappedFileSizeTimerLog = 64 << 10
	return c
}

// startBroker starts a broker on configs and closes it with the test.
func startBroker(t *testing.T, c *conf.BrokerConfigs, now func() time.Time) *Broker {
	t.Helper()
	b, err := New(Options{Configs: c, Logger: zaptest.NewLogger(t), ListenHost: "127.0.0.1", Now: now})
	require.NoError(t, err)
	require.NoError(t, b.Start())
	t.Cleanup(func() { _ = b.Close() })
	return b
}

// newClient is a remoting client closed with the test; router serves the
// requests the broker sends it (nil: none).
func newClient(t *testing.T, router *remoting.Router) *remoting.Client {
	c := remoting.NewClient(remoting.ClientOptions{Logger: zaptest.NewLogger(t), Router: router})
	t.Cleanup(c.Close)
	return c
}

func invoke(t *testing.T, c *remoting.Client, addr string, req *remoting.Command) *remoting.Command {
	t.Helper()
	resp, err := c.InvokeTimeout(addr, req, testWait)
	require.NoError(t, err)
	return resp
}

// sendRequest is a SEND_MESSAGE_V2 as DefaultMQProducer builds it.
func sendRequest(topic string, queueID int32, body []byte, props map[string]string) *remoting.Command {
	return remoting.NewRequest(remoting.SendMessageV2, map[string]string{
		"a": "PG", "b": topic, "c": TopicAutoCreate, "d": "4", "e": strconv.Itoa(int(queueID)), "f": "0",
		"g": strconv.FormatInt(time.Now().UnixMilli(), 10), "h": "0", "i": store.EncodeProperties(props),
		"j": "0", "k": "false", "m": "false",
	})
}

// withBody sets a request's body.
func withBody(c *remoting.Command, body []byte) *remoting.Command { c.Body = body; return c }

// pullRequest is a PULL_MESSAGE with an explicit tag subscription.
func pullRequest(group, topic string, queueID int32, offset int64, sub string, sysFlag int32, suspend time.Duration) *remoting.Command {
	return remoting.NewRequest(remoting.PullMessage, map[string]string{
		"consumerGroup": group, "topic": topic, "queueId": strconv.Itoa(int(queueID)),
		"queueOffset": strconv.FormatInt(offset, 10), "maxMsgNums": "32", "sysFlag": strconv.Itoa(int(sysFlag)),
		"commitOffset": "0", "suspendTimeoutMillis": strconv.FormatInt(suspend.Milliseconds(), 10),
		"subscription": sub, "subVersion": "0", "expressionType": "TAG",
	})
}

// decodeRecords splits a pull body into records.
func decodeRecords(t *testing.T, body []byte) []store.Record {
	t.Helper()
	var out []store.Record
	for len(body) > 0 {
		n := int(binary.BigEndian.Uint32(body))
		r, err := store.DecodeRecord(body[:n])
		require.NoError(t, err)
		out = append(out, r)
		body = body[n:]
	}
	return out
}

// heartbeatRequest registers a consumer of topic in group.
func heartbeatRequest(t *testing.T, clientID, group, topic, sub string) *remoting.Command {
	s, err := buildSubscription(topic, sub, expressionTypeTag)
	require.NoError(t, err)
	hb := heartbeatData{ClientID: clientID, ConsumerDataSet: []consumerData{{
		GroupName: group, ConsumeType: consumePassively, MessageModel: modelClustering,
		ConsumeFromWhere: "CONSUME_FROM_LAST_OFFSET", SubscriptionDataSet: []subscriptionData{s},
	}}}
	body, err := jsonAPI.Marshal(hb)
	require.NoError(t, err)
	return withBody(remoting.NewRequest(remoting.HeartBeat, nil), body)
}

// fakeNamesrv records the REGISTER_BROKER bodies it receives, and
// answers GET_ROUTEINFO_BY_TOPIC from routes (TOPIC_NOT_EXIST for others).
type fakeNamesrv struct {
	addr   string
	mu     sync.Mutex
	regs   []*protocol.RegisterBrokerBody
	unre   int
	routes map[string]*protocol.TopicRouteData
}

// setRoute sets the route the name server answers for topic (nil: none).
func (f *fakeNamesrv) setRoute(topic string, route *protocol.TopicRouteData) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if route == nil {
		delete(f.routes, topic)
		return
	}
	f.routes[topic] = route
}

func startFakeNamesrv(t *testing.T) *fakeNamesrv {
	return startFakeNamesrvWith(t, remoting.ServerOptions{})
}

// startFakeNamesrvWith is startFakeNamesrv with the server's options
// (TLS) taken from opts.
func startFakeNamesrvWith(t *testing.T, opts remoting.ServerOptions) *fakeNamesrv {
	f := &fakeNamesrv{routes: map[string]*protocol.TopicRouteData{}}
	r := remoting.NewRouter(zaptest.NewLogger(t))
	p := r.NewPool(remoting.PoolOptions{Name: "ns", Workers: 2, Queue: 100})
	r.Handle(remoting.RegisterBroker, p, func(req *remoting.Request) *remoting.Command {
		body, err := protocol.DecodeRegisterBrokerBody(req.Cmd.Body, req.Cmd.ExtBool("compressed"), req.Cmd.Version)
		if err == nil {
			f.mu.Lock()
			f.regs = append(f.regs, body)
			f.mu.Unlock()
		}
		return remoting.NewResponse(req.Cmd, remoting.Success, "")
	})
	r.Handle(remoting.GetRouteinfoByTopic, p, func(req *remoting.Request) *remoting.Command {
		f.mu.Lock()
		route := f.routes[req.Cmd.ExtString("topic")]
		f.mu.Unlock()
		if route == nil {
			return remoting.NewResponse(req.Cmd, remoting.TopicNotExist, "No topic route info in name server for the topic")
		}
		resp := remoting.NewResponse(req.Cmd, remoting.Success, "")
		resp.Body = route.AppendJSON(nil, fastjson.Fastjson)
		return resp
	})
	r.Handle(remoting.UnregisterBroker, p, func(req *remoting.Request) *remoting.Command {
		f.mu.Lock()
		f.unre++
		f.mu.Unlock()
		return remoting.NewResponse(req.Cmd, remoting.Success, "")
	})
	opts.Addr, opts.Router, opts.Logger, opts.EventLoops = "127.0.0.1:0", r, zaptest.NewLogger(t), 1
	s := remoting.NewServer(opts)
	require.NoError(t, s.Start())
	t.Cleanup(func() { _ = s.Shutdown() })
	f.addr = s.Addr()
	return f
}

// lastTopics returns the topics of the latest registration.
func (f *fakeNamesrv) lastTopics() map[string]protocol.TopicConfig {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.regs) == 0 {
		return nil
	}
	return f.regs[len(f.regs)-1].TopicConfigSerializeWrapper.TopicConfigTable
}

// dispatched waits until the consume queues hold everything sent so far
// (the dispatcher builds them after a send returns, as Java's reput does).
func dispatched(t *testing.T, b *Broker) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	require.NoError(t, b.store.WaitDispatched(ctx))
}

// eventually polls fn until it holds or the wait is over.
func eventually(t *testing.T, fn func() bool, msg string) {
	t.Helper()
	deadline := time.Now().Add(testWait)
	for !fn() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting: " + msg)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
