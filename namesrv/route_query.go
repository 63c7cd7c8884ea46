package namesrv

import (
	"cmp"
	"slices"
	"strings"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
)

// syncBrokerMemberGroupPrefix is TopicValidator.SYNC_BROKER_MEMBER_GROUP_PREFIX:
// routes of these topics are never rewritten for acting masters.
const syncBrokerMemberGroupPrefix = "rmq_sys_SYNC_BROKER_MEMBER_"

// pickupRoute is pickupTopicRouteData: nil when the topic has no queues or
// none of its brokers is registered. Queue and broker lists are sorted by
// broker name (Java lists them in hash order).
func (t *routeTable) pickupRoute(topic string) *protocol.TopicRouteData {
	t.mu.RLock()
	defer t.mu.RUnlock()
	queues := t.topics[topic]
	if queues == nil {
		return nil
	}
	route := &protocol.TopicRouteData{
		QueueDatas:  make([]protocol.QueueData, 0, len(queues)),
		BrokerDatas: make([]protocol.BrokerData, 0, len(queues)),
	}
	for name, q := range queues {
		route.QueueDatas = append(route.QueueDatas, q)
		if bd := t.brokers[name]; bd != nil {
			route.BrokerDatas = append(route.BrokerDatas, bd.Clone())
		}
	}
	if len(route.BrokerDatas) == 0 {
		return nil
	}
	slices.SortFunc(route.QueueDatas, func(a, b protocol.QueueData) int { return cmp.Compare(a.BrokerName, b.BrokerName) })
	slices.SortFunc(route.BrokerDatas, func(a, b protocol.BrokerData) int { return cmp.Compare(a.BrokerName, b.BrokerName) })
	t.addFilterServersLocked(route)
	if m := t.mappings[topic]; m != nil {
		route.TopicQueueMappingByBroker = make(map[string]protocol.TopicQueueMappingInfo, len(m))
		for k, v := range m {
			route.TopicQueueMappingByBroker[k] = v
		}
	}
	if t.cfg.supportActingMaster.Load() && !strings.HasPrefix(topic, syncBrokerMemberGroupPrefix) {
		actAsMaster(route)
	}
	return route
}

func (t *routeTable) addFilterServersLocked(route *protocol.TopicRouteData) {
	if len(t.filters) == 0 {
		return
	}
	route.FilterServerTable = map[string][]string{}
	for _, bd := range route.BrokerDatas {
		for _, e := range bd.BrokerAddrs {
			if list := t.filters[brokerKey{bd.Cluster, e.Addr}]; list != nil {
				route.FilterServerTable[e.Addr] = list
			}
		}
	}
}

// actAsMaster gives a masterless acting-master group whose queues lost
// the write permission its smallest slave as master (id 0), as 5.x does
// when supportActingMaster is on.
func actAsMaster(route *protocol.TopicRouteData) {
	for i := range route.BrokerDatas {
		bd := &route.BrokerDatas[i]
		if len(bd.BrokerAddrs) == 0 || !noMaster(bd) || !bd.EnableActingMaster {
			continue
		}
		for _, q := range route.QueueDatas {
			if q.BrokerName == bd.BrokerName {
				if q.Perm&protocol.PermWrite == 0 {
					addr := bd.BrokerAddrs[0].Addr
					bd.BrokerAddrs = append(protocol.BrokerAddrs{{ID: protocol.MasterID, Addr: addr}}, bd.BrokerAddrs[1:]...)
				}
				break
			}
		}
	}
}

// clusterInfo is getAllClusterInfo, copied under the lock.
func (t *routeTable) clusterInfo() *protocol.ClusterInfo {
	t.mu.RLock()
	defer t.mu.RUnlock()
	info := &protocol.ClusterInfo{
		BrokerAddrTable:  make(map[string]protocol.BrokerData, len(t.brokers)),
		ClusterAddrTable: make(map[string][]string, len(t.clusters)),
	}
	for name, bd := range t.brokers {
		info.BrokerAddrTable[name] = bd.Clone()
	}
	for cluster, names := range t.clusters {
		info.ClusterAddrTable[cluster] = sortedSet(names)
	}
	return info
}

// memberGroup is getBrokerMemberGroup (5.x).
func (t *routeTable) memberGroup(cluster, name string) *protocol.BrokerMemberGroup {
	t.mu.RLock()
	defer t.mu.RUnlock()
	g := &protocol.BrokerMemberGroup{Cluster: cluster, BrokerName: name, BrokerAddrs: protocol.BrokerAddrs{}}
	if bd := t.brokers[name]; bd != nil {
		g.BrokerAddrs = bd.BrokerAddrs.Clone()
	}
	return g
}

// allTopics is getAllTopicList.
func (t *routeTable) allTopics() []string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	topics := make([]string, 0, len(t.topics))
	for topic := range t.topics {
		topics = append(topics, topic)
	}
	slices.Sort(topics)
	return topics
}

// topicsByCluster is getTopicsByCluster: topics with queues on a broker of
// the cluster; an unknown cluster gives none.
func (t *routeTable) topicsByCluster(cluster string) []string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	topics := []string{}
	names := t.clusters[cluster]
	for topic, queues := range t.topics {
		for name := range names {
			if _, ok := queues[name]; ok {
				topics = append(topics, topic)
				break
			}
		}
	}
	slices.Sort(topics)
	return topics
}

// systemTopics is getSystemTopicList: cluster names and broker names, and
// the address of one broker for the client's follow-up
// GET_SYSTEM_TOPIC_LIST_FROM_BROKER.
func (t *routeTable) systemTopics() *protocol.TopicList {
	t.mu.RLock()
	defer t.mu.RUnlock()
	set := map[string]struct{}{}
	for cluster, names := range t.clusters {
		set[cluster] = struct{}{}
		for name := range names {
			set[name] = struct{}{}
		}
	}
	list := &protocol.TopicList{TopicList: sortedSet(set)}
	names := make([]string, 0, len(t.brokers))
	for name := range t.brokers {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if addrs := t.brokers[name].BrokerAddrs; len(addrs) > 0 {
			list.BrokerAddr = addrs[0].Addr
			break
		}
	}
	return list
}

// topicsWhere lists the topics whose first queue data (Java looks at one)
// satisfies pick: the unit topic lists 311-313.
func (t *routeTable) topicsWhere(pick func(sysFlag int32) bool) []string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	topics := []string{}
	for topic, queues := range t.topics {
		if q, ok := firstQueueData(queues); ok && pick(q.TopicSysFlag) {
			topics = append(topics, topic)
		}
	}
	slices.Sort(topics)
	return topics
}

// firstQueueData returns the queue data of the smallest broker name, a
// deterministic stand-in for Java's first HashMap value.
func firstQueueData(queues map[string]protocol.QueueData) (protocol.QueueData, bool) {
	var first protocol.QueueData
	found := false
	for name, q := range queues {
		if !found || name < first.BrokerName {
			first, found = q, true
		}
	}
	return first, found
}

// changeWritePerm is operateWritePermOfBroker: wipe clears the write bit of
// every queue data of brokerName, add sets perm to R|W. It returns the
// number of topics touched.
func (t *routeTable) changeWritePerm(brokerName string, wipe bool) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for _, queues := range t.topics {
		q, ok := queues[brokerName]
		if !ok {
			continue
		}
		if wipe {
			q.Perm &^= protocol.PermWrite
		} else {
			q.Perm = protocol.PermRead | protocol.PermWrite
		}
		queues[brokerName] = q
		n++
	}
	return n
}

// deleteTopic removes a topic everywhere, or only from the brokers of
// cluster when it is not empty.
func (t *routeTable) deleteTopic(topic, cluster string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if cluster == "" {
		delete(t.topics, topic)
		return
	}
	for name := range t.clusters[cluster] {
		if _, ok := t.topics[topic][name]; ok {
			t.removeQueueDataLocked(topic, name)
		}
	}
}

// registerTopic is 5.x registerTopic (REGISTER_TOPIC_IN_NAMESRV): queue
// data naming an unknown broker aborts it, as in Java (for a known topic
// the entries before it are kept).
func (t *routeTable) registerTopic(topic string, queues []protocol.QueueData) {
	if len(queues) == 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	m, exists := t.topics[topic]
	if !exists {
		m = make(map[string]protocol.QueueData, len(queues))
	}
	for _, q := range queues {
		if t.brokers[q.BrokerName] == nil {
			t.log.Warn("register topic names an unknown broker", zap.String("topic", topic), zap.String("brokerName", q.BrokerName))
			return
		}
		m[q.BrokerName] = q
	}
	if !exists {
		t.topics[topic] = m
	}
	t.log.Info("register topic route", zap.String("topic", topic), zap.Int("brokers", len(queues)))
}

func sortedSet(s map[string]struct{}) []string {
	out := make([]string, 0, len(s))
	for k := range s {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
