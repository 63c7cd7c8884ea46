package namesrv

import (
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// brokerKey identifies a live broker as 5.x BrokerAddrInfo does: the same
// address may serve two clusters.
type brokerKey struct {
	cluster string
	addr    string
}

// liveBroker is Java's BrokerLiveInfo. lastUpdate is atomic so heartbeats
// and QUERY_DATA_VERSION touch it under the read lock.
type liveBroker struct {
	lastUpdate   atomic.Int64 // unix nanoseconds
	timeout      time.Duration
	dataVersion  protocol.DataVersion
	ch           *remoting.Channel
	haServerAddr string
}

func (l *liveBroker) touch(now time.Time) { l.lastUpdate.Store(now.UnixNano()) }

func (l *liveBroker) expired(now time.Time) bool {
	return time.Unix(0, l.lastUpdate.Load()).Add(l.timeout).Before(now)
}

// routeTable owns the tables of Java's RouteInfoManager. Every field below
// mu is guarded by it; a method ending in Locked expects it held.
type routeTable struct {
	log            *zap.Logger
	cfg            *settings
	now            func() time.Time
	defaultTimeout time.Duration

	mu sync.RWMutex
	// topics is topicQueueTable: topic -> brokerName -> queues.
	topics map[string]map[string]protocol.QueueData
	// brokers is brokerAddrTable: brokerName -> broker group.
	brokers map[string]*protocol.BrokerData
	// clusters is clusterAddrTable: cluster -> broker names.
	clusters map[string]map[string]struct{}
	// live is brokerLiveTable.
	live map[brokerKey]*liveBroker
	// filters is filterServerTable.
	filters map[brokerKey][]string
	// mappings is topicQueueMappingInfoTable: topic -> brokerName ->
	// static-topic mapping. As in Java, entries are never removed.
	mappings map[string]map[string]protocol.TopicQueueMappingInfo
}

func newRouteTable(log *zap.Logger, cfg *settings, now func() time.Time, defaultTimeout time.Duration) *routeTable {
	return &routeTable{
		log: log, cfg: cfg, now: now, defaultTimeout: defaultTimeout,
		topics:   make(map[string]map[string]protocol.QueueData, 1024),
		brokers:  make(map[string]*protocol.BrokerData, 128),
		clusters: make(map[string]map[string]struct{}, 32),
		live:     make(map[brokerKey]*liveBroker, 256),
		filters:  make(map[brokerKey][]string, 256),
		mappings: make(map[string]map[string]protocol.TopicQueueMappingInfo),
	}
}

// registration is one REGISTER_BROKER request, decoded.
type registration struct {
	cluster, addr, name string
	id                  int64
	haServerAddr        string
	zoneName            string
	// heartbeatTimeout is 5.x heartbeatTimeoutMillis; 0 means the default.
	heartbeatTimeout time.Duration
	// enableActingMaster is nil for brokers that do not send it (4.x).
	enableActingMaster *bool
	wrapper            *protocol.TopicConfigSerializeWrapper
	// filterServers nil leaves the broker's filter servers as they are.
	filterServers []string
	ch            *remoting.Channel
}

// registerBroker is RouteInfoManager.registerBroker (5.x). ok is false when
// Java returns null: a single-topic registration from a broker id that has
// not registered yet.
func (t *routeTable) registerBroker(r *registration) (res protocol.RegisterBrokerResult, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	addToSet(t.clusters, r.cluster, r.name)
	bd, first := t.brokerGroupLocked(r)
	bd.BrokerAddrs.RemoveIf(func(e protocol.BrokerAddr) bool { return e.Addr == r.addr && e.ID != r.id })
	key := brokerKey{r.cluster, r.addr}
	if t.staleLocked(r, bd) {
		delete(t.live, key)
		return res, true
	}
	if _, known := bd.BrokerAddrs.Get(r.id); !known && len(r.wrapper.TopicConfigTable) == 1 {
		t.log.Warn("single-topic registration before the broker registered",
			zap.String("broker", r.addr), zap.Int64("brokerId", r.id))
		return res, false
	}
	first = bd.BrokerAddrs.Set(r.id, r.addr) == "" || first
	t.updateTopicsLocked(r, bd, first)
	if t.putLiveLocked(key, r) {
		t.log.Info("new broker registered", zap.String("broker", r.addr), zap.String("haServer", r.haServerAddr))
	}
	if r.filterServers != nil {
		if len(r.filterServers) == 0 {
			delete(t.filters, key)
		} else {
			t.filters[key] = r.filterServers
		}
	}
	if r.id != protocol.MasterID {
		res = t.masterOfLocked(r.cluster, bd)
	}
	return res, true
}

// brokerGroupLocked returns the broker group of r, creating it, and
// records the 5.x acting-master flag and zone.
func (t *routeTable) brokerGroupLocked(r *registration) (bd *protocol.BrokerData, created bool) {
	bd = t.brokers[r.name]
	if bd == nil {
		bd = &protocol.BrokerData{Cluster: r.cluster, BrokerName: r.name, BrokerAddrs: protocol.BrokerAddrs{}}
		t.brokers[r.name] = bd
		created = true
	}
	bd.EnableActingMaster = r.enableActingMaster != nil && *r.enableActingMaster
	bd.ZoneName = r.zoneName
	return bd, created
}

// staleLocked tells whether another address holds r's broker id with a
// newer stateVersion, in which case Java ignores r.
func (t *routeTable) staleLocked(r *registration, bd *protocol.BrokerData) bool {
	oldAddr, ok := bd.BrokerAddrs.Get(r.id)
	if !ok || oldAddr == r.addr {
		return false
	}
	old := t.live[brokerKey{r.cluster, oldAddr}]
	if old == nil || old.dataVersion.StateVersion <= r.wrapper.DataVersion.StateVersion {
		return false
	}
	t.log.Warn("registering broker conflicts with the existing one, ignored",
		zap.String("cluster", r.cluster), zap.String("brokerName", r.name), zap.Int64("brokerId", r.id),
		zap.String("oldAddr", oldAddr), zap.String("newAddr", r.addr))
	return true
}

// putLiveLocked records r as alive now; it reports a new broker.
func (t *routeTable) putLiveLocked(key brokerKey, r *registration) bool {
	timeout := r.heartbeatTimeout
	if timeout <= 0 {
		timeout = t.defaultTimeout
	}
	l := &liveBroker{timeout: timeout, dataVersion: r.wrapper.DataVersion, ch: r.ch, haServerAddr: r.haServerAddr}
	l.touch(t.now())
	_, existed := t.live[key]
	t.live[key] = l
	if r.ch != nil {
		r.ch.SetAttr(brokerChannelAttr{}, true)
	}
	return !existed
}

// brokerChannelAttr marks a connection a broker registered over, so only
// those are looked up when a connection closes.
type brokerChannelAttr struct{}

// masterOfLocked returns the master's address and HA address for a slave.
func (t *routeTable) masterOfLocked(cluster string, bd *protocol.BrokerData) (res protocol.RegisterBrokerResult) {
	masterAddr, ok := bd.BrokerAddrs.Get(protocol.MasterID)
	if !ok {
		return res
	}
	if l := t.live[brokerKey{cluster, masterAddr}]; l != nil {
		res.HAServerAddr, res.MasterAddr = l.haServerAddr, masterAddr
	}
	return res
}

// updateTopicsLocked creates or updates the queue data of r's topics when
// r is the master, or (5.x) the prime slave of an acting-master group.
func (t *routeTable) updateTopicsLocked(r *registration, bd *protocol.BrokerData, first bool) {
	minID, _ := bd.BrokerAddrs.MinID()
	isMaster := r.id == protocol.MasterID
	isPrimeSlave := r.enableActingMaster != nil && !isMaster && r.id == minID
	if !isMaster && !isPrimeSlave {
		return
	}
	w := r.wrapper
	changed := t.versionChangedLocked(brokerKey{r.cluster, r.addr}, w.DataVersion)
	if t.cfg.deleteTopicWithBrokerRegistration.Load() && len(w.TopicQueueMappingInfoMap) == 0 {
		t.dropUnregisteredTopicsLocked(r.name, w.TopicConfigTable)
	}
	for key, c := range w.TopicConfigTable {
		topic := c.TopicName
		if topic == "" {
			topic = key
		}
		if !first && !changed && t.hasQueueDataLocked(topic, r.name) {
			continue
		}
		perm := c.Perm
		if isPrimeSlave && bd.EnableActingMaster {
			perm &^= protocol.PermWrite
		}
		t.putQueueDataLocked(topic, protocol.QueueData{BrokerName: r.name, ReadQueueNums: c.ReadQueueNums,
			WriteQueueNums: c.WriteQueueNums, Perm: perm, TopicSysFlag: c.TopicSysFlag})
	}
	if changed || first {
		for topic, m := range w.TopicQueueMappingInfoMap {
			if t.mappings[topic] == nil {
				t.mappings[topic] = map[string]protocol.TopicQueueMappingInfo{}
			}
			t.mappings[topic][m.Bname] = m
		}
	}
}

// versionChangedLocked is isBrokerTopicConfigChanged: no version known, or
// a different one.
func (t *routeTable) versionChangedLocked(key brokerKey, v protocol.DataVersion) bool {
	l := t.live[key]
	return l == nil || l.dataVersion != v
}

func (t *routeTable) hasQueueDataLocked(topic, brokerName string) bool {
	_, ok := t.topics[topic][brokerName]
	return ok
}

func (t *routeTable) putQueueDataLocked(topic string, q protocol.QueueData) {
	m := t.topics[topic]
	if m == nil {
		m = make(map[string]protocol.QueueData, 2)
		t.topics[topic] = m
		t.log.Info("new topic registered", zap.String("topic", topic), zap.String("brokerName", q.BrokerName))
	} else if old, ok := m[q.BrokerName]; ok && old == q {
		return // a broker's registration repeats most of its topics unchanged
	} else if ok {
		t.log.Info("topic changed", zap.String("topic", topic), zap.Any("old", old), zap.Any("new", q))
	}
	m[q.BrokerName] = q
}

// dropUnregisteredTopicsLocked removes brokerName's queues of the topics a
// registration no longer lists (5.x deleteTopicWithBrokerRegistration).
func (t *routeTable) dropUnregisteredTopicsLocked(brokerName string, table map[string]protocol.TopicConfig) {
	registered := make(map[string]bool, len(table))
	for key, c := range table {
		registered[key], registered[c.TopicName] = true, true
	}
	for topic, m := range t.topics {
		if _, ok := m[brokerName]; ok && !registered[topic] {
			t.removeQueueDataLocked(topic, brokerName)
		}
	}
}

// removeQueueDataLocked drops one broker's queues of a topic, and the
// topic when no broker is left.
func (t *routeTable) removeQueueDataLocked(topic, brokerName string) {
	m := t.topics[topic]
	if _, ok := m[brokerName]; ok {
		delete(m, brokerName)
		t.log.Info("remove one broker's topic", zap.String("topic", topic), zap.String("brokerName", brokerName))
	}
	if m != nil && len(m) == 0 {
		delete(t.topics, topic)
	}
}

func addToSet(m map[string]map[string]struct{}, key, member string) {
	s := m[key]
	if s == nil {
		s = make(map[string]struct{}, 4)
		m[key] = s
	}
	s[member] = struct{}{}
}
