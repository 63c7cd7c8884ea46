package protocol

// The kinds of the fastjson differential (compat/fastjson's names): the
// body, the decoder our server reads it with, and our canonical form of
// the result, named by the Java fields.

import (
	"fmt"
	"strconv"
	"strings"
)

// oracleKind is one body kind.
type oracleKind struct {
	// fiveOnly: only a 5.x server decodes it.
	fiveOnly bool
	// decode reads body as our server of line does, into the canonical
	// form.
	decode func(body []byte, line int) (any, error)
}

// oracleKinds are the kinds our servers decode.
var oracleKinds = map[string]oracleKind{
	"HeartbeatData": {decode: func(b []byte, _ int) (any, error) {
		hb, err := DecodeHeartbeatData(b)
		if err != nil {
			return nil, err
		}
		return canonHeartbeat(hb), nil
	}},
	"LockBatchRequestBody":   {decode: decodeLockBatch},
	"UnlockBatchRequestBody": {decode: decodeLockBatch},
	"CheckClientRequestBody": {decode: func(b []byte, _ int) (any, error) {
		c, err := DecodeCheckClientRequestBody(b)
		if err != nil {
			return nil, err
		}
		return bean{"clientId": c.ClientID, "group": c.Group, "subscriptionData": canonSubscriptionPtr(c.SubscriptionData)}, nil
	}},
	"SubscriptionGroupConfig": {decode: func(b []byte, _ int) (any, error) {
		c, err := DecodeSubscriptionGroupConfig(b)
		if err != nil {
			return nil, err
		}
		return canonGroup(c), nil
	}},
	"SubscriptionGroupList": {fiveOnly: true, decode: func(b []byte, _ int) (any, error) {
		l, err := DecodeSubscriptionGroupList(b)
		if err != nil {
			return nil, err
		}
		return bean{"groupConfigList": listOf(l.GroupConfigList, canonGroup)}, nil
	}},
	"RegisterBrokerBody": {decode: func(b []byte, line int) (any, error) {
		version := VersionV4_9_8
		if line == 5 {
			version = VersionV5_3_3
		}
		r, err := DecodeRegisterBrokerBody(b, false, version)
		if err != nil {
			return nil, err
		}
		return bean{"filterServerList": stringList(r.FilterServerList), "topicConfigSerializeWrapper": canonTopicWrapper(&r.TopicConfigSerializeWrapper)}, nil
	}},
	"TopicConfigSerializeWrapper":           {decode: decodeTopicWrapper},
	"TopicConfigAndMappingSerializeWrapper": {fiveOnly: true, decode: decodeTopicWrapper},
	"TopicRouteData": {decode: func(b []byte, _ int) (any, error) {
		r, err := DecodeTopicRouteData(b)
		if err != nil {
			return nil, err
		}
		return canonRoute(r), nil
	}},
	"DataVersion": {decode: func(b []byte, _ int) (any, error) {
		v, err := DecodeDataVersion(b)
		if err != nil {
			return nil, err
		}
		return canonDataVersion(v), nil
	}},
	"GetConsumerStatusBody": {decode: func(b []byte, _ int) (any, error) {
		s, err := DecodeGetConsumerStatusBody(b)
		if err != nil {
			return nil, err
		}
		clients := map[string]any{}
		for id, t := range s.ConsumerTable {
			clients[id] = queueOffsetMap(t)
		}
		return bean{"consumerTable": clients, "messageQueueTable": queueOffsetMap(s.MessageQueueTable)}, nil
	}},
	"KVTable": {decode: func(b []byte, _ int) (any, error) {
		t, err := DecodeKVTable(b)
		if err != nil {
			return nil, err
		}
		return bean{"table": stringMapOf(t.Table)}, nil
	}},
	"ConsumerOffsetSerializeWrapper": {decode: func(b []byte, _ int) (any, error) {
		w, err := DecodeConsumerOffsetSerializeWrapper(b)
		if err != nil {
			return nil, err
		}
		table := map[string]any{}
		for k, m := range w.OffsetTable {
			table[k] = intKeyMap(m)
		}
		return bean{"dataVersion": canonDataVersion(w.DataVersion), "offsetTable": table}, nil
	}},
	"SubscriptionGroupWrapper": {decode: func(b []byte, _ int) (any, error) {
		w, err := DecodeSubscriptionGroupWrapper(b)
		if err != nil {
			return nil, err
		}
		groups := map[string]any{}
		for k, g := range w.SubscriptionGroupTable {
			groups[k] = canonGroup(g)
		}
		forbidden := map[string]any{}
		for k, m := range w.ForbiddenTable {
			inner := map[string]any{}
			for t, v := range m {
				inner[t] = int64(v)
			}
			forbidden[k] = inner
		}
		return bean{"dataVersion": canonDataVersion(w.DataVersion), "subscriptionGroupTable": groups, "forbiddenTable": forbidden}, nil
	}},
	"ClusterInfo": {decode: func(b []byte, _ int) (any, error) {
		c, err := DecodeClusterInfo(b)
		if err != nil {
			return nil, err
		}
		brokers := map[string]any{}
		for k, d := range c.BrokerAddrTable {
			brokers[k] = canonBrokerData(d)
		}
		clusters := map[string]any{}
		for k, names := range c.ClusterAddrTable {
			clusters[k] = stringSet(names)
		}
		return bean{"brokerAddrTable": brokers, "clusterAddrTable": clusters}, nil
	}},
}

func decodeLockBatch(b []byte, _ int) (any, error) {
	l, err := DecodeLockBatchRequestBody(b)
	if err != nil {
		return nil, err
	}
	return bean{"clientId": l.ClientID, "consumerGroup": l.ConsumerGroup, "onlyThisBroker": l.OnlyThisBroker,
		"mqSet": setOf(l.MQSet, canonQueue)}, nil
}

func decodeTopicWrapper(b []byte, _ int) (any, error) {
	w, err := DecodeTopicConfigSerializeWrapper(b)
	if err != nil {
		return nil, err
	}
	return canonTopicWrapper(w), nil
}

func canonHeartbeat(h *HeartbeatData) bean {
	return bean{
		"clientID":        h.ClientID,
		"consumerDataSet": setOf(h.ConsumerDataSet, canonConsumerData),
		"producerDataSet": setOf(h.ProducerDataSet, func(p ProducerData) any { return bean{"groupName": p.GroupName} }),
	}
}

func canonConsumerData(c ConsumerData) any {
	return bean{"consumeFromWhere": enumOf(c.ConsumeFromWhere), "consumeType": enumOf(c.ConsumeType), "groupName": c.GroupName,
		"messageModel": enumOf(c.MessageModel), "subscriptionDataSet": setOf(c.SubscriptionDataSet, canonSubscription), "unitMode": c.UnitMode}
}

func canonSubscription(s SubscriptionData) any {
	codes := set{}
	for _, c := range s.CodeSet {
		codes = append(codes, int64(c))
	}
	return bean{"classFilterMode": s.ClassFilterMode, "codeSet": codes, "expressionType": s.ExpressionType,
		"subString": s.SubString, "subVersion": s.SubVersion, "tagsSet": stringSet(s.TagsSet), "topic": s.Topic}
}

func canonSubscriptionPtr(s *SubscriptionData) any {
	if s == nil {
		return nil
	}
	return canonSubscription(*s)
}

func canonQueue(q MessageQueue) any {
	return bean{"brokerName": q.BrokerName, "queueId": int64(q.QueueID), "topic": q.Topic}
}

// queueKey is Java's canonical text of a MessageQueue used as a map key
// (ours "" is Java's null there).
func queueKey(q MessageQueue) string {
	return `{"brokerName":` + canonString(q.BrokerName) + `,"queueId":` + strconv.Itoa(int(q.QueueID)) + `,"topic":` + canonString(q.Topic) + `}`
}

// canonString quotes s as the oracle does: '"', '\' and controls escaped;
// "" is null.
func canonString(s string) string {
	if s == "" {
		return "null"
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func queueOffsetMap(m map[MessageQueue]int64) map[string]any {
	out := map[string]any{}
	for q, off := range m {
		out[queueKey(q)] = off
	}
	return out
}

func canonGroup(c SubscriptionGroupConfig) any {
	p := c.GroupRetryPolicy
	policy := bean{"type": enumOf(string(p.Type)), "exponentialRetryPolicy": nil, "customizedRetryPolicy": nil}
	if e := p.ExponentialRetryPolicy; e != nil {
		policy["exponentialRetryPolicy"] = bean{"initial": e.Initial, "max": e.Max, "multiplier": e.Multiplier}
	}
	if cp := p.CustomizedRetryPolicy; cp != nil {
		next := []any{}
		for _, n := range cp.Next {
			next = append(next, n)
		}
		policy["customizedRetryPolicy"] = bean{"next": next}
	}
	var subs any
	if c.SubscriptionDataSet != nil {
		subs = setOf(c.SubscriptionDataSet, func(s SimpleSubscriptionData) any {
			return bean{"expression": s.Expression, "expressionType": s.ExpressionType, "topic": s.Topic, "version": s.Version}
		})
	}
	return bean{"groupName": c.GroupName, "consumeEnable": c.ConsumeEnable, "consumeFromMinEnable": c.ConsumeFromMinEnable,
		"consumeBroadcastEnable": c.ConsumeBroadcastEnable, "retryQueueNums": int64(c.RetryQueueNums), "retryMaxTimes": int64(c.RetryMaxTimes),
		"brokerId": c.BrokerID, "whichBrokerWhenConsumeSlowly": c.WhichBrokerWhenConsumeSlowly,
		"notifyConsumerIdsChangedEnable": c.NotifyConsumerIDsChangedEnable, "consumeMessageOrderly": c.ConsumeMessageOrderly,
		"groupRetryPolicy": policy, "groupSysFlag": int64(c.GroupSysFlag), "consumeTimeoutMinute": int64(c.ConsumeTimeoutMinute),
		"subscriptionDataSet": subs, "attributes": stringMapOf(c.Attributes)}
}

func canonTopicWrapper(w *TopicConfigSerializeWrapper) bean {
	topics := map[string]any{}
	for k, tc := range w.TopicConfigTable {
		topics[k] = canonTopicConfig(tc)
	}
	infos := map[string]any{}
	for k, i := range w.TopicQueueMappingInfoMap {
		infos[k] = canonMappingInfo(i)
	}
	out := bean{"dataVersion": canonDataVersion(w.DataVersion), "topicConfigTable": topics, "topicQueueMappingInfoMap": infos}
	if w.MappingDataVersion != nil {
		out["mappingDataVersion"] = canonDataVersion(*w.MappingDataVersion)
	}
	return out
}

func canonTopicConfig(tc TopicConfig) any {
	return bean{"topicName": tc.TopicName, "readQueueNums": int64(tc.ReadQueueNums), "writeQueueNums": int64(tc.WriteQueueNums),
		"perm": int64(tc.Perm), "topicFilterType": enumOf(string(tc.TopicFilterType)), "topicSysFlag": int64(tc.TopicSysFlag),
		"order": tc.Order, "attributes": stringMapOf(tc.Attributes)}
}

func canonMappingInfo(i TopicQueueMappingInfo) any {
	ids := map[string]any{}
	for k, v := range i.CurrIDMap {
		ids[strconv.Itoa(int(k))] = int64(v)
	}
	return bean{"topic": i.Topic, "scope": i.Scope, "totalQueues": int64(i.TotalQueues), "bname": i.Bname,
		"epoch": i.Epoch, "dirty": i.Dirty, "currIdMap": ids}
}

func canonDataVersion(v DataVersion) any {
	return bean{"counter": v.Counter, "stateVersion": v.StateVersion, "timestamp": v.Timestamp}
}

func canonRoute(r *TopicRouteData) any {
	filters := map[string]any{}
	for k, l := range r.FilterServerTable {
		filters[k] = stringList(l)
	}
	mappings := map[string]any{}
	for k, i := range r.TopicQueueMappingByBroker {
		mappings[k] = canonMappingInfo(i)
	}
	return bean{"orderTopicConf": r.OrderTopicConf, "filterServerTable": filters, "topicQueueMappingByBroker": mappings,
		"queueDatas": listOf(r.QueueDatas, func(q QueueData) any {
			return bean{"brokerName": q.BrokerName, "readQueueNums": int64(q.ReadQueueNums), "writeQueueNums": int64(q.WriteQueueNums),
				"perm": int64(q.Perm), "topicSysFlag": int64(q.TopicSysFlag)}
		}),
		"brokerDatas": listOf(r.BrokerDatas, canonBrokerData)}
}

func canonBrokerData(d BrokerData) any {
	addrs := map[string]any{}
	for _, a := range d.BrokerAddrs {
		addrs[strconv.FormatInt(a.ID, 10)] = a.Addr
	}
	return bean{"cluster": d.Cluster, "brokerName": d.BrokerName, "brokerAddrs": addrs, "zoneName": d.ZoneName,
		"enableActingMaster": d.EnableActingMaster}
}

// enumOf is an enum's canonical value: its name, or null.
func enumOf(name string) any {
	if name == "" {
		return nil
	}
	return name
}

func setOf[T any](list []T, one func(T) any) set {
	if list == nil {
		return nil
	}
	out := set{}
	for _, v := range list {
		out = append(out, one(v))
	}
	return out
}

func listOf[T any](list []T, one func(T) any) []any {
	if list == nil {
		return nil
	}
	out := []any{}
	for _, v := range list {
		out = append(out, one(v))
	}
	return out
}

func stringSet(list []string) set { return setOf(list, func(s string) any { return s }) }

func stringList(list []string) []any { return listOf(list, func(s string) any { return s }) }

func stringMapOf(m map[string]string) map[string]any {
	if m == nil {
		return nil
	}
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func intKeyMap(m map[int32]int64) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[strconv.Itoa(int(k))] = v
	}
	return out
}
