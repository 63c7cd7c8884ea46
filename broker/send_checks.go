package broker

import (
	"strings"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// topicMaxLength is TopicValidator.TOPIC_MAX_LENGTH (4.9.8).
const topicMaxLength = 127

// notAllowedSendTopics is TopicValidator's NOT_ALLOWED_SEND_TOPIC_SET.
var notAllowedSendTopics = map[string]bool{
	TopicSchedule: true, TopicTransHalf: true, TopicTransOp: true, TopicTransCheckMax: true,
	TopicSelfTest: true, TopicOffsetMovedEvent: true,
}

// validateTopic is TopicValidator.validateTopic.
func validateTopic(topic string) *failure {
	switch {
	case strings.TrimSpace(topic) == "":
		return &failure{remoting.SystemError, "The specified topic is blank."}
	case !protocol.ValidTopicOrGroup(topic):
		return &failure{remoting.SystemError, "The specified topic contains illegal characters, allowing only ^[%|a-zA-Z0-9_-]+$"}
	case len(topic) > topicMaxLength:
		return &failure{remoting.SystemError, "The specified topic is longer than topic max length."}
	}
	return nil
}

// isOrderTopic tells whether the name servers hold an order config for
// the topic (Java asks its KV config cache; this broker keeps none).
func (s *sendService) isOrderTopic(topic string) bool {
	tc, ok := s.topics.get(topic)
	return ok && tc.Order
}

// retryOrDLQ is handleRetryAndDLQ for a message sent to %RETRY%group: the
// group must exist, and a message past its group's retry limit goes to
// %DLQ%group instead.
func (s *sendService) retryOrDLQ(h *sendHeader, queueID int32) (string, int32, *failure) {
	group := strings.TrimPrefix(h.topic, RetryGroupTopicPrefix)
	gc, ok := s.groups.find(group)
	if !ok {
		return "", 0, &failure{remoting.SubscriptionGroupNotExist, "subscription group not exist, " + group + " " + s.line.faq()}
	}
	maxTimes := gc.RetryMaxTimes
	if h.maxReconsumeTimes >= 0 {
		maxTimes = h.maxReconsumeTimes
	}
	if h.reconsumeTimes < maxTimes {
		return h.topic, queueID, nil
	}
	dlq := dlqTopic(group)
	tc, _ := s.topics.createForRetry(dlq, 1, protocol.PermWrite|protocol.PermRead, 0)
	if tc.TopicName == "" {
		return "", 0, &failure{remoting.SystemError, "topic[" + dlq + "] not exist"}
	}
	return dlq, 0, nil
}

// putHalf stores a transaction's half message as
// TransactionalMessageBridge.parseHalfMessageInner does: the real topic
// and queue in properties, the message itself on queue 0 of
// RMQ_SYS_TRANS_HALF_TOPIC with the transaction type bits cleared.
func (s *sendService) putHalf(m *store.Message, props *msgProps, set *settings, o *sendOutcome) (store.PutResult, *failure) {
	if set.Broker.RejectTransactionMessage {
		return store.PutResult{}, &failure{remoting.NoPermission, "the broker[" + set.Broker.BrokerIP1 + "] sending transaction message is forbidden"}
	}
	props.set(propRealTopic, m.Topic)
	props.set(propRealQueueID, itoa(m.QueueID))
	m.SysFlag &^= store.SysFlagTransactionMsk
	m.Topic, m.QueueID = TopicTransHalf, 0
	m.Properties = props.encode(s.line)
	s.topics.createForRetry(TopicTransHalf, 1, protocol.PermWrite|protocol.PermRead, 0)
	return s.put(o, m.Topic, []store.Message{*m}), nil
}
