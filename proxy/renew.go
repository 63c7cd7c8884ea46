package proxy

// Auto-renew of push consumers' receipt handles (ReceiptHandleProcessor,
// docs/reference/proxy.md §5.2–5.3): a message received with
// auto_renew stays invisible until its client acks or nacks it. Every
// renewPeriod the handles that turn visible within renewAhead get a
// CHANGE_MESSAGE_INVISIBLETIME of 1, 3, 5, 10, 30 min, then 1 h; after
// renewMax one last change to the group's retry delay, then the record
// goes. Ack, ChangeInvisibleDuration and ForwardMessageToDeadLetterQueue
// take the record's current handle (the broker knows only the newest),
// found by message id and the handle's broker, queue and offset. A
// client whose Telemetry stream ends has its messages made visible in
// 1 s.

import (
	"strconv"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

const (
	renewPeriod        = 5 * time.Second
	renewAhead         = 10 * time.Second
	renewMax           = 3 * time.Hour
	renewMaxRetries    = 3
	invisibleWhenClear = time.Second
)

// renewSteps are RenewStrategyPolicy's invisible times, by renewals done.
var renewSteps = []time.Duration{time.Minute, 3 * time.Minute, 5 * time.Minute, 10 * time.Minute, 30 * time.Minute, time.Hour}

// renewKey finds a message's record from any of its handles.
type renewKey struct {
	clientID, group, msgID, brokerName string
	queueID                            int32
	offset                             int64
}

// renewRecord is MessageReceiptHandle.
type renewRecord struct {
	topic          string
	handle         protocol.PopHandle
	reconsumeTimes int32
	since          time.Time // the first pop
	renewals       int
	retries        int
}

// renewTable holds the records.
type renewTable struct {
	mu sync.Mutex
	m  map[renewKey]*renewRecord
}

func keyOf(clientID, group, msgID string, h protocol.PopHandle) renewKey {
	return renewKey{clientID: clientID, group: group, msgID: msgID, brokerName: h.BrokerName, queueID: h.QueueID, offset: h.QueueOffset}
}

// add records a message received with auto_renew.
func (t *renewTable) add(k renewKey, r *renewRecord) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = map[renewKey]*renewRecord{}
	}
	t.m[k] = r
}

// take removes a message's record and returns its current handle.
func (t *renewTable) take(k renewKey) (protocol.PopHandle, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	r, ok := t.m[k]
	if !ok {
		return protocol.PopHandle{}, false
	}
	delete(t.m, k)
	return r.handle, true
}

// due takes out the records to renew now, and those of clients gone.
func (t *renewTable) due(now time.Time, live func(clientID string) bool) (renew, clear map[renewKey]*renewRecord) {
	renew, clear = map[renewKey]*renewRecord{}, map[renewKey]*renewRecord{}
	t.mu.Lock()
	defer t.mu.Unlock()
	for k, r := range t.m {
		switch {
		case !live(k.clientID):
			clear[k] = r
			delete(t.m, k)
		case time.UnixMilli(r.handle.PopTime+r.handle.InvisibleTime).Sub(now) <= renewAhead:
			renew[k] = r
		}
	}
	return renew, clear
}

// drop forgets a record (no more renewal).
func (t *renewTable) drop(k renewKey) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.m, k)
}

// renewLoop renews until stop.
func (m *messaging) renewLoop(stop <-chan struct{}) {
	tick := time.NewTicker(renewPeriod)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
			m.renewDue(time.Now())
		}
	}
}

// renewDue renews the due records and makes the gone clients' visible.
func (m *messaging) renewDue(now time.Time) {
	renew, clear := m.renews.due(now, m.streams.live)
	for k, r := range clear {
		m.changeInvisible(k.group, r.topic, r.handle, invisibleWhenClear)
	}
	for k, r := range renew {
		m.renewOne(k, r, now)
	}
}

// renewOne renews one record.
func (m *messaging) renewOne(k renewKey, r *renewRecord, now time.Time) {
	if now.Sub(r.since) >= renewMax {
		m.renews.drop(k)
		gc, _ := m.brokers.groupConfig(k.group, r.topic)
		m.changeInvisible(k.group, r.topic, r.handle, retryDelay(gc, r.reconsumeTimes))
		return
	}
	next, err := m.changeInvisible(k.group, r.topic, r.handle, renewSteps[min(r.renewals, len(renewSteps)-1)])
	switch {
	case err == nil:
		r.handle = next
		r.renewals++
		r.retries = 0
	case r.retries+1 >= renewMaxRetries:
		m.renews.drop(k)
	default:
		r.retries++
	}
}

// retryDelay is the group's retry policy's delay for a message consumed
// reconsumeTimes times before (the default: 1s 5s 10s 30s 1m ... 2h,
// from the third).
func retryDelay(gc protocol.SubscriptionGroupConfig, reconsumeTimes int32) time.Duration {
	next := protocol.DefaultRetryDelays()
	if p := gc.GroupRetryPolicy.CustomizedRetryPolicy; p != nil && p.Next != nil {
		next = p.Next
	}
	if len(next) == 0 {
		return time.Second
	}
	return time.Duration(next[min(int(reconsumeTimes)+2, len(next)-1)]) * time.Millisecond
}

// changeInvisible sends CHANGE_MESSAGE_INVISIBLETIME for a handle and
// returns the new one.
func (m *messaging) changeInvisible(group, topic string, h protocol.PopHandle, d time.Duration) (protocol.PopHandle, error) {
	addr, err := m.brokers.masterOf(topic, h.BrokerName)
	if err != nil {
		return h, err
	}
	r := ackRequest(group, topic, h)
	r.Code = int32(remoting.ChangeMessageInvisibletime)
	r.SetExt("invisibleTime", strconv.FormatInt(d.Milliseconds(), 10))
	resp, err := m.brokers.call(addr, r, 0)
	if err != nil {
		m.log.Debug("change invisible time failed", zap.Error(err))
		return h, err
	}
	if resp.Code != int32(remoting.Success) {
		return h, m.brokerError(resp)
	}
	popTime, _ := strconv.ParseInt(resp.ExtString("popTime"), 10, 64)
	invisible, _ := strconv.ParseInt(resp.ExtString("invisibleTime"), 10, 64)
	rqid, _ := strconv.Atoi(resp.ExtString("reviveQid"))
	return protocol.PopHandle{CkQueueOffset: h.QueueOffset, PopTime: popTime, InvisibleTime: invisible, ReviveQueueID: int32(rqid),
		RetryFlag: h.RetryFlag, BrokerName: h.BrokerName, QueueID: h.QueueID, QueueOffset: h.QueueOffset, CommitLogOffset: h.CommitLogOffset}, nil
}
