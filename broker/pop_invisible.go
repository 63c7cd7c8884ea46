package broker

// CHANGE_MESSAGE_INVISIBLETIME (200053), 5.x: ChangeInvisibleTimeProcessor
// (docs/reference/pop.md §2.5, §9).
//
// Header: consumerGroup, topic, queueId, extraInfo (the handle), offset,
// invisibleTime (from now). Response header: popTime, invisibleTime,
// reviveQid (always written; 0 on errors). The message gets a checkpoint
// of its own, popped now and due after the new invisible time, and the
// old handle is acked; the client builds the new handle from the answer
// (the checkpoint's start offset is the message's own offset). Codes:
// TOPIC_NOT_EXIST, MESSAGE_ILLEGAL (queueId), NO_MESSAGE (an offset
// outside the queue, the max offset included), SYSTEM_ERROR when the new
// checkpoint could not be written. An orderly handle sets the message's
// next visible time in the order info instead (pop_order.go).
//
// As in Java, the old handle is not checked: changing a message whose
// checkpoint was already revived makes it come back twice.

import (
	"strconv"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// changeInvisibleTime serves CHANGE_MESSAGE_INVISIBLETIME.
func (s *ackService) changeInvisibleTime(req *remoting.Request) *remoting.Command {
	h, resp := s.parseAckHeader(req.Cmd)
	if resp != nil {
		return resp
	}
	if r := s.requireFields(req.Cmd, "invisibleTime"); r != nil {
		return r
	}
	invisible, err := req.Cmd.ExtInt64("invisibleTime")
	if err != nil {
		return s.replyHeaderError(req.Cmd, err)
	}
	resp = s.replyOK(req.Cmd)
	setInvisibleHeader(resp, 0, 0, 0)
	if f := s.checkAckQueue(req, h, true); f != nil {
		return fail(resp, f)
	}
	handle, err := protocol.ParsePopHandle(req.Cmd.ExtString("extraInfo"))
	if err != nil {
		return fail(resp, &failure{remoting.SystemError, err.Error()})
	}
	if handle.ReviveQueueID == protocol.OrderReviveQueue {
		return s.changeInvisibleOrderly(resp, h, handle, invisible)
	}
	now := s.now().UnixMilli()
	ck := &protocol.PopCheckPoint{Num: 1, PopTime: now, InvisibleTime: invisible, StartOffset: h.offset, CID: h.group,
		Topic: h.topic, QueueID: h.queueID, QueueOffsets: []int32{0}, BrokerName: handle.BrokerName}
	if !s.records.putCheckPoint(ck, handle.ReviveQueueID) {
		s.log.Error("change invisible, put new ck error", zap.String("topic", h.topic), zap.String("group", h.group),
			zap.Int64("offset", h.offset))
		return fail(resp, &failure{remoting.SystemError, ""})
	}
	ack := &protocol.AckMsg{AckOffset: h.offset, StartOffset: handle.CkQueueOffset, ConsumerGroup: h.group, Topic: h.topic,
		QueueID: h.queueID, PopTime: handle.PopTime, BrokerName: handle.BrokerName}
	if !s.records.putAck(ack, handle.ReviveQueueID, handle.InvisibleTime) {
		s.log.Error("change Invisible, put ack msg fail", zap.String("topic", h.topic), zap.String("group", h.group),
			zap.Int64("offset", h.offset))
	}
	setInvisibleHeader(resp, now, invisible, handle.ReviveQueueID)
	return resp
}

// changeInvisibleOrderly is processChangeInvisibleTimeForOrder: the
// message's next visible time, with the pop time unchanged so later acks
// still match; an offset the group has passed is answered with zeros.
func (s *ackService) changeInvisibleOrderly(resp *remoting.Command, h *ackHeader, handle protocol.PopHandle, invisible int64) *remoting.Command {
	if s.orders == nil || h.offset < s.offsets.query(h.group, h.topic, h.queueID) {
		return resp
	}
	key := popLockKey(h.topic, h.group, h.queueID)
	s.locks.lock(key)
	defer s.locks.unlock(key)
	if h.offset < s.offsets.query(h.group, h.topic, h.queueID) {
		return resp
	}
	next := s.now().UnixMilli() + invisible
	s.orders.updateNextVisibleTime(h.topic, h.group, h.queueID, h.offset, handle.PopTime, next)
	setInvisibleHeader(resp, handle.PopTime, next-handle.PopTime, handle.ReviveQueueID)
	return resp
}

// setInvisibleHeader writes ChangeInvisibleTimeResponseHeader.
func setInvisibleHeader(resp *remoting.Command, popTime, invisibleTime int64, reviveQid int32) {
	resp.SetExt("popTime", strconv.FormatInt(popTime, 10))
	resp.SetExt("invisibleTime", strconv.FormatInt(invisibleTime, 10))
	resp.SetExt("reviveQid", itoa(reviveQid))
}
