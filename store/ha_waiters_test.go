package store

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAckWaitersWakeOnlyThePutsTheOffsetCovers(t *testing.T) {
	var w ackWaiters
	woken := make(chan int64, 3)
	var wg sync.WaitGroup
	for _, off := range []int64{300, 100, 200} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if w.wait(context.Background(), off) {
				woken <- off
			}
		}()
	}
	require.Eventually(t, func() bool { w.mu.Lock(); defer w.mu.Unlock(); return len(w.waiting) == 3 }, 5*time.Second, time.Millisecond)
	w.raise(150)
	assert.Equal(t, int64(100), <-woken)
	w.raise(120) // never down
	w.set(250)
	assert.Equal(t, int64(200), <-woken)
	w.mu.Lock()
	assert.Len(t, w.waiting, 1, "300 still waits")
	w.mu.Unlock()
	w.set(50) // the rule changed: lower, and a new put at 100 waits now
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	assert.False(t, w.wait(ctx, 100), "not replicated before the context ends")
	w.mu.Lock()
	assert.Len(t, w.waiting, 1, "a waiter whose context ended leaves the heap")
	w.mu.Unlock()
	w.releaseAll()
	assert.Equal(t, int64(300), <-woken)
	wg.Wait()
	assert.True(t, w.wait(context.Background(), 1<<40), "everything counts as replicated")
}
