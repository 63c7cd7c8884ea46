package broker

// Orderly POP's state (5.x): ConsumerOrderInfoManager, and the lock-free
// wake-up timers of ConsumerOrderInfoLockManager (docs/reference/pop.md
// §10).
//
// An orderly pop (order=true) writes no checkpoint. Instead, per (topic,
// group, queue), the table keeps the queue's last pop: its time, its
// invisible time, the popped offsets, which of them were acked, the next
// visible time CHANGE_INVISIBLETIME gave a message, and how many times each
// message was delivered before. The queue is blocked, and the group's
// offset stays at the first un-acked message, while any popped message is
// un-acked and still invisible:
//
//   - checkBlock (a pop reading the queue): blocked unless the pop
//     repeats the last one's attemptId (a client retrying the same pop
//     gets the same messages again);
//   - update (a pop found messages): the queue's new last pop, its
//     delivery counts carried over from the last one (orderCountInfo,
//     §10.4);
//   - commitAndNext (an ack): the message's bit set, the offset to
//     commit returned: the first un-acked message, or past the last;
//   - updateNextVisibleTime (CHANGE_INVISIBLETIME): one message's time;
//   - clearBlock (a reset offset taken by a pop): the queue forgotten.
//
// config/consumerOrderInfo.json (protocol.ConsumerOrderInfoWrapper), in
// fastjson's PrettyFormat; written by persist after the clean (topic or
// group gone, no queues left, queueId >= readQueueNums, no pop for 24 h):
//
//	{
//		"table":{
//			"T@G":{0:{
//					"a":"attempt-1",            attemptId of the pop, absent if none
//					"cm":1,                     bit i: message i acked
//					"i":60000,                  invisible time, absent in 5.0 files
//					"l":1700000001000,          when the pop was recorded
//					"o":[                       offsets: o[0], then o[i]-o[0]
//						5,
//						1,
//						3
//					],
//					"oc":{5:1,8:2               delivered before: offset -> count
//					},
//					"ot":{6:1700000099999       next visible time: offset -> time
//					},
//					"popTime":1700000000000
//				}
//			}
//		}
//	}
//
// The lock-free wake-up (enableNotifyAfterPopOrderLockRelease): after each
// update, commit and visibility change, a timer of the queue is set to the
// time it unblocks (orderLockFree); orderUnlockTimers fires it on a 100 ms
// tick, and the POP processor's callback wakes a held pop of the queue.
// watch arms the timers of the loaded table (those in the future).
//
// Differences from Java: the count entries of orderCountInfo and the maps
// of the file are in offset order (Java's are in hash order; readers take
// any); an empty attemptId is taken as none (Java would keep "" and a pop
// with "" would be reentrant).

import (
	"maps"
	"slices"
	"strconv"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/configfile"
	"github.com/rmqgo/rmqgo/internal/protocol"
)

const (
	// orderInfoIdleSpan is how long a queue with no pop is kept
	// (CLEAN_SPAN_FROM_LAST).
	orderInfoIdleSpan = 24 * time.Hour
	// orderUnlockTick is the lock-free timers' tick (TIMER_TICK_MS).
	orderUnlockTick = 100 * time.Millisecond
	// orderInfoPersistPeriod is how often consumerOrderInfo.json is
	// written (BrokerController's 10 s schedule).
	orderInfoPersistPeriod = 10 * time.Second
)

// orderQueue is one queue of one group's orderly pop.
type orderQueue struct {
	topic, group string
	queueID      int32
}

// orderInfoScope is what the clean at persist asks of the broker's other
// tables; a nil function cleans nothing, as Java's manager without a
// broker.
type orderInfoScope struct {
	// readQueueNums is a topic's readQueueNums; false when it is gone.
	readQueueNums func(topic string) (int32, bool)
	// groupExists tells whether the subscription group exists.
	groupExists func(group string) bool
}

// orderInfoTable is ConsumerOrderInfoManager: "topic@group" -> queueId ->
// the queue's last orderly pop.
type orderInfoTable struct {
	dir   configfile.Dir
	log   *zap.Logger
	now   func() time.Time
	scope orderInfoScope
	// persistMu serialises writers of the file; it is taken before mu.
	persistMu sync.Mutex

	mu    sync.Mutex
	table map[string]map[int32]*protocol.OrderInfo
	// timers are armed on every change (under mu); nil: no wake-up.
	timers *orderUnlockTimers
}

// newOrderInfoTable loads consumerOrderInfo.json (from its .bak when the
// file does not read, as ConfigManager does).
func newOrderInfoTable(dir configfile.Dir, log *zap.Logger, now func() time.Time, scope orderInfoScope) (*orderInfoTable, error) {
	w, res, err := dir.LoadConsumerOrderInfo()
	if err != nil {
		return nil, err
	}
	if res.Fallback != nil {
		log.Warn("load consumerOrderInfo.json failed, and try to load backup file", zap.Error(res.Fallback))
	}
	return &orderInfoTable{dir: dir, log: log, now: now, scope: scope, table: w.Table}, nil
}

// get is a queue's OrderInfo, nil if none; the caller holds mu.
func (t *orderInfoTable) get(topic, group string, queueID int32) *protocol.OrderInfo {
	return t.table[offsetKey(topic, group)][queueID]
}

// checkBlock tells whether a pop of the queue at now (ms) must skip it.
// A stored OrderInfo without an invisible time takes invisibleTime.
func (t *orderInfoTable) checkBlock(attemptID, topic, group string, queueID int32, invisibleTime, now int64) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	o := t.get(topic, group, queueID)
	return o != nil && orderBlocked(o, attemptID, invisibleTime, now)
}

// update records a pop that found the messages at offsets (ascending),
// and appends their orderCountInfo entries to countInfo (nil: none).
// isRetry is unused, as in Java: orderly pops read the topic only.
func (t *orderInfoTable) update(attemptID string, isRetry bool, topic, group string, queueID int32,
	popTime, invisibleTime int64, offsets []int64, countInfo *protocol.PopInfo) {
	if len(offsets) == 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	key := offsetKey(topic, group)
	queues := t.table[key]
	if queues == nil {
		queues = map[int32]*protocol.OrderInfo{}
		t.table[key] = queues
	}
	o := newOrderInfo(attemptID, popTime, invisibleTime, offsets, t.now().UnixMilli())
	if prev := queues[queueID]; prev != nil {
		mergeConsumedCounts(o, prev)
	}
	queues[queueID] = o
	if countInfo != nil {
		appendOrderCountInfo(countInfo, protocol.RetryFlag(topic), queueID, o)
	}
	t.armLocked(orderQueue{topic, group, queueID}, o)
}

// commitAndNext marks the message at offset acked and returns the offset
// to commit: the first un-acked message of the pop, or the last one + 1
// when all are acked; offset + 1 when the queue has no pop. -1: the
// offset is not one of the pop's (or the pop has none); -2: popTime is
// not the pop's (a stale handle: nothing to commit).
func (t *orderInfoTable) commitAndNext(topic, group string, queueID int32, offset, popTime int64) int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	o := t.get(topic, group, queueID)
	switch {
	case o == nil:
		return offset + 1
	case len(o.Offsets) == 0:
		return -1
	case o.PopTime != popTime:
		return -2
	}
	i := orderIndexOf(o, offset)
	if i < 0 {
		return -1
	}
	o.CommitOffsetBit |= orderBit(i)
	t.armLocked(orderQueue{topic, group, queueID}, o)
	return orderNextOffset(o)
}

// updateNextVisibleTime sets when the message at offset becomes visible
// again, if the queue's pop is the one of popTime.
func (t *orderInfoTable) updateNextVisibleTime(topic, group string, queueID int32, offset, popTime, nextVisibleTime int64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	o := t.get(topic, group, queueID)
	if o == nil || o.PopTime != popTime {
		return
	}
	if o.NextVisibleTimes == nil {
		o.NextVisibleTimes = map[int64]int64{}
	}
	o.NextVisibleTimes[offset] = nextVisibleTime
	t.armLocked(orderQueue{topic, group, queueID}, o)
}

// clearBlock forgets the queue's pop.
func (t *orderInfoTable) clearBlock(topic, group string, queueID int32) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.table[offsetKey(topic, group)], queueID)
}

// lockFreeTimestamp is when the queue unblocks (orderLockFree); false
// when it has no pop, or an un-acked message but no invisible time.
func (t *orderInfoTable) lockFreeTimestamp(topic, group string, queueID int32) (int64, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	o := t.get(topic, group, queueID)
	if o == nil {
		return 0, false
	}
	return orderLockFree(o, t.now().UnixMilli())
}

// lockFreeTimes is when each queue unblocks, for the queues
// lockFreeTimestamp has a time for.
func (t *orderInfoTable) lockFreeTimes() map[orderQueue]int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.lockFreeTimesLocked(t.now().UnixMilli())
}

func (t *orderInfoTable) lockFreeTimesLocked(now int64) map[orderQueue]int64 {
	times := map[orderQueue]int64{}
	for key, queues := range t.table {
		parts := protocol.JavaSplit(key, protocol.TopicGroupSeparator)
		if len(parts) != 2 {
			continue
		}
		for q, o := range queues {
			if at, ok := orderLockFree(o, now); ok {
				times[orderQueue{parts[0], parts[1], q}] = at
			}
		}
	}
	return times
}

// watch arms timers for the queues of the table that unblock later than
// now (ConsumerOrderInfoLockManager.recover) and on every change from now
// on.
func (t *orderInfoTable) watch(timers *orderUnlockTimers) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.timers = timers
	now := t.now().UnixMilli()
	for q, at := range t.lockFreeTimesLocked(now) {
		if at > now {
			timers.arm(q, at)
		}
	}
}

// armLocked sets the queue's timer to when it unblocks; the caller holds
// mu.
func (t *orderInfoTable) armLocked(q orderQueue, o *protocol.OrderInfo) {
	if t.timers == nil {
		return
	}
	if at, ok := orderLockFree(o, t.now().UnixMilli()); ok {
		t.timers.arm(q, at)
	}
}

// persist cleans the table and writes consumerOrderInfo.json, one write
// at a time; a failure is logged (Java's ConfigManager.persist logs and
// goes on).
func (t *orderInfoTable) persist() {
	t.persistMu.Lock()
	defer t.persistMu.Unlock()
	if err := t.dir.PersistConsumerOrderInfo(t.cleanSnapshot()); err != nil {
		t.log.Error("persist consumerOrderInfo.json failed", zap.Error(err))
	}
}

// cleanSnapshot cleans the table (autoClean) and returns a copy of it.
// The other tables are asked first, without mu held; keys added
// meanwhile wait for the next clean.
func (t *orderInfoTable) cleanSnapshot() *protocol.ConsumerOrderInfoWrapper {
	verdicts := t.scopeVerdicts()
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now().UnixMilli()
	w := &protocol.ConsumerOrderInfoWrapper{Table: make(map[string]map[int32]*protocol.OrderInfo, len(t.table))}
	for key, queues := range t.table {
		if v, ok := verdicts[key]; ok {
			if t.cleanLocked(key, queues, v, now) {
				continue
			}
		}
		copied := make(map[int32]*protocol.OrderInfo, len(queues))
		for q, o := range queues {
			copied[q] = o.Clone()
		}
		w.Table[key] = copied
	}
	return w
}

// orderScopeVerdict is what the other tables said of a "topic@group".
type orderScopeVerdict struct {
	gone          bool // the topic or the group
	readQueueNums int32
}

// scopeVerdicts asks the other tables about every key of two parts.
func (t *orderInfoTable) scopeVerdicts() map[string]orderScopeVerdict {
	if t.scope.readQueueNums == nil || t.scope.groupExists == nil {
		return nil
	}
	t.mu.Lock()
	keys := make([]string, 0, len(t.table))
	for key := range t.table {
		keys = append(keys, key)
	}
	t.mu.Unlock()
	verdicts := make(map[string]orderScopeVerdict, len(keys))
	for _, key := range keys {
		parts := protocol.JavaSplit(key, protocol.TopicGroupSeparator)
		if len(parts) != 2 {
			continue
		}
		n, ok := t.scope.readQueueNums(parts[0])
		verdicts[key] = orderScopeVerdict{gone: !ok || !t.scope.groupExists(parts[1]), readQueueNums: n}
	}
	return verdicts
}

// cleanLocked drops what autoClean drops of one key and tells whether the
// key itself went. As in Java, a key whose last queue goes here stays,
// empty, until the next clean.
func (t *orderInfoTable) cleanLocked(key string, queues map[int32]*protocol.OrderInfo, v orderScopeVerdict, now int64) bool {
	if v.gone || len(queues) == 0 {
		delete(t.table, key)
		t.log.Info("clean order info", zap.String("key", key), zap.Bool("gone", v.gone))
		return true
	}
	maps.DeleteFunc(queues, func(q int32, o *protocol.OrderInfo) bool {
		return q >= v.readQueueNums || now-o.LastConsumeTimestamp > orderInfoIdleSpan.Milliseconds()
	})
	return false
}

// newOrderInfo is the OrderInfo of a pop (offsets not empty).
func newOrderInfo(attemptID string, popTime, invisibleTime int64, offsets []int64, now int64) *protocol.OrderInfo {
	o := &protocol.OrderInfo{PopTime: popTime, InvisibleTime: invisibleTime, HasInvisibleTime: true,
		LastConsumeTimestamp: now, AttemptID: attemptID, Offsets: make([]int64, len(offsets))}
	o.Offsets[0] = offsets[0]
	for i := 1; i < len(offsets); i++ {
		o.Offsets[i] = offsets[i] - offsets[0]
	}
	return o
}

// mergeConsumedCounts sets the delivery counts of o, the pop after prev:
// prev's when o repeats prev's attemptId, else prev's count + 1 for each
// message both pops have.
func mergeConsumedCounts(o, prev *protocol.OrderInfo) {
	if prev.AttemptID != "" && prev.AttemptID == o.AttemptID {
		o.ConsumedCounts = prev.ConsumedCounts
		if o.ConsumedCounts == nil {
			o.ConsumedCounts = map[int64]int32{}
		}
		return
	}
	o.ConsumedCounts = map[int64]int32{}
	for i := range o.Offsets {
		off := o.QueueOffset(i)
		if orderIndexOf(prev, off) >= 0 {
			o.ConsumedCounts[off] = prev.ConsumedCounts[off] + 1
		}
	}
}

// appendOrderCountInfo appends the pop's orderCountInfo: each counted
// message's "<flag> qo<q>%<offset> <count>", then "<flag> <q> <min>", min
// being the smallest count, 0 when a message has none.
func appendOrderCountInfo(info *protocol.PopInfo, flag byte, queueID int32, o *protocol.OrderInfo) {
	minCount := int32(0)
	for i, off := range slices.Sorted(maps.Keys(o.ConsumedCounts)) {
		c := o.ConsumedCounts[off]
		info.Add(flag, protocol.OrderCountKey(queueID, off), strconv.Itoa(int(c)))
		if i == 0 || c < minCount {
			minCount = c
		}
	}
	if len(o.ConsumedCounts) != len(o.Offsets) {
		minCount = 0
	}
	info.Add(flag, strconv.Itoa(int(queueID)), strconv.Itoa(int(minCount)))
}

// orderBit is message i's bit of cm (Java's 1L << i: i mod 64).
func orderBit(i int) int64 { return int64(1) << (uint(i) & 63) }

// orderAcked tells whether message i of the pop is acked.
func orderAcked(o *protocol.OrderInfo, i int) bool { return o.CommitOffsetBit&orderBit(i) != 0 }

// orderIndexOf is the index of offset in the pop, -1 if it is not one.
func orderIndexOf(o *protocol.OrderInfo, offset int64) int {
	for i := range o.Offsets {
		if o.QueueOffset(i) == offset {
			return i
		}
	}
	return -1
}

// orderNextVisible is when message i of the pop becomes visible again.
func orderNextVisible(o *protocol.OrderInfo, i int) int64 {
	if at, ok := o.NextVisibleTimes[o.QueueOffset(i)]; ok {
		return at
	}
	return o.PopTime + o.InvisibleTime
}

// orderBlocked is OrderInfo.needBlock: whether an un-acked message is
// still invisible at now, unless the pop repeats attemptID. A missing
// invisible time becomes invisibleTime, as in Java.
func orderBlocked(o *protocol.OrderInfo, attemptID string, invisibleTime, now int64) bool {
	if len(o.Offsets) == 0 || (o.AttemptID != "" && o.AttemptID == attemptID) {
		return false
	}
	if !o.HasInvisibleTime || o.InvisibleTime <= 0 {
		o.InvisibleTime, o.HasInvisibleTime = invisibleTime, true
	}
	for i := range o.Offsets {
		if !orderAcked(o, i) && now < orderNextVisible(o, i) {
			return true
		}
	}
	return false
}

// orderLockFree is OrderInfo.getLockFreeTimestamp: the next visible time
// of the first un-acked message still invisible at now, else now; false
// when the pop has no offsets, or reaches an un-acked message without an
// invisible time.
func orderLockFree(o *protocol.OrderInfo, now int64) (int64, bool) {
	if len(o.Offsets) == 0 {
		return 0, false
	}
	for i := range o.Offsets {
		if orderAcked(o, i) {
			continue
		}
		if !o.HasInvisibleTime || o.InvisibleTime <= 0 {
			return 0, false
		}
		if at := orderNextVisible(o, i); now < at {
			return at, true
		}
	}
	return now, true
}

// orderNextOffset is the offset to commit: the first un-acked message's,
// or the last message's + 1 when all are acked.
func orderNextOffset(o *protocol.OrderInfo) int64 {
	for i := range o.Offsets {
		if !orderAcked(o, i) {
			return o.QueueOffset(i)
		}
	}
	return o.QueueOffset(len(o.Offsets)-1) + 1
}

// orderUnlockTimers is ConsumerOrderInfoLockManager's timer: one pending
// time per queue, a new one replacing the old; every orderUnlockTick the
// queues whose time has come are dropped and notify is called for each
// (outside the lock).
type orderUnlockTimers struct {
	now    func() time.Time
	notify func(topic, group string, queueID int32)

	mu  sync.Mutex
	due map[orderQueue]int64
}

func newOrderUnlockTimers(now func() time.Time, notify func(topic, group string, queueID int32)) *orderUnlockTimers {
	return &orderUnlockTimers{now: now, notify: notify, due: map[orderQueue]int64{}}
}

// arm sets the queue's timer to at (ms); a time already past fires at
// the next tick.
func (u *orderUnlockTimers) arm(q orderQueue, at int64) {
	u.mu.Lock()
	u.due[q] = at
	u.mu.Unlock()
}

// fire notifies, and forgets, every queue whose time has come.
func (u *orderUnlockTimers) fire() {
	now := u.now().UnixMilli()
	var ready []orderQueue
	u.mu.Lock()
	for q, at := range u.due {
		if at <= now {
			ready = append(ready, q)
			delete(u.due, q)
		}
	}
	u.mu.Unlock()
	for _, q := range ready {
		u.notify(q.topic, q.group, q.queueID)
	}
}

// pending is how many queues wait for their time.
func (u *orderUnlockTimers) pending() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.due)
}

// run fires the timers every orderUnlockTick until stop is closed.
func (u *orderUnlockTimers) run(stop <-chan struct{}) { runEvery(stop, orderUnlockTick, u.fire) }
