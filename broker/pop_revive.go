package broker

// PopReviveService (docs/reference/pop.md §7): one goroutine per revive
// queue, on a master. Each round reads the queue from just after the
// revive group's offset, gathering the checkpoints and marking in each
// the messages its ack and bAck records name; then, in revive-queue
// order, every checkpoint whose time is up (2 s behind the newest record
// read, or 3 s of silence with the timer idle) has its unacked messages
// put into the group's POP retry topic with reconsumeTimes + 1, and the
// revive group's offset moves to that checkpoint. Its committed value is
// the queue offset of the last checkpoint done: a round reads from the
// one after. A round with no checkpoint rests 1, 2, then reviveMaxSlow
// intervals.
//
//	revive group   CID_RMQ_SYS_REVIVE_GROUP, offsets on rmq_sys_REVIVE_LOG_<cluster> (consumerOffset.json)
//	merge key      t + c + q + so + pt + bn, no separators (bn "null" when absent; an ack's bn defaults to ours)
//	retry message  topic %RETRY%c_t (%RETRY%c+t with enableRetryTopicV2; t itself when a retry topic), queue 0,
//	               the original's body, flag, sysFlag, born time and properties (1ST_POP_TIME = pt on a first
//	               revive), born and store host ours, reconsumeTimes + 1
//
// A message that cannot be put is given a checkpoint of its own again
// (rp + 1), due after the next step of 10 s, 20 s ... 2 h.
//
// Differences from Java: revives run one at a time, in the round (Java
// keeps up to 3 in flight); a checkpoint of another broker name (a slave
// acting as master) is not fetched remotely: its messages are skipped.

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/store"
)

// Revive constants (PopAckConstants, PopReviveService).
const (
	reviveBatch      = 32
	reviveDueSlack   = 2000 // ms a checkpoint must be behind the newest record
	reviveIdleMove   = 3000 // ms of silence after which the newest record's time is now
	reviveTailWait   = 4000 // ms a round waits at the tail for a new record
	reviveTailPoll   = 100 * time.Millisecond
	reviveLocalHost  = "127.0.0.1"
	retryOffsetHost  = "initPopRetryOffset"
	reviveRePutLimit = 17
)

// ckRePutSteps are the delays (s) of a re-put checkpoint, by rp.
var ckRePutSteps = []int64{10, 20, 30, 60, 120, 180, 240, 300, 360, 420, 480, 540, 600, 1200, 1800, 3600, 7200}

// reviveStore is what the revive service reads and writes.
type reviveStore interface {
	messageWriter
	queueBounds
	GetMessages(topic string, queueID int32, offset int64, maxMsgs int, filter store.TagFilter) *store.GetResult
}

// reviveService revives what was popped and not acked.
type reviveService struct {
	log       *zap.Logger
	now       func() time.Time
	line      line
	settings  *liveSettings
	id        *identity
	store     reviveStore
	topics    *topicTable
	groups    *groupTable
	offsets   *offsetTable
	records   *reviveWriter
	redirects redirects
	timer     interface{ caughtUp(nowMs int64) bool }
	// master tells whether this broker revives (a master; a slave only
	// when acting as one).
	master func() bool
}

// reviveRound is one round's reading of a revive queue.
type reviveRound struct {
	qid     int32
	old     int64 // the revive offset it started after
	cks     map[string]*protocol.PopCheckPoint
	endTime int64 // the newest record's due time
	firstRt int64 // the first checkpoint's revive time
}

// loop runs the revive queue qid's rounds until stop.
func (s *reviveService) loop(qid int32, stop <-chan struct{}) {
	slow := int64(1)
	for {
		c := s.settings.load().Broker
		if !sleepOrStop(stop, time.Duration(c.ReviveInterval)*time.Millisecond) {
			return
		}
		if !s.master() || !s.settings.load().Store.TimerWheelEnable {
			continue
		}
		r := s.read(qid, stop)
		s.revive(r)
		if len(r.cks) > 0 {
			slow = 1
			continue
		}
		if !sleepOrStop(stop, time.Duration(slow*c.ReviveInterval)*time.Millisecond) {
			return
		}
		slow = min(slow+1, max(c.ReviveMaxSlow, 1))
	}
}

// sleepOrStop waits d; false when stop came first.
func sleepOrStop(stop <-chan struct{}, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-stop:
		return false
	case <-t.C:
		return true
	}
}

// read is consumeReviveMessage: the round's checkpoints with their acks.
func (s *reviveService) read(qid int32, stop <-chan struct{}) *reviveRound {
	topic := s.records.topic
	r := &reviveRound{qid: qid, cks: map[string]*protocol.PopCheckPoint{}}
	r.old = s.offsets.query(protocol.ReviveGroup, topic, qid)
	offset := r.old + 1
	started := s.now()
	idle := time.Duration(0)
	scan := time.Duration(s.settings.load().Broker.ReviveScanTime) * time.Millisecond
	for s.master() {
		res := s.store.GetMessages(topic, qid, offset, reviveBatch, nil)
		if len(res.Messages) == 0 {
			offset = s.skipIllegal(qid, offset, res)
			res.Release()
			now := s.now().UnixMilli()
			if r.endTime != 0 && now-r.endTime > reviveIdleMove && s.timer.caughtUp(now) {
				r.endTime = now
			}
			if r.endTime-r.firstRt > reviveDueSlack || idle > reviveTailWait*time.Millisecond || !sleepOrStop(stop, reviveTailPoll) {
				break
			}
			idle += reviveTailPoll
			continue
		}
		idle = 0
		if s.now().Sub(started) > scan {
			res.Release()
			break
		}
		for _, m := range res.Messages {
			s.readRecord(r, m)
		}
		offset = res.NextBeginOffset
		res.Release()
	}
	return r
}

// skipIllegal commits past an offset the revive queue no longer has
// (Java's OFFSET_ILLEGAL / NO_MATCHED_MSG) and says where to read on.
func (s *reviveService) skipIllegal(qid int32, offset int64, res *store.GetResult) int64 {
	switch res.Status {
	case store.GetNoMessageInQueue, store.GetOffsetOverflowOne:
		return offset // the tail
	}
	if res.NextBeginOffset == offset {
		return offset
	}
	s.log.Error("revive queue offset illegal", zap.Int32("reviveQueueId", qid), zap.Int64("offset", offset),
		zap.String("status", res.Status.String()), zap.Int64("next", res.NextBeginOffset))
	s.offsets.commit(protocol.ReviveGroup, s.records.topic, qid, res.NextBeginOffset-1)
	return res.NextBeginOffset
}

// readRecord takes one record of the revive queue into the round.
func (s *reviveService) readRecord(r *reviveRound, m store.StoredMessage) {
	rec, err := store.DecodeRecord(m.Data)
	if err != nil {
		s.log.Error("revive record not readable", zap.Int32("reviveQueueId", r.qid), zap.Int64("offset", m.QueueOffset), zap.Error(err))
		return
	}
	tag, _ := rec.Property(propTags)
	switch tag {
	case protocol.CheckPointTag:
		ck, err := protocol.DecodePopCheckPoint(rec.Body)
		if err != nil || ck.Topic == "" || ck.CID == "" {
			break
		}
		ck.ReviveOffset = m.QueueOffset
		r.cks[mergeKey(ck.Topic, ck.CID, ck.QueueID, ck.StartOffset, ck.PopTime, ck.BrokerName)] = ck
		if r.firstRt == 0 {
			r.firstRt = ck.ReviveTime()
		}
	case protocol.AckTag, protocol.BatchAckTag:
		s.readAck(r, rec.Body)
	}
	if v, ok := rec.Property(propTimerDeliverMs); ok {
		if due, err := strconv.ParseInt(v, 10, 64); err == nil {
			r.endTime = max(r.endTime, due)
		}
	}
}

// readAck marks the messages an ack or bAck record names in its
// checkpoint, when the round has read it.
func (s *reviveService) readAck(r *reviveRound, body []byte) {
	ack, err := protocol.DecodeAckMsg(body)
	if err != nil {
		return
	}
	bn := ack.BrokerName
	if strings.TrimSpace(bn) == "" {
		bn = s.settings.load().Broker.BrokerName
	}
	ck := r.cks[mergeKey(ack.Topic, ack.ConsumerGroup, ack.QueueID, ack.StartOffset, ack.PopTime, bn)]
	if ck == nil {
		return
	}
	offsets := ack.AckOffsets
	if offsets == nil {
		offsets = []int64{ack.AckOffset}
	}
	for _, o := range offsets {
		if i := ck.IndexOfAck(o); i >= 0 {
			ck.BitMap |= 1 << i
		} else {
			s.log.Error("invalid ack index", zap.String("topic", ack.Topic), zap.Int64("ackOffset", o), zap.Int64("startOffset", ck.StartOffset))
		}
	}
}

// mergeKey is the key of a checkpoint and of the acks that match it.
func mergeKey(topic, group string, queueID int32, startOffset, popTime int64, brokerName string) string {
	if brokerName == "" {
		brokerName = "null"
	}
	return topic + group + itoa(queueID) + strconv.FormatInt(startOffset, 10) + strconv.FormatInt(popTime, 10) + brokerName
}

// revive is mergeAndRevive: the round's due checkpoints in revive-queue
// order, then the revive group's offset.
func (s *reviveService) revive(r *reviveRound) {
	cks := make([]*protocol.PopCheckPoint, 0, len(r.cks))
	for _, ck := range r.cks {
		cks = append(cks, ck)
	}
	slices.SortFunc(cks, func(a, b *protocol.PopCheckPoint) int { return int(a.ReviveOffset - b.ReviveOffset) })
	newOffset := r.old
	for _, ck := range cks {
		if !s.master() || r.endTime-ck.ReviveTime() <= reviveDueSlack {
			break
		}
		if s.ownerGone(ck) {
			newOffset = ck.ReviveOffset
			continue
		}
		s.reviveCheckPoint(r.qid, ck)
		newOffset = ck.ReviveOffset
	}
	if newOffset > r.old && s.master() {
		s.offsets.commit(protocol.ReviveGroup, s.records.topic, r.qid, newOffset)
	}
}

// ownerGone tells whether a checkpoint's topic or group was deleted: its
// messages are not revived.
func (s *reviveService) ownerGone(ck *protocol.PopCheckPoint) bool {
	normal := ck.Topic
	for _, sep := range []string{"+", "_"} {
		if p := protocol.RetryGroupTopicPrefix + ck.CID + sep; strings.HasPrefix(normal, p) {
			normal = normal[len(p):]
			break
		}
	}
	if _, ok := s.topics.get(normal); !ok {
		s.log.Warn("revive: the normal topic is gone", zap.String("topic", ck.Topic))
		return true
	}
	if _, ok := s.groups.find(ck.CID); !ok {
		s.log.Warn("revive: the group is gone", zap.String("group", ck.CID))
		return true
	}
	return false
}

// reviveCheckPoint puts every unacked message of ck into its retry
// topic; one that cannot be put gets a checkpoint of its own again.
func (s *reviveService) reviveCheckPoint(qid int32, ck *protocol.PopCheckPoint) {
	own := s.settings.load().Broker.BrokerName
	for i := range int(ck.Num) {
		if ck.BitMap&(1<<i) != 0 {
			continue
		}
		offset := ck.QueueOffset(i)
		if ck.BrokerName != "" && ck.BrokerName != own {
			s.log.Warn("revive: a checkpoint of another broker", zap.String("brokerName", ck.BrokerName), zap.String("topic", ck.Topic))
			continue
		}
		rec, found := s.readMessage(ck.Topic, ck.QueueID, offset)
		if !found {
			continue // gone: nothing to revive
		}
		if !s.putRetry(ck, &rec) {
			s.rePutCheckPoint(qid, ck, offset)
		}
	}
}

// readMessage reads the message at a queue offset.
func (s *reviveService) readMessage(topic string, queueID int32, offset int64) (store.Record, bool) {
	res := s.store.GetMessages(topic, queueID, offset, 1, nil)
	defer res.Release()
	if len(res.Messages) == 0 || res.Messages[0].QueueOffset != offset {
		return store.Record{}, false
	}
	rec, err := store.DecodeRecord(slices.Clone(res.Messages[0].Data))
	return rec, err == nil
}

// putRetry puts one message into the POP retry topic (reviveRetry).
func (s *reviveService) putRetry(ck *protocol.PopCheckPoint, rec *store.Record) bool {
	c := s.settings.load().Broker
	topic := ck.Topic
	if !strings.HasPrefix(topic, protocol.RetryGroupTopicPrefix) {
		topic = protocol.PopRetryTopicV1(ck.CID, ck.Topic)
		if c.EnableRetryTopicV2 {
			topic = protocol.PopRetryTopicV2(ck.CID, ck.Topic)
		}
	}
	props := parseProps(string(rec.Properties), s.line)
	if _, ok := props.get(propFirstPopTime); rec.ReconsumeTimes == 0 || !ok {
		props.set(propFirstPopTime, strconv.FormatInt(ck.PopTime, 10))
	}
	host := s.id.storeHost()
	m := &store.Message{Topic: topic, QueueID: 0, Flag: rec.Flag, SysFlag: rec.SysFlag, Body: rec.Body,
		Properties: props.encode(s.line), BornTimestamp: rec.BornTimestamp, BornHost: host, StoreHost: host,
		ReconsumeTimes: rec.ReconsumeTimes + 1}
	s.ensureRetryTopic(topic, ck.CID)
	if f := s.redirects.toTimerTopic(m, props); f != nil {
		return false
	}
	s.redirects.toScheduleTopic(m, props)
	res := s.store.PutMessage(m)
	if res.Status != store.PutOK {
		s.log.Error("revive error", zap.Int32("reviveQueueId", ck.QueueID), zap.String("topic", topic), zap.String("status", res.Status.String()))
		return false
	}
	return true
}

// ensureRetryTopic creates a POP retry topic (1 queue, perm 6) and the
// group's offset 0 on it, when missing.
func (s *reviveService) ensureRetryTopic(topic, group string) {
	if _, created := s.topics.createForRetry(topic, popRetryQueueNum, protocol.PermRead|protocol.PermWrite, 0); !created {
		return
	}
	if s.offsets.query(group, topic, 0) < 0 {
		s.offsets.commit(group, topic, 0, 0)
		s.log.Info("pop retry offset", zap.String("by", retryOffsetHost), zap.String("group", group), zap.String("topic", topic))
	}
}

// rePutCheckPoint gives one message that could not be revived a
// checkpoint of its own, due after the next step (rePutCK).
func (s *reviveService) rePutCheckPoint(qid int32, old *protocol.PopCheckPoint, offset int64) {
	rp := old.RePutCount()
	if rp >= reviveRePutLimit && s.settings.load().Broker.SkipWhenCKRePutReachMaxTimes {
		return
	}
	ck := &protocol.PopCheckPoint{Num: 1, StartOffset: offset, QueueOffsets: []int32{0}, PopTime: old.PopTime,
		InvisibleTime: old.InvisibleTime, Topic: old.Topic, CID: old.CID, QueueID: old.QueueID, BrokerName: old.BrokerName,
		RePutTimes: strconv.Itoa(rp + 1)}
	if old.ReviveTime() <= s.now().UnixMilli() {
		ck.InvisibleTime += ckRePutSteps[min(rp, len(ckRePutSteps)-1)] * 1000
	}
	if !s.records.putCheckPoint(ck, qid) {
		s.log.Error("revive: checkpoint not put again", zap.String("topic", ck.Topic), zap.Int64("offset", offset))
	}
}
