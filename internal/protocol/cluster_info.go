package protocol

import "github.com/rmqgo/rmqgo/internal/fastjson"

// ClusterInfo is the body of GET_BROKER_CLUSTER_INFO, written in the
// default fastjson style (bare brokerId keys).
//
// JSON (wire format: do not change):
//
//	{"brokerAddrTable":{"broker-a":{"brokerAddrs":{0:"10.0.0.1:10911"},"brokerName":"broker-a","cluster":"DefaultCluster","enableActingMaster":false}},
//	 "clusterAddrTable":{"DefaultCluster":["broker-a"]}}
type ClusterInfo struct {
	BrokerAddrTable  map[string]BrokerData
	ClusterAddrTable map[string][]string
}

// AppendJSON appends the fastjson form; both tables are always written.
func (c *ClusterInfo) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	dst = append(fastjson.AppendField(dst, "brokerAddrTable"), '{')
	for _, name := range fastjson.SortedKeys(c.BrokerAddrTable) {
		b := c.BrokerAddrTable[name]
		dst = b.appendJSON(fastjson.AppendStringKey(dst, name, fastjson.Fastjson), fastjson.Fastjson)
	}
	dst = append(dst, '}')
	dst = append(fastjson.AppendField(dst, "clusterAddrTable"), '{')
	for _, name := range fastjson.SortedKeys(c.ClusterAddrTable) {
		dst = fastjson.AppendStringArray(fastjson.AppendStringKey(dst, name, fastjson.Fastjson), c.ClusterAddrTable[name], fastjson.Fastjson)
	}
	dst = append(dst, '}')
	return append(dst, '}')
}

// DecodeClusterInfo parses a ClusterInfo body.
func DecodeClusterInfo(data []byte) (*ClusterInfo, error) {
	c := &ClusterInfo{}
	err := fastjson.Decode(data, func(r *fastjson.Reader) error {
		return r.Object(func(key string) (err error) {
			switch key {
			case "brokeraddrtable":
				c.BrokerAddrTable, err = readMap(r, readBrokerData)
			case "clusteraddrtable":
				c.ClusterAddrTable, err = readStringListMap(r)
			default:
				err = r.Skip()
			}
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// BrokerMemberGroup is the brokers of one name (5.x GET_BROKER_MEMBER_GROUP).
type BrokerMemberGroup struct {
	Cluster     string
	BrokerName  string
	BrokerAddrs BrokerAddrs
}

// AppendMemberGroupResponse appends GetBrokerMemberGroupResponseBody
// around g, in the default fastjson style:
//
//	{"brokerMemberGroup":{"brokerAddrs":{0:"10.0.0.1:10911"},"brokerName":"broker-a","cluster":"DefaultCluster"}}
func (g *BrokerMemberGroup) AppendMemberGroupResponse(dst []byte) []byte {
	dst = append(fastjson.AppendField(append(dst, '{'), "brokerMemberGroup"), '{')
	addrs := g.BrokerAddrs
	if addrs == nil {
		addrs = BrokerAddrs{}
	}
	dst = addrs.appendJSON(fastjson.AppendField(dst, "brokerAddrs"), fastjson.Fastjson)
	dst = fastjson.AppendOptionalStringField(dst, "brokerName", g.BrokerName, fastjson.Fastjson)
	dst = fastjson.AppendOptionalStringField(dst, "cluster", g.Cluster, fastjson.Fastjson)
	return append(dst, '}', '}')
}
