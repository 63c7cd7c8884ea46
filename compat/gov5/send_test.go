package gov5

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"testing"
	"time"

	rmq "github.com/apache/rocketmq-clients/golang/v5"
)

// Sync and async sends with keys, tags and a user property reach a
// SimpleConsumer once each, intact and under the ids their send receipts
// gave; after the acks none comes back. "None comes back" is shown with a
// sentinel, never with a wait: received after every ack and left un-acked
// with the same invisible duration, it comes back (attempt 2) after an
// acked message would have.
func TestNormalSendsReachASimpleConsumerOnce(t *testing.T) {
	t.Parallel()
	srv := serversOf(t)
	topic := newTopic(t, srv, "gov5_send", 4, "NORMAL")
	group := newGroup(t, srv, "GID_gov5_send", false, 16)
	p := newProducer(t, srv, rmq.WithTopics(topic))

	sent := map[string]*rmq.Message{} // by body
	idOf := map[string]string{}       // body -> message id of its receipt
	numbered := func(how string, i int) *rmq.Message {
		tag := "TagA"
		if i%2 == 1 {
			tag = "TagB"
		}
		m := message(topic, fmt.Sprintf("%s %d of %s", how, i, topic), tag, "key-"+strconv.Itoa(i), "k2-"+strconv.Itoa(i))
		m.AddProperty("seq", strconv.Itoa(i))
		sent[string(m.Body)] = m
		return m
	}
	for i := 0; i < 10; i++ {
		m := numbered("sync", i)
		idOf[string(m.Body)] = send(t, p, m)
	}
	type result struct {
		body string
		r    []*rmq.SendReceipt
		err  error
	}
	results := make(chan result, 10)
	for i := 10; i < 20; i++ {
		m := numbered("async", i)
		body := string(m.Body)
		p.SendAsync(context.Background(), m, func(_ context.Context, r []*rmq.SendReceipt, err error) {
			results <- result{body, r, err}
		})
	}
	for i := 0; i < 10; i++ {
		select {
		case res := <-results:
			if res.err != nil || len(res.r) != 1 {
				t.Fatalf("async send %q: %v %v", res.body, res.r, res.err)
			}
			idOf[res.body] = res.r[0].MessageID
		case <-time.After(deliveryWait):
			t.Fatalf("async sends: %d of 10 callbacks after %v", i, deliveryWait)
		}
	}
	ids := map[string]bool{}
	for _, id := range idOf {
		ids[id] = true
	}
	if len(ids) != 20 {
		t.Fatalf("distinct message ids: %d of 20: %v", len(ids), idOf)
	}

	c := newSimpleConsumer(t, srv, group, topic, rmq.SUB_ALL)
	seen := map[string]bool{}
	got := receiveUntil(t, c, minInvisible, deliveryWait, "the 20 messages", func(d delivery) {
		if seen[d.id()] {
			t.Fatalf("received twice: %s %q", d.id(), d.body())
		}
		seen[d.id()] = true
		ack(t, c, d)
	}, func(ds []delivery) bool { return len(ds) >= 20 })
	for _, d := range got {
		m := sent[d.body()]
		if m == nil {
			t.Fatalf("received what was not sent: %q", d.body())
		}
		mv := d.mv
		if d.id() != idOf[d.body()] {
			t.Errorf("message id of %q: %s, its send receipt said %s", d.body(), d.id(), idOf[d.body()])
		}
		if mv.GetTopic() != topic {
			t.Errorf("topic of %q: %s", d.body(), mv.GetTopic())
		}
		if str(mv.GetTag()) != str(m.GetTag()) {
			t.Errorf("tag of %q: %s, sent %s", d.body(), str(mv.GetTag()), str(m.GetTag()))
		}
		if !reflect.DeepEqual(sorted(mv.GetKeys()), sorted(m.GetKeys())) {
			t.Errorf("keys of %q: %v, sent %v", d.body(), mv.GetKeys(), m.GetKeys())
		}
		if !reflect.DeepEqual(mv.GetProperties(), m.GetProperties()) {
			t.Errorf("user properties of %q: %v, sent %v", d.body(), mv.GetProperties(), m.GetProperties())
		}
		if d.attempt() != 1 {
			t.Errorf("delivery attempt of %q: %d", d.body(), d.attempt())
		}
		if mv.GetMessageGroup() != nil {
			t.Errorf("message group of %q: %s", d.body(), *mv.GetMessageGroup())
		}
		if mv.GetDeliveryTimestamp() != nil {
			t.Errorf("delivery timestamp of %q: %v", d.body(), *mv.GetDeliveryTimestamp())
		}
		if bt := mv.GetBornTimestamp(); bt == nil || bt.After(d.at) {
			t.Errorf("born timestamp of %q: %v, received at %v", d.body(), bt, d.at)
		}
		if str(mv.GetBornHost()) == "" {
			t.Errorf("no born host in %q", d.body())
		}
	}

	// The sentinel.
	sentinel := send(t, p, message(topic, "sentinel of "+topic, "TagS", "sentinel"))
	var attempts []int32
	receiveUntil(t, c, minInvisible, retryWait, "the un-acked sentinel back", func(d delivery) {
		if d.id() != sentinel {
			t.Fatalf("an acked message came back: %s %q, attempt %d", d.id(), d.body(), d.attempt())
		}
		attempts = append(attempts, d.attempt())
		if d.attempt() >= 2 {
			ack(t, c, d)
		}
	}, func([]delivery) bool { return len(attempts) >= 2 })
	if !reflect.DeepEqual(attempts, []int32{1, 2}) {
		t.Errorf("delivery attempts of the sentinel: %v", attempts)
	}
}
