package broker

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/rmqgo/rmqgo/internal/configfile"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/internal/testclock"
)

// The cases of 5.3.3's ConsumerOrderInfoManagerTest and
// ConsumerOrderInfoManagerLockFreeNotifyTest (docs/reference/pop.md §15),
// on an injected clock: where Java awaits, the clock is moved.

const (
	orderTopic = "topic"
	orderGroup = "group"
)

// orderFixture is a table on a temporary config directory and a clock.
type orderFixture struct {
	t     *testing.T
	dir   configfile.Dir
	clock *testclock.Clock
	table *orderInfoTable
}

func newOrderFixture(t *testing.T, scope orderInfoScope) *orderFixture {
	f := &orderFixture{t: t, dir: configfile.Dir{Path: t.TempDir(), Line: protocol.Line5}, clock: testclock.New()}
	f.table = f.load(scope)
	return f
}

// load reads the table from the directory, as a broker starting.
func (f *orderFixture) load(scope orderInfoScope) *orderInfoTable {
	table, err := newOrderInfoTable(f.dir, zaptest.NewLogger(f.t), f.clock.Now, scope)
	require.NoError(f.t, err)
	return table
}

func (f *orderFixture) now() int64 { return f.clock.Now().UnixMilli() }

// pop records a pop of queue 0 at popTime and returns its orderCountInfo,
// parsed as the client parses it.
func (f *orderFixture) pop(attemptID string, popTime, invisibleTime int64, offsets ...int64) map[string]string {
	return f.popQueue(0, attemptID, popTime, invisibleTime, offsets...)
}

func (f *orderFixture) popQueue(queueID int32, attemptID string, popTime, invisibleTime int64, offsets ...int64) map[string]string {
	var info protocol.PopInfo
	f.table.update(attemptID, false, orderTopic, orderGroup, queueID, popTime, invisibleTime, offsets, &info)
	m, err := protocol.ParsePopInfo(info.String())
	require.NoError(f.t, err)
	return m
}

func (f *orderFixture) blocked(attemptID string, invisibleTime int64) bool {
	return f.table.checkBlock(attemptID, orderTopic, orderGroup, 0, invisibleTime, f.now())
}

func (f *orderFixture) ack(offset, popTime int64) int64 {
	return f.table.commitAndNext(orderTopic, orderGroup, 0, offset, popTime)
}

// assertRoundTrip is Java's assertEncodeAndDecode: the table written and
// loaded again is the same table.
func (f *orderFixture) assertRoundTrip() {
	f.t.Helper()
	before := f.table.cleanSnapshot()
	f.table.persist()
	after := f.load(f.table.scope).cleanSnapshot()
	assert.Equal(f.t, before, after)
}

func (f *orderFixture) file() string {
	data, err := os.ReadFile(f.dir.File(configfile.ConsumerOrderInfoFile))
	require.NoError(f.t, err)
	return string(data)
}

// testCommitAndNext: a stale popTime commits nothing and leaves the
// queue blocked; the ack of the one message commits past it.
func TestOrderCommitAndNext(t *testing.T) {
	f := newOrderFixture(t, orderInfoScope{})
	popTime := f.now()
	f.pop("", popTime, 3000, 1)
	f.assertRoundTrip()
	assert.Equal(t, int64(-2), f.ack(1, popTime-10))
	f.assertRoundTrip()
	assert.True(t, f.blocked("", 3000))
	assert.Equal(t, int64(2), f.ack(1, popTime))
	f.assertRoundTrip()
	assert.False(t, f.blocked("", 3000))
}

// docs/reference/pop.md §10.5: offsets [5,6,8].
func TestOrderCommitAndNextSequence(t *testing.T) {
	f := newOrderFixture(t, orderInfoScope{})
	popTime := f.now()
	assert.Equal(t, int64(43), f.ack(42, popTime), "no pop of the queue: past the offset")
	f.pop("", popTime, 60000, 5, 6, 8)
	assert.Equal(t, []int64{5, 1, 3}, f.table.cleanSnapshot().Table["topic@group"][0].Offsets, "o[0], then distances")
	assert.Equal(t, int64(5), f.ack(6, popTime), "5 is not acked yet")
	assert.Equal(t, int64(8), f.ack(5, popTime))
	assert.Equal(t, int64(-1), f.ack(7, popTime), "not one of the pop's offsets")
	assert.Equal(t, int64(-2), f.ack(8, popTime+1), "a stale handle")
	assert.Equal(t, int64(9), f.ack(8, popTime), "all acked: past the last")
	assert.Equal(t, int64(9), f.ack(8, popTime), "again")
	assert.Equal(t, int64(0b111), f.table.cleanSnapshot().Table["topic@group"][0].CommitOffsetBit)

	// A file's OrderInfo without offsets is illegal to ack.
	writeOrderFile(t, f.dir, `{"table":{"topic@group":{0:{"o":[],"popTime":1}}}}`)
	f.table = f.load(orderInfoScope{})
	assert.Equal(t, int64(-1), f.ack(0, 1))
	assert.False(t, f.blocked("", 3000))
}

// testConsumedCount: counts of one queue across pops.
func TestOrderConsumedCount(t *testing.T) {
	f := newOrderFixture(t, orderInfoScope{})
	popTime := f.now()
	steps := []struct {
		offsets []int64
		want    map[string]string
	}{
		{[]int64{1, 2, 3}, map[string]string{"0@0": "0"}},                                                 // three new messages
		{[]int64{1, 2, 3}, map[string]string{"0@0": "1", "0@qo0%1": "1", "0@qo0%2": "1", "0@qo0%3": "1"}}, // the same again
		{[]int64{2, 3}, map[string]string{"0@0": "2", "0@qo0%2": "2", "0@qo0%3": "2"}},                    // the last two again
		{[]int64{3, 4}, map[string]string{"0@0": "0", "0@qo0%3": "3"}},                                    // a new one and the last again
		{[]int64{5, 6}, map[string]string{"0@0": "0"}},                                                    // two new ones
	}
	for i, s := range steps {
		assert.Equal(t, s.want, f.pop("", popTime, 3000, s.offsets...), "step %d", i)
		f.assertRoundTrip()
	}
}

// testConsumedCountForMultiQueue: each queue counts its own.
func TestOrderConsumedCountForMultiQueue(t *testing.T) {
	f := newOrderFixture(t, orderInfoScope{})
	popTime := f.now()
	both := func(q0, q1 []int64) map[string]string {
		m := f.popQueue(0, "", popTime, 3000, q0...)
		for k, v := range f.popQueue(1, "", popTime, 3000, q1...) {
			m[k] = v
		}
		f.assertRoundTrip()
		return m
	}
	assert.Equal(t, map[string]string{"0@0": "0", "0@1": "0"}, both([]int64{0}, []int64{0}))
	assert.Equal(t, map[string]string{"0@0": "1", "0@1": "1", "0@qo0%0": "1", "0@qo1%0": "1"}, both([]int64{0}, []int64{0}))
	assert.Equal(t, map[string]string{"0@0": "0", "0@1": "2", "0@qo0%0": "2", "0@qo1%0": "2"}, both([]int64{0, 1}, []int64{0}))
}

// orderCountInfo as the response carries it: the counted messages in
// offset order, then the queue; the flag of the topic read.
func TestOrderCountInfoString(t *testing.T) {
	f := newOrderFixture(t, orderInfoScope{})
	var info protocol.PopInfo
	update := func(topic string, offsets ...int64) {
		f.table.update("", false, topic, orderGroup, 0, f.now(), 3000, offsets, &info)
	}
	update(orderTopic, 6, 8)
	assert.Equal(t, "0 0 0", info.String())
	info = protocol.PopInfo{}
	update(orderTopic, 6, 8)
	assert.Equal(t, "0 qo0%6 1;0 qo0%8 1;0 0 1", info.String(), "docs/reference/pop.md §10.4")
	info = protocol.PopInfo{}
	update(protocol.PopRetryTopicV2(orderGroup, orderTopic), 3)
	update(protocol.PopRetryTopicV2(orderGroup, orderTopic), 3)
	assert.Equal(t, "2 0 0;2 qo0%3 1;2 0 1", info.String())
	f.table.update("", false, orderTopic, orderGroup, 1, f.now(), 3000, []int64{1}, nil)
	f.table.update("", false, orderTopic, orderGroup, 1, f.now(), 3000, nil, nil)
	assert.Equal(t, []int64{1}, f.table.cleanSnapshot().Table["topic@group"][1].Offsets, "a pop of nothing changes nothing")
}

// testUpdateNextVisibleTime: a message made invisible longer keeps the
// queue blocked until its time, acked or not the others.
func TestOrderUpdateNextVisibleTime(t *testing.T) {
	const invisibleTime = 3000
	f := newOrderFixture(t, orderInfoScope{})
	popTime := f.now()
	f.pop("", popTime, 1, 1, 2, 3)
	f.table.updateNextVisibleTime(orderTopic, orderGroup, 0, 2, popTime, f.now()+invisibleTime)
	f.table.updateNextVisibleTime(orderTopic, orderGroup, 0, 1, popTime+1, f.now()+99999) // stale: ignored
	f.assertRoundTrip()
	assert.Equal(t, int64(2), f.ack(1, popTime))
	f.assertRoundTrip()
	assert.Equal(t, int64(2), f.ack(3, popTime))
	f.assertRoundTrip()
	assert.True(t, f.blocked("", invisibleTime))
	f.clock.Advance(invisibleTime*time.Millisecond - time.Millisecond)
	assert.True(t, f.blocked("", invisibleTime))
	f.clock.Advance(time.Millisecond)
	assert.False(t, f.blocked("", invisibleTime))

	f.pop("", popTime, 1, 2, 3, 4)
	f.table.updateNextVisibleTime(orderTopic, orderGroup, 0, 2, popTime, f.now()+invisibleTime)
	f.assertRoundTrip()
	assert.Equal(t, int64(2), f.ack(3, popTime))
	f.assertRoundTrip()
	assert.Equal(t, int64(2), f.ack(4, popTime))
	f.assertRoundTrip()
	assert.True(t, f.blocked("", invisibleTime))
	assert.Equal(t, int64(5), f.ack(2, popTime))
	f.assertRoundTrip()
	assert.False(t, f.blocked("", invisibleTime))
}

// testAutoCleanAndEncode, and the 24 h rule: persist drops the entries
// of gone topics and groups, of queues past readQueueNums, and of queues
// not popped for 24 h.
func TestOrderAutoCleanAtPersist(t *testing.T) {
	var mu sync.Mutex
	readQueueNums := int32(8)
	scope := orderInfoScope{
		readQueueNums: func(topic string) (int32, bool) {
			mu.Lock()
			defer mu.Unlock()
			return readQueueNums, topic == orderTopic
		},
		groupExists: func(group string) bool { return group == orderGroup },
	}
	setQueueNums := func(n int32) {
		mu.Lock()
		readQueueNums = n
		mu.Unlock()
	}
	f := newOrderFixture(t, scope)
	popTime := f.now()
	update := func(topic, group string) {
		f.table.update("", false, topic, group, 0, popTime, 1, []int64{2, 3, 4}, nil)
	}

	update("errTopic", "errGroup")
	update(orderTopic, "errGroup")
	f.table.persist()
	assert.Equal(t, "{\n\t\"table\":{}\n}", f.file())

	setQueueNums(0)
	update(orderTopic, orderGroup)
	f.table.persist()
	assert.Equal(t, "{\n\t\"table\":{\n\t\t\"topic@group\":{}\n\t}\n}", f.file(), "as Java: the emptied key goes at the next clean")
	f.table.persist()
	assert.Equal(t, "{\n\t\"table\":{}\n}", f.file())

	setQueueNums(8)
	update(orderTopic, orderGroup)
	f.table.persist()
	assert.Len(t, f.load(scope).cleanSnapshot().Table["topic@group"], 1)

	f.clock.Advance(24 * time.Hour)
	f.table.persist()
	assert.Len(t, f.load(scope).cleanSnapshot().Table["topic@group"], 1, "24 h is not more than 24 h")
	f.clock.Advance(time.Millisecond)
	f.table.persist()
	assert.Empty(t, f.load(scope).cleanSnapshot().Table["topic@group"])

	// A key that is not topic@group is left alone, as Java's.
	f.table.update("", false, "a@b", "c", 0, popTime, 1, []int64{1}, nil)
	f.table.persist()
	assert.Contains(t, f.load(scope).cleanSnapshot().Table, "a@b@c")
}

// testLoadFromOldVersionOrderInfoData: a file without i, oc and ot (5.0)
// still blocks, taking the pop's invisible time, and counts.
func TestOrderLoadOldFile(t *testing.T) {
	f := newOrderFixture(t, orderInfoScope{})
	popTime := f.now()
	writeOrderFile(t, f.dir, `{"table":{"topic@group":{"0":{"cm":0,"l":`+itoa(popTime)+`,"o":[2,1,2],"popTime":`+itoa(popTime)+`}}}}`)
	f.table = f.load(orderInfoScope{})
	assert.True(t, f.blocked("", 3000))
	o := f.table.cleanSnapshot().Table["topic@group"][0]
	assert.True(t, o.HasInvisibleTime)
	assert.Equal(t, int64(3000), o.InvisibleTime, "the pop's invisible time is taken")

	counts := f.pop("", popTime, 1, 3, 4, 5)
	f.assertRoundTrip()
	assert.Equal(t, map[string]string{"0@0": "0", "0@qo0%3": "1", "0@qo0%4": "1"}, counts)
}

// testReentrant: the pop that repeats the last one's attemptId is not
// blocked.
func TestOrderReentrantAttempt(t *testing.T) {
	f := newOrderFixture(t, orderInfoScope{})
	popTime := f.now()
	f.pop("attempt-1", popTime, 3000, 1, 2, 3)
	assert.True(t, f.blocked("", 3000))
	assert.True(t, f.blocked("attempt-2", 3000))
	assert.False(t, f.blocked("attempt-1", 3000))

	// The same attempt again keeps the counts; another counts again.
	f.ack(1, popTime)
	assert.Equal(t, map[string]string{"0@0": "0"}, f.pop("attempt-1", popTime, 3000, 1, 2, 3))
	assert.Equal(t, map[string]string{"0@0": "1", "0@qo0%1": "1", "0@qo0%2": "1", "0@qo0%3": "1"},
		f.pop("attempt-2", popTime, 3000, 1, 2, 3))
	assert.Equal(t, map[string]string{"0@0": "1", "0@qo0%1": "1", "0@qo0%2": "1", "0@qo0%3": "1"},
		f.pop("attempt-2", popTime, 3000, 1, 2, 3))
	assert.Zero(t, f.table.cleanSnapshot().Table["topic@group"][0].CommitOffsetBit, "a new pop starts un-acked")
}

func TestOrderClearBlock(t *testing.T) {
	f := newOrderFixture(t, orderInfoScope{})
	f.pop("", f.now(), 3000, 1)
	assert.True(t, f.blocked("", 3000))
	f.table.clearBlock(orderTopic, orderGroup, 0)
	f.table.clearBlock(orderTopic, "other", 0)
	assert.False(t, f.blocked("", 3000))
	assert.Equal(t, int64(8), f.ack(7, 1), "no pop any more")
}

// The pops, change and ack that make the Java-written table's first
// queue (compat/configgen) make the same OrderInfo; the whole Java file
// goes through the table unchanged.
func TestOrderTableWritesJavaBytes(t *testing.T) {
	golden, err := os.ReadFile(filepath.Join("..", "internal", "protocol", "testdata", "config", "java-5.3.3", configfile.ConsumerOrderInfoFile))
	require.NoError(t, err)
	want, err := protocol.DecodeConsumerOrderInfoWrapper(golden)
	require.NoError(t, err)

	f := newOrderFixture(t, orderInfoScope{})
	const ts = 1700000000000
	update := func(attemptID string, offsets ...int64) {
		f.table.update(attemptID, false, "TopicTest", "group_g", 0, ts, 60000, offsets, nil)
	}
	update("a", 8)
	update("b", 5, 8)
	f.clock.Advance(time.Second)
	update("attempt-1", 5, 6, 8)
	f.table.updateNextVisibleTime("TopicTest", "group_g", 0, 6, ts, ts+99999)
	assert.Equal(t, int64(6), f.table.commitAndNext("TopicTest", "group_g", 0, 5, ts))
	assert.Equal(t, want.Table["TopicTest@group_g"][0], f.table.cleanSnapshot().Table["TopicTest@group_g"][0])

	writeOrderFile(t, f.dir, string(golden))
	f.table = f.load(orderInfoScope{})
	f.table.persist()
	assert.Equal(t, string(golden), f.file())
}

// The lock-free wake-up (ConsumerOrderInfoManagerLockFreeNotifyTest):
// the queue's timer fires when it unblocks, and is gone after.
func TestOrderLockFreeNotify(t *testing.T) {
	cases := []struct {
		name string
		// after the pop of offset 1 (3 s invisible) at popTime
		then  func(f *orderFixture, popTime int64)
		early time.Duration // no wake-up yet
		at    time.Duration // the wake-up
	}{
		{"no ack", func(*orderFixture, int64) {}, 2999 * time.Millisecond, 3 * time.Second},
		{"ack", func(f *orderFixture, popTime int64) { f.ack(1, popTime) }, -1, 0},
		{"invisible longer", func(f *orderFixture, popTime int64) {
			f.table.updateNextVisibleTime(orderTopic, orderGroup, 0, 1, popTime, popTime+5000)
		}, 4999 * time.Millisecond, 5 * time.Second},
		{"invisible shorter", func(f *orderFixture, popTime int64) {
			f.table.updateNextVisibleTime(orderTopic, orderGroup, 0, 1, popTime, popTime+1000)
		}, 999 * time.Millisecond, time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newOrderFixture(t, orderInfoScope{})
			timers, woken := newRecordingTimers(f.clock)
			f.table.watch(timers)
			popTime := f.now()
			f.pop("", popTime, 3000, 1)
			c.then(f, popTime)
			start := f.clock.Now()
			if c.early >= 0 {
				f.clock.Advance(c.early)
				timers.fire()
				assert.Empty(t, *woken)
			}
			f.clock.Advance(c.at - f.clock.Now().Sub(start))
			timers.fire()
			assert.Equal(t, []orderQueue{{orderTopic, orderGroup, 0}}, *woken)
			assert.Zero(t, timers.pending())
		})
	}
}

// testRecover: watch arms the timers of a loaded table, those in the
// future only.
func TestOrderLockFreeRecover(t *testing.T) {
	f := newOrderFixture(t, orderInfoScope{})
	popTime := f.now()
	f.pop("", popTime, 3000, 1)
	f.popQueue(1, "", popTime-5000, 3000, 1) // visible again already
	f.popQueue(2, "", popTime, 3000, 1)
	f.table.commitAndNext(orderTopic, orderGroup, 2, 1, popTime) // all acked
	f.table.persist()

	table := f.load(orderInfoScope{})
	assert.Equal(t, map[orderQueue]int64{
		{orderTopic, orderGroup, 0}: popTime + 3000,
		{orderTopic, orderGroup, 1}: popTime,
		{orderTopic, orderGroup, 2}: popTime,
	}, table.lockFreeTimes())
	at, ok := table.lockFreeTimestamp(orderTopic, orderGroup, 0)
	assert.True(t, ok)
	assert.Equal(t, popTime+3000, at)
	_, ok = table.lockFreeTimestamp(orderTopic, orderGroup, 9)
	assert.False(t, ok)

	timers, woken := newRecordingTimers(f.clock)
	table.watch(timers)
	assert.Equal(t, 1, timers.pending())
	f.clock.Advance(2 * time.Second)
	timers.fire()
	assert.Empty(t, *woken)
	f.clock.Advance(time.Second)
	timers.fire()
	assert.Equal(t, []orderQueue{{orderTopic, orderGroup, 0}}, *woken)
	assert.Zero(t, timers.pending())
}

// A pop of a file without i has no lock-free time: no timer.
func TestOrderLockFreeWithoutInvisibleTime(t *testing.T) {
	f := newOrderFixture(t, orderInfoScope{})
	writeOrderFile(t, f.dir, `{"table":{"topic@group":{0:{"o":[1],"popTime":`+itoa(f.now())+`}}}}`)
	f.table = f.load(orderInfoScope{})
	_, ok := f.table.lockFreeTimestamp(orderTopic, orderGroup, 0)
	assert.False(t, ok)
	timers, _ := newRecordingTimers(f.clock)
	f.table.watch(timers)
	assert.Zero(t, timers.pending())
	f.table.updateNextVisibleTime(orderTopic, orderGroup, 0, 1, f.now(), f.now()+10)
	assert.Zero(t, timers.pending(), "still no i")
}

// run fires the timers on its tick until stopped.
func TestOrderUnlockTimersRun(t *testing.T) {
	woken := make(chan orderQueue, 1)
	timers := newOrderUnlockTimers(time.Now, func(topic, group string, queueID int32) {
		woken <- orderQueue{topic, group, queueID}
	})
	timers.arm(orderQueue{"T", "G", 3}, time.Now().UnixMilli())
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		timers.run(stop)
		close(done)
	}()
	select {
	case q := <-woken:
		assert.Equal(t, orderQueue{"T", "G", 3}, q)
	case <-time.After(10 * time.Second):
		t.Fatal("the timer did not fire")
	}
	close(stop)
	<-done
	assert.Zero(t, timers.pending())
}

// The table under concurrent pops, acks, changes, checks and writes
// (run with -race).
func TestOrderTableConcurrentUse(t *testing.T) {
	scope := orderInfoScope{
		readQueueNums: func(string) (int32, bool) { return 8, true },
		groupExists:   func(string) bool { return true },
	}
	f := newOrderFixture(t, scope)
	timers, _ := newRecordingTimers(f.clock)
	f.table.watch(timers)
	var wg sync.WaitGroup
	for q := int32(0); q < 4; q++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int64(0); i < 50; i++ {
				popTime := f.now() + i
				f.table.update("", false, orderTopic, orderGroup, q, popTime, 3000, []int64{i, i + 1}, &protocol.PopInfo{})
				f.table.checkBlock("", orderTopic, orderGroup, q, 3000, f.now())
				f.table.updateNextVisibleTime(orderTopic, orderGroup, q, i+1, popTime, popTime+10)
				f.table.commitAndNext(orderTopic, orderGroup, q, i, popTime)
				timers.fire()
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 10; i++ {
			f.table.persist()
			f.table.lockFreeTimes()
		}
	}()
	wg.Wait()
	f.table.persist()
	assert.Len(t, f.load(scope).cleanSnapshot().Table["topic@group"], 4)
}

// newRecordingTimers are timers on the clock that record the queues they
// wake.
func newRecordingTimers(clock *testclock.Clock) (*orderUnlockTimers, *[]orderQueue) {
	var mu sync.Mutex
	woken := &[]orderQueue{}
	return newOrderUnlockTimers(clock.Now, func(topic, group string, queueID int32) {
		mu.Lock()
		*woken = append(*woken, orderQueue{topic, group, queueID})
		mu.Unlock()
	}), woken
}

func writeOrderFile(t *testing.T, dir configfile.Dir, content string) {
	t.Helper()
	require.NoError(t, os.WriteFile(dir.File(configfile.ConsumerOrderInfoFile), []byte(content), 0o644))
}
