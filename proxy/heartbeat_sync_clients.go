package proxy

// What the HeartbeatSyncer (heartbeat_syncer.go) carries, both ways: this
// proxy's remoting consumers (remoting_port.go) and gRPC consumers
// (client.go) as messages, and the other proxies' consumers into the
// remoting port's registrations (REMOTING) or the gRPC clients' settings
// (GRPC_V2).

import (
	"time"

	jsoniter "github.com/json-iterator/go"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/proxy/apiv2"
	"github.com/rmqgo/rmqgo/remoting"
)

// syncRemotingConsumers publishes the consumer groups a remoting client
// heartbeated (register) or left.
func (s *heartbeatSyncer) syncRemotingConsumers(kind string, ch *remoting.Channel, clientID string, lang string, version int32,
	consumers []protocol.ConsumerData) {
	for _, cd := range consumers {
		attr, err := jsoniter.Marshal(cd.SubscriptionDataSet)
		if err != nil {
			continue
		}
		c := &remotingClient{clientID: clientID, language: lang, version: version, consumer: cd}
		s.publish(kind, cd.GroupName, c, remoteChannel{RemoteAddress: ch.RemoteAddr(), LocalAddress: ch.LocalAddr(),
			Type: channelRemoting, ExtendAttribute: string(attr)})
	}
}

// syncGrpcConsumer publishes a gRPC consumer's registration (its
// Heartbeat) or its end, with its settings.
func (s *heartbeatSyncer) syncGrpcConsumer(kind string, c clientInfo, local string, settings *apiv2.Settings) {
	sub := settings.GetSubscription()
	if sub == nil {
		return
	}
	attr, err := protojson.Marshal(settings)
	if err != nil {
		return
	}
	cd := protocol.ConsumerData{GroupName: sub.GetGroup().GetName(), ConsumeType: "CONSUME_PASSIVELY",
		MessageModel: "CLUSTERING", ConsumeFromWhere: "CONSUME_FROM_LAST_OFFSET"}
	if settings.GetClientType() == apiv2.ClientType_SIMPLE_CONSUMER {
		cd.ConsumeType = "CONSUME_ACTIVELY"
	}
	for _, e := range sub.GetSubscriptions() {
		cd.SubscriptionDataSet = append(cd.SubscriptionDataSet, subscriptionOf(e))
	}
	rc := &remotingClient{clientID: c.id, language: c.language, version: protocol.VersionV5_3_3, consumer: cd}
	s.publish(kind, cd.GroupName, rc, remoteChannel{RemoteAddress: c.remote, LocalAddress: local, Type: channelGrpcV2,
		ExtendAttribute: string(attr)})
}

// takeRemote applies another proxy's message: a remoting consumer joins
// or leaves the registrations; a gRPC consumer's settings are kept for
// its calls that come here, unless it has a stream here.
func takeRemote(clients *remotingClients, m *messaging, d *syncerData, ch remoteChannel) {
	register := d.HeartbeatType == syncRegister
	switch ch.Type {
	case channelRemoting:
		c := &remotingClient{remoteAddr: ch.RemoteAddress, clientID: d.ClientID, language: d.Language, version: d.Version,
			seen: time.Now(), consumer: protocol.ConsumerData{GroupName: d.Group, ConsumeType: d.ConsumeType,
				MessageModel: d.MessageModel, ConsumeFromWhere: d.ConsumeFromWhere, SubscriptionDataSet: d.SubscriptionDataSet}}
		clients.putRemote(ch.id(), c, register)
	case channelGrpcV2:
		if m.streams.live(d.ClientID) {
			return
		}
		if !register {
			m.settings.Delete(d.ClientID)
			return
		}
		s := &apiv2.Settings{}
		if err := (protojson.UnmarshalOptions{DiscardUnknown: true}).Unmarshal([]byte(ch.ExtendAttribute), s); err == nil {
			m.settings.Store(d.ClientID, s)
		}
	}
}
