package protocol

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// fixture reads a file of testdata/, written by the real Java classes
// (compat/bodygen: sh compat/fixtures.sh bodies).
func fixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(t, err)
	return data
}

// javaRoute is the route the fixture programs build: broker-a with a
// master and a slave, broker-b with a master, 4 queues each.
func javaRoute(orderConf string) *TopicRouteData {
	return &TopicRouteData{
		OrderTopicConf: orderConf,
		BrokerDatas: []BrokerData{
			{Cluster: "DefaultCluster", BrokerName: "broker-a",
				BrokerAddrs: BrokerAddrs{{0, "192.168.1.10:10911"}, {1, "192.168.1.11:10911"}}},
			{Cluster: "DefaultCluster", BrokerName: "broker-b", BrokerAddrs: BrokerAddrs{{0, "192.168.1.12:10911"}}},
		},
		QueueDatas: []QueueData{
			{BrokerName: "broker-a", Perm: 6, ReadQueueNums: 4, WriteQueueNums: 4},
			{BrokerName: "broker-b", Perm: 6, ReadQueueNums: 4, WriteQueueNums: 4},
		},
	}
}

// oddConf exercises every escaping rule: non-ASCII, '/', a rune outside
// the BMP, C0 and C1 controls, U+2028, quote, backslash, tab.
const oddConf = "broker-a:4;\u00e9/\u4e2d\U0001F600\u0001\u007f\u2028\"\\\t"
