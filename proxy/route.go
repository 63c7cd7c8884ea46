package proxy

// QueryRoute and QueryAssignment (RouteActivity): a topic's queues as the
// 5.x clients see them, each with its broker's endpoints (local mode: the
// broker's host with this proxy's gRPC port; cluster mode: the hosts the
// client asked, with the gRPC port), its permission, and the message
// types the topic's message.type attribute lets in.

import (
	"context"
	"net"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/proxy/apiv2"
)

// QueryRoute answers a topic's route.
func (m *messaging) QueryRoute(ctx context.Context, req *apiv2.QueryRouteRequest) (*apiv2.QueryRouteResponse, error) {
	if err := validateTopic(req.GetTopic()); err != nil {
		return &apiv2.QueryRouteResponse{Status: statusOf(err)}, nil
	}
	name := req.GetTopic().GetName()
	route, err := m.brokers.clientRoute(name)
	if err != nil {
		return &apiv2.QueryRouteResponse{Status: statusOf(err)}, nil
	}
	types := acceptedTypes(m.topicMessageType(name))
	var queues []*apiv2.MessageQueue
	for _, qd := range route.QueueDatas {
		brokers := m.routeBrokers(route, qd.BrokerName, req.GetEndpoints())
		if len(brokers) == 0 {
			break // Java stops at a queue whose broker the route lacks
		}
		for _, b := range brokers {
			queues = append(queues, queuesOf(qd, req.GetTopic(), types, b)...)
		}
	}
	return &apiv2.QueryRouteResponse{Status: statusOK(), MessageQueues: queues}, nil
}

// routeBrokers are the brokers of a broker name, with the endpoints the
// client reaches them at.
func (m *messaging) routeBrokers(route *protocol.TopicRouteData, name string, asked *apiv2.Endpoints) []*apiv2.Broker {
	var out []*apiv2.Broker
	for _, bd := range route.BrokerDatas {
		if bd.BrokerName != name {
			continue
		}
		for _, a := range bd.BrokerAddrs {
			out = append(out, &apiv2.Broker{Name: name, Id: int32(a.ID), Endpoints: m.endpointsOf(a.Addr, asked)})
		}
	}
	return out
}

// endpointsOf is where the client reaches a broker's queues: local mode,
// the broker's host at the gRPC port (a proxy beside every broker);
// cluster mode, the addresses the client asked.
func (m *messaging) endpointsOf(brokerAddr string, asked *apiv2.Endpoints) *apiv2.Endpoints {
	port := int32(m.cfg.GrpcServerPort)
	if m.cfg.local() || len(asked.GetAddresses()) == 0 {
		host, _, _ := net.SplitHostPort(brokerAddr)
		return &apiv2.Endpoints{Scheme: schemeOf(host), Addresses: []*apiv2.Address{{Host: host, Port: port}}}
	}
	out := &apiv2.Endpoints{Scheme: asked.GetScheme()}
	for _, a := range asked.GetAddresses() {
		p := port
		if m.cfg.UseEndpointPortFromRequest {
			p = a.GetPort()
		}
		out.Addresses = append(out.Addresses, &apiv2.Address{Host: a.GetHost(), Port: p})
	}
	return out
}

// schemeOf guesses a host's address scheme.
func schemeOf(host string) apiv2.AddressScheme {
	ip := net.ParseIP(host)
	switch {
	case ip == nil:
		return apiv2.AddressScheme_DOMAIN_NAME
	case ip.To4() != nil:
		return apiv2.AddressScheme_IPv4
	}
	return apiv2.AddressScheme_IPv6
}

// queuesOf is genMessageQueueFromQueueData: read-only queues first, then
// write-only, then read-write, numbered in that order; a queue neither
// readable nor writable is NONE.
func queuesOf(qd protocol.QueueData, topic *apiv2.Resource, types []apiv2.MessageType, b *apiv2.Broker) []*apiv2.MessageQueue {
	r, w, rw, n := 0, 0, 0, 0
	read, write := qd.Perm&protocol.PermRead != 0, qd.Perm&protocol.PermWrite != 0
	switch {
	case read && write:
		rw = int(min(qd.WriteQueueNums, qd.ReadQueueNums))
		r, w = int(qd.ReadQueueNums)-rw, int(qd.WriteQueueNums)-rw
	case write:
		w = int(qd.WriteQueueNums)
	case read:
		r = int(qd.ReadQueueNums)
	case qd.Perm&protocol.PermInherit == 0:
		n = max(1, int(max(qd.WriteQueueNums, qd.ReadQueueNums)))
	}
	var out []*apiv2.MessageQueue
	id := int32(0)
	for _, g := range []struct {
		count int
		perm  apiv2.Permission
	}{{r, apiv2.Permission_READ}, {w, apiv2.Permission_WRITE}, {rw, apiv2.Permission_READ_WRITE}, {n, apiv2.Permission_NONE}} {
		for range g.count {
			out = append(out, &apiv2.MessageQueue{Topic: topic, Id: id, Permission: g.perm, Broker: b, AcceptMessageTypes: types})
			id++
		}
	}
	return out
}

// Topic message types (TopicMessageType, the message.type attribute).
const (
	typeUnspecified = "UNSPECIFIED"
	typeNormal      = "NORMAL"
	typeFIFO        = "FIFO"
	typeDelay       = "DELAY"
	typeTransaction = "TRANSACTION"
	typeMixed       = "MIXED"
)

// topicMessageType is TopicConfig.getTopicMessageType: the topic's
// message.type attribute, NORMAL when it has none, UNSPECIFIED when the
// topic's config cannot be read.
func (m *messaging) topicMessageType(topic string) string {
	tc, err := m.brokers.topicConfig(topic)
	if err != nil {
		return typeUnspecified
	}
	if t, ok := tc.Attributes["message.type"]; ok {
		return t
	}
	return typeNormal
}

// acceptedTypes is parseTopicMessageType.
func acceptedTypes(t string) []apiv2.MessageType {
	switch t {
	case typeNormal:
		return []apiv2.MessageType{apiv2.MessageType_NORMAL}
	case typeFIFO:
		return []apiv2.MessageType{apiv2.MessageType_FIFO}
	case typeTransaction:
		return []apiv2.MessageType{apiv2.MessageType_TRANSACTION}
	case typeDelay:
		return []apiv2.MessageType{apiv2.MessageType_DELAY}
	case typeMixed:
		return []apiv2.MessageType{apiv2.MessageType_NORMAL, apiv2.MessageType_FIFO, apiv2.MessageType_DELAY, apiv2.MessageType_TRANSACTION}
	}
	return []apiv2.MessageType{apiv2.MessageType_MESSAGE_TYPE_UNSPECIFIED}
}

// QueryAssignment answers a push consumer's queues: one per readable
// master broker (id -1: every queue of it), or every queue for a FIFO
// group.
func (m *messaging) QueryAssignment(ctx context.Context, req *apiv2.QueryAssignmentRequest) (*apiv2.QueryAssignmentResponse, error) {
	if err := validateTopicAndGroup(req.GetTopic(), req.GetGroup()); err != nil {
		return &apiv2.QueryAssignmentResponse{Status: statusOf(err)}, nil
	}
	route, err := m.brokers.clientRoute(req.GetTopic().GetName())
	if err != nil {
		return &apiv2.QueryAssignmentResponse{Status: statusOf(err)}, nil
	}
	gc, _ := m.brokers.groupConfig(req.GetGroup().GetName(), req.GetTopic().GetName())
	var out []*apiv2.Assignment
	for _, qd := range route.QueueDatas {
		if qd.Perm&protocol.PermRead == 0 || qd.ReadQueueNums <= 0 {
			continue
		}
		master := m.masterBroker(route, qd.BrokerName, req.GetEndpoints())
		if master == nil {
			continue
		}
		perm := permissionOf(qd.Perm)
		ids := []int32{-1}
		if gc.ConsumeMessageOrderly {
			ids = ids[:0]
			for i := range qd.ReadQueueNums {
				ids = append(ids, i)
			}
		}
		for _, id := range ids {
			out = append(out, &apiv2.Assignment{MessageQueue: &apiv2.MessageQueue{Topic: req.GetTopic(), Id: id, Permission: perm, Broker: master}})
		}
	}
	if len(out) == 0 {
		return &apiv2.QueryAssignmentResponse{Status: status(apiv2.Code_FORBIDDEN, "no readable queue")}, nil
	}
	return &apiv2.QueryAssignmentResponse{Status: statusOK(), Assignments: out}, nil
}

// masterBroker is a broker name's master in the route.
func (m *messaging) masterBroker(route *protocol.TopicRouteData, name string, asked *apiv2.Endpoints) *apiv2.Broker {
	for _, b := range m.routeBrokers(route, name, asked) {
		if int64(b.Id) == protocol.MasterID {
			return b
		}
	}
	return nil
}

// permissionOf is convertToPermission.
func permissionOf(perm int32) apiv2.Permission {
	read, write := perm&protocol.PermRead != 0, perm&protocol.PermWrite != 0
	switch {
	case read && write:
		return apiv2.Permission_READ_WRITE
	case read:
		return apiv2.Permission_READ
	case write:
		return apiv2.Permission_WRITE
	}
	return apiv2.Permission_NONE
}
