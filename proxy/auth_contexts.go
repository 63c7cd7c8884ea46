package proxy

// What each request asks ACL 2.0's authorization for
// (DefaultAuthorizationContextBuilder.build for gRPC); every context must
// pass:
//
//	SendMessage              Topic:<messages[0].topic> Pub    (no message: "message is null.")
//	RecallMessage            Topic Pub
//	EndTransaction           Topic Pub
//	Heartbeat                consumers: Group Sub; producers: nothing
//	ReceiveMessage           Group Sub, Topic:<message_queue.topic> Sub   (no queue: "messageQueue is null.")
//	AckMessage               Group Sub, Topic Sub
//	ForwardMessageToDeadLetterQueue  Group Sub, Topic Sub
//	ChangeInvisibleDuration  Group Sub
//	NotifyClientTermination  Group Sub when a group is named, else nothing
//	QueryRoute               Topic with [Pub, Sub] (a policy granting either passes)
//	QueryAssignment          Group Sub, Topic Sub
//	Telemetry                settings only: each published topic Pub; the group and each
//	                         subscribed topic Sub; neither: an internal error, not a refusal
//
// A blank name is refused: "topic is null." / "group is null.".

import (
	"strings"

	"github.com/rmqgo/rmqgo/internal/auth"
	"github.com/rmqgo/rmqgo/proxy/apiv2"
)

// settingsWithoutRoles is Java's AclException for settings that neither
// publish nor subscribe: INTERNAL_SERVER_ERROR, not UNAUTHORIZED.
type settingsWithoutRoles struct{}

func (*settingsWithoutRoles) Error() string {
	return "settings command doesn't have publishing or subscription."
}

// contextBuilder collects a request's contexts over a base context (the
// subject and source address).
type contextBuilder struct {
	base auth.Context
	out  []auth.Context
}

func (b *contextBuilder) add(r auth.Resource, actions ...auth.Action) {
	c := b.base
	c.Resource, c.Actions = r, actions
	b.out = append(b.out, c)
}

// topic adds a topic with actions; a blank name is refused.
func (b *contextBuilder) topic(t *apiv2.Resource, actions ...auth.Action) error {
	if strings.TrimSpace(t.GetName()) == "" {
		return &auth.Denied{Msg: "topic is null."}
	}
	b.add(auth.Topic(t.GetName()), actions...)
	return nil
}

// group adds a group to subscribe as; a blank name is refused.
func (b *contextBuilder) group(g *apiv2.Resource) error {
	if strings.TrimSpace(g.GetName()) == "" {
		return &auth.Denied{Msg: "group is null."}
	}
	b.add(auth.Group(g.GetName()), auth.ActionSub)
	return nil
}

// groupAndTopic adds a group and a topic to subscribe to.
func (b *contextBuilder) groupAndTopic(g, t *apiv2.Resource) error {
	if err := b.group(g); err != nil {
		return err
	}
	return b.topic(t, auth.ActionSub)
}

// authzContexts are the contexts of a request; none for a request
// authorization does not check.
func authzContexts(req any, base auth.Context) ([]auth.Context, error) {
	b := &contextBuilder{base: base}
	var err error
	switch r := req.(type) {
	case *apiv2.SendMessageRequest:
		if len(r.GetMessages()) == 0 {
			return nil, &auth.Denied{Msg: "message is null."}
		}
		err = b.topic(r.GetMessages()[0].GetTopic(), auth.ActionPub)
	case *apiv2.RecallMessageRequest:
		err = b.topic(r.GetTopic(), auth.ActionPub)
	case *apiv2.EndTransactionRequest:
		err = b.topic(r.GetTopic(), auth.ActionPub)
	case *apiv2.HeartbeatRequest:
		if isConsumer(r.GetClientType()) {
			err = b.group(r.GetGroup())
		}
	case *apiv2.ReceiveMessageRequest:
		if r.GetMessageQueue() == nil {
			return nil, &auth.Denied{Msg: "messageQueue is null."}
		}
		err = b.groupAndTopic(r.GetGroup(), r.GetMessageQueue().GetTopic())
	case *apiv2.AckMessageRequest:
		err = b.groupAndTopic(r.GetGroup(), r.GetTopic())
	case *apiv2.ForwardMessageToDeadLetterQueueRequest:
		err = b.groupAndTopic(r.GetGroup(), r.GetTopic())
	case *apiv2.ChangeInvisibleDurationRequest:
		err = b.group(r.GetGroup())
	case *apiv2.NotifyClientTerminationRequest:
		if strings.TrimSpace(r.GetGroup().GetName()) != "" {
			err = b.group(r.GetGroup())
		}
	case *apiv2.QueryRouteRequest:
		err = b.topic(r.GetTopic(), auth.ActionPub, auth.ActionSub)
	case *apiv2.QueryAssignmentRequest:
		err = b.groupAndTopic(r.GetGroup(), r.GetTopic())
	case *apiv2.TelemetryCommand:
		err = b.settings(r.GetSettings())
	}
	return b.out, err
}

// settings adds a Telemetry settings command's topics and group.
func (b *contextBuilder) settings(s *apiv2.Settings) error {
	if s == nil {
		return nil
	}
	if s.GetPublishing() == nil && s.GetSubscription() == nil {
		return &settingsWithoutRoles{}
	}
	for _, t := range s.GetPublishing().GetTopics() {
		if err := b.topic(t, auth.ActionPub); err != nil {
			return err
		}
	}
	if sub := s.GetSubscription(); sub != nil {
		if err := b.group(sub.GetGroup()); err != nil {
			return err
		}
		for _, e := range sub.GetSubscriptions() {
			if err := b.topic(e.GetTopic(), auth.ActionSub); err != nil {
				return err
			}
		}
	}
	return nil
}

// isConsumer is isConsumerClientType.
func isConsumer(t apiv2.ClientType) bool {
	switch t {
	case apiv2.ClientType_PUSH_CONSUMER, apiv2.ClientType_SIMPLE_CONSUMER, apiv2.ClientType_PULL_CONSUMER:
		return true
	}
	return false
}
