// Filters: a consumer subscribed to "TagA || TagC" gets the messages of those
// tags and no other, and one subscribed with SQL92 "a > 5" gets the messages
// whose user property a is above 5 and no other, while a group subscribed
// to "*" gets them all. Every message goes to a chosen queue and the last
// ones sent, one per queue, match the filter: once the filtered consumer has
// them it has read past every other message of its queues, so "no other"
// does not depend on waiting long enough.
package goclient

import (
	"fmt"
	"strconv"
	"testing"

	rocketmq "github.com/apache/rocketmq-client-go/v2"
	"github.com/apache/rocketmq-client-go/v2/consumer"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/producer"
)

// roundRobin sends messages to a topic's queues in turn (the producer has
// the manual queue selector) and remembers what it sent.
type roundRobin struct {
	t      *testing.T
	p      rocketmq.Producer
	queues []*primitive.MessageQueue
	n      int
	sent   []*primitive.Message
}

func newRoundRobin(a *app, topic string) *roundRobin {
	p := a.producer(unique("gc_filter_p"), producer.WithQueueSelector(producer.NewManualQueueSelector()))
	return &roundRobin{t: a.t, p: p, queues: a.awaitRoute(topic)}
}

func (r *roundRobin) send(m *primitive.Message) {
	r.t.Helper()
	m.Queue = r.queues[r.n%len(r.queues)]
	r.n++
	sendOK(r.t, r.p, m)
	r.sent = append(r.sent, m)
}

// fence sends one message made by mk to each queue, after all the others.
func (r *roundRobin) fence(mk func(queue int) *primitive.Message) []*primitive.Message {
	r.t.Helper()
	var out []*primitive.Message
	for _, q := range r.queues {
		m := mk(q.QueueId)
		m.Queue = q
		sendOK(r.t, r.p, m)
		r.sent = append(r.sent, m)
		out = append(out, m)
	}
	return out
}

func TestTagExpressionDeliversOnlyItsTags(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	topic := a.newTopic("gc_tag", 4)
	got := newReceived()
	a.pushConsumer(unique("gc_tag_ac"), topic, tags("TagA || TagC"), got.concurrently("TagA || TagC"))
	a.pushConsumer(unique("gc_tag_all"), topic, all, got.concurrently("*"))
	rr := newRoundRobin(a, topic)

	var wanted []*primitive.Message
	for i := 0; i < 5; i++ {
		for _, tag := range []string{"TagA", "TagB", "TagC", "TagD", ""} {
			m := message(topic, fmt.Sprintf("tag %q %d of %s", tag, i, topic), tag, "tag-key")
			rr.send(m)
			if tag == "TagA" || tag == "TagC" {
				wanted = append(wanted, m)
			}
		}
	}
	wanted = append(wanted, rr.fence(func(q int) *primitive.Message {
		return message(topic, fmt.Sprintf("tag fence of queue %d of %s", q, topic), "TagC", "fence-key")
	})...)

	got.awaitAll(t, deliveryWait, "*", bodies(rr.sent))
	got.awaitAll(t, deliveryWait, "TagA || TagC", bodies(wanted))
	got.assertOnly(t, "TagA || TagC", bodies(wanted))
	got.assertOnly(t, "*", bodies(rr.sent))
	first := got.first("TagA || TagC")
	for _, m := range wanted {
		assertIntact(t, m, first[string(m.Body)].msg)
	}
}

func TestSQL92SelectorDeliversOnlyMatchingProperties(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	topic := a.newTopic("gc_sql", 4)
	got := newReceived()
	a.pushConsumer(unique("gc_sql_gt5"), topic,
		consumer.MessageSelector{Type: consumer.SQL92, Expression: "a > 5"}, got.concurrently("a > 5"))
	a.pushConsumer(unique("gc_sql_all"), topic, all, got.concurrently("*"))
	rr := newRoundRobin(a, topic)

	var wanted []*primitive.Message
	for round := 0; round < 2; round++ {
		for v := 0; v < 10; v++ {
			m := message(topic, fmt.Sprintf("sql a=%d round %d of %s", v, round, topic), "TagSql")
			m.WithProperty("a", strconv.Itoa(v))
			rr.send(m)
			if v > 5 {
				wanted = append(wanted, m)
			}
		}
		// Without the property: "a > 5" does not match it.
		rr.send(message(topic, fmt.Sprintf("sql without a round %d of %s", round, topic), "TagSql"))
	}
	wanted = append(wanted, rr.fence(func(q int) *primitive.Message {
		m := message(topic, fmt.Sprintf("sql fence of queue %d of %s", q, topic), "TagSql")
		m.WithProperty("a", "100")
		return m
	})...)

	got.awaitAll(t, deliveryWait, "*", bodies(rr.sent))
	got.awaitAll(t, deliveryWait, "a > 5", bodies(wanted))
	got.assertOnly(t, "a > 5", bodies(wanted))
	got.assertOnly(t, "*", bodies(rr.sent))
	first := got.first("a > 5")
	for _, m := range wanted {
		d := first[string(m.Body)]
		assertIntact(t, m, d.msg)
		if d.msg.GetProperty("a") != m.GetProperty("a") {
			t.Errorf("%s: property a %q", m.Body, d.msg.GetProperty("a"))
		}
	}
}
