package store

// Puts waiting for replication (a SYNC_MASTER's handleHA, a controller-mode
// master's ack rules). Each waiting put has a channel of its own in a heap
// ordered by the offset it waits for; when the replicated offset moves,
// only the puts it covers are woken. (A broadcast wake-up of every waiter
// on every slave report cost each report as many goroutine wake-ups as
// puts in flight; Java's GroupTransferService walks its request list in
// one thread instead.)

import (
	"container/heap"
	"context"
	"math"
	"sync"
)

// ackWaiters holds the waiting puts and the offset replicated so far.
type ackWaiters struct {
	mu      sync.Mutex
	reached int64
	waiting waiterHeap
}

type ackWaiter struct {
	offset int64
	ch     chan struct{}
	index  int // in the heap; -1 once released
}

// wait blocks until offset is replicated or ctx ends; it reports whether
// it was replicated.
func (w *ackWaiters) wait(ctx context.Context, offset int64) bool {
	w.mu.Lock()
	if offset <= w.reached {
		w.mu.Unlock()
		return true
	}
	aw := &ackWaiter{offset: offset, ch: make(chan struct{})}
	heap.Push(&w.waiting, aw)
	w.mu.Unlock()
	select {
	case <-aw.ch:
		return true
	case <-ctx.Done():
		w.mu.Lock()
		defer w.mu.Unlock()
		if aw.index < 0 {
			return true // released as the context ended
		}
		heap.Remove(&w.waiting, aw.index)
		return false
	}
}

// set makes reached the replicated offset (it may go down, when the
// replicas a put needs change) and wakes the puts it covers.
func (w *ackWaiters) set(reached int64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.reached = reached
	for len(w.waiting) > 0 && w.waiting[0].offset <= reached {
		aw := heap.Pop(&w.waiting).(*ackWaiter)
		close(aw.ch)
	}
}

// raise moves the replicated offset up to reached (never down).
func (w *ackWaiters) raise(reached int64) {
	w.mu.Lock()
	up := reached > w.reached
	w.mu.Unlock()
	if up {
		w.set(reached)
	}
}

// releaseAll wakes every waiter, as if everything were replicated (a
// store that stops waiting for slaves).
func (w *ackWaiters) releaseAll() { w.set(math.MaxInt64) }

// waiterHeap is a min-heap of waiters by offset.
type waiterHeap []*ackWaiter

func (h waiterHeap) Len() int           { return len(h) }
func (h waiterHeap) Less(i, j int) bool { return h[i].offset < h[j].offset }
func (h waiterHeap) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].index, h[j].index = i, j
}

func (h *waiterHeap) Push(x any) {
	aw := x.(*ackWaiter)
	aw.index = len(*h)
	*h = append(*h, aw)
}

func (h *waiterHeap) Pop() any {
	old := *h
	aw := old[len(old)-1]
	old[len(old)-1] = nil
	aw.index = -1
	*h = old[:len(old)-1]
	return aw
}
