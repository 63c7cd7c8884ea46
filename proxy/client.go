package proxy

// The clients (ClientActivity, GrpcClientSettingsManager): Telemetry, the
// stream on which a client sends its Settings and gets them back merged
// with the proxy's and its group's (retry policy, FIFO, batch size, long
// polling time); Heartbeat; NotifyClientTermination.
// In local mode each settings and each Heartbeat registers the client with
// the broker on its own connection (registration.go); the broker's
// questions come back on it and go to the client's stream (relay.go,
// transaction.go). Elsewhere the brokers see the clients' groups through
// the proxy's heartbeats (streams.go), under the proxy's client id.

import (
	"context"
	"io"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	grpcstatus "google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/proxy/apiv2"
)

// Telemetry keeps a client's settings and answers them merged.
func (m *messaging) Telemetry(stream grpc.BidiStreamingServer[apiv2.TelemetryCommand, apiv2.TelemetryCommand]) error {
	ctx := stream.Context()
	c := clientOf(ctx)
	cs := &clientStream{stream: stream}
	defer func() {
		m.streams.remove(c.id, cs)
		m.kickHeartbeat() // its groups, if no other client has them, are unregistered
	}()
	for {
		cmd, err := stream.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		s := cmd.GetSettings()
		if s == nil {
			m.takeAnswer(cmd) // a thread stack trace or a verify result
			continue
		}
		if s.GetPublishing() == nil && s.GetSubscription() == nil {
			return grpcstatus.Error(codes.InvalidArgument, "there is no publishing or subscription data in settings")
		}
		if err := m.checkSettings(s); err != nil {
			return grpcstatus.Error(codes.InvalidArgument, "process client telemetryCommand failed. "+err.Error())
		}
		m.settings.Store(c.id, proto.Clone(s))
		m.streams.put(c.id, cs, proto.Clone(s).(*apiv2.Settings))
		m.registerClient(c, s)
		merged := m.clientSettings(c.id)
		if err := cs.send(&apiv2.TelemetryCommand{Status: statusOK(), Command: &apiv2.TelemetryCommand_Settings{Settings: merged}}); err != nil {
			return err
		}
		m.kickHeartbeat()
	}
}

// checkSettings validates the topics or the group a client declares.
func (m *messaging) checkSettings(s *apiv2.Settings) error {
	if p := s.GetPublishing(); p != nil {
		for _, t := range p.GetTopics() {
			if err := validateTopic(t); err != nil {
				return err
			}
		}
		return nil
	}
	return validateGroup(s.GetSubscription().GetGroup())
}

// clientSettings is getClientSettings: the client's settings merged with
// the proxy's (producers) or its group's (consumers); nil when the
// client sent none.
func (m *messaging) clientSettings(clientID string) *apiv2.Settings {
	v, ok := m.settings.Load(clientID)
	if !ok {
		return nil
	}
	s := proto.Clone(v.(*apiv2.Settings)).(*apiv2.Settings)
	if s.GetPublishing() != nil {
		m.mergeProducer(s)
	} else if sub := s.GetSubscription(); sub != nil {
		topic := ""
		if len(sub.GetSubscriptions()) > 0 {
			topic = sub.GetSubscriptions()[0].GetTopic().GetName()
		}
		gc, ok := m.brokers.groupConfig(sub.GetGroup().GetName(), topic)
		if !ok {
			gc = protocol.NewSubscriptionGroupConfig(sub.GetGroup().GetName())
		}
		m.mergeConsumer(s, gc)
	}
	s.Metric = &apiv2.Metric{On: false}
	return s
}

// mergeProducer is mergeProducerData.
func (m *messaging) mergeProducer(s *apiv2.Settings) {
	c := m.cfg
	if s.BackoffPolicy == nil {
		s.BackoffPolicy = &apiv2.RetryPolicy{}
	}
	s.BackoffPolicy.MaxAttempts = int32(c.GrpcClientProducerMaxAttempts)
	s.BackoffPolicy.Strategy = &apiv2.RetryPolicy_ExponentialBackoff{ExponentialBackoff: &apiv2.ExponentialBackoff{
		Initial:    durationpb.New(time.Duration(c.GrpcClientProducerBackoffInitialMillis) * time.Millisecond),
		Max:        durationpb.New(time.Duration(c.GrpcClientProducerBackoffMaxMillis) * time.Millisecond),
		Multiplier: float32(c.GrpcClientProducerBackoffMultiplier)}}
	s.GetPublishing().ValidateMessageType = c.EnableTopicMessageTypeCheck
	s.GetPublishing().MaxBodySize = int32(c.MaxMessageSize)
}

// mergeConsumer is mergeSubscriptionData: batch size and long polling
// time from the proxy, FIFO and the retry policy from the group.
func (m *messaging) mergeConsumer(s *apiv2.Settings, gc protocol.SubscriptionGroupConfig) {
	sub := s.GetSubscription()
	sub.ReceiveBatchSize = proto.Int32(int32(m.cfg.GrpcClientConsumerLongPollingBatchSize))
	sub.LongPollingTimeout = durationpb.New(time.Duration(m.cfg.GrpcClientConsumerMaxLongPollingTimeoutMillis) * time.Millisecond)
	sub.Fifo = proto.Bool(gc.ConsumeMessageOrderly)
	if s.BackoffPolicy == nil {
		s.BackoffPolicy = &apiv2.RetryPolicy{}
	}
	s.BackoffPolicy.MaxAttempts = gc.RetryMaxTimes + 1
	p := gc.GroupRetryPolicy
	if p.Type == protocol.RetryPolicyExponential {
		e := protocol.ExponentialRetryPolicy{Initial: 5000, Max: 7200000, Multiplier: 2}
		if p.ExponentialRetryPolicy != nil {
			e = *p.ExponentialRetryPolicy
		}
		s.BackoffPolicy.Strategy = &apiv2.RetryPolicy_ExponentialBackoff{ExponentialBackoff: &apiv2.ExponentialBackoff{
			Initial: durationpb.New(time.Duration(e.Initial) * time.Millisecond), Max: durationpb.New(time.Duration(e.Max) * time.Millisecond),
			Multiplier: float32(e.Multiplier)}}
		return
	}
	next := protocol.DefaultRetryDelays()
	if p.CustomizedRetryPolicy != nil && p.CustomizedRetryPolicy.Next != nil {
		next = p.CustomizedRetryPolicy.Next
	}
	cb := &apiv2.CustomizedBackoff{}
	for _, ms := range next {
		cb.Next = append(cb.Next, durationpb.New(time.Duration(ms)*time.Millisecond))
	}
	s.BackoffPolicy.Strategy = &apiv2.RetryPolicy_CustomizedBackoff{CustomizedBackoff: cb}
}

// Heartbeat answers OK for a client whose settings are known.
func (m *messaging) Heartbeat(ctx context.Context, req *apiv2.HeartbeatRequest) (*apiv2.HeartbeatResponse, error) {
	c := clientOf(ctx)
	s := m.clientSettings(c.id)
	if s == nil {
		return &apiv2.HeartbeatResponse{Status: status(apiv2.Code_UNRECOGNIZED_CLIENT_TYPE, "cannot find client settings for this client")}, nil
	}
	switch s.GetClientType() {
	case apiv2.ClientType_PRODUCER:
	case apiv2.ClientType_PUSH_CONSUMER, apiv2.ClientType_SIMPLE_CONSUMER:
		if err := validateGroup(req.GetGroup()); err != nil {
			return &apiv2.HeartbeatResponse{Status: statusOf(err)}, nil
		}
	default:
		return &apiv2.HeartbeatResponse{Status: status(apiv2.Code_UNRECOGNIZED_CLIENT_TYPE, s.GetClientType().String())}, nil
	}
	if v, ok := m.settings.Load(c.id); ok {
		m.registerClient(c, v.(*apiv2.Settings))
		if m.syncer != nil {
			m.syncer.syncGrpcConsumer(syncRegister, c, m.grpcLocalAddr, v.(*apiv2.Settings))
		}
	}
	return &apiv2.HeartbeatResponse{Status: statusOK()}, nil
}

// NotifyClientTermination forgets the client.
func (m *messaging) NotifyClientTermination(ctx context.Context, req *apiv2.NotifyClientTerminationRequest) (*apiv2.NotifyClientTerminationResponse, error) {
	c := clientOf(ctx)
	v, ok := m.settings.LoadAndDelete(c.id)
	if !ok {
		return &apiv2.NotifyClientTerminationResponse{Status: status(apiv2.Code_UNRECOGNIZED_CLIENT_TYPE, "cannot find client settings for this client")}, nil
	}
	m.log.Debug("client terminated", zap.String("clientId", c.id), zap.String("type", v.(*apiv2.Settings).GetClientType().String()))
	if m.syncer != nil {
		m.syncer.syncGrpcConsumer(syncUnregister, c, m.grpcLocalAddr, v.(*apiv2.Settings))
	}
	m.channels.close(c.id)
	return &apiv2.NotifyClientTerminationResponse{Status: statusOK()}, nil
}
