package proxy

// Local mode's registration of each gRPC client with the broker, as
// Java's local proxy registers a GrpcClientChannel per client id with the
// broker's producer and consumer managers (docs/reference/proxy.md §6.4):
// every client gets an in-process connection of its own to the broker
// (remoting.InProcess.Dial), seen at the client's address, over which its
// Heartbeats and settings become HEART_BEATs carrying its client id,
// language and version. The broker's connection lists then show the
// clients themselves, it expires them as it expires remoting clients (and
// closes the connection, which forgets it here), and what it sends on a
// client's connection reaches that client (relay.go). A client's
// NotifyClientTermination closes its connection, which unregisters it.
// Without the broker in process (cluster mode) the proxy heartbeats its
// clients' groups under its own id instead (streams.go). One difference:
// Java's local proxy bypasses the broker's heartbeat processor, ours sends
// HEART_BEAT, so the broker creates the group's %RETRY% topic and the admin
// tools' group-wide lookups, which start from its route, find the group
// (on Java they answer "No topic route info", docs/reference/proxy.md §6.6).

import (
	"encoding/json"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/proxy/apiv2"
	"github.com/rmqgo/rmqgo/remoting"
)

// currentVersion is MQVersion.CURRENT_VERSION of 5.3.3 (V5_3_3), the
// version Java registers a gRPC client with unless its x-mq-client-version
// is an enum name such as V5_0_8 (the clients send "5.0.8", which is not).
const currentVersion int32 = 479

// clientIDAttr keys the client id kept with a client's connection.
type clientIDAttr struct{}

// clientChannels are the clients' in-process connections to the broker,
// by client id.
type clientChannels struct {
	ip     *remoting.InProcess // nil: the broker is not in process
	router *remoting.Router    // serves what the broker sends on them
	mu     sync.Mutex
	m      map[string]*remoting.Channel
}

// perClient tells whether clients are registered one by one.
func (c *clientChannels) perClient() bool { return c.ip != nil }

// get is a client's connection, opened on first need at the client's
// address.
func (c *clientChannels) get(id, remote string) *remoting.Channel {
	c.mu.Lock()
	defer c.mu.Unlock()
	if ch := c.m[id]; ch != nil && !ch.Closed() {
		return ch
	}
	if c.m == nil {
		c.m = map[string]*remoting.Channel{}
	}
	if _, _, found := strings.Cut(remote, ":"); !found {
		remote = c.ip.Remote
	}
	ch := c.ip.Dial(remote, c.router, func(ch *remoting.Channel) { c.forget(id, ch) })
	ch.SetAttr(clientIDAttr{}, id)
	c.m[id] = ch
	return ch
}

// forget drops a client's connection once it closed.
func (c *clientChannels) forget(id string, ch *remoting.Channel) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m[id] == ch {
		delete(c.m, id)
	}
}

// close closes a client's connection: the broker unregisters it.
func (c *clientChannels) close(id string) {
	c.mu.Lock()
	ch := c.m[id]
	c.mu.Unlock()
	if ch != nil {
		_ = ch.Close()
	}
}

// closeAll closes every client's connection (the proxy stops).
func (c *clientChannels) closeAll() {
	c.mu.Lock()
	all := make([]*remoting.Channel, 0, len(c.m))
	for _, ch := range c.m {
		all = append(all, ch)
	}
	c.mu.Unlock()
	for _, ch := range all {
		_ = ch.Close()
	}
}

// clientOfChannel is the client id of a client's connection ("" for
// another).
func clientOfChannel(ch *remoting.Channel) string {
	v, _ := ch.Attr(clientIDAttr{})
	id, _ := v.(string)
	return id
}

// registerClient sends the broker a HEART_BEAT for one client, on its
// connection, with the groups its settings name: its topics as producer
// groups, or its consumer group and subscriptions (registerProducer,
// registerConsumer).
func (m *messaging) registerClient(c clientInfo, s *apiv2.Settings) {
	if !m.channels.perClient() || s == nil {
		return
	}
	hb := protocol.HeartbeatData{ClientID: c.id, ProducerDataSet: []protocol.ProducerData{}, ConsumerDataSet: []protocol.ConsumerData{}}
	for _, t := range s.GetPublishing().GetTopics() {
		hb.ProducerDataSet = append(hb.ProducerDataSet, protocol.ProducerData{GroupName: t.GetName()})
	}
	if sub := s.GetSubscription(); sub != nil {
		consumeType := "CONSUME_PASSIVELY"
		if s.GetClientType() == apiv2.ClientType_SIMPLE_CONSUMER {
			consumeType = "CONSUME_ACTIVELY"
		}
		cd := protocol.ConsumerData{GroupName: sub.GetGroup().GetName(), ConsumeType: consumeType, MessageModel: "CLUSTERING",
			ConsumeFromWhere: "CONSUME_FROM_LAST_OFFSET", SubscriptionDataSet: []protocol.SubscriptionData{}}
		for _, e := range sub.GetSubscriptions() {
			cd.SubscriptionDataSet = append(cd.SubscriptionDataSet, subscriptionOf(e))
		}
		hb.ConsumerDataSet = append(hb.ConsumerDataSet, cd)
	}
	body, err := json.Marshal(hb)
	if err != nil {
		return
	}
	req := remoting.NewRequest(remoting.HeartBeat, nil)
	lang, ok := remoting.ParseLanguage(c.language)
	if !ok {
		lang = remoting.LanguageOther
	}
	req.Language = lang
	req.Version = clientVersion(c.version)
	req.Body = body
	m.local.stamp(m.local.Addr, req)
	ch := m.channels.get(c.id, c.remote)
	if _, err := ch.InvokeTimeout(req, brokerCallTimeout); err != nil {
		m.log.Debug("client registration failed", zap.String("clientId", c.id), zap.Error(err))
	}
}

// clientVersion is the version a client is registered with:
// MQVersion.Version.valueOf(upper-cased x-mq-client-version)'s ordinal,
// else CURRENT_VERSION.
func clientVersion(v string) int32 {
	if n, ok := remoting.ParseVersion(strings.ToUpper(v)); ok {
		return n
	}
	return currentVersion
}

// subscriptionOf is a subscription entry as a heartbeat's
// SubscriptionData.
func subscriptionOf(e *apiv2.SubscriptionEntry) protocol.SubscriptionData {
	expType, exp := filterOf(e.GetExpression())
	return protocol.SubscriptionData{Topic: e.GetTopic().GetName(), SubString: exp, ExpressionType: expType,
		SubVersion: time.Now().UnixMilli(), TagsSet: []string{}, CodeSet: []int32{}}
}
