package protocol

import (
	"sort"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// QueueData is one broker's queues of a topic.
//
// JSON (wire format: do not change):
//
//	{"brokerName":"broker-a","perm":6,"readQueueNums":4,"topicSysFlag":0,"writeQueueNums":4}
type QueueData struct {
	BrokerName     string
	ReadQueueNums  int32
	WriteQueueNums int32
	Perm           int32
	TopicSysFlag   int32
}

func (q *QueueData) appendJSON(dst []byte, st fastjson.Style) []byte {
	dst = append(dst, '{')
	dst = fastjson.AppendOptionalStringField(dst, "brokerName", q.BrokerName, st)
	dst = fastjson.AppendIntField(dst, "perm", int64(q.Perm), st)
	dst = fastjson.AppendIntField(dst, "readQueueNums", int64(q.ReadQueueNums), st)
	dst = fastjson.AppendIntField(dst, "topicSysFlag", int64(q.TopicSysFlag), st)
	dst = fastjson.AppendIntField(dst, "writeQueueNums", int64(q.WriteQueueNums), st)
	return append(dst, '}')
}

func readQueueData(r *fastjson.Reader) (QueueData, error) {
	var q QueueData
	err := r.Object(func(key string) (err error) {
		switch key {
		case "brokername":
			q.BrokerName, err = r.Str()
		case "readqueuenums":
			q.ReadQueueNums, err = r.IntOr(q.ReadQueueNums)
		case "writequeuenums":
			q.WriteQueueNums, err = r.IntOr(q.WriteQueueNums)
		case "perm":
			q.Perm, err = r.IntOr(q.Perm)
		case "topicsysflag":
			q.TopicSysFlag, err = r.IntOr(q.TopicSysFlag)
		default:
			err = r.Skip()
		}
		return err
	})
	return q, err
}

// BrokerAddr is one entry of BrokerData.brokerAddrs: brokerId -> address.
type BrokerAddr struct {
	ID   int64
	Addr string
}

// BrokerAddrs is Java's HashMap<Long, String> brokerAddrs kept sorted by
// id: id 0 is the master, 1.. the slaves.
type BrokerAddrs []BrokerAddr

// Get returns the address of id.
func (a BrokerAddrs) Get(id int64) (string, bool) {
	for _, e := range a {
		if e.ID == id {
			return e.Addr, true
		}
	}
	return "", false
}

// Set puts id -> addr, keeping the order, and returns the previous
// address of id ("" when there was none).
func (a *BrokerAddrs) Set(id int64, addr string) string {
	i := sort.Search(len(*a), func(i int) bool { return (*a)[i].ID >= id })
	if i < len(*a) && (*a)[i].ID == id {
		prev := (*a)[i].Addr
		(*a)[i].Addr = addr
		return prev
	}
	*a = append(*a, BrokerAddr{})
	copy((*a)[i+1:], (*a)[i:])
	(*a)[i] = BrokerAddr{ID: id, Addr: addr}
	return ""
}

// RemoveIf deletes the entries remove reports true for, and reports whether
// any was deleted.
func (a *BrokerAddrs) RemoveIf(remove func(BrokerAddr) bool) bool {
	out := (*a)[:0]
	for _, e := range *a {
		if !remove(e) {
			out = append(out, e)
		}
	}
	removed := len(out) != len(*a)
	*a = out
	return removed
}

// MinID returns the smallest broker id; ok is false when empty.
func (a BrokerAddrs) MinID() (id int64, ok bool) {
	if len(a) == 0 {
		return 0, false
	}
	return a[0].ID, true
}

// Clone returns an independent copy.
func (a BrokerAddrs) Clone() BrokerAddrs {
	if a == nil {
		return nil
	}
	return append(BrokerAddrs(make([]BrokerAddr, 0, len(a))), a...)
}

func (a BrokerAddrs) appendJSON(dst []byte, st fastjson.Style) []byte {
	dst = append(dst, '{')
	for _, e := range a {
		dst = fastjson.AppendString(fastjson.AppendIntKey(dst, e.ID, st), e.Addr, st)
	}
	return append(dst, '}')
}

func readBrokerAddrs(r *fastjson.Reader) (BrokerAddrs, error) {
	if r.Null() {
		return nil, nil
	}
	a := BrokerAddrs{}
	err := r.NumberMap(func(key string) error {
		id, err := r.LongKey(key)
		if err != nil {
			return err
		}
		addr, err := r.Str()
		a.Set(id, addr)
		return err
	})
	return a, err
}

// BrokerData is a broker group: one name, its master and slaves.
//
// JSON (wire format: do not change), 5.x form (4.9.8 has no
// enableActingMaster; its readers ignore it):
//
//	{"brokerAddrs":{0:"10.0.0.1:10911"},"brokerName":"broker-a","cluster":"DefaultCluster","enableActingMaster":false}
//
// zoneName is written only when set, as Java omits null.
type BrokerData struct {
	Cluster            string
	BrokerName         string
	BrokerAddrs        BrokerAddrs
	ZoneName           string
	EnableActingMaster bool
}

// Clone returns a copy with its own address list.
func (b *BrokerData) Clone() BrokerData {
	c := *b
	c.BrokerAddrs = b.BrokerAddrs.Clone()
	return c
}

func (b *BrokerData) appendJSON(dst []byte, st fastjson.Style) []byte {
	dst = append(dst, '{')
	if b.BrokerAddrs != nil {
		dst = b.BrokerAddrs.appendJSON(fastjson.AppendField(dst, "brokerAddrs"), st)
	}
	dst = fastjson.AppendOptionalStringField(dst, "brokerName", b.BrokerName, st)
	dst = fastjson.AppendOptionalStringField(dst, "cluster", b.Cluster, st)
	dst = fastjson.AppendBoolField(dst, "enableActingMaster", b.EnableActingMaster)
	dst = fastjson.AppendOptionalStringField(dst, "zoneName", b.ZoneName, st)
	return append(dst, '}')
}

func readBrokerData(r *fastjson.Reader) (BrokerData, error) {
	var b BrokerData
	err := r.Object(func(key string) (err error) {
		switch key {
		case "cluster":
			b.Cluster, err = r.Str()
		case "brokername":
			b.BrokerName, err = r.Str()
		case "brokeraddrs":
			b.BrokerAddrs, err = readBrokerAddrs(r)
		case "zonename":
			b.ZoneName, err = r.Str()
		case "enableactingmaster":
			b.EnableActingMaster, err = r.BoolOr(b.EnableActingMaster)
		default:
			err = r.Skip()
		}
		return err
	})
	return b, err
}

// TopicQueueMappingInfo is a 5.x static-topic mapping of one broker.
//
// JSON (wire format: do not change):
//
//	{"bname":"broker-a","currIdMap":{0:0},"dirty":false,"epoch":1,"scope":"__global__","topic":"T","totalQueues":8}
type TopicQueueMappingInfo struct {
	Topic       string
	Scope       string
	TotalQueues int32
	Bname       string
	Epoch       int64
	Dirty       bool
	CurrIDMap   map[int32]int32
}

// MetadataScopeGlobal is the default scope of a mapping.
const MetadataScopeGlobal = "__global__"

func (m *TopicQueueMappingInfo) appendJSON(dst []byte, st fastjson.Style) []byte {
	dst = append(dst, '{')
	dst = fastjson.AppendOptionalStringField(dst, "bname", m.Bname, st)
	if m.CurrIDMap != nil {
		dst = appendIntIntMap(fastjson.AppendField(dst, "currIdMap"), m.CurrIDMap, st)
	}
	dst = fastjson.AppendBoolField(dst, "dirty", m.Dirty)
	dst = fastjson.AppendIntField(dst, "epoch", m.Epoch, st)
	dst = fastjson.AppendOptionalStringField(dst, "scope", m.Scope, st)
	dst = fastjson.AppendOptionalStringField(dst, "topic", m.Topic, st)
	dst = fastjson.AppendIntField(dst, "totalQueues", int64(m.TotalQueues), st)
	return append(dst, '}')
}

func appendIntIntMap(dst []byte, m map[int32]int32, st fastjson.Style) []byte {
	keys := make([]int32, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	dst = append(dst, '{')
	for _, k := range keys {
		dst = fastjson.AppendLong(fastjson.AppendIntKey(dst, int64(k), st), int64(m[k]), st)
	}
	return append(dst, '}')
}

func readMappingInfo(r *fastjson.Reader) (TopicQueueMappingInfo, error) {
	m := TopicQueueMappingInfo{Scope: MetadataScopeGlobal, CurrIDMap: map[int32]int32{}}
	err := r.Object(func(key string) (err error) {
		switch key {
		case "topic":
			m.Topic, err = r.Str()
		case "scope":
			m.Scope, err = r.Str()
		case "totalqueues":
			m.TotalQueues, err = r.IntOr(m.TotalQueues)
		case "bname":
			m.Bname, err = r.Str()
		case "epoch":
			m.Epoch, err = r.LongOr(m.Epoch)
		case "dirty":
			m.Dirty, err = r.BoolOr(m.Dirty)
		case "curridmap":
			m.CurrIDMap, err = readIntIntMap(r)
		default:
			err = r.Skip()
		}
		return err
	})
	return m, err
}

func readIntIntMap(r *fastjson.Reader) (map[int32]int32, error) {
	if r.Null() {
		return nil, nil
	}
	m := map[int32]int32{}
	err := r.NumberMap(func(key string) error {
		k, err := r.LongKey(key)
		if err != nil {
			return err
		}
		v, err := r.Int()
		m[int32(k)] = v
		return err
	})
	return m, err
}

// TopicRouteData is the body of GET_ROUTEINFO_BY_TOPIC (and the request
// body of 5.x REGISTER_TOPIC_IN_NAMESRV).
//
// JSON (wire format: do not change), Standard style:
//
//	{"brokerDatas":[{"brokerAddrs":{"0":"10.0.0.1:10911"},"brokerName":"broker-a","cluster":"DefaultCluster","enableActingMaster":false}],
//	 "filterServerTable":{},"queueDatas":[{"brokerName":"broker-a","perm":6,"readQueueNums":4,"topicSysFlag":0,"writeQueueNums":4}]}
//
// queueDatas, brokerDatas and filterServerTable are always written
// (Java's constructor makes them empty); orderTopicConf and
// topicQueueMappingByBroker only when set.
type TopicRouteData struct {
	OrderTopicConf            string
	QueueDatas                []QueueData
	BrokerDatas               []BrokerData
	FilterServerTable         map[string][]string
	TopicQueueMappingByBroker map[string]TopicQueueMappingInfo
}

// AppendJSON appends the route in style st.
func (t *TopicRouteData) AppendJSON(dst []byte, st fastjson.Style) []byte {
	dst = append(dst, '{')
	dst = append(fastjson.AppendField(dst, "brokerDatas"), '[')
	for i := range t.BrokerDatas {
		dst = t.BrokerDatas[i].appendJSON(fastjson.Comma(dst), st)
	}
	dst = append(dst, ']')
	dst = appendFilterServers(fastjson.AppendField(dst, "filterServerTable"), t.FilterServerTable, st)
	dst = fastjson.AppendOptionalStringField(dst, "orderTopicConf", t.OrderTopicConf, st)
	dst = append(fastjson.AppendField(dst, "queueDatas"), '[')
	for i := range t.QueueDatas {
		dst = t.QueueDatas[i].appendJSON(fastjson.Comma(dst), st)
	}
	dst = append(dst, ']')
	if t.TopicQueueMappingByBroker != nil {
		dst = append(fastjson.AppendField(dst, "topicQueueMappingByBroker"), '{')
		for _, k := range fastjson.SortedKeys(t.TopicQueueMappingByBroker) {
			m := t.TopicQueueMappingByBroker[k]
			dst = m.appendJSON(fastjson.AppendStringKey(dst, k, st), st)
		}
		dst = append(dst, '}')
	}
	return append(dst, '}')
}

// appendFilterServers writes brokerAddr -> [filter servers], skipping nil
// lists as fastjson skips null map values.
func appendFilterServers(dst []byte, m map[string][]string, st fastjson.Style) []byte {
	dst = append(dst, '{')
	for _, k := range fastjson.SortedKeys(m) {
		if m[k] != nil {
			dst = fastjson.AppendStringArray(fastjson.AppendStringKey(dst, k, st), m[k], st)
		}
	}
	return append(dst, '}')
}

// DecodeTopicRouteData parses a route in either style.
func DecodeTopicRouteData(data []byte) (*TopicRouteData, error) {
	t := &TopicRouteData{QueueDatas: []QueueData{}, BrokerDatas: []BrokerData{}, FilterServerTable: map[string][]string{}}
	err := fastjson.Decode(data, func(r *fastjson.Reader) error {
		return r.Object(func(key string) error { return t.readProperty(r, key) })
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

func (t *TopicRouteData) readProperty(r *fastjson.Reader, key string) (err error) {
	switch key {
	case "ordertopicconf":
		t.OrderTopicConf, err = r.Str()
	case "queuedatas":
		t.QueueDatas, err = readList(r, readQueueData)
	case "brokerdatas":
		t.BrokerDatas, err = readList(r, readBrokerData)
	case "filterservertable":
		t.FilterServerTable, err = readStringListMap(r)
	case "topicqueuemappingbybroker":
		t.TopicQueueMappingByBroker, err = readMap(r, readMappingInfo)
	default:
		err = r.Skip()
	}
	return err
}

func readStringListMap(r *fastjson.Reader) (map[string][]string, error) {
	return readMap(r, func(r *fastjson.Reader) ([]string, error) { return r.StringList() })
}
