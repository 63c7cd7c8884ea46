package proxy

// The clients' Telemetry streams, by client id, with the producer groups
// (topics) and consumer groups each one declared: how the proxy reaches a
// client (a transaction check-back), and what it heartbeats to the
// brokers on the clients' behalf so that the brokers see their groups.

import (
	"encoding/json"
	"os"
	"strconv"
	"sync"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/proxy/apiv2"
	"github.com/rmqgo/rmqgo/remoting"
)

// heartbeatPeriod is how often the proxy heartbeats its clients' groups.
const heartbeatPeriod = 10 * time.Second

// clientStream is one client's Telemetry stream.
type clientStream struct {
	mu     sync.Mutex // one writer at a time
	stream grpc.BidiStreamingServer[apiv2.TelemetryCommand, apiv2.TelemetryCommand]
	// settings are the client's, as it last sent them (under streams.mu).
	settings *apiv2.Settings
}

// send writes a command on the stream (streams take one writer at a time).
func (c *clientStream) send(cmd *apiv2.TelemetryCommand) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stream.Send(cmd)
}

// streams are the live Telemetry streams.
type streams struct {
	mu sync.Mutex
	m  map[string]*clientStream // by client id
}

// put records a client's stream with its latest settings.
func (s *streams) put(id string, c *clientStream, settings *apiv2.Settings) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]*clientStream{}
	}
	c.settings = settings
	s.m[id] = c
}

func (s *streams) remove(id string, c *clientStream) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m[id] == c {
		delete(s.m, id)
	}
}

// get is a client's Telemetry stream, nil when it has none open.
func (s *streams) get(id string) *clientStream {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.m[id]
}

// live tells whether a client's Telemetry stream is open.
func (s *streams) live(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.m[id]
	return ok
}

// sendToGroup sends cmd to one client publishing to group (a topic).
func (s *streams) sendToGroup(group string, cmd *apiv2.TelemetryCommand) bool {
	s.mu.Lock()
	var targets []*clientStream
	for _, c := range s.m {
		for _, t := range c.settings.GetPublishing().GetTopics() {
			if t.GetName() == group {
				targets = append(targets, c)
			}
		}
	}
	s.mu.Unlock()
	for _, c := range targets {
		if c.send(cmd) == nil {
			return true
		}
	}
	return false
}

// groups are the producer groups (topics) and consumer groups, with the
// topics each consumer group subscribes, of the live clients: one entry
// per topic of a group however many of its clients subscribe to it (a
// broker keeps one subscription per topic and group; thousands of
// clients of a group would otherwise make a heartbeat of thousands).
func (s *streams) groups() (producers map[string]bool, consumers map[string][]*apiv2.SubscriptionEntry) {
	producers, consumers = map[string]bool{}, map[string][]*apiv2.SubscriptionEntry{}
	seen := map[[2]string]bool{} // group, topic
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.m {
		for _, t := range c.settings.GetPublishing().GetTopics() {
			producers[t.GetName()] = true
		}
		if sub := c.settings.GetSubscription(); sub != nil {
			g := sub.GetGroup().GetName()
			if _, ok := consumers[g]; !ok {
				consumers[g] = nil
			}
			for _, e := range sub.GetSubscriptions() {
				if key := [2]string{g, e.GetTopic().GetName()}; !seen[key] {
					seen[key] = true
					consumers[g] = append(consumers[g], e)
				}
			}
		}
	}
	return producers, consumers
}

// proxyClientID is the id the proxy's heartbeats carry.
func proxyClientID(ip string) string {
	return ip + "@proxy-" + strconv.Itoa(os.Getpid())
}

// heartbeatLoop heartbeats the clients' groups every heartbeatPeriod and
// when kicked, until stop.
func (m *messaging) heartbeatLoop(stop <-chan struct{}) {
	t := time.NewTicker(heartbeatPeriod)
	defer t.Stop()
	for {
		m.heartbeat()
		select {
		case <-stop:
			return
		case <-t.C:
		case <-m.hbKick:
		}
	}
}

// kickHeartbeat asks for a heartbeat now (a client's groups changed).
// Kicks coalesce: a burst of clients starting or leaving makes one or two
// heartbeats, not one each (each carries every group of every client).
func (m *messaging) kickHeartbeat() {
	select {
	case m.hbKick <- struct{}{}:
	default: // one is pending; it will see this change too
	}
}

// registeredGroups are the groups the last heartbeat carried, and to
// which brokers.
type registeredGroups struct {
	mu        sync.Mutex
	producers map[string][]string // group -> broker addresses
	consumers map[string][]string
}

// swap records the groups of this heartbeat and returns those the last
// one carried that this one does not.
func (r *registeredGroups) swap(producers, consumers map[string][]string) (goneProducers, goneConsumers map[string][]string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	gone := func(old, now map[string][]string) map[string][]string {
		out := map[string][]string{}
		for g, addrs := range old {
			if _, ok := now[g]; !ok {
				out[g] = addrs
			}
		}
		return out
	}
	goneProducers, goneConsumers = gone(r.producers, producers), gone(r.consumers, consumers)
	r.producers, r.consumers = producers, consumers
	return goneProducers, goneConsumers
}

// heartbeat sends one HEART_BEAT with every group to the brokers of
// their topics, and unregisters the groups no client has any more, so
// that their registrations do not expire (a broker closes the
// connection of an expired one).
func (m *messaging) heartbeat() {
	m.hbMu.Lock()
	defer m.hbMu.Unlock()
	producers, consumers := m.streams.groups()
	producerTopics := map[string][]string{}
	for g := range producers {
		producerTopics[g] = []string{g} // a gRPC producer's group is its topic
	}
	if m.remotingTxGroups != nil {
		for g, ts := range m.remotingTxGroups() {
			producerTopics[g] = append(producerTopics[g], ts...)
		}
	}
	m.unregisterGone(producerTopics, consumers)
	if len(producerTopics) == 0 && len(consumers) == 0 {
		return
	}
	hb := protocol.HeartbeatData{ClientID: proxyClientID(m.local.IP), ProducerDataSet: []protocol.ProducerData{},
		ConsumerDataSet: []protocol.ConsumerData{}}
	topics := map[string]bool{}
	for g, ts := range producerTopics {
		hb.ProducerDataSet = append(hb.ProducerDataSet, protocol.ProducerData{GroupName: g})
		for _, t := range ts {
			topics[t] = true
		}
	}
	for g, subs := range consumers {
		cd := protocol.ConsumerData{GroupName: g, ConsumeType: "CONSUME_POP", MessageModel: "CLUSTERING",
			ConsumeFromWhere: "CONSUME_FROM_LAST_OFFSET", SubscriptionDataSet: []protocol.SubscriptionData{}}
		for _, e := range subs {
			cd.SubscriptionDataSet = append(cd.SubscriptionDataSet, subscriptionOf(e))
			topics[e.GetTopic().GetName()] = true
		}
		hb.ConsumerDataSet = append(hb.ConsumerDataSet, cd)
	}
	body, err := json.Marshal(hb)
	if err != nil {
		return
	}
	for _, addr := range m.brokerAddrs(topics) {
		req := remoting.NewRequest(remoting.HeartBeat, nil)
		req.Body = body
		if _, err := m.reg.InvokeTimeout(addr, req, brokerCallTimeout); err != nil {
			m.log.Debug("heartbeat to broker failed", zap.String("broker", addr), zap.Error(err))
		}
	}
}

// unregisterGone records this heartbeat's groups and sends
// UNREGISTER_CLIENT for those no client has any more.
func (m *messaging) unregisterGone(producers map[string][]string, consumers map[string][]*apiv2.SubscriptionEntry) {
	at := func(topics []string) []string {
		set := map[string]bool{}
		for _, t := range topics {
			set[t] = true
		}
		return m.brokerAddrs(set)
	}
	p, c := map[string][]string{}, map[string][]string{}
	for g, topics := range producers {
		p[g] = at(topics)
	}
	for g, subs := range consumers {
		var topics []string
		for _, e := range subs {
			topics = append(topics, e.GetTopic().GetName())
		}
		c[g] = at(topics)
	}
	goneP, goneC := m.registered.swap(p, c)
	id := proxyClientID(m.local.IP)
	for key, gone := range map[string]map[string][]string{"producerGroup": goneP, "consumerGroup": goneC} {
		for g, addrs := range gone {
			for _, addr := range addrs {
				req := remoting.NewRequest(remoting.UnregisterClient, map[string]string{"clientID": id, key: g})
				_, _ = m.reg.InvokeTimeout(addr, req, brokerCallTimeout)
			}
		}
	}
}

// brokerAddrs are the master brokers of the topics.
func (m *messaging) brokerAddrs(topics map[string]bool) []string {
	set := map[string]bool{}
	for t := range topics {
		if m.local.Addr != "" {
			set[m.local.Addr] = true
			break
		}
		r, err := m.brokers.route(t)
		if err != nil {
			continue
		}
		for _, bd := range r.BrokerDatas {
			if a, ok := bd.BrokerAddrs.Get(protocol.MasterID); ok {
				set[a] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for a := range set {
		out = append(out, a)
	}
	return out
}
