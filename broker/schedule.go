package broker

// Delayed messages: ScheduleMessageService.
//
// A message sent with property DELAY=n (n > 0, not a half message) is
// stored in SCHEDULE_TOPIC_XXXX queue n-1 instead of its topic, with
// REAL_TOPIC and REAL_QID keeping where it belongs; a level above the
// highest acts as the highest. The store's dispatcher writes the delivery
// time (store time + the level's delay) as the consume-queue tagsCode.
//
// One goroutine walks the 18 (len(messageDelayLevel)) queues every 100 ms
// from each level's offset: every message whose time has come is written
// again to its real topic and queue (same body, flag, sysFlag, born time
// and hosts, reconsume times and properties: Java encodes the properties
// before it clears DELAY, so the delivered message still carries DELAY,
// REAL_TOPIC and REAL_QID) and the level's offset moves past it. A put
// that fails is retried on the next tick. The offsets are delayOffset.json
// ({"offsetTable":{1:5,...}}, with dataVersion on 5.x), written every
// flushDelayOffsetInterval and at shutdown, so a restart redelivers at
// most what was delivered since the last write (at least once).

import (
	"maps"
	"strconv"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/configfile"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/store"
)

// scheduleTick is how often due messages are looked for (Java's
// DELAY_FOR_A_WHILE).
const scheduleTick = 100 * time.Millisecond

// scheduleService owns the delivery progress of every delay level.
type scheduleService struct {
	log      *zap.Logger
	now      func() time.Time
	line     line
	settings *liveSettings
	store    relayStore
	dir      configfile.Dir
	delays   []time.Duration
	metrics  *brokerMetrics

	mu      sync.Mutex
	offsets map[int32]int64 // level (1-based) -> next queue offset to deliver
	version protocol.DataVersion
	dirty   bool

	// persistMu serialises writers of delayOffset.json; taken before mu.
	persistMu sync.Mutex
}

// load reads delayOffset.json.
func (s *scheduleService) load() error {
	s.offsets, s.version = map[int32]int64{}, protocol.NewDataVersion(s.now())
	w, res, err := s.dir.LoadDelayOffsets()
	if err != nil {
		return err
	}
	if res.Fallback != nil {
		s.log.Warn("load delayOffset.json failed, and try to load backup file", zap.Error(res.Fallback))
	}
	if res.Source != configfile.SourceNone {
		s.offsets, s.version = w.OffsetTable, w.DataVersion
	}
	return nil
}

// maxLevel is the highest delay level.
func (s *scheduleService) maxLevel() int32 { return int32(len(s.delays)) }

// start corrects each level's offset into its queue's range
// (correctDelayOffset).
func (s *scheduleService) start() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for level, off := range s.offsets {
		q := level - 1
		lo, hi := s.store.MinOffset(store.ScheduleTopic, q), s.store.MaxOffset(store.ScheduleTopic, q)
		if fixed := min(max(off, lo), hi); fixed != off {
			s.log.Warn("correctDelayQueueOffset", zap.Int32("level", level), zap.Int64("from", off), zap.Int64("to", fixed))
			s.offsets[level] = fixed
			s.dirty = true
		}
	}
}

// loop delivers due messages until stop, persisting the offsets every
// flushDelayOffsetInterval.
func (s *scheduleService) loop(stop <-chan struct{}) {
	every := s.settings.load().FlushDelayOffsets
	lastPersist := time.Now()
	runEvery(stop, scheduleTick, func() {
		for level := int32(1); level <= s.maxLevel(); level++ {
			s.deliverDue(level, stop)
		}
		if time.Since(lastPersist) >= every {
			s.persist(false)
			lastPersist = time.Now()
		}
	})
}

// offset is a level's next offset to deliver.
func (s *scheduleService) offset(level int32) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.offsets[level]
}

// advance records that a level delivered everything before next.
func (s *scheduleService) advance(level int32, next int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.offsets[level] != next {
		s.offsets[level] = next
		s.dirty = true
	}
}

// deliverDue writes every due message of a level to its real topic, in
// queue order, stopping at the first that is not due or cannot be put.
func (s *scheduleService) deliverDue(level int32, stop <-chan struct{}) {
	q := level - 1
	from := s.offset(level)
	if hi := s.store.MaxOffset(store.ScheduleTopic, q); from > hi {
		s.advance(level, hi) // the queue was truncated under the offset
		return
	}
	err := s.store.WalkQueueFrom(store.ScheduleTopic, q, from, func(at int64, u store.QueueUnit) error {
		select {
		case <-stop:
			return store.ErrStopWalk
		default:
		}
		if !u.Blank {
			now := s.now().UnixMilli()
			if s.deliverAt(level, now, u.TagsCode) > now {
				return store.ErrStopWalk
			}
			if !s.deliver(u.CommitLogOffset) {
				return store.ErrStopWalk
			}
		}
		s.advance(level, at+1)
		return nil
	})
	if err != nil {
		s.log.Error("ScheduleMessageService, executeOnTimeUp exception", zap.Int32("level", level), zap.Error(err))
	}
}

// deliverAt is correctDeliverTimestamp: a delivery time further away than
// the level's delay (the clock went back) means now.
func (s *scheduleService) deliverAt(level int32, now, deliverTs int64) int64 {
	if deliverTs > now+s.delays[level-1].Milliseconds() {
		return now
	}
	return deliverTs
}

// deliver writes the delayed message at a commitlog offset to its real
// topic. It reports false when the put failed and must be retried; a
// message that cannot be read or has no real topic is skipped.
func (s *scheduleService) deliver(commitLogOffset int64) bool {
	rec, err := s.store.LookMessage(commitLogOffset)
	if err != nil {
		s.log.Error("ScheduleMessageService, the message to deliver is gone", zap.Int64("offset", commitLogOffset), zap.Error(err))
		return true
	}
	m, ok := s.timeUp(&rec)
	if !ok {
		return true
	}
	res := s.store.PutMessage(m)
	if res.Status != store.PutOK {
		s.log.Error("ScheduleMessageService, a message time up, but reput it failed",
			zap.String("topic", m.Topic), zap.String("msgId", rec.MsgID()), zap.Stringer("status", res.Status))
		return false
	}
	s.metrics.scheduleDelivered(m.Topic, s.line.IsSystemTopic(m.Topic), res)
	return true
}

// timeUp is messageTimeup: the delayed record as the message to put into
// its real topic and queue.
func (s *scheduleService) timeUp(rec *store.Record) (*store.Message, bool) {
	props := parseProps(string(rec.Properties), s.line)
	topic, _ := props.get(propRealTopic)
	qidText, _ := props.get(propRealQueueID)
	qid, err := strconv.ParseInt(qidText, 10, 32)
	if topic == "" || err != nil || topic == TopicTransHalf {
		s.log.Error("[BUG] the delayed message has no real topic and queue, or a half-message topic; discarded",
			zap.String("msgId", rec.MsgID()), zap.String("realTopic", topic))
		return nil, false
	}
	return &store.Message{
		Topic: topic, QueueID: int32(qid), Flag: rec.Flag, SysFlag: rec.SysFlag, Body: rec.Body,
		Properties: props.encode(s.line), BornTimestamp: rec.BornTimestamp, BornHost: rec.BornHost,
		StoreHost: rec.StoreHost, ReconsumeTimes: rec.ReconsumeTimes,
	}, true
}

// persist writes delayOffset.json when an offset moved since the last
// write (always when force is set).
func (s *scheduleService) persist(force bool) {
	s.persistMu.Lock()
	defer s.persistMu.Unlock()
	s.mu.Lock()
	if !s.dirty && !force {
		s.mu.Unlock()
		return
	}
	s.dirty = false
	s.version.Next(s.now(), 0)
	w := &protocol.DelayOffsetSerializeWrapper{DataVersion: s.version, OffsetTable: maps.Clone(s.offsets)}
	s.mu.Unlock()
	if err := s.dir.PersistDelayOffsets(w); err != nil {
		s.log.Error("persist delayOffset.json failed", zap.Error(err))
	}
}

// snapshot returns every level's offset (GET_ALL_DELAY_OFFSET, runtime
// info).
func (s *scheduleService) snapshot() map[int32]int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return maps.Clone(s.offsets)
}

// redirects are the put path's detours for a message that must wait: a
// DELAY level (toScheduleTopic) and the 5.x timer properties
// (toTimerTopic, timer.go). Sends, sent-back messages and committed
// transactions take them.
type redirects struct {
	line line
	now  func() time.Time
	// maxLevel is the highest delay level.
	maxLevel int32
	// timer is what the timer branch follows of broker.conf.
	timer timerConf
}

// toScheduleTopic is the delay branch of Java's put path
// (CommitLog.asyncPutMessage in 4.x, HookUtils.handleScheduleMessage in
// 5.x): a message that is not a half or rolled-back one and has DELAY > 0
// goes to SCHEDULE_TOPIC_XXXX queue level-1 (the level capped at the
// highest), with REAL_TOPIC and REAL_QID recording where it belongs and
// the properties re-encoded from props, the message's property map.
func (r redirects) toScheduleTopic(m *store.Message, props *msgProps) {
	tx := m.SysFlag & store.SysFlagTransactionMsk
	if tx != store.SysFlagTxNotType && tx != store.SysFlagTxCommit {
		return
	}
	level := delayLevel(props)
	if level <= 0 {
		return
	}
	if level > r.maxLevel {
		level = r.maxLevel
		props.set(propDelayLevel, itoa(level))
	}
	props.set(propRealTopic, m.Topic)
	props.set(propRealQueueID, itoa(m.QueueID))
	m.Properties = props.encode(r.line)
	m.Topic, m.QueueID = store.ScheduleTopic, level-1
}

// delayLevel is Message.getDelayTimeLevel (0 when absent or not a number).
func delayLevel(props *msgProps) int32 {
	v, ok := props.get(propDelayLevel)
	if !ok {
		return 0
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0
	}
	return int32(n)
}
