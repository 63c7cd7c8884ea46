package namesrv

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// Brokers older than V3_0_11 send the bare TopicConfigSerializeWrapper.
func TestRegistrationOfPre3011Broker(t *testing.T) {
	t.Parallel()
	ns := startNameServer(t, testOptions(t, t.TempDir()))
	c := newClient(t)
	body := []byte(`{"dataVersion":{"counter":1,"timestamp":1},"topicConfigTable":{"Old":{"topicName":"Old","readQueueNums":2,` +
		`"writeQueueNums":2,"perm":6},"TBW102":{"topicName":"TBW102"}}}`)
	require.Equal(t, int32(remoting.Success), call(t, c, ns.Addr(), registerRequest(brokerA, body, false, 36)).Code)
	assert.Contains(t, string(call(t, c, ns.Addr(), routeRequest("Old", 36)).Body), `"readQueueNums":2`)
}

func TestFilterServersInRoute(t *testing.T) {
	t.Parallel()
	ns := startNameServer(t, testOptions(t, t.TempDir()))
	c := newClient(t)
	body := []byte(`{"filterServerList":["192.168.1.10:40000"],"topicConfigSerializeWrapper":{"dataVersion":{"counter":1,` +
		`"timestamp":1},"topicConfigTable":{"T":{"topicName":"T"},"U":{"topicName":"U"}}}}`)
	require.Equal(t, int32(remoting.Success), call(t, c, ns.Addr(), registerRequest(brokerA, body, false, protocol.VersionV4_9_8)).Code)
	assert.Contains(t, string(call(t, c, ns.Addr(), routeRequest("T", protocol.VersionV4_9_8)).Body),
		`"filterServerTable":{"192.168.1.10:10911":["192.168.1.10:40000"]}`)
	register(t, c, ns.Addr(), brokerA, 2) // filterServerList [] clears them
	assert.Contains(t, string(call(t, c, ns.Addr(), routeRequest("T", protocol.VersionV4_9_8)).Body), `"filterServerTable":{}`)
}

// 5.x slave acting master: with the master gone, the smallest slave of an
// enableActingMaster group registers the topics read-only, and with
// supportActingMaster routes show it as id 0.
func TestActingMaster(t *testing.T) {
	t.Parallel()
	o := testOptions(t, t.TempDir())
	o.SupportActingMaster = true
	ns := startNameServer(t, o)
	c := newClient(t)
	slave := broker{"DefaultCluster", "broker-a", "192.168.1.11:10911", 1}
	req := registerRequest(slave, body498(1), false, protocol.VersionV5_3_3)
	req.SetExt("enableActingMaster", "true")
	require.Equal(t, int32(remoting.Success), call(t, c, ns.Addr(), req).Code)
	body := string(call(t, c, ns.Addr(), routeRequest("TopicTest", protocol.VersionV5_3_3)).Body)
	assert.Contains(t, body, `"brokerAddrs":{"0":"192.168.1.11:10911"}`)
	assert.Contains(t, body, `"enableActingMaster":true`)
	assert.Contains(t, body, `"perm":4,`)
}

func TestDeleteTopicWithBrokerRegistration(t *testing.T) {
	t.Parallel()
	o := testOptions(t, t.TempDir())
	o.DeleteTopicWithBrokerRegistration = true
	ns := startNameServer(t, o)
	c := newClient(t)
	register(t, c, ns.Addr(), brokerA, 1)
	body := []byte(`{"filterServerList":[],"topicConfigSerializeWrapper":{"dataVersion":{"counter":2,"timestamp":1},` +
		`"topicConfigTable":{"TBW102":{"topicName":"TBW102"},"Other":{"topicName":"Other"}}}}`)
	require.Equal(t, int32(remoting.Success), call(t, c, ns.Addr(), registerRequest(brokerA, body, false, protocol.VersionV5_3_3)).Code)
	assert.Equal(t, int32(remoting.TopicNotExist), routeCode(t, c, ns.Addr(), "TopicTest"))
	assert.Equal(t, int32(remoting.Success), routeCode(t, c, ns.Addr(), "Other"))
}

// A broker id re-registered from another address with an older
// stateVersion is ignored (5.x).
func TestStaleRegistrationIsIgnored(t *testing.T) {
	t.Parallel()
	ns := startNameServer(t, testOptions(t, t.TempDir()))
	c := newClient(t)
	withState := func(b broker, state string) *remoting.Command {
		body := []byte(`{"filterServerList":[],"topicConfigSerializeWrapper":{"dataVersion":{"counter":1,"stateVersion":` +
			state + `,"timestamp":1},"topicConfigTable":{"T":{"topicName":"T"},"U":{"topicName":"U"}}}}`)
		return call(t, c, ns.Addr(), registerRequest(b, body, false, protocol.VersionV5_3_3))
	}
	require.Equal(t, int32(remoting.Success), withState(brokerA, "5").Code)
	impostor := broker{"DefaultCluster", "broker-a", "192.168.1.99:10911", 0}
	require.Equal(t, int32(remoting.Success), withState(impostor, "4").Code)
	body := string(call(t, c, ns.Addr(), routeRequest("T", protocol.VersionV5_3_3)).Body)
	assert.Contains(t, body, `"brokerAddrs":{"0":"192.168.1.10:10911"}`)
	require.Equal(t, int32(remoting.Success), withState(impostor, "6").Code)
	body = string(call(t, c, ns.Addr(), routeRequest("T", protocol.VersionV5_3_3)).Body)
	assert.Contains(t, body, `"brokerAddrs":{"0":"192.168.1.99:10911"}`)
}

// ClusterTest: a topic unknown here comes from the product environment's
// name server; every route is written in the default style.
func TestClusterTestFallsBackToProductEnvironment(t *testing.T) {
	t.Parallel()
	product := startNameServer(t, testOptions(t, t.TempDir()))
	pc := newClient(t)
	register(t, pc, product.Addr(), brokerA, 1)

	o := testOptions(t, t.TempDir())
	o.ClusterTest, o.ProductEnvNamesrvAddr = true, product.Addr()
	ns := startNameServer(t, o)
	c := newClient(t)
	resp := call(t, c, ns.Addr(), routeRequest("TopicTest", protocol.VersionV4_9_8))
	require.Equal(t, int32(remoting.Success), resp.Code)
	assert.Equal(t, routeTopicTestDefault, string(resp.Body))
	assert.Equal(t, int32(remoting.TopicNotExist), routeCode(t, c, ns.Addr(), "Nope"))
}
