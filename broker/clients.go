package broker

import (
	"maps"
	"slices"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/remoting"
)

// channelExpiry is how long a client's connection lives without a
// heartbeat (ClientHousekeepingService's 120 s), and expiryScan how often
// it is checked.
const (
	channelExpiry = 120 * time.Second
	expiryScan    = 10 * time.Second
)

// clientChannel is ClientChannelInfo: one connection of a client.
type clientChannel struct {
	ch         *remoting.Channel
	clientID   string
	language   remoting.LanguageCode
	version    int32
	lastUpdate time.Time
}

// consumerGroup is ConsumerGroupInfo: the connections of one group and
// the subscriptions they share.
type consumerGroup struct {
	name             string
	consumeType      string
	messageModel     string
	consumeFromWhere string
	channels         map[*remoting.Channel]*clientChannel
	subs             map[string]subscriptionData
	lastUpdate       time.Time
}

// clientTable is ConsumerManager and ProducerManager: who is connected,
// in which groups, subscribing to what. One lock guards both tables.
type clientTable struct {
	log *zap.Logger
	now func() time.Time
	// notify tells the connections left in a group that its members
	// changed; gone drops what a group that lost its last connection
	// leaves behind (its filters).
	notify func(group string, chans []*remoting.Channel)
	gone   func(group string)

	mu        sync.RWMutex
	consumers map[string]*consumerGroup
	producers map[string]map[*remoting.Channel]*clientChannel
}

func newClientTable(log *zap.Logger, now func() time.Time, notify func(string, []*remoting.Channel), gone func(string)) *clientTable {
	return &clientTable{log: log, now: now, notify: notify, gone: gone,
		consumers: map[string]*consumerGroup{}, producers: map[string]map[*remoting.Channel]*clientChannel{}}
}

// registerConsumer is ConsumerManager.registerConsumer. It reports
// whether the group's members or subscriptions changed, and returns the
// channels to notify when they did. A heartbeat that is served after its
// connection closed registers nothing: removeChannel has run or will run
// without it, and the group would keep a dead member until expiry.
func (t *clientTable) registerConsumer(cd *consumerData, info clientChannel) (changed bool, notify []*remoting.Channel) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if info.ch.Closed() {
		return false, nil
	}
	g, ok := t.consumers[cd.GroupName]
	if !ok {
		g = &consumerGroup{name: cd.GroupName, channels: map[*remoting.Channel]*clientChannel{}, subs: map[string]subscriptionData{}}
		t.consumers[cd.GroupName] = g
	}
	g.consumeType, g.messageModel, g.consumeFromWhere = cd.ConsumeType, cd.MessageModel, cd.ConsumeFromWhere
	g.lastUpdate = info.lastUpdate
	if old, ok := g.channels[info.ch]; ok {
		if old.clientID != info.clientID {
			t.log.Error("ConsumerGroupInfo: consumer channel exists in broker, but clientId is not equal",
				zap.String("group", g.name), zap.String("old", old.clientID), zap.String("new", info.clientID))
		}
		old.lastUpdate = info.lastUpdate
	} else {
		c := info
		g.channels[info.ch] = &c
		changed = true
		t.log.Info("new consumer connected", zap.String("group", g.name), zap.String("clientId", info.clientID), zap.String("remote", info.ch.RemoteAddr()))
	}
	if g.updateSubscriptions(cd.SubscriptionDataSet) {
		changed = true
	}
	if changed {
		notify = slices.Collect(maps.Keys(g.channels))
	}
	return changed, notify
}

// updateSubscriptions is ConsumerGroupInfo.updateSubscription: new topics
// are added, newer versions replace older ones, topics no longer
// subscribed go. It reports whether the set of topics changed.
func (g *consumerGroup) updateSubscriptions(subs []subscriptionData) bool {
	changed := false
	seen := make(map[string]bool, len(subs))
	for _, s := range subs {
		seen[s.Topic] = true
		old, ok := g.subs[s.Topic]
		if !ok {
			g.subs[s.Topic] = s
			changed = true
		} else if s.SubVersion > old.SubVersion {
			g.subs[s.Topic] = s
		}
	}
	for topic := range g.subs {
		if !seen[topic] {
			delete(g.subs, topic)
			changed = true
		}
	}
	return changed
}

// registerProducer is ProducerManager.registerProducer; like
// registerConsumer it ignores a connection that has closed.
func (t *clientTable) registerProducer(group string, info clientChannel) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if info.ch.Closed() {
		return
	}
	m, ok := t.producers[group]
	if !ok {
		m = map[*remoting.Channel]*clientChannel{}
		t.producers[group] = m
	}
	if old, ok := m[info.ch]; ok {
		old.lastUpdate = info.lastUpdate
		return
	}
	c := info
	m[info.ch] = &c
}

// consumerChannel is ConsumerManager.findChannel: the connection of a
// group's consumer by client id (nil when it is not connected).
func (t *clientTable) consumerChannel(group, clientID string) *remoting.Channel {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if g, ok := t.consumers[group]; ok {
		for ch, c := range g.channels {
			if c.clientID == clientID && !ch.Closed() {
				return ch
			}
		}
	}
	return nil
}

// producerChannel is ProducerManager.getAvailableChannel: a live
// connection of a producer group (nil when it has none).
func (t *clientTable) producerChannel(group string) *remoting.Channel {
	t.mu.RLock()
	defer t.mu.RUnlock()
	for ch := range t.producers[group] {
		if !ch.Closed() {
			return ch
		}
	}
	return nil
}

// unregisterConsumer removes one connection from a group; the group goes
// when it was the last (gone: Java's UNREGISTER event). It returns the
// channels left to notify.
func (t *clientTable) unregisterConsumer(group string, ch *remoting.Channel) (left []*remoting.Channel, gone bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	g, ok := t.consumers[group]
	if !ok {
		return nil, false
	}
	if _, ok := g.channels[ch]; !ok {
		return nil, false
	}
	delete(g.channels, ch)
	if len(g.channels) == 0 {
		delete(t.consumers, group)
		t.log.Info("unregister consumer ok, no any connection, and remove consumer group", zap.String("group", group))
		return nil, true
	}
	return slices.Collect(maps.Keys(g.channels)), false
}

// unregisterProducer removes one connection from a producer group.
func (t *clientTable) unregisterProducer(group string, ch *remoting.Channel) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if m, ok := t.producers[group]; ok {
		delete(m, ch)
		if len(m) == 0 {
			delete(t.producers, group)
		}
	}
}

// channelClosed drops a connection from every group, as
// doChannelCloseEvent does, tells the groups it left, and unregisters the
// filters of the groups it emptied (the UNREGISTER event). It runs on the
// event loop, so the work goes to a goroutine. The channel is marked
// closed before this is called, and the register methods check that mark
// under t.mu, so a heartbeat still in a pool cannot bring it back.
func (t *clientTable) channelClosed(ch *remoting.Channel) {
	go func() {
		for _, group := range t.removeChannel(ch, "close") {
			t.gone(group)
		}
	}()
}

// removeChannel drops ch everywhere and notifies the groups it left. It
// returns the consumer groups it emptied, which are gone.
func (t *clientTable) removeChannel(ch *remoting.Channel, why string) (gone []string) {
	t.mu.Lock()
	var notify [][]*remoting.Channel
	var groups []string
	for name, g := range t.consumers {
		if _, ok := g.channels[ch]; !ok {
			continue
		}
		delete(g.channels, ch)
		t.log.Info("consumer channel removed", zap.String("why", why), zap.String("group", name), zap.String("remote", ch.RemoteAddr()))
		if len(g.channels) == 0 {
			delete(t.consumers, name)
			gone = append(gone, name)
			continue
		}
		groups = append(groups, name)
		notify = append(notify, slices.Collect(maps.Keys(g.channels)))
	}
	for group, m := range t.producers {
		delete(m, ch)
		if len(m) == 0 {
			delete(t.producers, group)
		}
	}
	t.mu.Unlock()
	for i, group := range groups {
		t.notify(group, notify[i])
	}
	return gone
}

// expiryLoop closes connections that sent no heartbeat for 120 s, as
// ClientHousekeepingService does every 10 s. A group it empties keeps its
// filters alive: Java's scanNotActiveChannel removes it without the
// UNREGISTER event, and the close that follows finds it gone.
func (t *clientTable) expiryLoop(stop <-chan struct{}) {
	runEvery(stop, expiryScan, func() {
		for _, ch := range t.expired(t.now()) {
			t.removeChannel(ch, "expired")
			_ = ch.Close()
		}
	})
}

// expired lists connections whose last heartbeat is older than
// channelExpiry.
func (t *clientTable) expired(now time.Time) []*remoting.Channel {
	t.mu.RLock()
	defer t.mu.RUnlock()
	var out []*remoting.Channel
	seen := map[*remoting.Channel]bool{}
	add := func(c *clientChannel) {
		if now.Sub(c.lastUpdate) > channelExpiry && !seen[c.ch] {
			seen[c.ch] = true
			out = append(out, c.ch)
		}
	}
	for _, g := range t.consumers {
		for _, c := range g.channels {
			add(c)
		}
	}
	for _, m := range t.producers {
		for _, c := range m {
			add(c)
		}
	}
	return out
}

// group returns a copy of a consumer group's state.
func (t *clientTable) group(name string) (consumerGroup, []clientChannel, bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	g, ok := t.consumers[name]
	if !ok {
		return consumerGroup{}, nil, false
	}
	chans := make([]clientChannel, 0, len(g.channels))
	for _, c := range g.channels {
		chans = append(chans, *c)
	}
	cp := *g
	cp.channels, cp.subs = nil, maps.Clone(g.subs)
	return cp, chans, true
}

// subscription is what a pull without a subscription of its own needs of
// its group, read in place: the group's message model and its subscription
// to topic. groupOnline is false when no consumer of the group is
// connected, subscribed false when the group does not subscribe to topic.
func (t *clientTable) subscription(group, topic string) (messageModel string, sub subscriptionData, groupOnline, subscribed bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	g, ok := t.consumers[group]
	if !ok {
		return "", subscriptionData{}, false, false
	}
	sub, subscribed = g.subs[topic]
	return g.messageModel, sub, true, subscribed
}

// consumerIDs lists the client ids of a group's connections.
func (t *clientTable) consumerIDs(group string) []string {
	_, chans, ok := t.group(group)
	if !ok {
		return nil
	}
	ids := make([]string, 0, len(chans))
	for _, c := range chans {
		ids = append(ids, c.clientID)
	}
	slices.Sort(ids)
	return ids
}

// producerGroup returns copies of a producer group's connections; ok is
// false when the group has none registered.
func (t *clientTable) producerGroup(name string) (chans []clientChannel, ok bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	m, ok := t.producers[name]
	if !ok {
		return nil, false
	}
	chans = make([]clientChannel, 0, len(m))
	for _, c := range m {
		chans = append(chans, *c)
	}
	return chans, true
}

// groupsSubscribing is ConsumerManager.queryTopicConsumeByWho: the online
// consumer groups that subscribe topic.
func (t *clientTable) groupsSubscribing(topic string) []string {
	t.mu.RLock()
	defer t.mu.RUnlock()
	var out []string
	for name, g := range t.consumers {
		if _, ok := g.subs[topic]; ok {
			out = append(out, name)
		}
	}
	return out
}

// skipsTopic is the "consumer group does not subscribe this topic" rule
// of the admin codes: the group is online with subscriptions, none of them
// the topic.
func (t *clientTable) skipsTopic(group, topic string) bool {
	t.mu.RLock()
	defer t.mu.RUnlock()
	g, online := t.consumers[group]
	if !online || len(g.subs) == 0 {
		return false
	}
	_, subscribed := g.subs[topic]
	return !subscribed
}

// producerConnKey and consumerConnKey group connections as the
// connection gauges count them.
type (
	producerConnKey struct {
		language remoting.LanguageCode
		version  int32
	}
	consumerConnKey struct {
		group, consumeType string
		language           remoting.LanguageCode
		version            int32
	}
)

// connectionCounts counts the producer connections by language and
// version, and the consumer connections by group, language, version and
// consume type.
func (t *clientTable) connectionCounts() (producers map[producerConnKey]int, consumers map[consumerConnKey]int) {
	producers, consumers = map[producerConnKey]int{}, map[consumerConnKey]int{}
	t.mu.RLock()
	defer t.mu.RUnlock()
	for _, chans := range t.producers {
		for _, c := range chans {
			producers[producerConnKey{c.language, c.version}]++
		}
	}
	for name, g := range t.consumers {
		for _, c := range g.channels {
			consumers[consumerConnKey{name, g.consumeType, c.language, c.version}]++
		}
	}
	return producers, consumers
}
