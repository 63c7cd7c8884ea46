package proxy

// ReceiveMessage (ReceiveMessageActivity, ConsumerProcessor.popMessage):
// a POP_MESSAGE to one broker (the one the request's queue names, else
// the readable masters in turn), every queue of it, with the batch size,
// the invisible time (60 s for an auto-renewing push consumer, else the
// request's, at least 10 s) and the long-polling time (the request's or
// the settings', clamped to [5 s, 20 s] and to the call's deadline). The
// stream: a status (OK, or MESSAGE_NOT_FOUND 40401 when nothing came),
// the messages, the delivery timestamp. A message past the group's max
// attempts is forwarded to its DLQ instead; one the tag filter refuses
// is acked.
//
// Not yet done (issue 30): renewing the receipt handles of push
// consumers (ReceiptHandleProcessor) while they consume.

import (
	"encoding/binary"
	"strconv"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/proxy/apiv2"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

const (
	popMaxMsgNums = 32
	popInitMax    = "1" // ConsumeInitMode.MAX
)

// nackInvisible is NACK_INVISIBLE_TIME: a message popped for a client
// that is gone is visible again this soon.
const nackInvisible = time.Second

// ReceiveMessage pops and streams the messages. A message that cannot be
// written (the client gone: it cancelled, its deadline passed, it
// disconnected while the pop waited) is nacked, with the ones after it,
// as ReceiveMessageResponseStreamWriter does: visible again in 1 s rather
// than after its invisible time.
func (m *messaging) ReceiveMessage(req *apiv2.ReceiveMessageRequest, stream grpc.ServerStreamingServer[apiv2.ReceiveMessageResponse]) error {
	st, got := m.receive(req, stream)
	err := stream.Send(&apiv2.ReceiveMessageResponse{Content: &apiv2.ReceiveMessageResponse_Status{Status: st}})
	if err == nil && len(got) > 0 {
		err = stream.Context().Err()
	}
	for i, g := range got {
		if err == nil {
			err = stream.Send(&apiv2.ReceiveMessageResponse{Content: &apiv2.ReceiveMessageResponse_Message{Message: g.msg}})
		}
		if err != nil {
			m.nack(mdValue(stream.Context(), mdClientID), req, got[i:])
			return err
		}
	}
	_ = stream.Send(&apiv2.ReceiveMessageResponse{Content: &apiv2.ReceiveMessageResponse_DeliveryTimestamp{DeliveryTimestamp: timestamppb.Now()}})
	return nil
}

// nack makes popped messages that were not delivered visible again in
// nackInvisible, and forgets their auto-renewal.
func (m *messaging) nack(client string, req *apiv2.ReceiveMessageRequest, got []poppedMessage) {
	topic, group := req.GetMessageQueue().GetTopic().GetName(), req.GetGroup().GetName()
	for _, g := range got {
		h := g.handle
		if cur, ok := m.renews.take(keyOf(client, group, g.msg.GetSystemProperties().GetMessageId(), h)); ok {
			h = cur
		}
		_, _ = m.changeInvisible(group, topic, h, nackInvisible)
	}
}

// receive is one receive: its status and the messages popped.
func (m *messaging) receive(req *apiv2.ReceiveMessageRequest, stream grpc.ServerStreamingServer[apiv2.ReceiveMessageResponse]) (*apiv2.Status, []poppedMessage) {
	ctx := stream.Context()
	c := clientOf(ctx)
	settings := m.clientSettings(c.id)
	if settings == nil {
		return status(apiv2.Code_UNRECOGNIZED_CLIENT_TYPE, "cannot find client settings for this client"), nil
	}
	remaining := 30 * time.Second
	if dl, ok := ctx.Deadline(); ok {
		remaining = time.Until(dl)
	}
	polling, err := m.pollingTime(req, settings, remaining)
	if err != nil {
		return statusOf(err), nil
	}
	if err := validateTopicAndGroup(req.GetMessageQueue().GetTopic(), req.GetGroup()); err != nil {
		return statusOf(err), nil
	}
	invisible := req.GetInvisibleDuration().AsDuration().Milliseconds()
	if req.GetAutoRenew() {
		invisible = m.cfg.DefaultInvisibleTimeMills
	} else if err := m.validateInvisibleTime(invisible, m.cfg.MinInvisibleTimeMillsForRecv); err != nil {
		return statusOf(err), nil
	}
	topic, group := req.GetMessageQueue().GetTopic().GetName(), req.GetGroup().GetName()
	expType, exp := filterOf(req.GetFilterExpression())
	addr, brokerName, err := m.readableBroker(topic, req.GetMessageQueue().GetBroker().GetName())
	if err != nil {
		return statusOf(err), nil
	}
	batch := min(max(req.GetBatchSize(), 1), popMaxMsgNums)
	h := map[string]string{"consumerGroup": group, "topic": topic, "queueId": "-1", "maxMsgNums": strconv.Itoa(int(batch)),
		"invisibleTime": strconv.FormatInt(invisible, 10), "pollTime": strconv.FormatInt(polling.Milliseconds(), 10),
		"bornTime": strconv.FormatInt(time.Now().UnixMilli(), 10), "initMode": popInitMax, "expType": expType, "exp": exp,
		"order": strconv.FormatBool(settings.GetSubscription().GetFifo()), "bname": brokerName}
	if req.AttemptId != nil {
		h["attemptId"] = req.GetAttemptId()
	}
	resp, err := m.brokers.call(addr, remoting.NewRequest(remoting.PopMessage, h), polling+3*time.Second)
	if err != nil {
		return statusOf(err), nil
	}
	// processPopResponse: 209 POLLING_FULL, 210 and 19 POLLING_NOT_FOUND
	switch remoting.ResponseCode(resp.Code) {
	case remoting.Success:
	case remoting.PollingFull:
		return status(apiv2.Code_TOO_MANY_REQUESTS, "polling full"), nil
	case remoting.PollingTimeout, remoting.PullNotFound:
		return status(apiv2.Code_MESSAGE_NOT_FOUND, "no new message"), nil
	default:
		return statusOf(m.brokerError(resp)), nil
	}
	got := m.popped(resp, addr, group, topic, brokerName, exp, expType, settings.GetBackoffPolicy().GetMaxAttempts())
	if len(got) == 0 {
		return status(apiv2.Code_MESSAGE_NOT_FOUND, "no match message"), nil
	}
	now := time.Now()
	for _, g := range got {
		if req.GetAutoRenew() {
			m.renews.add(keyOf(c.id, group, g.msg.GetSystemProperties().GetMessageId(), g.handle),
				&renewRecord{topic: topic, handle: g.handle, reconsumeTimes: g.reconsumeTimes, since: now})
		}
	}
	return statusOK(), got
}

// pollingTime is the long-polling time of a receive.
func (m *messaging) pollingTime(req *apiv2.ReceiveMessageRequest, s *apiv2.Settings, remaining time.Duration) (time.Duration, error) {
	var p time.Duration
	if req.LongPollingTimeout != nil {
		p = req.GetLongPollingTimeout().AsDuration()
	} else {
		p = remaining - s.GetRequestTimeout().AsDuration()/2
	}
	lo := time.Duration(m.cfg.GrpcClientConsumerMinLongPollingTimeoutMillis) * time.Millisecond
	hi := time.Duration(m.cfg.GrpcClientConsumerMaxLongPollingTimeoutMillis) * time.Millisecond
	p = min(max(p, lo), hi)
	if p > remaining {
		if remaining < lo {
			return 0, refuse(apiv2.Code_ILLEGAL_POLLING_TIME, "The deadline time remaining is not enough for polling, please check network condition")
		}
		p = remaining
	}
	return p, nil
}

// filterOf is the expression of a receive ("*" by tag when none).
func filterOf(f *apiv2.FilterExpression) (expType, exp string) {
	exp = f.GetExpression()
	if exp == "" {
		exp = "*"
	}
	if f.GetType() == apiv2.FilterType_SQL {
		return "SQL92", exp
	}
	return "TAG", exp
}

// readableBroker is the broker to pop: the named one, else the readable
// masters in turn.
func (m *messaging) readableBroker(topic, name string) (addr, brokerName string, err error) {
	if name != "" {
		addr, err = m.brokers.masterOf(topic, name)
		return addr, name, err
	}
	route, err := m.brokers.route(topic)
	if err != nil {
		return "", "", err
	}
	var names []string
	for _, qd := range route.QueueDatas {
		if qd.Perm&protocol.PermRead != 0 && qd.ReadQueueNums > 0 {
			names = append(names, qd.BrokerName)
		}
	}
	if len(names) == 0 {
		return "", "", refuse(apiv2.Code_FORBIDDEN, "no readable queue")
	}
	name = names[m.rr.next("recv:"+topic, len(names))]
	addr, err = m.brokers.masterOf(topic, name)
	return addr, name, err
}

// popped reads a POP answer as MQClientAPIImpl.processPopResponse does
// (each message's handle from the offset strings, or its POP_CK), adds
// the commitlog offset to make the receipt handle, and filters: a
// message the tags refuse is acked, one past the max attempts goes to
// the DLQ.
// poppedMessage is a message to hand out, with its handle.
type poppedMessage struct {
	msg            *apiv2.Message
	handle         protocol.PopHandle
	reconsumeTimes int32
}

func (m *messaging) popped(resp *remoting.Command, addr, group, topic, brokerName, exp, expType string, maxAttempts int32) []poppedMessage {
	starts, _ := protocol.ParsePopInfo(resp.ExtString("startOffsetInfo"))
	popTime, _ := strconv.ParseInt(resp.ExtString("popTime"), 10, 64)
	invisible, _ := strconv.ParseInt(resp.ExtString("invisibleTime"), 10, 64)
	rqid, _ := strconv.Atoi(resp.ExtString("reviveQid"))
	tags := tagSet(exp, expType)
	var out []poppedMessage
	for body := resp.Body; len(body) >= 4; {
		n := int(binary.BigEndian.Uint32(body))
		if n <= 0 || n > len(body) {
			break
		}
		rec, err := store.DecodeRecord(body[:n])
		body = body[n:]
		if err != nil {
			continue
		}
		props := store.ParseProperties(string(rec.Properties))
		handle, ok := handleOf(&rec, props, starts, popTime, invisible, int32(rqid), brokerName)
		if !ok {
			continue
		}
		props[propPopCK] = handle.String()
		switch {
		case tags != nil && !tags[props[propTags]]:
			m.ackHandle(addr, group, topic, handle)
		case maxAttempts > 0 && rec.ReconsumeTimes >= maxAttempts:
			m.toDLQ(addr, group, topic, handle, props[propUniqKey])
		default:
			out = append(out, poppedMessage{msg: toMessage(&rec, props), handle: handle, reconsumeTimes: rec.ReconsumeTimes})
		}
	}
	return out
}

// handleOf is the receipt handle of a popped record: POP_CK (a retry
// topic's message) or built from startOffsetInfo, with the commitlog
// offset as ninth field.
func handleOf(rec *store.Record, props map[string]string, starts map[string]string, popTime, invisible int64, rqid int32, brokerName string) (protocol.PopHandle, bool) {
	if ck, ok := props[propPopCK]; ok {
		h, err := protocol.ParsePopHandle(ck)
		h.CommitLogOffset = rec.PhysicalOffset
		return h, err == nil
	}
	so, err := strconv.ParseInt(starts["0@"+strconv.Itoa(int(rec.QueueID))], 10, 64)
	if err != nil {
		so = rec.QueueOffset
	}
	return protocol.PopHandle{CkQueueOffset: so, PopTime: popTime, InvisibleTime: invisible, ReviveQueueID: rqid,
		RetryFlag: '0', BrokerName: brokerName, QueueID: rec.QueueID, QueueOffset: rec.QueueOffset,
		CommitLogOffset: rec.PhysicalOffset}, true
}

// tagSet is a tag expression's tags (nil: every message).
func tagSet(exp, expType string) map[string]bool {
	if expType != "TAG" || exp == "*" || strings.TrimSpace(exp) == "" {
		return nil
	}
	set := map[string]bool{}
	for _, t := range strings.Split(exp, "||") {
		if t = strings.TrimSpace(t); t != "" {
			set[t] = true
		}
	}
	return set
}
