package broker

// POP long polling (PopLongPollingService, docs/reference/pop.md §5.8): a
// pop that found nothing is held, keyed topic@group@queueId (-1 for a pop
// of every queue), in the order its poll time ends, and served again from
// the start when woken:
//
//   - by a message arriving in the topic (a V2 retry topic counts as its
//     topic; a V1 one wakes nobody, its messages are found by the next
//     pop): for every group that polled the topic, the first request of
//     key topic@group@-1 and the first of topic@group@queueId, if its
//     filter takes the message (every popLongPollingForceNotifyInterval-th
//     offset wakes it whatever its filter);
//   - by a pop that found messages and left some behind (restNum > 0);
//   - when its poll time is up (checked every 20 ms), answering
//     POLLING_TIMEOUT when still nothing.
//
// At most popPollingSize requests wait on a key and maxPopPollingSize in
// all: beyond, POLLING_FULL. A message that arrives while a pop reads the
// queues wakes it as soon as it is held (Java would hold it until the
// next message or its time).

import (
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// popPollCheck is how often held pops are checked for their time.
const popPollCheck = 20 * time.Millisecond

// pollResult is PollingResult.
type pollResult int

const (
	pollNot pollResult = iota // not held: POLLING_TIMEOUT
	pollHeld
	pollFull
)

// heldPop is PopRequest: a pop waiting for a message.
type heldPop struct {
	req     *remoting.Request
	expired int64 // bornTime + pollTime
	tags    store.TagFilter
	props   store.PropertyFilter
}

// timedOut is PopRequest.isTimeout.
func (p *heldPop) timedOut(now int64) bool { return now > p.expired-50 }

// wants tells whether the pop's filter takes an arriving message.
func (p *heldPop) wants(a store.Arrival) bool {
	if p.tags != nil && !p.tags(a.TagsCode) {
		return false
	}
	return p.props == nil || a.Properties == nil || p.props(a.Properties)
}

// pollSpec is what a held request waits for.
type pollSpec struct {
	topic, group string
	queueID      int32
	bornTime     int64
	pollTime     int64
	tags         store.TagFilter
	props        store.PropertyFilter
}

// popPolling holds the pops (and, a second one, the NOTIFICATION
// requests, woken latest first).
type popPolling struct {
	now      func() time.Time
	settings *liveSettings
	// wakeLast wakes the request whose time ends last first
	// (NOTIFICATION's service), else the first.
	wakeLast bool
	// rerun serves a woken pop again, on the pool that served it.
	rerun remoting.Handler

	mu     sync.Mutex
	held   map[string][]*heldPop          // by key, in the order their time ends
	groups map[string]map[string]struct{} // topic -> the groups that popped it
	seqs   map[string]uint64              // topic -> messages arrived
	total  int
	closed bool
}

func newPopPolling(now func() time.Time, set *liveSettings) *popPolling {
	return &popPolling{now: now, settings: set, held: map[string][]*heldPop{},
		groups: map[string]map[string]struct{}{}, seqs: map[string]uint64{}}
}

// pollKey is topic@group@queueId.
func pollKey(topic, group string, queueID int32) string { return popLockKey(topic, group, queueID) }

// arrivals registers a group popping topic and tells how many messages
// arrived in it so far: hold compares, to wake at once a pop a message
// raced.
func (p *popPolling) arrivals(topic, group string) uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	g := p.groups[topic]
	if g == nil {
		g = map[string]struct{}{}
		p.groups[topic] = g
	}
	g[group] = struct{}{}
	return p.seqs[topic]
}

// hold decides whether a request that found nothing waits (polling).
func (p *popPolling) hold(req *remoting.Request, spec pollSpec, seq uint64, now int64) pollResult {
	if spec.pollTime <= 0 {
		return pollNot
	}
	c := p.settings.load().Broker
	hp := &heldPop{req: req, expired: spec.bornTime + spec.pollTime, tags: spec.tags, props: spec.props}
	key := pollKey(spec.topic, spec.group, spec.queueID)
	p.mu.Lock()
	switch {
	case p.closed:
		p.mu.Unlock()
		return pollNot
	case p.total >= int(c.MaxPopPollingSize):
		p.mu.Unlock()
		return pollFull
	case hp.timedOut(now):
		p.mu.Unlock()
		return pollNot
	case len(p.held[key]) > int(c.PopPollingSize):
		p.mu.Unlock()
		return pollFull
	}
	list := p.held[key]
	i, _ := slices.BinarySearchFunc(list, hp.expired, func(x *heldPop, t int64) int {
		if x.expired <= t {
			return -1 // after those ending no later: arrival order
		}
		return 1
	})
	p.held[key] = slices.Insert(list, i, hp)
	p.total++
	raced := p.seqs[spec.topic] != seq
	var woken *heldPop
	if raced {
		woken = p.takeLocked(key, hp)
	}
	p.mu.Unlock()
	p.wake(woken)
	return pollHeld
}

// onArrival is the store's arrival listener (the dispatcher's goroutine).
func (p *popPolling) onArrival(a store.Arrival) {
	topic := a.Topic
	if strings.HasPrefix(topic, protocol.RetryGroupTopicPrefix) && strings.Contains(topic, "+") {
		topic = topic[strings.IndexByte(topic, '+')+1:] // a V2 retry topic wakes its topic's pops
	}
	p.mu.Lock()
	groups := p.groups[topic]
	if groups == nil {
		p.mu.Unlock()
		return
	}
	p.seqs[topic]++
	interval := p.settings.load().Broker.PopLongPollingForceNotifyInterval
	force := interval > 0 && (a.NextOffset-1)%interval == 0
	var woken []*heldPop
	for g := range groups {
		if a.QueueID >= 0 {
			woken = append(woken, p.firstWanting(pollKey(topic, g, -1), a, force))
		}
		woken = append(woken, p.firstWanting(pollKey(topic, g, a.QueueID), a, force))
	}
	p.mu.Unlock()
	for _, hp := range woken {
		p.wake(hp)
	}
}

// firstWanting takes the next request of key to wake if it wants the
// message (or force); nil when none.
func (p *popPolling) firstWanting(key string, a store.Arrival, force bool) *heldPop {
	hp := p.nextLocked(key)
	if hp == nil || !force && !hp.wants(a) {
		return nil
	}
	return p.takeLocked(key, hp)
}

// nextLocked is the request of key to wake next: the first, or the last
// with wakeLast.
func (p *popPolling) nextLocked(key string) *heldPop {
	list := p.held[key]
	switch {
	case len(list) == 0:
		return nil
	case p.wakeLast:
		return list[len(list)-1]
	}
	return list[0]
}

// heldOn is how many requests wait on a key (POLLING_INFO).
func (p *popPolling) heldOn(topic, group string, queueID int32) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.held[pollKey(topic, group, queueID)])
}

// wakeOne wakes the first pop of a key whatever its filter (a pop that
// left messages behind).
func (p *popPolling) wakeOne(topic, group string, queueID int32) {
	key := pollKey(topic, group, queueID)
	p.mu.Lock()
	var hp *heldPop
	if next := p.nextLocked(key); next != nil {
		hp = p.takeLocked(key, next)
	}
	p.mu.Unlock()
	p.wake(hp)
}

// takeLocked removes hp from its key.
func (p *popPolling) takeLocked(key string, hp *heldPop) *heldPop {
	list := p.held[key]
	i := slices.Index(list, hp)
	if i < 0 {
		return nil
	}
	list = slices.Delete(list, i, i+1)
	if len(list) == 0 {
		delete(p.held, key)
	} else {
		p.held[key] = list
	}
	p.total--
	return hp
}

// wake serves a taken pop again.
func (p *popPolling) wake(hp *heldPop) {
	if hp != nil && !hp.req.Ch.Closed() {
		hp.req.Resubmit(p.rerun)
	}
}

// loop wakes the pops whose time is up.
func (p *popPolling) loop(stop <-chan struct{}) {
	runEvery(stop, popPollCheck, func() { p.expire(p.now().UnixMilli()) })
}

// expire takes every pop whose time is up (or whose client went) and
// serves it again.
func (p *popPolling) expire(now int64) {
	var woken []*heldPop
	p.mu.Lock()
	for key, list := range p.held {
		var kept []*heldPop
		for _, hp := range list {
			switch {
			case hp.timedOut(now):
				woken = append(woken, hp)
			case !hp.req.Ch.Closed():
				kept = append(kept, hp)
			}
		}
		p.total -= len(list) - len(kept)
		if len(kept) == 0 {
			delete(p.held, key)
		} else {
			p.held[key] = kept
		}
	}
	p.mu.Unlock()
	for _, hp := range woken {
		p.wake(hp)
	}
}

// closeAll drops every held pop at shutdown (the connections close).
func (p *popPolling) closeAll() {
	p.mu.Lock()
	p.closed = true
	p.held = map[string][]*heldPop{}
	p.total = 0
	p.mu.Unlock()
}

// count is the number of held pops.
func (p *popPolling) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.total
}
