package broker

// ACK_MESSAGE (200051) and BATCH_ACK_MESSAGE (200151), 5.x:
// AckMessageProcessor (docs/reference/pop.md §2.3, §2.4, §8).
//
// ACK_MESSAGE header: consumerGroup, topic (the topic the message was
// read from: its POP retry topic for a redelivered one), queueId,
// extraInfo (the message's handle), offset. The ack is written to the
// revive queue the handle names, due when the checkpoint is: the revive
// service matches it to the checkpoint and the message is not revived.
// Codes: TOPIC_NOT_EXIST, MESSAGE_ILLEGAL (queueId), NO_MESSAGE (an offset
// outside the queue), else SUCCESS, even when the ack could not be
// written (Java only logs it). A handle of an orderly pop (reviveQid 999)
// moves the group's offset instead (pop_order.go).
//
// BATCH_ACK_MESSAGE has no header; its body (protocol.
// BatchAckMessageRequestBody) lists, per checkpoint, the acked offsets as
// a bit set; one bAck record per checkpoint. NO_MESSAGE when the body has
// no acks, else SUCCESS whatever became of each entry.
//
// Difference from Java: with enablePopBufferMerge off (its default) Java
// writes every ack, as this broker always does.

import (
	"fmt"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// ackService serves ACK_MESSAGE, BATCH_ACK_MESSAGE and
// CHANGE_MESSAGE_INVISIBLETIME.
type ackService struct {
	replier
	line    line
	log     *zap.Logger
	now     func() time.Time
	store   queueBounds
	topics  *topicTable
	offsets *offsetTable
	records *reviveWriter
	locks   *popLocks
	orders  popOrderAcks // nil: orderly handles are acked as normal ones
	// unblocked wakes a held pop of a queue an orderly ack unblocked.
	unblocked func(topic, group string, queueID int32)
}

// popOrderAcks is what orderly acks and changes of invisible time need
// of the order info (ConsumerOrderInfoManager).
type popOrderAcks interface {
	commitAndNext(topic, group string, queueID int32, offset, popTime int64) int64
	checkBlock(attemptID, topic, group string, queueID int32, invisibleTime, now int64) bool
	updateNextVisibleTime(topic, group string, queueID int32, offset, popTime, nextVisibleTime int64)
}

// ackHeader is AckMessageRequestHeader.
type ackHeader struct {
	group, topic string
	queueID      int32
	offset       int64
}

// parseAckHeader reads ACK_MESSAGE's header (CHANGE_MESSAGE_INVISIBLETIME
// shares its fields).
func (s *ackService) parseAckHeader(cmd *remoting.Command) (*ackHeader, *remoting.Command) {
	if r := s.requireFields(cmd, "consumerGroup", "topic", "queueId", "extraInfo", "offset"); r != nil {
		return nil, r
	}
	h := &ackHeader{group: cmd.ExtString("consumerGroup"), topic: cmd.ExtString("topic")}
	var err error
	if h.queueID, err = cmd.ExtInt32("queueId"); err != nil {
		return nil, s.replyHeaderError(cmd, err)
	}
	if h.offset, err = cmd.ExtInt64("offset"); err != nil {
		return nil, s.replyHeaderError(cmd, err)
	}
	return h, nil
}

// ackMessage serves ACK_MESSAGE.
func (s *ackService) ackMessage(req *remoting.Request) *remoting.Command {
	h, resp := s.parseAckHeader(req.Cmd)
	if resp != nil {
		return resp
	}
	if f := s.checkAckQueue(req, h, false); f != nil {
		return s.replyFailure(req.Cmd, f)
	}
	handle, err := protocol.ParsePopHandle(req.Cmd.ExtString("extraInfo"))
	if err != nil {
		return s.reply(req.Cmd, remoting.SystemError, err.Error())
	}
	if handle.ReviveQueueID == protocol.OrderReviveQueue {
		if f := s.ackOrderly(req, h.topic, h.group, h.queueID, h.offset, handle.PopTime, handle.InvisibleTime); f != nil {
			return s.replyFailure(req.Cmd, f)
		}
		return s.replyOK(req.Cmd)
	}
	ack := &protocol.AckMsg{AckOffset: h.offset, StartOffset: handle.CkQueueOffset, ConsumerGroup: h.group, Topic: h.topic,
		QueueID: h.queueID, PopTime: handle.PopTime, BrokerName: handle.BrokerName}
	if !s.records.putAck(ack, handle.ReviveQueueID, handle.InvisibleTime) {
		s.log.Error("put ack msg error", zap.String("topic", h.topic), zap.String("group", h.group),
			zap.Int32("queueId", h.queueID), zap.Int64("offset", h.offset))
	}
	return s.replyOK(req.Cmd)
}

// checkAckQueue checks the topic, the queue and the offset of an ack or
// a change of invisible time (which refuses the max offset too).
func (s *ackService) checkAckQueue(req *remoting.Request, h *ackHeader, refuseMax bool) *failure {
	tc, ok := s.topics.get(h.topic)
	if !ok {
		s.log.Error("The topic not exist", zap.String("topic", h.topic), zap.String("consumer", req.Ch.RemoteAddr()))
		return &failure{remoting.TopicNotExist, "topic[" + h.topic + "] not exist, apply first please! " + s.line.faq()}
	}
	if h.queueID < 0 || h.queueID >= tc.ReadQueueNums {
		return &failure{remoting.MessageIllegal, fmt.Sprintf("queueId[%d] is illegal, topic:[%s] topicConfig.readQueueNums:[%d] consumer:[%s]",
			h.queueID, h.topic, tc.ReadQueueNums, req.Ch.RemoteAddr())}
	}
	lo, hi := s.store.MinOffset(h.topic, h.queueID), s.store.MaxOffset(h.topic, h.queueID)
	if refuseMax {
		if h.offset < lo || h.offset >= hi {
			return &failure{remoting.NoMessage, ""}
		}
		return nil
	}
	if h.offset < lo || h.offset > hi {
		return &failure{remoting.NoMessage, fmt.Sprintf("offset is illegal, key:%s@%d, commit:%d, store:%d~%d",
			h.topic, h.queueID, h.offset, lo, hi)}
	}
	return nil
}

// batchAckMessage serves BATCH_ACK_MESSAGE.
func (s *ackService) batchAckMessage(req *remoting.Request) *remoting.Command {
	var body *protocol.BatchAckMessageRequestBody
	if req.Cmd.Body != nil {
		var err error
		if body, err = protocol.DecodeBatchAckMessageRequestBody(req.Cmd.Body); err != nil {
			return s.reply(req.Cmd, remoting.SystemError, err.Error())
		}
	}
	if body == nil || len(body.Acks) == 0 {
		return s.reply(req.Cmd, remoting.NoMessage, "")
	}
	resp := s.replyOK(req.Cmd)
	for i := range body.Acks {
		if f := s.batchAck(req, &body.Acks[i], body.BrokerName); f != nil {
			fail(resp, f)
		}
	}
	return resp
}

// batchAck writes one entry's bAck record (or acks its offsets one by one
// when its checkpoint is an orderly pop's).
func (s *ackService) batchAck(req *remoting.Request, b *protocol.BatchAck, brokerName string) *failure {
	if len(b.Retry) != 1 {
		return nil
	}
	topic, err := protocol.TopicOfFlag(b.Retry[0], b.ConsumerGroup, b.Topic)
	if err != nil {
		return nil
	}
	lo, hi := s.store.MinOffset(topic, b.QueueID), s.store.MaxOffset(topic, b.QueueID)
	var offsets []int64
	var f *failure
	for _, o := range b.AckedOffsets() {
		if o < lo || o > hi {
			continue
		}
		if b.ReviveQueueID == protocol.OrderReviveQueue {
			if ff := s.ackOrderly(req, topic, b.ConsumerGroup, b.QueueID, o, b.PopTime, b.InvisibleTime); ff != nil {
				f = ff
			}
			continue
		}
		offsets = append(offsets, o)
	}
	if b.ReviveQueueID == protocol.OrderReviveQueue || len(offsets) == 0 {
		return f
	}
	ack := &protocol.BatchAckMsg{AckMsg: protocol.AckMsg{AckOffset: -1, StartOffset: b.StartOffset, ConsumerGroup: b.ConsumerGroup,
		Topic: topic, QueueID: b.QueueID, PopTime: b.PopTime, BrokerName: brokerName}, AckOffsets: offsets}
	if !s.records.putBatchAck(ack, b.ReviveQueueID, b.InvisibleTime) {
		s.log.Error("put batch ack msg error", zap.String("topic", topic), zap.String("group", b.ConsumerGroup),
			zap.Int32("queueId", b.QueueID))
	}
	return nil
}

// ackOrderly acks a message of an orderly pop (pop.md §10.5): the group's
// offset moves to the first message of the pop not yet acked.
func (s *ackService) ackOrderly(req *remoting.Request, topic, group string, queueID int32, offset, popTime, invisibleTime int64) *failure {
	if s.orders == nil || offset < s.offsets.query(group, topic, queueID) {
		return nil
	}
	key := popLockKey(topic, group, queueID)
	s.locks.lock(key)
	defer s.locks.unlock(key)
	if offset < s.offsets.query(group, topic, queueID) {
		return nil
	}
	next := s.orders.commitAndNext(topic, group, queueID, offset, popTime)
	switch {
	case next >= 0:
		if !s.offsets.hasReset(group, topic, queueID) {
			s.offsets.commit(group, topic, queueID, next)
		}
		if s.unblocked != nil && !s.orders.checkBlock("", topic, group, queueID, invisibleTime, s.now().UnixMilli()) {
			s.unblocked(topic, group, queueID)
		}
	case next == -1:
		return &failure{remoting.MessageIllegal, fmt.Sprintf("offset is illegal, key:%s@%s@%d, old:%d, commit:%d, next:%d, %s",
			topic, group, queueID, s.offsets.query(group, topic, queueID), offset, next, req.Ch.RemoteAddr())}
	}
	return nil
}
