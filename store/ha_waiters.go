package store

// Puts waiting for replication (a SYNC_MASTER's handleHA, a controller-mode
// master's ack rules). A waiting put is either a goroutine blocked on a
// channel of its own, or a callback the put's caller left (its answer is
// sent from there, so no worker parks: Java's send processor completes a
// CompletableFuture the same way). Waiters sit in a heap ordered by the
// offset they wait for; when the replicated offset moves, only the puts it
// covers are released, and their callbacks run on the goroutine that moved
// it (the ack reader), outside the lock. (A broadcast wake-up of every
// waiter on every slave report cost each report as many goroutine wake-ups
// as puts in flight; Java's GroupTransferService walks its request list in
// one thread instead.)
//
// Deadlines: the waiters also sit in a queue by deadline, and one timer,
// armed for the first deadline, fails the waiters whose time is up (no
// timer or context per put). The waiters of one set share a timeout, so a
// new waiter goes to the queue's end; only one given a shorter timeout
// (a changed setting) is inserted further up.

import (
	"container/heap"
	"math"
	"sync"
	"time"
)

// ackWaiters holds the waiting puts and the offset replicated so far.
type ackWaiters struct {
	mu      sync.Mutex
	reached int64
	waiting waiterHeap
	// byDeadline holds the waiters in arrival order from head on; the
	// released ones stay until they reach the front.
	byDeadline []*ackWaiter
	head       int
	timer      *time.Timer
	armed      bool
	// closed fails every waiter at once, present and future (the HA
	// service stopped).
	closed bool
}

type ackWaiter struct {
	offset   int64
	deadline time.Time
	index    int // in the heap; -1 once released
	// ch is a blocked put's, closed on release; then is a callback's.
	ch   chan struct{}
	then func(replicated bool)
	ok   bool // set on release: whether the offset was replicated
}

// finish tells the put its outcome; no lock is held.
func (aw *ackWaiter) finish() {
	if aw.ch != nil {
		close(aw.ch)
		return
	}
	aw.then(aw.ok)
}

// wait blocks until offset is replicated or timeout passes; it reports
// whether it was replicated.
func (w *ackWaiters) wait(offset int64, timeout time.Duration) bool {
	aw := &ackWaiter{offset: offset, ch: make(chan struct{})}
	if done, ok := w.add(aw, timeout); done {
		return ok
	}
	<-aw.ch
	return aw.ok
}

// then calls fn once offset is replicated (true) or timeout has passed
// (false), from the goroutine that decides it. When that is known at once,
// it returns done with the outcome and fn is never called.
func (w *ackWaiters) then(offset int64, timeout time.Duration, fn func(replicated bool)) (done, replicated bool) {
	return w.add(&ackWaiter{offset: offset, then: fn}, timeout)
}

// add queues aw unless its outcome is known now (done).
func (w *ackWaiters) add(aw *ackWaiter, timeout time.Duration) (done, replicated bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case w.closed:
		return true, false
	case aw.offset <= w.reached:
		return true, true
	}
	aw.deadline = time.Now().Add(timeout)
	heap.Push(&w.waiting, aw)
	first := w.enqueueLocked(aw)
	switch {
	case w.timer == nil:
		w.timer = time.AfterFunc(timeout, w.expire)
	case !w.armed || first:
		w.timer.Reset(timeout)
	}
	w.armed = true
	return false, false
}

// enqueueLocked puts aw in the deadline queue, at its end unless its
// deadline is earlier than the last one's; it tells whether aw is now the
// first. mu held.
func (w *ackWaiters) enqueueLocked(aw *ackWaiter) (first bool) {
	q := w.byDeadline
	at := len(q)
	for at > w.head && aw.deadline.Before(q[at-1].deadline) {
		at--
	}
	q = append(q, nil)
	copy(q[at+1:], q[at:])
	q[at] = aw
	w.byDeadline = q
	return at == w.head
}

// set makes reached the replicated offset (it may go down, when the
// replicas a put needs change) and releases the puts it covers.
func (w *ackWaiters) set(reached int64) { finishAll(w.setTaking(reached)) }

// setTaking is set that returns the released puts instead of telling
// them, for a caller that holds a lock of its own: it tells them with
// finishAll once that is free (their callbacks write answers).
func (w *ackWaiters) setTaking(reached int64) []*ackWaiter {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.reached = reached
	var released []*ackWaiter
	for len(w.waiting) > 0 && w.waiting[0].offset <= reached {
		aw := heap.Pop(&w.waiting).(*ackWaiter)
		aw.ok = true
		released = append(released, aw)
	}
	w.trimLocked()
	return released
}

// finishAll tells each put its outcome; no lock is held.
func finishAll(released []*ackWaiter) {
	for _, aw := range released {
		aw.finish()
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

// releaseAll releases every waiter, as if everything were replicated (a
// store that stops waiting for slaves).
func (w *ackWaiters) releaseAll() { w.set(math.MaxInt64) }

// close fails every waiter, and every later one at once.
func (w *ackWaiters) close() {
	w.mu.Lock()
	w.closed = true
	failed := w.takeLocked(func(*ackWaiter) bool { return true })
	w.mu.Unlock()
	finishAll(failed)
}

// expire fails the waiters whose deadline has passed and arms the timer
// for the next one; the timer runs it.
func (w *ackWaiters) expire() {
	w.mu.Lock()
	now := time.Now()
	expired := w.takeLocked(func(aw *ackWaiter) bool { return !aw.deadline.After(now) })
	if w.head < len(w.byDeadline) {
		w.timer.Reset(w.byDeadline[w.head].deadline.Sub(now))
	} else {
		w.armed = false
	}
	w.mu.Unlock()
	finishAll(expired)
}

// takeLocked removes the waiting puts from the front of the deadline
// queue while due says so, as not replicated; mu held.
func (w *ackWaiters) takeLocked(due func(*ackWaiter) bool) []*ackWaiter {
	var taken []*ackWaiter
	for ; w.head < len(w.byDeadline); w.head++ {
		aw := w.byDeadline[w.head]
		if aw.index >= 0 {
			if !due(aw) {
				break
			}
			heap.Remove(&w.waiting, aw.index)
			aw.ok = false
			taken = append(taken, aw)
		}
		w.byDeadline[w.head] = nil
	}
	w.compactLocked()
	return taken
}

// trimLocked drops released waiters from the front of the deadline
// queue; mu held.
func (w *ackWaiters) trimLocked() {
	for w.head < len(w.byDeadline) && w.byDeadline[w.head].index < 0 {
		w.byDeadline[w.head] = nil
		w.head++
	}
	w.compactLocked()
}

// compactLocked reuses the deadline queue's array once its front is
// mostly spent; mu held.
func (w *ackWaiters) compactLocked() {
	switch live := len(w.byDeadline) - w.head; {
	case live == 0:
		w.byDeadline, w.head = w.byDeadline[:0], 0
	case w.head >= 1024 && w.head >= live:
		n := copy(w.byDeadline, w.byDeadline[w.head:])
		clear(w.byDeadline[n:])
		w.byDeadline, w.head = w.byDeadline[:n], 0
	}
}

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
