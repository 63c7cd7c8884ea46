package broker

// Reading one queue for a pop (PopMessageProcessor.popMsgFromQueue,
// docs/reference/pop.md §5.3–5.7): the pop offset (the group's offset, an
// initial one for a new group, or a pending server-side reset), the read
// with the request's filter, the checkpoint of what was taken and the
// group's offset moved past it, and the response's offset strings. A
// queue another pop holds is skipped, its backlog counted in restNum.

import (
	"strconv"
	"strings"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/store"
)

// popClientHost names who moved an offset, in Java's commitOffset calls.
const (
	popInitHost  = "getPopOffset"
	popResetHost = "ResetPopOffset"
)

// popQueue pops from one queue into the round.
func (s *popService) popQueue(r *popRound, topic string, isRetry bool, queueID int32) {
	h := r.h
	key := popLockKey(topic, h.group, queueID)
	offset := s.popOffset(r, topic, queueID, false)
	if !s.locks.tryLock(key) {
		if !h.order {
			r.restNum += s.store.MaxOffset(topic, queueID) - offset
		}
		return
	}
	defer s.locks.unlock(key)
	offset = s.popOffset(r, topic, queueID, true)
	if h.order && s.orders != nil && s.orders.checkBlock(h.attemptID, topic, h.group, queueID, h.invisibleTime, r.popTime) {
		return // a blocked queue's backlog is not counted
	}
	if r.found >= int(h.maxMsgNums) {
		r.restNum += s.store.MaxOffset(topic, queueID) - offset
		return
	}
	res := s.read(r, topic, queueID, offset)
	if res.Status == store.GetOffsetTooSmall || res.Status == store.GetOffsetOverflowBadly || res.Status == store.GetOffsetFoundNull {
		s.log.Warn("Pop initial offset, because store is no correct", zap.String("key", key),
			zap.Int64("from", offset), zap.Int64("to", res.NextBeginOffset))
		s.offsets.commit(h.group, topic, queueID, res.NextBeginOffset)
		offset = res.NextBeginOffset
		res.Release()
		res = s.read(r, topic, queueID, offset)
	}
	if len(res.Messages) > 0 {
		if !s.takeFound(r, topic, isRetry, queueID, offset, res) {
			r.restNum += res.MaxOffset - res.NextBeginOffset + int64(len(res.Messages))
			res.Release()
			return
		}
	} else if skippedAll(res.Status) && res.NextBeginOffset > -1 {
		// everything read was filtered out: the group moves past it
		s.offsets.commit(h.group, topic, queueID, res.NextBeginOffset)
	}
	r.restNum += res.MaxOffset - res.NextBeginOffset
	s.addMessages(r, isRetry, offset, res)
}

// read reads what is left of the batch from offset.
func (s *popService) read(r *popRound, topic string, queueID int32, offset int64) *store.GetResult {
	return s.store.GetMessagesMatching(topic, queueID, offset, int(r.h.maxMsgNums)-r.found, r.tags, r.props)
}

// skippedAll are the statuses of a read that found only messages the
// filter refused (or none it could read) and says where to go on.
func skippedAll(st store.GetStatus) bool {
	switch st {
	case store.GetNoMatchedMessage, store.GetOffsetFoundNull, store.GetMessageWasRemoving, store.GetNoMatchedLogicQueue:
		return true
	}
	return false
}

// takeFound records what a read found: the checkpoint (or the orderly
// pop's order info) and the group's offset, then the offset strings. It
// is false when the checkpoint could not be stored: those messages are
// not handed out.
func (s *popService) takeFound(r *popRound, topic string, isRetry bool, queueID int32, offset int64, res *store.GetResult) bool {
	h := r.h
	offsets := make([]int64, len(res.Messages))
	for i, m := range res.Messages {
		offsets[i] = m.QueueOffset
	}
	if h.order {
		if s.orders != nil {
			s.orders.update(h.attemptID, isRetry, topic, h.group, queueID, r.popTime, h.invisibleTime, offsets, &r.orderInfo)
		}
		s.offsets.commit(h.group, topic, queueID, offset)
	} else {
		if !s.appendCheckPoint(r, topic, queueID, offset, offsets) {
			return false
		}
		s.offsets.commit(h.group, topic, queueID, res.NextBeginOffset)
	}
	flag := protocol.RetryFlag(topic)
	r.startInfo.Add(flag, itoa(queueID), strconv.FormatInt(offset, 10))
	list := make([]string, len(offsets))
	for i, o := range offsets {
		list[i] = strconv.FormatInt(o, 10)
	}
	r.msgInfo.Add(flag, itoa(queueID), strings.Join(list, ","))
	return true
}

// appendCheckPoint writes the checkpoint of the messages taken from a
// queue.
func (s *popService) appendCheckPoint(r *popRound, topic string, queueID int32, offset int64, offsets []int64) bool {
	ck := &protocol.PopCheckPoint{Num: int32(len(offsets)), PopTime: r.popTime, InvisibleTime: r.h.invisibleTime,
		StartOffset: offset, CID: r.h.group, Topic: topic, QueueID: queueID, BrokerName: s.settings.load().Broker.BrokerName,
		QueueOffsets: make([]int32, len(offsets))}
	for i, o := range offsets {
		ck.QueueOffsets[i] = int32(o - offset)
	}
	if !s.records.putCheckPoint(ck, r.reviveQid) {
		s.log.Error("Pop checkpoint not stored", zap.String("topic", topic), zap.String("group", r.h.group),
			zap.Int32("queueId", queueID), zap.Int64("offset", offset))
		return false
	}
	return true
}

// addMessages adds a read's messages to the response: a topic's as
// stored; a retry topic's re-encoded under the request's topic with
// their handle in POP_CK (unless popResponseReturnActualRetryTopic).
func (s *popService) addMessages(r *popRound, isRetry bool, ckOffset int64, res *store.GetResult) {
	if len(res.Messages) == 0 {
		res.Release()
		return
	}
	r.found += len(res.Messages)
	set := s.settings.load()
	if !isRetry || set.Broker.PopResponseReturnActualRetryTopic {
		for _, m := range res.Messages {
			r.parts = append(r.parts, m.Data)
		}
		r.releases = append(r.releases, res.Release)
		return
	}
	for _, m := range res.Messages {
		if rec, ok := s.recodeRetry(r, m, ckOffset, set.Broker.BrokerName); ok {
			r.parts = append(r.parts, rec)
		}
	}
	res.Release()
}

// recodeRetry is a retry topic's message as a pop returns it.
func (s *popService) recodeRetry(r *popRound, m store.StoredMessage, ckOffset int64, brokerName string) ([]byte, bool) {
	rec, err := store.DecodeRecord(m.Data)
	if err != nil {
		s.log.Error("Exception in recode retry message buffer", zap.Int64("queueOffset", m.QueueOffset), zap.Error(err))
		return nil, false
	}
	handle := protocol.PopHandle{CkQueueOffset: ckOffset, PopTime: r.popTime, InvisibleTime: r.h.invisibleTime,
		ReviveQueueID: r.reviveQid, RetryFlag: protocol.RetryFlag(rec.Topic), BrokerName: brokerName,
		QueueID: rec.QueueID, QueueOffset: rec.QueueOffset, CommitLogOffset: -1}
	props := parseProps(string(rec.Properties), s.line)
	if _, ok := props.get(propPopCK); !ok {
		props.set(propPopCK, handle.String())
	}
	rec.Properties = []byte(props.encode(s.line))
	rec.Topic = r.h.topic
	return store.EncodeRecord(&rec), true
}

// popOffset is getPopOffset: the group's offset on the queue, else the
// initial one (§5.4); under the queue's lock (locked) the initial offset
// is committed and a pending reset is taken.
func (s *popService) popOffset(r *popRound, topic string, queueID int32, locked bool) int64 {
	h := r.h
	offset := s.offsets.query(h.group, topic, queueID)
	if offset < 0 {
		offset = s.initialOffset(topic, queueID, h.initMode)
		if locked {
			s.offsets.commit(h.group, topic, queueID, offset)
			s.log.Info("pop initial offset", zap.String("by", popInitHost), zap.String("group", h.group),
				zap.String("topic", topic), zap.Int32("queueId", queueID), zap.Int64("offset", offset))
		}
	}
	if !locked {
		return offset
	}
	if reset, ok := s.offsets.takeReset(h.group, topic, queueID); ok {
		if s.orders != nil {
			s.orders.clearBlock(topic, h.group, queueID)
		}
		s.offsets.commit(h.group, topic, queueID, reset)
		s.log.Info("pop offset reset", zap.String("by", popResetHost), zap.String("group", h.group),
			zap.String("topic", topic), zap.Int32("queueId", queueID), zap.Int64("offset", reset))
		return reset
	}
	return offset
}

// initialOffset is getInitOffset: a retry topic, or initMode MIN, starts
// at the queue's first message; MAX at 0 when the queue still starts at 0
// and its first message is in memory, else at the last message (so MAX
// still hands out the queue's last message, as Java does).
func (s *popService) initialOffset(topic string, queueID int32, initMode int32) int64 {
	if initMode == popInitModeMin || strings.HasPrefix(topic, protocol.RetryGroupTopicPrefix) {
		return s.store.MinOffset(topic, queueID)
	}
	if s.settings.load().Broker.InitPopOffsetByCheckMsgInMem && s.store.MinOffset(topic, queueID) <= 0 {
		if found, inMemory := s.store.InMemoryAt(topic, queueID, 0); found && inMemory {
			return 0
		}
	}
	return max(s.store.MaxOffset(topic, queueID)-1, 0)
}
