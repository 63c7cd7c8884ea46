package namesrv

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/fastjson"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

func TestWipeAndAddWritePerm(t *testing.T) {
	t.Parallel()
	ns := startNameServer(t, testOptions(t, t.TempDir()))
	c := newClient(t)
	register(t, c, ns.Addr(), brokerA, 1)
	resp := call(t, c, ns.Addr(), request(remoting.WipeWritePermOfBroker, protocol.VersionV4_9_8, map[string]string{"brokerName": "broker-a"}))
	require.Equal(t, int32(remoting.Success), resp.Code)
	assert.Equal(t, "2", resp.ExtString("wipeTopicCount"))
	body := string(call(t, c, ns.Addr(), routeRequest("TBW102", protocol.VersionV4_9_8)).Body)
	assert.Contains(t, body, `"perm":5,`, "7 without W")

	resp = call(t, c, ns.Addr(), request(remoting.AddWritePermOfBroker, protocol.VersionV4_9_8, map[string]string{"brokerName": "broker-a"}))
	assert.Equal(t, "2", resp.ExtString("addTopicCount"))
	body = string(call(t, c, ns.Addr(), routeRequest("TBW102", protocol.VersionV4_9_8)).Body)
	assert.Contains(t, body, `"perm":6,`, "add sets R|W")

	resp = call(t, c, ns.Addr(), request(remoting.WipeWritePermOfBroker, protocol.VersionV4_9_8, map[string]string{"brokerName": "nope"}))
	assert.Equal(t, "0", resp.ExtString("wipeTopicCount"))
}

func TestDeleteTopicInNamesrv(t *testing.T) {
	t.Parallel()
	ns := startNameServer(t, testOptions(t, t.TempDir()))
	c := newClient(t)
	register(t, c, ns.Addr(), brokerA, 1)
	register(t, c, ns.Addr(), broker{"OtherCluster", "broker-b", "192.168.1.12:10911", 0}, 1)
	del := func(ext map[string]string) {
		require.Equal(t, int32(remoting.Success), call(t, c, ns.Addr(), request(remoting.DeleteTopicInNamesrv, protocol.VersionV4_9_8, ext)).Code)
	}
	del(map[string]string{"topic": "TopicTest", "clusterName": "OtherCluster"})
	body := string(call(t, c, ns.Addr(), routeRequest("TopicTest", protocol.VersionV4_9_8)).Body)
	assert.Contains(t, body, "broker-a")
	assert.NotContains(t, body, "broker-b")
	del(map[string]string{"topic": "TopicTest"})
	assert.Equal(t, int32(remoting.TopicNotExist), routeCode(t, c, ns.Addr(), "TopicTest"))
	assert.Equal(t, int32(remoting.Success), routeCode(t, c, ns.Addr(), "TBW102"))
}

// 5.x REGISTER_TOPIC_IN_NAMESRV: queue data for registered brokers only.
func TestRegisterTopicInNamesrv(t *testing.T) {
	t.Parallel()
	ns := startNameServer(t, testOptions(t, t.TempDir()))
	c := newClient(t)
	register(t, c, ns.Addr(), brokerA, 1)
	send := func(topic string, queues []protocol.QueueData) {
		route := &protocol.TopicRouteData{QueueDatas: queues}
		req := request(remoting.RegisterTopicInNamesrv, protocol.VersionV5_3_3, map[string]string{"topic": topic})
		req.Body = route.AppendJSON(nil, fastjson.Fastjson)
		require.Equal(t, int32(remoting.Success), call(t, c, ns.Addr(), req).Code)
	}
	send("New", []protocol.QueueData{{BrokerName: "broker-a", ReadQueueNums: 3, WriteQueueNums: 3, Perm: 6}})
	assert.Contains(t, string(call(t, c, ns.Addr(), routeRequest("New", protocol.VersionV5_3_3)).Body), `"readQueueNums":3`)
	send("Bad", []protocol.QueueData{{BrokerName: "broker-a"}, {BrokerName: "nope"}})
	assert.Equal(t, int32(remoting.TopicNotExist), routeCode(t, c, ns.Addr(), "Bad"))
}

func TestNamesrvConfigGetAndUpdate(t *testing.T) {
	t.Parallel()
	o := testOptions(t, t.TempDir())
	cfg := &fakeConfig{props: map[string]string{"listenPort": "9876", "orderMessageEnable": "false"}}
	o.Config = cfg
	ns := startNameServer(t, o)
	c := newClient(t)
	register(t, c, ns.Addr(), brokerA, 1)

	resp := call(t, c, ns.Addr(), request(remoting.GetNamesrvConfig, protocol.VersionV4_9_8, nil))
	require.Equal(t, int32(remoting.Success), resp.Code)
	assert.Equal(t, "listenPort=9876\norderMessageEnable=false\n", string(resp.Body))

	update := request(remoting.UpdateNamesrvConfig, protocol.VersionV4_9_8, nil)
	update.Body = []byte("orderMessageEnable = true\n# a comment\nproductEnvName:test\n")
	require.Equal(t, int32(remoting.Success), call(t, c, ns.Addr(), update).Code)
	v, _ := cfg.get("orderMessageEnable")
	assert.Equal(t, "true", v)
	v, _ = cfg.get("productEnvName")
	assert.Equal(t, "test", v)
	// orderMessageEnable takes effect at once.
	put := kvRequest(remoting.PutKvConfig, "namespace", "ORDER_TOPIC_CONFIG", "key", "TopicTest", "value", "broker-a:4")
	require.Equal(t, int32(remoting.Success), call(t, c, ns.Addr(), put).Code)
	assert.Contains(t, string(call(t, c, ns.Addr(), routeRequest("TopicTest", protocol.VersionV4_9_8)).Body), `"orderTopicConf":"broker-a:4"`)

	for _, key := range []string{"kvConfigPath", "configStorePath", "rocketmqHome", "configBlackList"} {
		update.Body = []byte(key + "=/tmp/x\n")
		resp = call(t, c, ns.Addr(), update)
		assert.Equal(t, int32(remoting.NoPermission), resp.Code, key)
		assert.Equal(t, "Can not update config in black list.", resp.Remark)
	}
	update.Body = []byte("k=\\u12")
	resp = call(t, c, ns.Addr(), update)
	assert.Equal(t, int32(remoting.SystemError), resp.Code)
	assert.Equal(t, "string2Properties error", resp.Remark)
	_, ok := cfg.get("kvConfigPath")
	assert.False(t, ok)
}

func TestUnknownCodeIsNotSupported(t *testing.T) {
	t.Parallel()
	ns := startNameServer(t, testOptions(t, t.TempDir()))
	c := newClient(t)
	resp := call(t, c, ns.Addr(), request(remoting.SendMessageV2, protocol.VersionV4_9_8, nil))
	assert.Equal(t, int32(remoting.RequestCodeNotSupported), resp.Code)
	assert.Equal(t, " request type 310 not supported", resp.Remark)
	// The connection stays usable.
	assert.Equal(t, int32(remoting.TopicNotExist), routeCode(t, c, ns.Addr(), "TopicTest"))
}

func TestTopicListsCanBeDisabled(t *testing.T) {
	t.Parallel()
	o := testOptions(t, t.TempDir())
	o.EnableAllTopicList, o.EnableTopicList = false, false
	ns := startNameServer(t, o)
	c := newClient(t)
	for _, code := range []remoting.RequestCode{remoting.GetAllTopicListFromNameserver, remoting.GetUnitTopicList} {
		resp := call(t, c, ns.Addr(), request(code, protocol.VersionV5_3_3, nil))
		assert.Equal(t, int32(remoting.SystemError), resp.Code)
		assert.Equal(t, "disable", resp.Remark)
	}
	resp := call(t, c, ns.Addr(), request(remoting.GetTopicsByCluster, protocol.VersionV5_3_3, map[string]string{"cluster": "c"}))
	assert.Equal(t, "disable", resp.Remark)
}
