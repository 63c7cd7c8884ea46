package proxy

// The remoting port's clients (cluster mode's proxy-local ProducerManager
// and ConsumerManager, RemotingChannelManager): who heartbeated which
// group on which connection, and the consumers other proxies told of
// (heartbeat_syncer.go), kept under their remote channel's id. Nothing of it reaches the brokers (they never
// see a remoting client behind the proxy, as with Java's proxy): it answers
// GET_CONSUMER_LIST_BY_GROUP and GET_CONSUMER_CONNECTION_LIST, fills in a
// pull's subscription, and finds a producer for a transaction check-back.
// A registration ends with UNREGISTER_CLIENT, its connection's close, or
// 120 s without a heartbeat (channelExpiredTimeout), which also closes the
// connection as Java's expiry scan does. docs/reference/proxy-remoting.md
// §4, §8.

import (
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// channelExpiredTimeout is how long a registration lives without a
// heartbeat (ProxyConfig.channelExpiredTimeout).
const channelExpiredTimeout = 120 * time.Second

// remotingClient is one group's registration on one connection: ch is
// nil for a consumer of another proxy, whose connection is remoteAddr.
type remotingClient struct {
	ch         *remoting.Channel
	remoteAddr string
	clientID   string
	language   string
	version    int32
	seen       time.Time
	// consumers only
	consumer protocol.ConsumerData
}

// remotingClients holds the registrations by group.
type remotingClients struct {
	mu        sync.Mutex
	producers map[string]map[string]*remotingClient // group -> clientKey -> registration
	consumers map[string]map[string]*remotingClient
	// txTopics are the topics each producer group sent a transactional
	// half message to: the groups the proxy heartbeats to those topics'
	// brokers, so that their check-backs come to it.
	txTopics map[string]map[string]bool
	rr       roundRobin
}

func newRemotingClients() *remotingClients {
	return &remotingClients{producers: map[string]map[string]*remotingClient{},
		consumers: map[string]map[string]*remotingClient{}, txTopics: map[string]map[string]bool{}}
}

// clientKey is a registration's key in its group: its connection, or the
// remote channel's id.
func clientKey(ch *remoting.Channel) string { return "local@" + strconv.FormatUint(ch.ID(), 10) }

// heartbeat registers every group of a HEART_BEAT on its connection.
func (r *remotingClients) heartbeat(req *remoting.Request, hb *protocol.HeartbeatData, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	base := remotingClient{ch: req.Ch, remoteAddr: req.Ch.RemoteAddr(), clientID: hb.ClientID,
		language: req.Cmd.Language.String(), version: req.Cmd.Version, seen: now}
	key := clientKey(req.Ch)
	for _, p := range hb.ProducerDataSet {
		c := base
		putClient(r.producers, p.GroupName, key, &c)
	}
	for _, cd := range hb.ConsumerDataSet {
		c := base
		c.consumer = cd
		putClient(r.consumers, cd.GroupName, key, &c)
	}
}

// putRemote registers, or with register false unregisters, a consumer of
// another proxy under its remote channel's id.
func (r *remotingClients) putRemote(id string, c *remotingClient, register bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if register {
		putClient(r.consumers, c.consumer.GroupName, id, c)
		return
	}
	r.dropLocked(false, c.consumer.GroupName, id)
}

func putClient(m map[string]map[string]*remotingClient, group, key string, c *remotingClient) {
	if m[group] == nil {
		m[group] = map[string]*remotingClient{}
	}
	m[group][key] = c
}

// unregister drops a connection's registration of the named groups ("" none).
func (r *remotingClients) unregister(ch *remoting.Channel, producerGroup, consumerGroup string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if producerGroup != "" {
		r.dropLocked(true, producerGroup, clientKey(ch))
	}
	if consumerGroup != "" {
		r.dropLocked(false, consumerGroup, clientKey(ch))
	}
}

// dropLocked removes one registration; a producer group left without one
// is no longer heartbeated for its transactions (GROUP_UNREGISTER).
func (r *remotingClients) dropLocked(producers bool, group, key string) {
	m := r.consumers
	if producers {
		m = r.producers
	}
	delete(m[group], key)
	if len(m[group]) == 0 {
		delete(m, group)
		if producers {
			delete(r.txTopics, group)
		}
	}
}

// closed drops every registration of a connection.
func (r *remotingClients) closed(ch *remoting.Channel) {
	r.mu.Lock()
	defer r.mu.Unlock()
	key := clientKey(ch)
	for g := range r.producers {
		r.dropLocked(true, g, key)
	}
	for g := range r.consumers {
		r.dropLocked(false, g, key)
	}
}

// expire drops the registrations not refreshed within
// channelExpiredTimeout and returns their connections, to be closed.
func (r *remotingClients) expire(now time.Time) []*remoting.Channel {
	r.mu.Lock()
	defer r.mu.Unlock()
	var stale []*remoting.Channel
	for _, producers := range []bool{true, false} {
		m := r.consumers
		if producers {
			m = r.producers
		}
		for g, byKey := range m {
			for key, c := range byKey {
				if now.Sub(c.seen) > channelExpiredTimeout {
					r.dropLocked(producers, g, key)
					if c.ch != nil {
						stale = append(stale, c.ch)
					}
				}
			}
		}
	}
	return stale
}

// consumerIDs are the client ids of a consumer group, sorted; ok is false
// for a group with no consumer.
func (r *remotingClients) consumerIDs(group string) ([]string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	byCh, ok := r.consumers[group]
	if !ok {
		return nil, false
	}
	ids := make([]string, 0, len(byCh))
	for _, c := range byCh {
		ids = append(ids, c.clientID)
	}
	sort.Strings(ids)
	return ids, true
}

// consumerConnection is a consumer group as GET_CONSUMER_CONNECTION_LIST
// describes it; ok is false for a group with no consumer.
func (r *remotingClients) consumerConnection(group string) (*protocol.ConsumerConnection, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	byCh, ok := r.consumers[group]
	if !ok {
		return nil, false
	}
	cc := &protocol.ConsumerConnection{SubscriptionTable: map[string]protocol.SubscriptionData{}}
	var newest time.Time
	for _, c := range byCh {
		cc.ConnectionSet = append(cc.ConnectionSet, protocol.Connection{ClientID: c.clientID,
			ClientAddr: c.remoteAddr, Language: c.language, Version: c.version})
		if !c.seen.Before(newest) {
			newest = c.seen
			cc.ConsumeType, cc.MessageModel, cc.ConsumeFromWhere = c.consumer.ConsumeType, c.consumer.MessageModel, c.consumer.ConsumeFromWhere
			for _, s := range c.consumer.SubscriptionDataSet {
				cc.SubscriptionTable[s.Topic] = s
			}
		}
	}
	return cc, true
}

// subscription is the subscription a consumer group registered for a
// topic: registered is false for an unknown group, found false when the
// group does not subscribe the topic.
func (r *remotingClients) subscription(group, topic string) (s protocol.SubscriptionData, registered, found bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	byCh, ok := r.consumers[group]
	if !ok {
		return s, false, false
	}
	var newest time.Time
	for _, c := range byCh {
		for _, sd := range c.consumer.SubscriptionDataSet {
			if sd.Topic == topic && !c.seen.Before(newest) {
				s, found, newest = sd, true, c.seen
			}
		}
	}
	return s, true, found
}

// noteTransaction records that a producer group sent a half message to
// topic.
func (r *remotingClients) noteTransaction(group, topic string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.txTopics[group] == nil {
		r.txTopics[group] = map[string]bool{}
	}
	r.txTopics[group][topic] = true
}

// transactionalGroups are the producer groups with a connected producer
// that sent half messages, with their topics.
func (r *remotingClients) transactionalGroups() map[string][]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string][]string{}
	for g, topics := range r.txTopics {
		if len(r.producers[g]) == 0 {
			continue
		}
		for t := range topics {
			out[g] = append(out[g], t)
		}
		sort.Strings(out[g])
	}
	return out
}

// producerOf is a connection of a producer group, in turn over them.
func (r *remotingClients) producerOf(group string) *remoting.Channel {
	r.mu.Lock()
	byKey := r.producers[group]
	chs := make([]*remoting.Channel, 0, len(byKey))
	for _, c := range byKey {
		if c.ch != nil && !c.ch.Closed() {
			chs = append(chs, c.ch)
		}
	}
	r.mu.Unlock()
	if len(chs) == 0 {
		return nil
	}
	sort.Slice(chs, func(i, j int) bool { return chs[i].ID() < chs[j].ID() })
	return chs[r.rr.next(group, len(chs))]
}
