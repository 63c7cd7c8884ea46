package namesrv

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

func routeCode(t *testing.T, c *remoting.Client, addr, topic string) int32 {
	return call(t, c, addr, routeRequest(topic, protocol.VersionV4_9_8)).Code
}

func TestUnregisterRemovesTheBrokerAndItsTopics(t *testing.T) {
	t.Parallel()
	ns := startNameServer(t, testOptions(t, t.TempDir()))
	c := newClient(t)
	register(t, c, ns.Addr(), brokerA, 1)
	slave := broker{"DefaultCluster", "broker-a", "192.168.1.11:10911", 1}
	register(t, c, ns.Addr(), slave, 1)

	unregister := func(b broker) {
		resp := call(t, c, ns.Addr(), request(remoting.UnregisterBroker, protocol.VersionV4_9_8, map[string]string{
			"brokerName": b.name, "brokerAddr": b.addr, "clusterName": b.cluster, "brokerId": "0"}))
		require.Equal(t, int32(remoting.Success), resp.Code)
	}
	unregister(brokerA)
	// The slave keeps the group and its topics; the master is gone.
	body := string(call(t, c, ns.Addr(), routeRequest("TopicTest", protocol.VersionV4_9_8)).Body)
	assert.Contains(t, body, `"brokerAddrs":{"1":"192.168.1.11:10911"}`)
	unregister(slave)
	assert.Equal(t, int32(remoting.TopicNotExist), routeCode(t, c, ns.Addr(), "TopicTest"))
	resp := call(t, c, ns.Addr(), request(remoting.GetBrokerClusterInfo, protocol.VersionV4_9_8, nil))
	assert.Equal(t, `{"brokerAddrTable":{},"clusterAddrTable":{}}`, string(resp.Body))
}

func TestClosedConnectionDropsTheBroker(t *testing.T) {
	t.Parallel()
	ns := startNameServer(t, testOptions(t, t.TempDir()))
	brokerConn := newClient(t)
	c := newClient(t)
	register(t, brokerConn, ns.Addr(), brokerA, 1)
	require.Equal(t, int32(remoting.Success), routeCode(t, c, ns.Addr(), "TopicTest"))
	// A client connection closing changes nothing.
	other := newClient(t)
	routeCode(t, other, ns.Addr(), "TopicTest")
	other.Close()
	brokerConn.Close()
	require.Eventually(t, func() bool {
		return routeCode(t, c, ns.Addr(), "TopicTest") == int32(remoting.TopicNotExist)
	}, 5*time.Second, 10*time.Millisecond)
}

func TestSilentBrokerExpires(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	o := testOptions(t, t.TempDir())
	o.Now, o.ScanNotActiveBrokerInterval = clock.Now, 10*time.Millisecond
	ns := startNameServer(t, o)
	c := newClient(t)
	// Each broker registers over its own connection: expiry closes it.
	register(t, newClient(t), ns.Addr(), brokerA, 1)
	bConn := newClient(t)
	// A 5.x broker with heartbeatTimeoutMillis=300000 that sends heartbeats.
	b := broker{"DefaultCluster", "broker-b", "192.168.1.12:10911", 0}
	req := registerRequest(b, body498(1), false, protocol.VersionV5_3_3)
	req.SetExt("heartbeatTimeoutMillis", "300000")
	require.Equal(t, int32(remoting.Success), call(t, bConn, ns.Addr(), req).Code)

	clock.Advance(121 * time.Second) // broker-a: silent beyond the default 120 s
	require.Eventually(t, func() bool {
		return !contains(call(t, c, ns.Addr(), routeRequest("TopicTest", protocol.VersionV4_9_8)).Body, "broker-a")
	}, 5*time.Second, 10*time.Millisecond)
	heartbeat := request(remoting.BrokerHeartbeat, protocol.VersionV5_3_3, map[string]string{
		"clusterName": b.cluster, "brokerAddr": b.addr, "brokerName": b.name, "brokerId": "0"})
	require.Equal(t, int32(remoting.Success), call(t, bConn, ns.Addr(), heartbeat).Code)
	clock.Advance(200 * time.Second) // 321 s after registering, 200 s after the heartbeat
	assert.Empty(t, ns.routes.scanExpired(), "a scan now finds nothing expired")
	assert.Equal(t, int32(remoting.Success), routeCode(t, c, ns.Addr(), "TopicTest"), "broker-b is alive")
	clock.Advance(101 * time.Second)
	require.Eventually(t, func() bool {
		return routeCode(t, c, ns.Addr(), "TopicTest") == int32(remoting.TopicNotExist)
	}, 5*time.Second, 10*time.Millisecond)
}

// The scan closes the expired broker's connection, as Java does.
func TestExpiryClosesTheBrokerConnection(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	o := testOptions(t, t.TempDir())
	o.Now, o.ScanNotActiveBrokerInterval = clock.Now, 10*time.Millisecond
	ns := startNameServer(t, o)
	closed := make(chan struct{})
	brokerConn := remoting.NewClient(remoting.ClientOptions{OnClose: func(*remoting.Channel) { close(closed) }})
	t.Cleanup(brokerConn.Close)
	register(t, brokerConn, ns.Addr(), brokerA, 1)
	clock.Advance(121 * time.Second)
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("connection of the expired broker still open")
	}
}

func contains(body []byte, s string) bool {
	return len(body) > 0 && string(body) != "" && stringsContains(string(body), s)
}
