package proxy

// RecallMessage (RecallMessageActivity, ProducerProcessor.recallMessage):
// a producer takes back a DELAY message before its time with the
// recall_handle of its SendResultEntry (send.go copies it from the
// broker's answer; its format is internal/protocol/recall.go), as
// RECALL_MESSAGE (broker/recall.go) to the broker the handle names.
//
//  1. validateTopic (validate.go).
//  2. With enableTopicMessageTypeCheck, the topic's message.type must be
//     DELAY or MIXED (DefaultTopicMessageTypeValidator with DELAY):
//     MESSAGE_PROPERTY_CONFLICT_WITH_TYPE "…ProxyException: TopicMessageType
//     validate failed, the expected type is <topic's type>, but actual type
//     is DELAY" (NORMAL for a topic without the attribute, UNSPECIFIED for
//     one the broker does not know).
//  3. The handle decoded: INTERNAL_SERVER_ERROR "…ProxyException: recall
//     handle is invalid".
//  4. RECALL_MESSAGE {topic, recallHandle, bname: the handle's broker}
//     with a 2 s timeout, to the local broker in local mode, in cluster
//     mode to the master of the handle's broker name (the route of the
//     topic named like it; none: BAD_REQUEST "…ProxyException: cannot
//     find broker <name>").
//  5. SUCCESS: OK with message_id the answer's msgId; another code as
//     every broker refusal (status.go brokerError): local
//     INTERNAL_SERVER_ERROR "…ProxyException: <remark>", cluster the code
//     mapped with the bare remark.

import (
	"context"
	"time"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/proxy/apiv2"
	"github.com/rmqgo/rmqgo/remoting"
)

// recallTimeout is the RECALL_MESSAGE call's (Duration.ofSeconds(2)).
const recallTimeout = 2 * time.Second

// RecallMessage recalls a DELAY message.
func (m *messaging) RecallMessage(_ context.Context, req *apiv2.RecallMessageRequest) (*apiv2.RecallMessageResponse, error) {
	id, err := m.recall(req)
	if err != nil {
		return &apiv2.RecallMessageResponse{Status: statusOf(err)}, nil
	}
	return &apiv2.RecallMessageResponse{Status: statusOK(), MessageId: id}, nil
}

func (m *messaging) recall(req *apiv2.RecallMessageRequest) (string, error) {
	topic := req.GetTopic().GetName()
	if err := validateTopic(req.GetTopic()); err != nil {
		return "", err
	}
	if m.cfg.EnableTopicMessageTypeCheck {
		if tt := m.topicMessageType(topic); tt != typeDelay && tt != typeMixed {
			return "", proxyException(apiv2.Code_MESSAGE_PROPERTY_CONFLICT_WITH_TYPE,
				"TopicMessageType validate failed, the expected type is "+tt+", but actual type is "+typeDelay)
		}
	}
	h, err := protocol.DecodeRecallHandle(req.GetRecallHandle())
	if err != nil {
		return "", proxyException(apiv2.Code_INTERNAL_SERVER_ERROR, err.Error())
	}
	addr, err := m.brokerNamed(h.BrokerName)
	if err != nil {
		return "", err
	}
	resp, err := m.brokers.call(addr, remoting.NewRequest(remoting.RecallMessage, map[string]string{
		"topic": topic, "recallHandle": req.GetRecallHandle(), "bname": h.BrokerName}), recallTimeout)
	if err != nil {
		return "", err
	}
	if resp.Code != int32(remoting.Success) {
		return "", m.brokerError(resp)
	}
	return resp.ExtString("msgId"), nil
}

// brokerNamed is the address of a broker name's master
// (ClusterMessageService.resolveBrokerAddr: the route of the topic named
// like the broker); in local mode the local broker whatever the name.
func (m *messaging) brokerNamed(name string) (string, error) {
	if m.cfg.local() {
		return m.brokers.localAddr, nil
	}
	addr, err := m.brokers.masterOf(name, name)
	if err != nil {
		return "", proxyException(apiv2.Code_BAD_REQUEST, "cannot find broker "+name)
	}
	return addr, nil
}
