package broker

// Timer messages of the 5.x clients: a message with TIMER_DELIVER_MS (an
// absolute time), TIMER_DELAY_SEC or TIMER_DELAY_MS is delivered at that
// time, to the second (timerPrecisionMs 1000). 4.x brokers know no such
// properties and deliver the message at once, and so does this broker on
// Line4.
//
// The put side is HookUtils.transformTimerMessage: a delivery time in the
// future (at most timerMaxDelaySec, 3 days, ahead; else MESSAGE_ILLEGAL
// "timer message illegal, ...") is rounded down to the second, kept in
// TIMER_OUT_MS, and the message goes to rmq_sys_wheel_timer queue 0 with
// REAL_TOPIC and REAL_QID, as the Java 5.x broker stores it. A time that
// has already passed leaves the message in its topic. A DELAY level wins
// over the timer properties, which are then dropped.
//
// Delivery differs from Java's TimerMessageStore (a time wheel in
// timerwheel/timerlog files): one goroutine reads the timer queue into a
// heap ordered by delivery time and writes each message to its real topic
// when due (TimerMessageStore.convert: TIMER_ENQUEUE_MS and
// TIMER_DEQUEUE_MS added). Its progress is config/rmqgoTimer.json: how far
// the queue was read and the queue offsets read but not yet delivered,
// written every second with a change and at shutdown; after a restart
// those are read again, so a message delivered since the last write is
// delivered again (at least once) and none is lost.

import (
	"container/heap"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/configfile"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// Timer properties (MessageConst).
const (
	propTimerDeliverMs = "TIMER_DELIVER_MS"
	propTimerDelaySec  = "TIMER_DELAY_SEC"
	propTimerDelayMs   = "TIMER_DELAY_MS"
	propTimerOutMs     = "TIMER_OUT_MS"
	propTimerEnqueueMs = "TIMER_ENQUEUE_MS"
	propTimerDequeueMs = "TIMER_DEQUEUE_MS"
	propTimerDelUniq   = "TIMER_DEL_UNIQKEY"
)

// Timer settings: MessageStoreConfig's 5.3.3 defaults.
const (
	timerPrecisionMs = 1000
	timerMaxDelayMs  = 3 * 24 * 3600 * 1000
	timerTick        = 100 * time.Millisecond
	timerFile        = "rmqgoTimer.json"
)

// toTimerTopic is transformTimerMessage for a message to put; it reports
// the send failure for an illegal time.
func (r redirects) toTimerTopic(m *store.Message, props *msgProps) *failure {
	tx := m.SysFlag & store.SysFlagTransactionMsk
	if !r.line.hasTimers() || m.Topic == timerTopic || (tx != store.SysFlagTxNotType && tx != store.SysFlagTxCommit) {
		return nil
	}
	if delayLevel(props) > 0 {
		// the delay branch re-encodes the properties without these
		props.del(propTimerDeliverMs)
		props.del(propTimerDelaySec)
		props.del(propTimerDelayMs)
		return nil
	}
	if _, ok := props.get(propTimerOutMs); ok {
		return nil
	}
	now := r.now().UnixMilli()
	at, ok, err := timerDeliverMs(props, now)
	if !ok {
		return nil
	}
	illegal := &failure{remoting.MessageIllegal, fmt.Sprintf("timer message illegal, the delay time should not be bigger than the max delay %dms; or if set del msg, the delay time should be bigger than the current time", int64(timerMaxDelayMs))}
	if err != nil {
		return illegal
	}
	if at <= now {
		if _, del := props.get(propTimerDelUniq); del {
			return illegal
		}
		return nil
	}
	if at-now > timerMaxDelayMs {
		return illegal
	}
	if at%timerPrecisionMs == 0 {
		at -= timerPrecisionMs
	} else {
		at = at / timerPrecisionMs * timerPrecisionMs
	}
	props.set(propTimerOutMs, strconv.FormatInt(at, 10))
	props.set(propRealTopic, m.Topic)
	props.set(propRealQueueID, itoa(m.QueueID))
	m.Properties = props.encode(r.line)
	m.Topic, m.QueueID = timerTopic, 0
	return nil
}

// timerDeliverMs reads the delivery time the properties ask for: ok is
// false when they ask for none.
func timerDeliverMs(props *msgProps, now int64) (at int64, ok bool, err error) {
	if v, has := props.get(propTimerDelaySec); has {
		n, err := strconv.ParseInt(v, 10, 64)
		return now + n*1000, true, err
	}
	if v, has := props.get(propTimerDelayMs); has {
		n, err := strconv.ParseInt(v, 10, 64)
		return now + n, true, err
	}
	if v, has := props.get(propTimerDeliverMs); has {
		n, err := strconv.ParseInt(v, 10, 64)
		return n, true, err
	}
	return 0, false, nil
}

// timerEntry is a timer message waiting: its queue offset, commitlog
// offset and delivery time.
type timerEntry struct {
	queueOffset, commitLogOffset, at int64
}

// timerHeap orders entries by delivery time, then queue offset.
type timerHeap []timerEntry

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(i, j int) bool {
	return h[i].at < h[j].at || h[i].at == h[j].at && h[i].queueOffset < h[j].queueOffset
}
func (h timerHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *timerHeap) Push(x any)   { *h = append(*h, x.(timerEntry)) }
func (h *timerHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// timerProgress is rmqgoTimer.json: the timer queue read up to Scanned,
// and the offsets read but not delivered.
type timerProgress struct {
	Scanned int64   `json:"scanned"`
	Pending []int64 `json:"pending"`
}

// timerService delivers timer messages when due.
type timerService struct {
	log   *zap.Logger
	now   func() time.Time
	line  line
	store relayStore
	path  string

	mu      sync.Mutex
	pending timerHeap
	scanned int64
	dirty   bool
}

// start loads the progress and reads the pending messages again.
func (s *timerService) start() {
	var p timerProgress
	data, err := os.ReadFile(s.path)
	switch {
	case err == nil:
		if err := json.Unmarshal(data, &p); err != nil {
			s.log.Error("rmqgoTimer.json is not readable; reading the timer queue from its start", zap.Error(err))
			p = timerProgress{}
		}
	case !errors.Is(err, os.ErrNotExist):
		s.log.Error("read rmqgoTimer.json", zap.Error(err))
	}
	s.scanned = max(p.Scanned, s.store.MinOffset(timerTopic, 0))
	for _, off := range p.Pending {
		s.readFrom(off, off+1)
	}
}

// loop delivers due messages until stop.
func (s *timerService) loop(stop <-chan struct{}) {
	lastPersist := time.Now()
	runEvery(stop, timerTick, func() {
		s.readFrom(s.scanned, -1)
		s.deliverDue(stop)
		if time.Since(lastPersist) >= time.Second {
			s.persist()
			lastPersist = time.Now()
		}
	})
}

// readFrom adds the timer queue's messages from offset from (to the end
// when until < 0) to the heap.
func (s *timerService) readFrom(from, until int64) {
	err := s.store.WalkQueueFrom(timerTopic, 0, from, func(at int64, u store.QueueUnit) error {
		if until >= 0 && at >= until {
			return store.ErrStopWalk
		}
		if !u.Blank {
			if rec, err := s.store.LookMessage(u.CommitLogOffset); err == nil {
				v, _ := rec.Property(propTimerOutMs)
				due, _ := strconv.ParseInt(v, 10, 64)
				s.mu.Lock()
				heap.Push(&s.pending, timerEntry{queueOffset: at, commitLogOffset: u.CommitLogOffset, at: due})
				s.mu.Unlock()
			}
		}
		if until < 0 {
			s.mu.Lock()
			s.scanned, s.dirty = at+1, true
			s.mu.Unlock()
		}
		return nil
	})
	if err != nil {
		s.log.Error("read the timer queue", zap.Error(err))
	}
}

// deliverDue writes every due message to its real topic.
func (s *timerService) deliverDue(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		default:
		}
		now := s.now().UnixMilli()
		s.mu.Lock()
		if len(s.pending) == 0 || s.pending[0].at > now {
			s.mu.Unlock()
			return
		}
		e := s.pending[0]
		s.mu.Unlock()
		if !s.deliver(e, now) {
			return // retried on the next tick
		}
		s.mu.Lock()
		heap.Pop(&s.pending)
		s.dirty = true
		s.mu.Unlock()
	}
}

// deliver is TimerMessageStore.convert and doPut for one message; false
// when the put must be retried.
func (s *timerService) deliver(e timerEntry, now int64) bool {
	rec, err := s.store.LookMessage(e.commitLogOffset)
	if err != nil {
		s.log.Error("the timer message to deliver is gone", zap.Int64("offset", e.commitLogOffset), zap.Error(err))
		return true
	}
	props := parseProps(string(rec.Properties), s.line)
	topic, _ := props.get(propRealTopic)
	qidText, _ := props.get(propRealQueueID)
	qid, err := strconv.ParseInt(qidText, 10, 32)
	if topic == "" || err != nil {
		s.log.Error("the timer message has no real topic and queue; discarded", zap.String("msgId", rec.MsgID()))
		return true
	}
	props.set(propTimerEnqueueMs, strconv.FormatInt(rec.StoreTimestamp, 10))
	props.set(propTimerDequeueMs, strconv.FormatInt(now, 10))
	m := &store.Message{
		Topic: topic, QueueID: int32(qid), Flag: rec.Flag, SysFlag: rec.SysFlag, Body: rec.Body,
		Properties: props.encode(s.line), BornTimestamp: rec.BornTimestamp, BornHost: rec.BornHost,
		StoreHost: rec.StoreHost, ReconsumeTimes: rec.ReconsumeTimes,
	}
	if res := s.store.PutMessage(m); res.Status != store.PutOK {
		s.log.Error("deliver a timer message failed", zap.String("topic", topic), zap.Stringer("status", res.Status))
		return false
	}
	return true
}

// persist writes rmqgoTimer.json when the progress changed.
func (s *timerService) persist() {
	s.mu.Lock()
	if !s.dirty {
		s.mu.Unlock()
		return
	}
	s.dirty = false
	p := timerProgress{Scanned: s.scanned, Pending: make([]int64, 0, len(s.pending))}
	for _, e := range s.pending {
		p.Pending = append(p.Pending, e.queueOffset)
	}
	s.mu.Unlock()
	slices.Sort(p.Pending)
	data, err := json.Marshal(p)
	if err == nil {
		err = configfile.Persist(s.path, data)
	}
	if err != nil {
		s.log.Error("persist "+filepath.Base(s.path)+" failed", zap.Error(err))
	}
}

// backlog is how many timer messages wait.
func (s *timerService) backlog() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return int64(len(s.pending))
}

// caughtUp tells whether the timer has read its whole queue and holds
// nothing due (Java's timer has neither enqueue nor dequeue backlog).
func (s *timerService) caughtUp(nowMs int64) bool {
	v := s.view(nowMs, nil)
	return v.due == 0 && v.scanned >= s.store.MaxOffset(timerTopic, 0)
}

// timerView is what the metrics read of the timer (the timer gauges of
// 5.3.3's store metrics).
type timerView struct {
	// scanned is how far the timer queue was read into the wheel.
	scanned int64
	// due is how many messages are due but not yet delivered, oldestDue
	// the earliest time one of them was due (0 when none is).
	due, oldestDue int64
	// within[i] counts the messages due from bounds[i-1] (0 for the
	// first) up to bounds[i] seconds from now.
	within []int64
}

// view reads the timer's state at nowMs for the bounds given in seconds.
func (s *timerService) view(nowMs int64, bounds []int64) timerView {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := timerView{scanned: s.scanned, within: make([]int64, len(bounds))}
	base := nowMs / timerPrecisionMs * timerPrecisionMs
	for _, e := range s.pending {
		if e.at <= nowMs {
			v.due++
			if v.oldestDue == 0 || e.at < v.oldestDue {
				v.oldestDue = e.at
			}
			continue
		}
		for i, b := range bounds {
			if e.at < base+b*1000 {
				v.within[i]++
				break
			}
		}
	}
	return v
}
