package broker

// The timer's dequeue, as TimerMessageStore.dequeue and its get and put
// services: every slot before the write time is delivered, in time order;
// then the read time passes it. A slot's chain is read from its newest
// unit back; its delete units are read first and cancel the messages they
// name (REAL_TOPIC+UNIQ_KEY) in the slot; each other unit's message goes
// to its REAL_TOPIC and REAL_QID (convert: TIMER_ENQUEUE_MS the unit's
// write time, TIMER_DEQUEUE_MS now), or for a roll unit back into the
// timer queue with TIMER_ROLL_TIMES one more.
//
// Differences from Java: a slot's messages are put in the order they went
// in (Java's three put threads put them in any order); a put that can be
// tried again (SERVICE_NOT_AVAILABLE, OS_PAGE_CACHE_BUSY, ...) is tried
// again on the next tick, from that message on, however often (Java gives
// up after three tries, timerEnableRetryUntilSuccess=false, and the
// message is lost), and a flush or slave timeout counts as delivered
// (Java puts the message again, twice more).

import (
	"strconv"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/store"
)

// Timer properties the dequeue adds.
const propTimerRollTimes = "TIMER_ROLL_TIMES"

// putOutcome is doPut's answer: PUT_OK, PUT_NEED_RETRY, PUT_NO_RETRY.
type putOutcome uint8

const (
	putDone putOutcome = iota
	putRetry
	putSkipped
)

// dequeue delivers the slots before the write time.
func (s *timerService) dequeue(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		default:
		}
		s.mu.Lock()
		t, ok := s.slots.first()
		if !ok || t >= s.writeTime {
			s.readTime = max(s.readTime, s.writeTime)
			s.mu.Unlock()
			return
		}
		stale := t < s.readTime
		if !stale {
			s.readTime = t
		}
		s.mu.Unlock()
		if !stale && !s.deliverSlot(t) {
			return // tried again on the next tick
		}
		s.mu.Lock()
		s.slots.dropFirst()
		s.readTime = max(s.readTime, t+s.conf.precisionMs)
		s.mu.Unlock()
		s.slotDone = 0
	}
}

// deliverSlot delivers slot t's messages from slotDone on; false when a
// put must be tried again.
func (s *timerService) deliverSlot(t int64) bool {
	slot := s.files.Slot(t)
	if slot.TimeMs < 0 {
		return true
	}
	units := s.files.Units(slot)
	deleted := s.deletedKeys(units)
	for i := s.slotDone; i < len(units); i++ {
		u := units[i]
		if u.Delete() && !u.Roll() {
			continue
		}
		if s.deliverUnit(u, deleted) == putRetry {
			s.slotDone = i
			return false
		}
	}
	return true
}

// deletedKeys reads the keys the slot's delete units cancel.
func (s *timerService) deletedKeys(units []store.TimerUnit) map[string]bool {
	var keys map[string]bool
	for _, u := range units {
		if !u.Delete() || u.Roll() {
			continue
		}
		rec, err := s.store.LookMessage(u.OffsetPy)
		if err != nil {
			continue
		}
		if k, ok := rec.Property(propTimerDelUniq); ok {
			if keys == nil {
				keys = map[string]bool{}
			}
			keys[k] = true
		}
	}
	return keys
}

// deliverUnit delivers one unit's message unless a delete unit cancels it.
func (s *timerService) deliverUnit(u store.TimerUnit, deleted map[string]bool) putOutcome {
	rec, err := s.store.LookMessage(u.OffsetPy)
	if err != nil {
		s.log.Warn("the timer message to deliver is gone", zap.Int64("offset", u.OffsetPy), zap.Error(err))
		return putSkipped
	}
	if len(deleted) > 0 && !u.Roll() {
		topic, _ := rec.Property(propRealTopic)
		if uniq, ok := rec.Property(propUniqKey); ok && deleted[topic+"+"+uniq] {
			return putSkipped
		}
	}
	return s.deliver(&rec, u.WriteTime, u.Roll())
}

// deliver is convert and doPut: the message goes to its real topic, or
// with roll back to the timer queue; enqueueMs is the unit's write time
// (Long.MAX_VALUE for a message delivered without one).
func (s *timerService) deliver(rec *store.Record, enqueueMs int64, roll bool) putOutcome {
	props := parseProps(string(rec.Properties), s.line)
	if _, del := props.get(propTimerDelUniq); del && !roll {
		return putSkipped // doPut: a delete message is never delivered
	}
	topic, qid := rec.Topic, rec.QueueID
	if !roll {
		var ok bool
		if topic, qid, ok = realDestination(props); !ok {
			s.log.Error("the timer message has no real topic and queue; discarded", zap.String("msgId", rec.MsgID()))
			return putSkipped
		}
	}
	props.set(propTimerEnqueueMs, strconv.FormatInt(enqueueMs, 10))
	if roll {
		n, _ := props.get(propTimerRollTimes)
		times, _ := strconv.Atoi(n)
		props.set(propTimerRollTimes, strconv.Itoa(times+1))
	}
	props.set(propTimerDequeueMs, strconv.FormatInt(s.now().UnixMilli(), 10))
	m := &store.Message{
		Topic: topic, QueueID: qid, Flag: rec.Flag, SysFlag: rec.SysFlag, Body: rec.Body,
		Properties: props.encode(s.line), BornTimestamp: rec.BornTimestamp, BornHost: rec.BornHost,
		StoreHost: rec.StoreHost, ReconsumeTimes: rec.ReconsumeTimes,
	}
	return s.outcome(s.store.PutMessage(m), topic)
}

// realDestination reads REAL_TOPIC and REAL_QID.
func realDestination(props *msgProps) (topic string, qid int32, ok bool) {
	topic, _ = props.get(propRealTopic)
	v, _ := props.get(propRealQueueID)
	n, err := strconv.ParseInt(v, 10, 32)
	return topic, int32(n), topic != "" && err == nil
}

// outcome sorts a put's status as doPut does, but for the flush and slave
// timeouts, after which the message is stored.
func (s *timerService) outcome(res store.PutResult, topic string) putOutcome {
	switch {
	case putStored(res):
		return putDone
	case res.Status == store.PutMessageIllegal || res.Status == store.PutPropertiesSizeExceeded:
		s.log.Error("a timer message cannot be delivered; skipped", zap.String("topic", topic), zap.Stringer("status", res.Status))
		return putSkipped
	default:
		s.log.Error("deliver a timer message failed; tried again", zap.String("topic", topic), zap.Stringer("status", res.Status))
		return putRetry
	}
}
