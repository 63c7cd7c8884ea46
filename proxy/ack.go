package proxy

// AckMessage, ChangeInvisibleDuration, ForwardMessageToDeadLetterQueue
// (AckMessageActivity, ChangeInvisibleDurationActivity,
// ForwardMessageToDLQActivity): each entry's receipt handle names the
// broker, the queue and the offset; the request goes to that broker's
// master as ACK_MESSAGE, CHANGE_MESSAGE_INVISIBLETIME, or
// CONSUMER_SEND_MSG_BACK with delay level -1 followed by an ack.

import (
	"context"
	"strconv"
	"time"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/proxy/apiv2"
	"github.com/rmqgo/rmqgo/remoting"
)

// AckMessage acks each entry.
func (m *messaging) AckMessage(ctx context.Context, req *apiv2.AckMessageRequest) (*apiv2.AckMessageResponse, error) {
	if err := validateTopicAndGroup(req.GetTopic(), req.GetGroup()); err != nil {
		return &apiv2.AckMessageResponse{Status: statusOf(err)}, nil
	}
	topic, group := req.GetTopic().GetName(), req.GetGroup().GetName()
	client := mdValue(ctx, mdClientID)
	resp := &apiv2.AckMessageResponse{Status: statusOK()}
	for _, e := range req.GetEntries() {
		st := m.ackEntry(client, group, topic, e.GetMessageId(), e.GetReceiptHandle())
		resp.Entries = append(resp.Entries, &apiv2.AckMessageResultEntry{MessageId: e.GetMessageId(), ReceiptHandle: e.GetReceiptHandle(), Status: st})
		if st.Code != apiv2.Code_OK {
			resp.Status = st
		}
	}
	if len(req.GetEntries()) > 1 && resp.Status.Code != apiv2.Code_OK {
		resp.Status = status(apiv2.Code_MULTIPLE_RESULTS, "ack message failed")
	}
	return resp, nil
}

// currentHandle parses a receipt handle and swaps in the one the
// proxy renewed it to, if it did (the record goes).
func (m *messaging) currentHandle(client, group, msgID, receipt string) (protocol.PopHandle, error) {
	h, err := protocol.ParsePopHandle(receipt)
	if err != nil {
		return h, refuse(apiv2.Code_INVALID_RECEIPT_HANDLE, "receipt handle is invalid")
	}
	if cur, ok := m.renews.take(keyOf(client, group, msgID, h)); ok {
		return cur, nil
	}
	return h, nil
}

// ackEntry acks one receipt handle.
func (m *messaging) ackEntry(client, group, topic, msgID, receipt string) *apiv2.Status {
	h, err := m.currentHandle(client, group, msgID, receipt)
	if err != nil {
		return statusOf(err)
	}
	addr, err := m.brokers.masterOf(topic, h.BrokerName)
	if err != nil {
		return statusOf(err)
	}
	resp, err := m.brokers.call(addr, ackRequest(group, topic, h), 0)
	if err != nil {
		return statusOf(err)
	}
	if resp.Code != int32(remoting.Success) {
		return statusOf(m.brokerError(resp))
	}
	return statusOK()
}

// ackHandle acks a handle for the proxy itself (a message the filter
// refused), ignoring the outcome as Java does.
func (m *messaging) ackHandle(addr, group, topic string, h protocol.PopHandle) {
	_, _ = m.brokers.call(addr, ackRequest(group, topic, h), 0)
}

// ackRequest is ACK_MESSAGE for a handle, on the topic it was read from.
func ackRequest(group, topic string, h protocol.PopHandle) *remoting.Command {
	real, err := protocol.TopicOfFlag(h.RetryFlag, group, topic)
	if err != nil {
		real = topic
	}
	return remoting.NewRequest(remoting.AckMessage, map[string]string{"consumerGroup": group, "topic": real,
		"queueId": strconv.Itoa(int(h.QueueID)), "extraInfo": h.String(), "offset": strconv.FormatInt(h.QueueOffset, 10),
		"bname": h.BrokerName})
}

// ChangeInvisibleDuration sets a message's new invisible time and
// answers its new receipt handle.
func (m *messaging) ChangeInvisibleDuration(ctx context.Context, req *apiv2.ChangeInvisibleDurationRequest) (*apiv2.ChangeInvisibleDurationResponse, error) {
	fail := func(err error) (*apiv2.ChangeInvisibleDurationResponse, error) {
		return &apiv2.ChangeInvisibleDurationResponse{Status: statusOf(err)}, nil
	}
	if err := validateTopicAndGroup(req.GetTopic(), req.GetGroup()); err != nil {
		return fail(err)
	}
	invisible := req.GetInvisibleDuration().AsDuration().Milliseconds()
	if err := m.validateInvisibleTime(invisible, 0); err != nil {
		return fail(err)
	}
	topic, group := req.GetTopic().GetName(), req.GetGroup().GetName()
	h, err := m.currentHandle(mdValue(ctx, mdClientID), group, req.GetMessageId(), req.GetReceiptHandle())
	if err != nil {
		return fail(err)
	}
	nh, err := m.changeInvisible(group, topic, h, time.Duration(invisible)*time.Millisecond)
	if err != nil {
		return fail(err)
	}
	return &apiv2.ChangeInvisibleDurationResponse{Status: statusOK(), ReceiptHandle: nh.String()}, nil
}

// ForwardMessageToDeadLetterQueue sends a message to its group's DLQ and
// acks it.
func (m *messaging) ForwardMessageToDeadLetterQueue(ctx context.Context, req *apiv2.ForwardMessageToDeadLetterQueueRequest) (*apiv2.ForwardMessageToDeadLetterQueueResponse, error) {
	if err := validateTopicAndGroup(req.GetTopic(), req.GetGroup()); err != nil {
		return &apiv2.ForwardMessageToDeadLetterQueueResponse{Status: statusOf(err)}, nil
	}
	topic, group := req.GetTopic().GetName(), req.GetGroup().GetName()
	h, err := m.currentHandle(mdValue(ctx, mdClientID), group, req.GetMessageId(), req.GetReceiptHandle())
	if err != nil {
		return &apiv2.ForwardMessageToDeadLetterQueueResponse{Status: statusOf(err)}, nil
	}
	addr, err := m.brokers.masterOf(topic, h.BrokerName)
	if err != nil {
		return &apiv2.ForwardMessageToDeadLetterQueueResponse{Status: statusOf(err)}, nil
	}
	if st := m.toDLQ(addr, group, topic, h, req.GetMessageId()); st.Code != apiv2.Code_OK {
		return &apiv2.ForwardMessageToDeadLetterQueueResponse{Status: st}, nil
	}
	return &apiv2.ForwardMessageToDeadLetterQueueResponse{Status: statusOK()}, nil
}

// toDLQ is forwardMessageToDeadLetterQueue: CONSUMER_SEND_MSG_BACK with
// delay level -1 (straight to %DLQ%group), then the ack of the handle.
func (m *messaging) toDLQ(addr, group, topic string, h protocol.PopHandle, msgID string) *apiv2.Status {
	real, err := protocol.TopicOfFlag(h.RetryFlag, group, topic)
	if err != nil {
		real = topic
	}
	req := remoting.NewRequest(remoting.ConsumerSendMsgBack, map[string]string{"offset": strconv.FormatInt(h.CommitLogOffset, 10),
		"group": group, "delayLevel": "-1", "originMsgId": msgID, "originTopic": real, "unitMode": "false",
		"maxReconsumeTimes": "0", "bname": h.BrokerName})
	resp, err := m.brokers.call(addr, req, 0)
	if err != nil {
		return statusOf(err)
	}
	if resp.Code != int32(remoting.Success) {
		return statusOf(m.brokerError(resp))
	}
	m.ackHandle(addr, group, topic, h)
	return statusOK()
}
