package proxy_test

// The remoting port in cluster mode, against a real broker (this
// project's, line 5, in process): routes, forwarding by broker name, the
// pull's subscription filled in from a heartbeat, the proxy's own answers,
// and gRPC on the same port.

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/proxy"
	"github.com/rmqgo/rmqgo/proxy/apiv2"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

const remotingWait = 10 * time.Second

// startClusterProxy runs a name server, broker-a with topic and a
// cluster-mode proxy in front of them; it returns the proxy.
func startClusterProxy(t *testing.T, topic string) *proxy.Server {
	nsAddr, _ := startBroker(t, topic)
	return clusterProxy(t, nsAddr)
}

// clusterProxy runs a cluster-mode proxy of the name server at nsAddr.
func clusterProxy(t *testing.T, nsAddr string) *proxy.Server {
	cfg := proxy.DefaultConfig()
	cfg.GrpcServerPort, cfg.RemotingListenPort, cfg.NamesrvAddr, cfg.RemotingAccessAddr = 0, 0, nsAddr, "127.0.0.1"
	p, err := proxy.New(proxy.Options{Config: cfg, ListenHost: "127.0.0.1", Logger: zap.NewNop()})
	require.NoError(t, err)
	p.Serve()
	t.Cleanup(p.Close)
	return p
}

// call sends req to the proxy's remoting port.
func call(t *testing.T, c *remoting.Client, p *proxy.Server, req *remoting.Command) *remoting.Command {
	t.Helper()
	resp, err := c.InvokeTimeout(p.RemotingAddr(), req, remotingWait)
	require.NoError(t, err)
	return resp
}

func remotingClient(t *testing.T) *remoting.Client {
	c := remoting.NewClient(remoting.ClientOptions{})
	t.Cleanup(c.Close)
	return c
}

func TestRemotingPortRoutesEveryBrokerToItself(t *testing.T) {
	const topic = "ProxyRemotingRoute"
	p := startClusterProxy(t, topic)
	c := remotingClient(t)
	var route *protocol.TopicRouteData
	require.Eventually(t, func() bool {
		req := remoting.NewRequest(remoting.GetRouteinfoByTopic, map[string]string{"topic": topic})
		req.Version = protocol.VersionV5_3_3
		resp := call(t, c, p, req)
		if resp.Code != int32(remoting.Success) {
			return false
		}
		r, err := protocol.DecodeTopicRouteData(resp.Body)
		require.NoError(t, err)
		route = r
		return true
	}, remotingWait, 50*time.Millisecond, "the route of %s through the proxy", topic)
	require.Len(t, route.BrokerDatas, 1)
	assert.Equal(t, "broker-a", route.BrokerDatas[0].BrokerName)
	for _, a := range route.BrokerDatas[0].BrokerAddrs {
		assert.Equal(t, p.RemotingAddr(), a.Addr, "broker %d", a.ID)
	}
	require.Len(t, route.QueueDatas, 1)
	assert.Equal(t, int32(4), route.QueueDatas[0].WriteQueueNums)

	resp := call(t, c, p, remoting.NewRequest(remoting.GetRouteinfoByTopic, map[string]string{"topic": "NoSuchTopic"}))
	assert.Equal(t, int32(remoting.TopicNotExist), resp.Code)
	assert.Contains(t, resp.Remark, "No topic route info in name server for the topic: NoSuchTopic")
}

func TestRemotingPortForwardsSendAndPullByBrokerName(t *testing.T) {
	const topic, group = "ProxyRemotingSend", "proxy_remoting_cg"
	p := startClusterProxy(t, topic)
	c := remotingClient(t)

	send := remoting.NewRequest(remoting.SendMessageV2, map[string]string{
		"a": "PG", "b": topic, "c": "TBW102", "d": "4", "e": "1", "f": "0",
		"g": strconv.FormatInt(time.Now().UnixMilli(), 10), "h": "0", "i": store.EncodeProperties(map[string]string{"TAGS": "TagA"}),
		"j": "0", "k": "false", "m": "false"})
	send.Body = []byte("through the remoting port")
	resp := call(t, c, p, send)
	assert.Equal(t, int32(remoting.VersionNotSupported), resp.Code, "no broker name")
	assert.Equal(t, "Request doesn't have field bname", resp.Remark)

	send.SetExt("n", "broker-a")
	var sent *remoting.Command
	require.Eventually(t, func() bool { // until the proxy knows broker-a's route
		sent = call(t, c, p, send)
		return sent.Code == int32(remoting.Success)
	}, remotingWait, 50*time.Millisecond)
	assert.Equal(t, "1", sent.ExtString("queueId"))
	assert.Equal(t, "false", sent.ExtString("TRACE_ON"), "stamped as Java's proxy stamps it")

	pull := remoting.NewRequest(remoting.PullMessage, map[string]string{
		"consumerGroup": group, "topic": topic, "queueId": "1", "queueOffset": "0", "maxMsgNums": "32",
		"sysFlag": "2", "commitOffset": "0", "suspendTimeoutMillis": "1000", "subVersion": "0", "bname": "broker-a"})
	resp = call(t, c, p, pull)
	assert.Equal(t, int32(remoting.SubscriptionNotLatest), resp.Code, "no heartbeat yet: %s", resp.Remark)

	hb := remoting.NewRequest(remoting.HeartBeat, nil)
	hb.Body = []byte(`{"clientID":"10.0.0.9@remoting-test","producerDataSet":[],"consumerDataSet":[{"groupName":"` + group +
		`","consumeType":"CONSUME_PASSIVELY","messageModel":"CLUSTERING","consumeFromWhere":"CONSUME_FROM_FIRST_OFFSET",` +
		`"subscriptionDataSet":[{"topic":"` + topic + `","subString":"TagA","tagsSet":["TagA"],"codeSet":[2598919],"subVersion":1,"expressionType":"TAG"}]}]}`)
	resp = call(t, c, p, hb)
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)

	resp = call(t, c, p, pull)
	require.Equal(t, int32(remoting.Success), resp.Code, "FOUND: %s", resp.Remark)
	rec, err := store.DecodeRecord(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, "through the remoting port", string(rec.Body))

	resp = call(t, c, p, remoting.NewRequest(remoting.GetConsumerListByGroup, map[string]string{"consumerGroup": group}))
	require.Equal(t, int32(remoting.Success), resp.Code)
	assert.JSONEq(t, `{"consumerIdList":["10.0.0.9@remoting-test"]}`, string(resp.Body))

	resp = call(t, c, p, remoting.NewRequest(remoting.QueryMessage, nil))
	assert.Equal(t, int32(remoting.RequestCodeNotSupported), resp.Code, "a code the port does not serve")
}

func TestGrpcIsServedOnTheRemotingPort(t *testing.T) {
	const topic = "ProxyRemotingGrpc"
	p := startClusterProxy(t, topic)
	svc := grpcClient(t, p.RemotingAddr())
	require.Eventually(t, func() bool {
		resp, err := svc.QueryRoute(clientCtx(t.Context(), "grpc-on-remoting"), &apiv2.QueryRouteRequest{
			Topic:     &apiv2.Resource{Name: topic},
			Endpoints: &apiv2.Endpoints{Addresses: []*apiv2.Address{{Host: "127.0.0.1", Port: 8081}}}})
		require.NoError(t, err, "a gRPC call answered on the remoting port")
		return resp.GetStatus().GetCode() == apiv2.Code_OK && len(resp.GetMessageQueues()) > 0
	}, remotingWait, 50*time.Millisecond)
}

// Two proxies share their consumers (HeartbeatSyncer): a consumer that
// heartbeats on one is in the group's list on the other, with its
// subscription, until it unregisters.
func TestProxiesShareTheirRemotingConsumers(t *testing.T) {
	const topic, group = "ProxyRemotingSync", "proxy_sync_cg"
	nsAddr, _ := startBroker(t, topic)
	a, b := clusterProxy(t, nsAddr), clusterProxy(t, nsAddr)
	c := remotingClient(t)
	hb := remoting.NewRequest(remoting.HeartBeat, nil)
	hb.Body = []byte(`{"clientID":"10.0.0.7@on-a","producerDataSet":[],"consumerDataSet":[{"groupName":"` + group +
		`","consumeType":"CONSUME_PASSIVELY","messageModel":"CLUSTERING","consumeFromWhere":"CONSUME_FROM_FIRST_OFFSET",` +
		`"subscriptionDataSet":[{"topic":"` + topic + `","subString":"*","tagsSet":[],"codeSet":[],"subVersion":1,"expressionType":"TAG"}]}]}`)
	list := func(p *proxy.Server) string {
		resp := call(t, c, p, remoting.NewRequest(remoting.GetConsumerListByGroup, map[string]string{"consumerGroup": group}))
		return string(resp.Body)
	}
	// a's heartbeats go on until b, once its reader is at the topic's
	// end, has read one (a heartbeat sent before that is not read: it
	// reads from the last offset, as Java's does)
	require.Eventually(t, func() bool {
		require.Equal(t, int32(remoting.Success), call(t, c, a, hb).Code)
		return list(b) == `{"consumerIdList":["10.0.0.7@on-a"]}`
	}, 60*time.Second, 200*time.Millisecond, "the consumer of proxy a listed by proxy b")

	pull := remoting.NewRequest(remoting.PullMessage, map[string]string{
		"consumerGroup": group, "topic": topic, "queueId": "0", "queueOffset": "0", "maxMsgNums": "32",
		"sysFlag": "0", "commitOffset": "0", "suspendTimeoutMillis": "100", "subVersion": "0", "bname": "broker-a"})
	resp := call(t, c, b, pull)
	assert.NotEqual(t, int32(remoting.SubscriptionNotLatest), resp.Code, "b fills in the subscription a's consumer registered")

	unreg := remoting.NewRequest(remoting.UnregisterClient, map[string]string{"clientID": "10.0.0.7@on-a", "consumerGroup": group})
	require.Equal(t, int32(remoting.Success), call(t, c, a, unreg).Code)
	require.Eventually(t, func() bool {
		return call(t, c, b, remoting.NewRequest(remoting.GetConsumerListByGroup, map[string]string{"consumerGroup": group})).Code ==
			int32(remoting.SystemError)
	}, 30*time.Second, 200*time.Millisecond, "b forgets the consumer once a tells it left")
}
