package broker

// Long polling (PullRequestHoldService): a pull that found nothing waits
// here, keyed by topic@queueId, until the dispatcher reports a message on
// its queue that its subscription wants, or until its time is up; either
// way the pull is run again and answered (PULL_NOT_FOUND when still
// nothing). The timers are checked every second, and an arrival wakes the
// matching pulls at once.

import (
	"sync"
	"time"

	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// holdCheckInterval is how often parked pulls are checked for timeouts.
const holdCheckInterval = time.Second

// parkedPull is PullRequest: a pull waiting for a message.
type parkedPull struct {
	req      *remoting.Request
	from     int64 // queue offset the pull asked for
	filter   store.TagFilter
	deadline time.Time
}

type queueKey struct {
	topic   string
	queueID int32
}

// pullHolds is the hold table.
type pullHolds struct {
	now    func() time.Time
	bounds queueBounds
	// rerun serves a woken pull again; it is resubmitted to the pool
	// that served it, so woken pulls are bounded and answered as any
	// other request.
	rerun remoting.Handler

	mu     sync.Mutex
	parked map[queueKey][]*parkedPull
	closed bool
}

func newPullHolds(now func() time.Time, bounds queueBounds) *pullHolds {
	return &pullHolds{now: now, bounds: bounds, parked: map[queueKey][]*parkedPull{}}
}

// park holds a pull for at most wait.
func (p *pullHolds) park(req *remoting.Request, h *pullHeader, sub subscriptionData, wait time.Duration) {
	pp := &parkedPull{req: req, from: h.queueOffset, filter: tagFilter(sub), deadline: p.now().Add(wait)}
	key := queueKey{h.topic, h.queueID}
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.parked[key] = append(p.parked[key], pp)
	p.mu.Unlock()
	// A message may have landed between the read and the park.
	if p.bounds.MaxOffset(h.topic, h.queueID) > h.queueOffset {
		p.release(key, func(x *parkedPull) bool { return x == pp })
	}
}

// onArrival is the store's arrival listener (the dispatcher's goroutine):
// it wakes the pulls on the queue that want the message.
func (p *pullHolds) onArrival(a store.Arrival) {
	key := queueKey{a.Topic, a.QueueID}
	p.release(key, func(x *parkedPull) bool {
		return a.NextOffset > x.from && (x.filter == nil || x.filter(a.TagsCode))
	})
}

// release takes the pulls of a queue that match out of the table and
// queues them for re-execution.
func (p *pullHolds) release(key queueKey, match func(*parkedPull) bool) {
	p.mu.Lock()
	list := p.parked[key]
	if len(list) == 0 {
		p.mu.Unlock()
		return
	}
	var keep, run []*parkedPull
	for _, x := range list {
		if match(x) {
			run = append(run, x)
		} else {
			keep = append(keep, x)
		}
	}
	if len(keep) == 0 {
		delete(p.parked, key)
	} else {
		p.parked[key] = keep
	}
	p.mu.Unlock()
	for _, x := range run {
		if !x.req.Ch.Closed() {
			// queued without blocking the dispatcher that woke it
			x.req.Resubmit(p.rerun)
		}
	}
}

// loop expires the pulls whose time is up.
func (p *pullHolds) loop(stop <-chan struct{}) {
	runEvery(stop, holdCheckInterval, func() { p.expire(p.now()) })
}

// expire re-runs every pull past its deadline.
func (p *pullHolds) expire(now time.Time) {
	p.mu.Lock()
	keys := make([]queueKey, 0, len(p.parked))
	for k := range p.parked {
		keys = append(keys, k)
	}
	p.mu.Unlock()
	for _, k := range keys {
		p.release(k, func(x *parkedPull) bool { return !now.Before(x.deadline) || x.req.Ch.Closed() })
	}
}

// closeAll drops every parked pull at shutdown (the connections close).
func (p *pullHolds) closeAll() {
	p.mu.Lock()
	p.closed = true
	p.parked = map[queueKey][]*parkedPull{}
	p.mu.Unlock()
}

// count is the number of parked pulls.
func (p *pullHolds) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, l := range p.parked {
		n += len(l)
	}
	return n
}
