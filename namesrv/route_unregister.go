package namesrv

import (
	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// unregistration is one broker leaving: UNREGISTER_BROKER, a closed
// connection or an expired registration.
type unregistration struct {
	cluster, addr, name string
	id                  int64
}

// unregisterBrokers is RouteInfoManager.unRegisterBroker (5.x, the batch
// form every path uses).
func (t *routeTable) unregisterBrokers(reqs ...unregistration) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.unregisterLocked(reqs...)
}

func (t *routeTable) unregisterLocked(reqs ...unregistration) {
	removed, reduced := map[string]bool{}, map[string]bool{}
	for _, u := range reqs {
		key := brokerKey{u.cluster, u.addr}
		_, wasLive := t.live[key]
		delete(t.live, key)
		delete(t.filters, key)
		t.log.Info("unregister broker", zap.String("cluster", u.cluster), zap.String("broker", u.addr),
			zap.String("brokerName", u.name), zap.Bool("wasLive", wasLive))
		if t.removeAddrLocked(u) {
			removed[u.name] = true
		} else {
			reduced[u.name] = true
		}
	}
	t.cleanTopicsLocked(removed, reduced)
}

// removeAddrLocked removes u's address from its broker group and reports
// whether the group, now empty, was removed with it.
func (t *routeTable) removeAddrLocked(u unregistration) bool {
	bd := t.brokers[u.name]
	if bd == nil {
		return false
	}
	bd.BrokerAddrs.RemoveIf(func(e protocol.BrokerAddr) bool { return e.Addr == u.addr })
	if len(bd.BrokerAddrs) > 0 {
		return false
	}
	delete(t.brokers, u.name)
	if names := t.clusters[u.cluster]; names != nil {
		delete(names, u.name)
		if len(names) == 0 {
			delete(t.clusters, u.cluster)
		}
	}
	return true
}

// cleanTopicsLocked drops the queues of removed broker groups (and topics
// left without queues) and, in 5.x acting-master groups that lost their
// master, the write permission of the remaining queues.
func (t *routeTable) cleanTopicsLocked(removed, reduced map[string]bool) {
	for topic, m := range t.topics {
		for name := range removed {
			delete(m, name)
		}
		if len(m) == 0 {
			delete(t.topics, topic)
			continue
		}
		for name := range reduced {
			q, ok := m[name]
			if bd := t.brokers[name]; ok && bd != nil && bd.EnableActingMaster && noMaster(bd) {
				q.Perm &^= protocol.PermWrite
				m[name] = q
			}
		}
	}
}

func noMaster(bd *protocol.BrokerData) bool {
	minID, ok := bd.BrokerAddrs.MinID()
	return !ok || minID > 0
}

// onChannelClosed is onChannelDestroy(channel): the broker that registered
// over ch is unregistered at once.
func (t *routeTable) onChannelClosed(ch *remoting.Channel) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for key, l := range t.live {
		if l.ch == ch {
			t.log.Info("broker connection closed, removing it at once", zap.String("broker", key.addr))
			t.destroyLocked(key)
		}
	}
}

// destroyLocked unregisters the broker at key, found by address in its
// cluster's broker groups. Java leaves the live entry behind when no group
// lists the address; it is removed here.
func (t *routeTable) destroyLocked(key brokerKey) {
	for _, bd := range t.brokers {
		if bd.Cluster != key.cluster {
			continue
		}
		for _, e := range bd.BrokerAddrs {
			if e.Addr == key.addr {
				t.unregisterLocked(unregistration{cluster: key.cluster, addr: key.addr, name: bd.BrokerName, id: e.ID})
				return
			}
		}
	}
	delete(t.live, key)
	delete(t.filters, key)
}

// scanExpired is scanNotActiveBroker: brokers whose last registration or
// heartbeat is older than their timeout are removed. It returns their
// connections, for the caller to close outside the lock.
func (t *routeTable) scanExpired() []*remoting.Channel {
	now := t.now()
	t.mu.Lock()
	defer t.mu.Unlock()
	var closing []*remoting.Channel
	for key, l := range t.live {
		if !l.expired(now) {
			continue
		}
		t.log.Warn("the broker channel expired", zap.String("cluster", key.cluster), zap.String("broker", key.addr),
			zap.Duration("timeout", l.timeout))
		if l.ch != nil {
			closing = append(closing, l.ch)
		}
		t.destroyLocked(key)
	}
	return closing
}

// touch records a sign of life (BROKER_HEARTBEAT, QUERY_DATA_VERSION).
func (t *routeTable) touch(cluster, addr string) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if l := t.live[brokerKey{cluster, addr}]; l != nil {
		l.touch(t.now())
	}
}

// queryDataVersion is QUERY_DATA_VERSION: whether v differs from the
// version the broker last registered, and that version. The broker's
// timestamp is refreshed, as 5.x does.
func (t *routeTable) queryDataVersion(cluster, addr string, v *protocol.DataVersion) (changed bool, known *protocol.DataVersion) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	l := t.live[brokerKey{cluster, addr}]
	if l == nil {
		return true, nil
	}
	l.touch(t.now())
	dv := l.dataVersion
	return v == nil || dv != *v, &dv
}
