package protocol

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// TopicRouteData.encode(BrowserCompatible, QuoteFieldNames,
// SkipTransientField, MapSortField), what ClientRequestProcessor sends to
// clients >= V4_9_4: brokerId keys quoted, properties in alphabetical
// order, orderTopicConf (null) omitted, filterServerTable {} kept; 5.3.3
// BrokerData adds enableActingMaster.
func TestRouteStandardMatchesJava(t *testing.T) {
	assert.Equal(t, string(fixture(t, "route_standard_533.json")), string(javaRoute("").AppendJSON(nil, fastjson.Standard)))
}

// RemotingSerializable.encode (fastjson defaults), what clients below
// V4_9_4 get: the Long keys of brokerAddrs are written bare, {0:"..."}.
func TestRouteDefaultMatchesJava(t *testing.T) {
	assert.Equal(t, string(fixture(t, "route_default_533.json")), string(javaRoute("").AppendJSON(nil, fastjson.Fastjson)))
}

// SerializeWriter.writeStringWithDoubleQuote: BrowserCompatible escapes
// every char >= 0x7F as \uXXXX (upper-case hex, UTF-16 surrogates) and
// '/' as \/; the default escapes only controls, 0x7F-0x9F, U+2028/9, '"'
// and '\'.
func TestRouteStringEscapesMatchJava(t *testing.T) {
	assert.Equal(t, string(fixture(t, "route_escape_standard_533.json")), string(javaRoute(oddConf).AppendJSON(nil, fastjson.Standard)))
	assert.Equal(t, string(fixture(t, "route_escape_default_533.json")), string(javaRoute(oddConf).AppendJSON(nil, fastjson.Fastjson)))
}

func TestDecodeRouteOfEveryJavaForm(t *testing.T) {
	for _, name := range []string{"route_standard_533.json", "route_default_533.json", "route_escape_standard_533.json",
		"route_escape_default_533.json"} {
		r, err := DecodeTopicRouteData(fixture(t, name))
		require.NoError(t, err, name)
		assert.Equal(t, javaRoute("").BrokerDatas, r.BrokerDatas, name)
		assert.Equal(t, javaRoute("").QueueDatas, r.QueueDatas, name)
	}
	r, err := DecodeTopicRouteData(fixture(t, "route_escape_default_533.json"))
	require.NoError(t, err)
	assert.Equal(t, oddConf, r.OrderTopicConf)
	for _, name := range []string{"route_standard_498.json", "route_default_498.json"} {
		r, err := DecodeTopicRouteData(fixture(t, name))
		require.NoError(t, err, name)
		assert.Equal(t, javaRoute("").BrokerDatas[:1], r.BrokerDatas, name)
	}
}

func TestRouteWithStaticTopicMapping(t *testing.T) {
	r := javaRoute("")
	r.TopicQueueMappingByBroker = map[string]TopicQueueMappingInfo{"broker-a": {Topic: "S", Scope: MetadataScopeGlobal,
		TotalQueues: 2, Bname: "broker-a", Epoch: 1 << 60, CurrIDMap: map[int32]int32{10: 1, 2: 0}}}
	std := string(r.AppendJSON(nil, fastjson.Standard))
	assert.Contains(t, std, `"topicQueueMappingByBroker":{"broker-a":{"bname":"broker-a","currIdMap":{"2":0,"10":1},"dirty":false,"epoch":"1152921504606846976","scope":"__global__","topic":"S","totalQueues":2}}`)
	def := string(r.AppendJSON(nil, fastjson.Fastjson))
	assert.Contains(t, def, `"currIdMap":{2:0,10:1},"dirty":false,"epoch":1152921504606846976,`)
	back, err := DecodeTopicRouteData([]byte(std))
	require.NoError(t, err)
	assert.Equal(t, r.TopicQueueMappingByBroker, back.TopicQueueMappingByBroker)
}

func TestBrokerAddrsStaySorted(t *testing.T) {
	var a BrokerAddrs
	assert.Equal(t, "", a.Set(2, "c"))
	assert.Equal(t, "", a.Set(0, "a"))
	assert.Equal(t, "", a.Set(1, "b"))
	assert.Equal(t, "b", a.Set(1, "B"))
	assert.Equal(t, BrokerAddrs{{0, "a"}, {1, "B"}, {2, "c"}}, a)
	assert.True(t, a.RemoveIf(func(e BrokerAddr) bool { return e.Addr == "a" }))
	id, ok := a.MinID()
	assert.True(t, ok)
	assert.Equal(t, int64(1), id)
}

func TestClusterInfoMatchesJava(t *testing.T) {
	ci := &ClusterInfo{
		BrokerAddrTable:  map[string]BrokerData{"broker-a": javaRoute("").BrokerDatas[0]},
		ClusterAddrTable: map[string][]string{"DefaultCluster": {"broker-a"}},
	}
	assert.Equal(t, string(fixture(t, "cluster_info_533.json")), string(ci.AppendJSON(nil)))
	back, err := DecodeClusterInfo(fixture(t, "cluster_info_533.json"))
	require.NoError(t, err)
	assert.Equal(t, ci, back)
}

func TestSmallBodiesMatchJava(t *testing.T) {
	tl := &TopicList{TopicList: []string{"DefaultCluster"}, BrokerAddr: "192.168.1.10:10911"}
	assert.Equal(t, string(fixture(t, "topic_list_533.json")), string(tl.AppendJSON(nil)))
	kv := &KVConfigSerializeWrapper{ConfigTable: map[string]map[string]string{"ORDER_TOPIC_CONFIG": {"TopicTest": "broker-a:4"}}}
	assert.Equal(t, string(fixture(t, "kvconfig_533.json")), string(kv.AppendJSON(nil)))
	g := &BrokerMemberGroup{Cluster: "DefaultCluster", BrokerName: "broker-a", BrokerAddrs: BrokerAddrs{{0, "192.168.1.10:10911"}}}
	assert.Equal(t, string(fixture(t, "member_group_533.json")), string(g.AppendMemberGroupResponse(nil)))
	assert.Equal(t, `{"table":{"a":"1","b":"2"}}`, string((&KVTable{Table: map[string]string{"b": "2", "a": "1"}}).AppendJSON(nil)))
	assert.Equal(t, `{"topicList":[]}`, string((&TopicList{}).AppendJSON(nil)))
}
