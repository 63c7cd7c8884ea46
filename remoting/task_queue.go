package remoting

import "sync"

// taskQueue is a pool's FIFO of waiting requests, bounded like Java's
// LinkedBlockingQueue(capacity): it holds at most max requests but only
// takes memory for those that wait. (A channel of that capacity would
// allocate every slot up front, megabytes the garbage collector scans on
// every cycle for queues that are nearly always empty.)
type taskQueue struct {
	mu       sync.Mutex
	nonEmpty sync.Cond
	ring     []*routedRequest // len is a power of two, or zero
	head     int              // index of the oldest request
	n        int              // requests queued
	max      int
	closed   bool
}

func newTaskQueue(max int) *taskQueue {
	q := &taskQueue{max: max}
	q.nonEmpty.L = &q.mu
	return q
}

// push queues t; it returns false when the queue is full or closed.
func (q *taskQueue) push(t *routedRequest) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed || q.n >= q.max {
		return false
	}
	if q.n == len(q.ring) {
		q.grow()
	}
	q.ring[(q.head+q.n)&(len(q.ring)-1)] = t
	q.n++
	q.nonEmpty.Signal()
	return true
}

// grow doubles the ring, keeping the order.
func (q *taskQueue) grow() {
	ring := make([]*routedRequest, max(16, 2*len(q.ring)))
	for i := 0; i < q.n; i++ {
		ring[i] = q.ring[(q.head+i)&(len(q.ring)-1)]
	}
	q.ring, q.head = ring, 0
}

// pop waits for the oldest request; it returns false once the queue is
// closed and empty.
func (q *taskQueue) pop() (*routedRequest, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.n == 0 {
		if q.closed {
			return nil, false
		}
		q.nonEmpty.Wait()
	}
	t := q.ring[q.head]
	q.ring[q.head] = nil
	q.head = (q.head + 1) & (len(q.ring) - 1)
	q.n--
	if q.n == 0 && len(q.ring) > 1024 {
		q.ring, q.head = nil, 0 // a burst is over: give its memory back
	}
	return t, true
}

// len is how many requests wait.
func (q *taskQueue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.n
}

// close lets the workers finish what is queued, then stop.
func (q *taskQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.nonEmpty.Broadcast()
}
