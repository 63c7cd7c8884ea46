package protocol

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
	dst = append(appendField(dst, "brokerAddrTable"), '{')
	for _, name := range sortedKeys(c.BrokerAddrTable) {
		b := c.BrokerAddrTable[name]
		dst = b.appendJSON(appendStringKey(dst, name, Fastjson), Fastjson)
	}
	dst = append(dst, '}')
	dst = append(appendField(dst, "clusterAddrTable"), '{')
	for _, name := range sortedKeys(c.ClusterAddrTable) {
		dst = appendStringArray(appendStringKey(dst, name, Fastjson), c.ClusterAddrTable[name], Fastjson)
	}
	dst = append(dst, '}')
	return append(dst, '}')
}

// DecodeClusterInfo parses a ClusterInfo body.
func DecodeClusterInfo(data []byte) (*ClusterInfo, error) {
	c := &ClusterInfo{}
	err := decodeJSON(data, func(r *jsonReader) error {
		return r.object(func(key string) (err error) {
			switch property(key) {
			case "brokeraddrtable":
				c.BrokerAddrTable, err = readMap(r, readBrokerData)
			case "clusteraddrtable":
				c.ClusterAddrTable, err = readStringListMap(r)
			default:
				err = r.skip()
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
	dst = append(appendField(append(dst, '{'), "brokerMemberGroup"), '{')
	addrs := g.BrokerAddrs
	if addrs == nil {
		addrs = BrokerAddrs{}
	}
	dst = addrs.appendJSON(appendField(dst, "brokerAddrs"), Fastjson)
	dst = appendOptionalStringField(dst, "brokerName", g.BrokerName, Fastjson)
	dst = appendOptionalStringField(dst, "cluster", g.Cluster, Fastjson)
	return append(dst, '}', '}')
}
