package store

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// waitingPuts is how many puts wait in w.
func waitingPuts(w *ackWaiters) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.waiting)
}

func TestAckWaitersWakeOnlyThePutsTheOffsetCovers(t *testing.T) {
	var w ackWaiters
	woken := make(chan int64, 3)
	var wg sync.WaitGroup
	for _, off := range []int64{300, 100, 200} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if w.wait(off, time.Hour) {
				woken <- off
			}
		}()
	}
	require.Eventually(t, func() bool { return waitingPuts(&w) == 3 }, 5*time.Second, time.Millisecond)
	w.raise(150)
	assert.Equal(t, int64(100), <-woken)
	w.raise(120) // never down
	w.set(250)
	assert.Equal(t, int64(200), <-woken)
	assert.Equal(t, 1, waitingPuts(&w), "300 still waits")
	w.set(50) // the rule changed: lower, and a new put at 100 waits now
	assert.False(t, w.wait(100, 20*time.Millisecond), "not replicated before its timeout")
	assert.Equal(t, 1, waitingPuts(&w), "a waiter whose time is up leaves the heap")
	w.releaseAll()
	assert.Equal(t, int64(300), <-woken)
	wg.Wait()
	assert.True(t, w.wait(1<<40, time.Hour), "everything counts as replicated")
}

func TestAckWaitersCallBackThePutsTheOffsetCoversOnTheGoroutineThatMovesIt(t *testing.T) {
	var w ackWaiters
	var got []int64
	mover := make(chan struct{}) // closed just before set: a callback run any earlier finds it open
	for _, off := range []int64{300, 100, 200} {
		done, _ := w.then(off, time.Hour, func(replicated bool) {
			require.True(t, replicated)
			select {
			case <-mover:
			default:
				t.Errorf("the callback of %d ran outside the set that covered it", off)
			}
			got = append(got, off) // no lock: only the setting goroutine runs callbacks
		})
		require.False(t, done)
	}
	close(mover)
	w.set(250)
	assert.Equal(t, []int64{100, 200}, got, "covered puts, in offset order")
	done, replicated := w.then(250, time.Hour, func(bool) { t.Error("a put already covered is not called back") })
	assert.True(t, done)
	assert.True(t, replicated)
	w.set(300)
	assert.Equal(t, []int64{100, 200, 300}, got)
}

func TestAckWaitersFailTheirPutsAtTheDeadlineAndOnlyThen(t *testing.T) {
	var w ackWaiters
	outcome := make(chan bool, 2)
	began := time.Now()
	_, _ = w.then(100, 50*time.Millisecond, func(replicated bool) { outcome <- replicated })
	_, _ = w.then(200, 50*time.Millisecond, func(replicated bool) { outcome <- replicated })
	w.set(100)
	assert.True(t, <-outcome, "100 was replicated")
	assert.False(t, <-outcome, "200 was not, and its time is up")
	assert.GreaterOrEqual(t, time.Since(began), 50*time.Millisecond, "not failed before its timeout")
	assert.Equal(t, 0, waitingPuts(&w))
	w.mu.Lock()
	assert.Equal(t, w.head, len(w.byDeadline), "the deadline queue is spent")
	w.mu.Unlock()
	// the timer is armed again for later puts
	assert.False(t, w.wait(300, 10*time.Millisecond))
}

func TestClosedAckWaitersFailEveryPutNowAndLater(t *testing.T) {
	var w ackWaiters
	outcome := make(chan bool, 1)
	blocked := make(chan bool, 1)
	_, _ = w.then(100, time.Hour, func(replicated bool) { outcome <- replicated })
	go func() { blocked <- w.wait(200, time.Hour) }()
	require.Eventually(t, func() bool { return waitingPuts(&w) == 2 }, 5*time.Second, time.Millisecond)
	w.close()
	assert.False(t, <-outcome)
	assert.False(t, <-blocked)
	done, replicated := w.then(300, time.Hour, func(bool) { t.Error("called back after close") })
	assert.True(t, done)
	assert.False(t, replicated)
}

func TestAckWaitersDeadlineQueueStaysBoundedUnderAcks(t *testing.T) {
	var w ackWaiters
	for i := range int64(100_000) {
		_, _ = w.then(i+1, time.Hour, func(bool) {})
		w.set(i + 1)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	assert.Empty(t, w.waiting)
	assert.LessOrEqual(t, len(w.byDeadline), 2048, "released waiters are dropped as acks come")
}
