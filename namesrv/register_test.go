package namesrv

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// The route of TopicTest after brokerA registered, as a Java client at or
// above V4_9_4 receives it: TopicRouteData.encode(BrowserCompatible,
// QuoteFieldNames, SkipTransientField, MapSortField) of 5.3.3 —
// properties alphabetical, brokerId keys quoted ("0"), orderTopicConf
// (null) omitted, filterServerTable {} kept, BrokerData with 5.x's
// enableActingMaster.
const routeTopicTestStandard = `{"brokerDatas":[{"brokerAddrs":{"0":"192.168.1.10:10911"},"brokerName":"broker-a",` +
	`"cluster":"DefaultCluster","enableActingMaster":false}],"filterServerTable":{},"queueDatas":[{"brokerName":"broker-a",` +
	`"perm":6,"readQueueNums":4,"topicSysFlag":0,"writeQueueNums":4}]}`

// The same route for an older client (rocketmq-client-go sends version
// 317): RemotingSerializable.encode, fastjson's default features, which
// write the Long keys of brokerAddrs bare: {0:"..."}.
const routeTopicTestDefault = `{"brokerDatas":[{"brokerAddrs":{0:"192.168.1.10:10911"},"brokerName":"broker-a",` +
	`"cluster":"DefaultCluster","enableActingMaster":false}],"filterServerTable":{},"queueDatas":[{"brokerName":"broker-a",` +
	`"perm":6,"readQueueNums":4,"topicSysFlag":0,"writeQueueNums":4}]}`

// ClusterInfo.encode() (fastjson defaults: bare Long keys) after brokerA
// and its slave registered.
const clusterInfoAB = `{"brokerAddrTable":{"broker-a":{"brokerAddrs":{0:"192.168.1.10:10911",1:"192.168.1.11:10911"},` +
	`"brokerName":"broker-a","cluster":"DefaultCluster","enableActingMaster":false}},` +
	`"clusterAddrTable":{"DefaultCluster":["broker-a"]}}`

func TestRegisterThenRouteIsWhatJavaClientsParse(t *testing.T) {
	t.Parallel()
	ns := startNameServer(t, testOptions(t, t.TempDir()))
	c := newClient(t)
	resp := register(t, c, ns.Addr(), brokerA, 1)
	assert.Empty(t, resp.ExtString("masterAddr"))
	assert.Nil(t, resp.Body, "no ORDER_TOPIC_CONFIG namespace, no body")

	resp = call(t, c, ns.Addr(), routeRequest("TopicTest", protocol.VersionV4_9_8))
	require.Equal(t, int32(remoting.Success), resp.Code)
	assert.Equal(t, routeTopicTestStandard, string(resp.Body))

	resp = call(t, c, ns.Addr(), routeRequest("TopicTest", 317))
	assert.Equal(t, routeTopicTestDefault, string(resp.Body))

	req := routeRequest("TopicTest", 317)
	req.SetExt("acceptStandardJsonOnly", "true")
	assert.Equal(t, routeTopicTestStandard, string(call(t, c, ns.Addr(), req).Body))

	resp = call(t, c, ns.Addr(), routeRequest("TBW102", protocol.VersionV5_3_3))
	assert.Contains(t, string(resp.Body), `"perm":7,"readQueueNums":8,"topicSysFlag":0,"writeQueueNums":8`)
}

func TestRouteOfUnknownTopicIsTopicNotExist(t *testing.T) {
	t.Parallel()
	ns := startNameServer(t, testOptions(t, t.TempDir()))
	c := newClient(t)
	resp := call(t, c, ns.Addr(), routeRequest("NoSuchTopic", protocol.VersionV4_9_8))
	assert.Equal(t, int32(remoting.TopicNotExist), resp.Code)
	assert.Equal(t, "No topic route info in name server for the topic: NoSuchTopic\n"+
		"See https://rocketmq.apache.org/docs/bestPractice/06FAQ for further details.", resp.Remark)
	assert.Nil(t, resp.Body)
}

func TestSlaveLearnsItsMasterAndClusterInfo(t *testing.T) {
	t.Parallel()
	ns := startNameServer(t, testOptions(t, t.TempDir()))
	c := newClient(t)
	register(t, c, ns.Addr(), brokerA, 1)
	slave := broker{"DefaultCluster", "broker-a", "192.168.1.11:10911", 1}
	resp := register(t, c, ns.Addr(), slave, 1)
	assert.Equal(t, "192.168.1.10:10911", resp.ExtString("masterAddr"))
	assert.Equal(t, "192.168.1.10:10912", resp.ExtString("haServerAddr"))

	resp = call(t, c, ns.Addr(), request(remoting.GetBrokerClusterInfo, protocol.VersionV4_9_8, nil))
	require.Equal(t, int32(remoting.Success), resp.Code)
	assert.Equal(t, clusterInfoAB, string(resp.Body))

	resp = call(t, c, ns.Addr(), request(remoting.GetBrokerMemberGroup, protocol.VersionV5_3_3,
		map[string]string{"clusterName": "DefaultCluster", "brokerName": "broker-a"}))
	assert.Equal(t, `{"brokerMemberGroup":{"brokerAddrs":{0:"192.168.1.10:10911",1:"192.168.1.11:10911"},`+
		`"brokerName":"broker-a","cluster":"DefaultCluster"}}`, string(resp.Body))
}

func TestTopicLists(t *testing.T) {
	t.Parallel()
	ns := startNameServer(t, testOptions(t, t.TempDir()))
	c := newClient(t)
	register(t, c, ns.Addr(), brokerA, 1)
	register(t, c, ns.Addr(), broker{"OtherCluster", "broker-b", "192.168.1.12:10911", 0}, 1)
	addr := ns.Addr()

	resp := call(t, c, addr, request(remoting.GetAllTopicListFromNameserver, protocol.VersionV4_9_8, nil))
	assert.Equal(t, `{"topicList":["TBW102","TopicTest"]}`, string(resp.Body))
	resp = call(t, c, addr, request(remoting.GetTopicsByCluster, protocol.VersionV4_9_8, map[string]string{"cluster": "OtherCluster"}))
	assert.Equal(t, `{"topicList":["TBW102","TopicTest"]}`, string(resp.Body))
	resp = call(t, c, addr, request(remoting.GetTopicsByCluster, protocol.VersionV4_9_8, map[string]string{"cluster": "Nope"}))
	assert.Equal(t, `{"topicList":[]}`, string(resp.Body))
	resp = call(t, c, addr, request(remoting.GetSystemTopicListFromNs, protocol.VersionV4_9_8, nil))
	assert.Equal(t, `{"brokerAddr":"192.168.1.10:10911","topicList":["DefaultCluster","OtherCluster","broker-a","broker-b"]}`, string(resp.Body))
	for _, code := range []remoting.RequestCode{remoting.GetUnitTopicList, remoting.GetHasUnitSubTopicList, remoting.GetHasUnitSubUnunitTopicList} {
		resp = call(t, c, addr, request(code, protocol.VersionV4_9_8, nil))
		assert.Equal(t, `{"topicList":[]}`, string(resp.Body), code)
	}
}

func TestUnitTopicLists(t *testing.T) {
	t.Parallel()
	ns := startNameServer(t, testOptions(t, t.TempDir()))
	c := newClient(t)
	body := []byte(`{"filterServerList":[],"topicConfigSerializeWrapper":{"dataVersion":{"counter":1,"timestamp":1},` +
		`"topicConfigTable":{"U":{"topicName":"U","topicSysFlag":1},"S":{"topicName":"S","topicSysFlag":2},` +
		`"US":{"topicName":"US","topicSysFlag":3},"N":{"topicName":"N"}}}}`)
	require.Equal(t, int32(remoting.Success), call(t, c, ns.Addr(), registerRequest(brokerA, body, false, protocol.VersionV4_9_8)).Code)
	lists := map[remoting.RequestCode]string{
		remoting.GetUnitTopicList:             `{"topicList":["U","US"]}`,
		remoting.GetHasUnitSubTopicList:       `{"topicList":["S","US"]}`,
		remoting.GetHasUnitSubUnunitTopicList: `{"topicList":["S"]}`,
	}
	for code, want := range lists {
		assert.Equal(t, want, string(call(t, c, ns.Addr(), request(code, protocol.VersionV4_9_8, nil)).Body), code)
	}
	// A topic config without readQueueNums gets TopicConfig's 16.
	assert.Contains(t, string(call(t, c, ns.Addr(), routeRequest("N", protocol.VersionV4_9_8)).Body), `"readQueueNums":16`)
}

// A 5.3.3 broker with compressedRegister=true: zlib body, bodyCrc32 set,
// 5.x header fields, and a static-topic mapping section.
func TestCompressedRegistrationFrom5xBroker(t *testing.T) {
	t.Parallel()
	ns := startNameServer(t, testOptions(t, t.TempDir()))
	c := newClient(t)
	body := &protocol.RegisterBrokerBody{FilterServerList: []string{}}
	body.TopicConfigSerializeWrapper.DataVersion = protocol.DataVersion{Counter: 2, Timestamp: 1700000000000}
	body.TopicConfigSerializeWrapper.TopicConfigTable = map[string]protocol.TopicConfig{
		"Z": {TopicName: "Z", ReadQueueNums: 2, WriteQueueNums: 2, Perm: 6, TopicFilterType: protocol.SingleTag, Attributes: map[string]string{}},
		"S": {TopicName: "S", ReadQueueNums: 1, WriteQueueNums: 1, Perm: 6, TopicFilterType: protocol.SingleTag},
	}
	body.TopicConfigSerializeWrapper.TopicQueueMappingInfoMap = map[string]protocol.TopicQueueMappingInfo{
		"S": {Topic: "S", Scope: protocol.MetadataScopeGlobal, TotalQueues: 1, Bname: "broker-a", Epoch: 1, CurrIDMap: map[int32]int32{0: 0}}}
	data, err := body.EncodeCompressed(protocol.VersionV5_3_3)
	require.NoError(t, err)
	req := registerRequest(brokerA, data, true, protocol.VersionV5_3_3)
	req.SetExt("heartbeatTimeoutMillis", "30000")
	req.SetExt("enableActingMaster", "false")
	resp := call(t, c, ns.Addr(), req)
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)

	assert.Contains(t, string(call(t, c, ns.Addr(), routeRequest("Z", protocol.VersionV5_3_3)).Body), `"readQueueNums":2`)
	resp = call(t, c, ns.Addr(), routeRequest("S", protocol.VersionV5_3_3))
	assert.Contains(t, string(resp.Body), `"topicQueueMappingByBroker":{"broker-a":{"bname":"broker-a","currIdMap":{"0":0},`+
		`"dirty":false,"epoch":1,"scope":"__global__","topic":"S","totalQueues":1}}`)
}

func TestRegisterRejectsBadBodies(t *testing.T) {
	t.Parallel()
	ns := startNameServer(t, testOptions(t, t.TempDir()))
	c := newClient(t)
	req := registerRequest(brokerA, body498(1), false, protocol.VersionV4_9_8)
	req.SetExt("bodyCrc32", "12345")
	resp := call(t, c, ns.Addr(), req)
	assert.Equal(t, int32(remoting.SystemError), resp.Code)
	assert.Equal(t, "crc32 not match", resp.Remark)

	resp = call(t, c, ns.Addr(), registerRequest(brokerA, []byte(`{"topicConfigSerializeWrapper":`), false, protocol.VersionV4_9_8))
	assert.Equal(t, int32(remoting.SystemError), resp.Code)
	assert.Contains(t, resp.Remark, "Failed to decode RegisterBrokerBody")

	resp = call(t, c, ns.Addr(), registerRequest(brokerA, []byte("garbage"), true, protocol.VersionV4_9_8))
	assert.Equal(t, int32(remoting.SystemError), resp.Code)

	req = registerRequest(brokerA, body498(1), false, protocol.VersionV4_9_8)
	req.ExtFields.Delete("brokerId")
	resp = call(t, c, ns.Addr(), req)
	assert.Equal(t, int32(remoting.SystemError), resp.Code)
	assert.Equal(t, "the custom field <brokerId> is null", resp.Remark)

	// The connection survives every error.
	register(t, c, ns.Addr(), brokerA, 1)
}

// 5.x registerSingleTopicAll before the broker's first registration.
func TestSingleTopicRegistrationBeforeBrokerIsRefused(t *testing.T) {
	t.Parallel()
	ns := startNameServer(t, testOptions(t, t.TempDir()))
	c := newClient(t)
	body := []byte(`{"filterServerList":[],"topicConfigSerializeWrapper":{"dataVersion":{"counter":1,"timestamp":1},` +
		`"topicConfigTable":{"T":{"topicName":"T"}}}}`)
	resp := call(t, c, ns.Addr(), registerRequest(brokerA, body, false, protocol.VersionV5_3_3))
	assert.Equal(t, int32(remoting.SystemError), resp.Code)
	assert.Equal(t, "register broker failed", resp.Remark)
	register(t, c, ns.Addr(), brokerA, 1)
	resp = call(t, c, ns.Addr(), registerRequest(brokerA, body, false, protocol.VersionV5_3_3))
	assert.Equal(t, int32(remoting.Success), resp.Code)
}

func TestRegisterResponseCarriesOrderTopicConfig(t *testing.T) {
	t.Parallel()
	ns := startNameServer(t, testOptions(t, t.TempDir()))
	c := newClient(t)
	put := request(remoting.PutKvConfig, protocol.VersionV4_9_8,
		map[string]string{"namespace": "ORDER_TOPIC_CONFIG", "key": "TopicTest", "value": "broker-a:4"})
	require.Equal(t, int32(remoting.Success), call(t, c, ns.Addr(), put).Code)
	resp := register(t, c, ns.Addr(), brokerA, 1)
	assert.Equal(t, `{"table":{"TopicTest":"broker-a:4"}}`, string(resp.Body))
}

// Java brokers with registerBrokerOneway=true expect no answer.
func TestOnewayRegistration(t *testing.T) {
	t.Parallel()
	ns := startNameServer(t, testOptions(t, t.TempDir()))
	c := newClient(t)
	require.NoError(t, c.InvokeOneway(ns.Addr(), registerRequest(brokerA, body498(1), false, protocol.VersionV4_9_8)))
	require.Eventually(t, func() bool {
		return call(t, c, ns.Addr(), routeRequest("TopicTest", protocol.VersionV4_9_8)).Code == int32(remoting.Success)
	}, 5*time.Second, 10*time.Millisecond)
}

func TestRocketMQBinaryHeaders(t *testing.T) {
	t.Parallel()
	ns := startNameServer(t, testOptions(t, t.TempDir()))
	c := newClient(t)
	req := registerRequest(brokerA, body498(1), false, protocol.VersionV4_9_8)
	req.SerializeType = remoting.SerializeRocketMQ
	require.Equal(t, int32(remoting.Success), call(t, c, ns.Addr(), req).Code)
	req = routeRequest("TopicTest", protocol.VersionV4_9_8)
	req.SerializeType = remoting.SerializeRocketMQ
	resp := call(t, c, ns.Addr(), req)
	assert.Equal(t, remoting.SerializeRocketMQ, resp.SerializeType)
	assert.Equal(t, routeTopicTestStandard, string(resp.Body))
}

func TestQueryDataVersion(t *testing.T) {
	t.Parallel()
	ns := startNameServer(t, testOptions(t, t.TempDir()))
	c := newClient(t)
	query := func(counter int) *remoting.Command {
		req := request(remoting.QueryDataVersion, protocol.VersionV4_9_8, map[string]string{
			"brokerName": "broker-a", "brokerAddr": brokerA.addr, "clusterName": brokerA.cluster, "brokerId": "0"})
		req.Body = []byte(`{"counter":` + strconv.Itoa(counter) + `,"timestamp":1700000000000}`)
		return call(t, c, ns.Addr(), req)
	}
	resp := query(1)
	assert.Equal(t, "true", resp.ExtString("changed"), "unknown broker")
	assert.Nil(t, resp.Body)

	register(t, c, ns.Addr(), brokerA, 1)
	resp = query(1)
	assert.Equal(t, int32(remoting.Success), resp.Code)
	assert.Equal(t, "false", resp.ExtString("changed"))
	assert.Equal(t, `{"counter":1,"stateVersion":0,"timestamp":1700000000000}`, string(resp.Body))
	assert.Equal(t, "true", query(2).ExtString("changed"))
}

// A new DataVersion replaces the queue data; the same version keeps what
// an admin changed (wipe) until the broker's topics change.
func TestReRegistrationFollowsDataVersion(t *testing.T) {
	t.Parallel()
	ns := startNameServer(t, testOptions(t, t.TempDir()))
	c := newClient(t)
	register(t, c, ns.Addr(), brokerA, 1)
	wipe := request(remoting.WipeWritePermOfBroker, protocol.VersionV4_9_8, map[string]string{"brokerName": "broker-a"})
	require.Equal(t, "2", call(t, c, ns.Addr(), wipe).ExtString("wipeTopicCount"))
	register(t, c, ns.Addr(), brokerA, 1)
	assert.Contains(t, string(call(t, c, ns.Addr(), routeRequest("TopicTest", protocol.VersionV4_9_8)).Body), `"perm":4`)
	register(t, c, ns.Addr(), brokerA, 2)
	assert.Contains(t, string(call(t, c, ns.Addr(), routeRequest("TopicTest", protocol.VersionV4_9_8)).Body), `"perm":6`)
}

func TestZoneModeFiltersOtherZones(t *testing.T) {
	t.Parallel()
	ns := startNameServer(t, testOptions(t, t.TempDir()))
	c := newClient(t)
	for _, b := range []struct {
		broker
		zone string
	}{{brokerA, "z1"}, {broker{"DefaultCluster", "broker-b", "192.168.1.12:10911", 0}, "z2"}} {
		req := registerRequest(b.broker, body498(1), false, protocol.VersionV5_3_3)
		req.SetExt(protocol.ExtZoneName, b.zone)
		require.Equal(t, int32(remoting.Success), call(t, c, ns.Addr(), req).Code)
	}
	req := routeRequest("TopicTest", protocol.VersionV5_3_3)
	req.SetExt(protocol.ExtZoneMode, "true")
	req.SetExt(protocol.ExtZoneName, "Z2")
	body := string(call(t, c, ns.Addr(), req).Body)
	// ZoneRouteRPCHook re-encodes with the default features.
	assert.Equal(t, `{"brokerDatas":[{"brokerAddrs":{0:"192.168.1.12:10911"},"brokerName":"broker-b","cluster":"DefaultCluster",`+
		`"enableActingMaster":false,"zoneName":"z2"}],"filterServerTable":{},"queueDatas":[{"brokerName":"broker-b","perm":6,`+
		`"readQueueNums":4,"topicSysFlag":0,"writeQueueNums":4}]}`, body)
}

func TestNeedWaitForService(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	o := testOptions(t, t.TempDir())
	o.NeedWaitForService, o.WaitSecondsForService, o.Now = true, 45, clock.Now
	ns := startNameServer(t, o)
	c := newClient(t)
	resp := call(t, c, ns.Addr(), routeRequest("TopicTest", protocol.VersionV5_3_3))
	assert.Equal(t, int32(remoting.SystemError), resp.Code)
	assert.Equal(t, "name server not ready", resp.Remark)
	clock.Advance(46 * time.Second)
	assert.Equal(t, int32(remoting.TopicNotExist), call(t, c, ns.Addr(), routeRequest("TopicTest", protocol.VersionV5_3_3)).Code)
}
