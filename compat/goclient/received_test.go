// What consumers got, in the order their listeners saw it, and the checks
// the tests make on it: every message arrived, nothing else did, and each
// arrived as it was sent.
package goclient

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/apache/rocketmq-client-go/v2/consumer"
	"github.com/apache/rocketmq-client-go/v2/primitive"
)

// delivery is one message handed to one consumer's listener (a redelivered
// message is a second delivery).
type delivery struct {
	who string
	msg *primitive.MessageExt
	at  time.Time
}

// received records deliveries; messages are told apart by their body, which
// the tests make unique.
type received struct {
	mu         sync.Mutex
	list       []delivery
	violations []string
	inside     map[int]int // orderly listeners running, by queue id
}

func newReceived() *received {
	return &received{inside: map[int]int{}}
}

func (r *received) add(who string, msgs ...*primitive.MessageExt) {
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, m := range msgs {
		r.list = append(r.list, delivery{who: who, msg: m, at: now})
	}
}

// violation notes something a listener saw that must not happen.
func (r *received) violation(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.violations = append(r.violations, fmt.Sprintf(format, args...))
}

func (r *received) assertNoViolations(t *testing.T) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.violations) > 0 {
		t.Fatalf("listeners saw: %v", r.violations)
	}
}

// deliveries returns the deliveries to who ("" for every consumer).
func (r *received) deliveries(who string) []delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []delivery
	for _, d := range r.list {
		if who == "" || d.who == who {
			out = append(out, d)
		}
	}
	return out
}

// counts returns how many times who ("" for anyone) got each body.
func (r *received) counts(who string) map[string]int {
	c := map[string]int{}
	for _, d := range r.deliveries(who) {
		c[string(d.msg.Body)]++
	}
	return c
}

// first returns who's first delivery of each body.
func (r *received) first(who string) map[string]delivery {
	f := map[string]delivery{}
	for _, d := range r.deliveries(who) {
		if _, ok := f[string(d.msg.Body)]; !ok {
			f[string(d.msg.Body)] = d
		}
	}
	return f
}

// awaitAll waits until who ("" for anyone) has got every body of want.
func (r *received) awaitAll(t *testing.T, timeout time.Duration, who string, want []string) {
	t.Helper()
	name := who
	if name == "" {
		name = "the consumers"
	}
	eventually(t, timeout, fmt.Sprintf("%s received all %d messages", name, len(want)), func() error {
		return missingOf(r.counts(who), want)
	})
}

// assertOnly fails the test when who ("" for anyone) got a body outside allowed.
func (r *received) assertOnly(t *testing.T, who string, allowed []string) {
	t.Helper()
	ok := map[string]bool{}
	for _, b := range allowed {
		ok[b] = true
	}
	var extra []string
	for b := range r.counts(who) {
		if !ok[b] {
			extra = append(extra, b)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		t.Fatalf("%s got %d messages it must not get, e.g. %v", who, len(extra), head(extra, 5))
	}
}

// missingOf is nil when got holds every body of want, or an error naming
// the missing ones.
func missingOf(got map[string]int, want []string) error {
	var missing []string
	for _, b := range want {
		if got[b] == 0 {
			missing = append(missing, b)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return fmt.Errorf("%d missing, e.g. %v", len(missing), head(missing, 5))
	}
	return nil
}

func head(s []string, n int) []string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// concurrently is a push listener that records every delivery to who and
// acknowledges it.
func (r *received) concurrently(who string) listener {
	return func(_ context.Context, msgs ...*primitive.MessageExt) (consumer.ConsumeResult, error) {
		r.add(who, msgs...)
		return consumer.ConsumeSuccess, nil
	}
}

// orderly is a push listener for an orderly consumer: it records every
// delivery and notes a violation when two listeners run for one queue at
// once (across every consumer sharing r).
func (r *received) orderly(who string) listener {
	return func(ctx context.Context, msgs ...*primitive.MessageExt) (consumer.ConsumeResult, error) {
		oc, ok := primitive.GetOrderlyCtx(ctx)
		if !ok {
			r.violation("%s: an orderly listener was called without an orderly context", who)
			r.add(who, msgs...)
			return consumer.ConsumeSuccess, nil
		}
		q := oc.MQ.QueueId
		r.mu.Lock()
		r.inside[q]++
		if r.inside[q] > 1 {
			r.violations = append(r.violations, fmt.Sprintf("%s: two listeners consume queue %d at once", who, q))
		}
		r.mu.Unlock()
		r.add(who, msgs...)
		r.mu.Lock()
		r.inside[q]--
		r.mu.Unlock()
		return consumer.ConsumeSuccess, nil
	}
}

// assertIntact checks that got carries what sent carried: topic, body,
// tags, keys and user property u_body.
func assertIntact(t *testing.T, sent *primitive.Message, got *primitive.MessageExt) {
	t.Helper()
	what := string(sent.Body)
	if got.Topic != sent.Topic {
		t.Errorf("%s: topic %q, want %q", what, got.Topic, sent.Topic)
	}
	if string(got.Body) != string(sent.Body) {
		t.Errorf("%s: body %q", what, got.Body)
	}
	if got.GetTags() != sent.GetTags() {
		t.Errorf("%s: tags %q, want %q", what, got.GetTags(), sent.GetTags())
	}
	if got.GetKeys() != sent.GetKeys() {
		t.Errorf("%s: keys %q, want %q", what, got.GetKeys(), sent.GetKeys())
	}
	if got.GetProperty("u_body") != sent.GetProperty("u_body") {
		t.Errorf("%s: user property u_body %q, want %q (properties %v)", what, got.GetProperty("u_body"),
			sent.GetProperty("u_body"), got.GetProperties())
	}
}

// bodies lists the bodies of msgs.
func bodies(msgs []*primitive.Message) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = string(m.Body)
	}
	return out
}
