package gov5

import (
	"reflect"
	"testing"
	"time"

	rmq "github.com/apache/rocketmq-clients/golang/v5"
)

// ChangeInvisibleDuration: a message made invisible for 20 s does not come
// back before those 20 s (1 s of tolerance) and comes back with delivery
// attempt 2; acked with the receipt handle a second change returned, it
// never comes back. "Never" is shown with a sentinel, never with a wait: the
// other message, made invisible 5 s longer after the ack and left, comes
// back (attempt 3) after the acked one would have (one queue).
func TestChangeInvisibleDurationHoldsBackAndAckWithTheNewHandleEndsIt(t *testing.T) {
	t.Parallel()
	srv := serversOf(t)
	topic := newTopic(t, srv, "gov5_invisible", 1, "NORMAL")
	group := newGroup(t, srv, "GID_gov5_invisible", false, 16)
	p := newProducer(t, srv, rmq.WithTopics(topic))
	acked := send(t, p, message(topic, "acked of "+topic, "TagA", "inv-acked"))
	sentinel := send(t, p, message(topic, "sentinel of "+topic, "TagA", "inv-sentinel"))
	c := newSimpleConsumer(t, srv, group, topic, rmq.SUB_ALL)

	change := func(d delivery, to time.Duration) {
		t.Helper()
		before := d.mv.ReceiptHandle
		if err := c.ChangeInvisibleDuration(d.mv, to); err != nil {
			t.Fatalf("change the invisible duration of %q to %v: %v", d.body(), to, err)
		}
		if d.mv.ReceiptHandle == "" || d.mv.ReceiptHandle == before {
			t.Fatalf("the receipt handle of %q after changeInvisibleDuration: %q (before %q)", d.body(), d.mv.ReceiptHandle, before)
		}
	}

	// 1. Received (invisible 10 s), then made invisible for 20 s from now.
	changedAt := map[string]time.Time{}
	receiveUntil(t, c, minInvisible, deliveryWait, "both messages", func(d delivery) {
		if d.attempt() != 1 {
			t.Fatalf("first delivery attempt of %q: %d", d.body(), d.attempt())
		}
		if _, ok := changedAt[d.id()]; ok {
			t.Fatalf("came back before its invisible duration was over: %q", d.body())
		}
		change(d, 20*time.Second)
		changedAt[d.id()] = time.Now()
	}, func([]delivery) bool { return len(changedAt) == 2 })

	// 2. Back with attempt 2, not before the 20 s. The acked one gets 10 s
	// more and is acked with the handle that change returned; the sentinel
	// gets 15 s and is left: it comes back (attempt 3).
	attempts := map[string]int32{}
	back := receiveUntil(t, c, 30*time.Second, retryWait, "both messages back, then the sentinel again", func(d delivery) {
		was, seen := attempts[d.id()]
		attempts[d.id()] = d.attempt()
		switch {
		case d.id() == acked && seen:
			t.Fatalf("the message acked with its new receipt handle came back: %q, attempt %d", d.body(), d.attempt())
		case !seen:
			if d.attempt() != 2 {
				t.Fatalf("delivery attempt of %q back after the change: %d", d.body(), d.attempt())
			}
			if early := changedAt[d.id()].Add(20 * time.Second).Sub(d.at); early > time.Second {
				t.Fatalf("%q came back %v before its 20 s were over", d.body(), early)
			}
			if d.id() == acked {
				change(d, minInvisible)
				ack(t, c, d)
			} else {
				change(d, minInvisible+5*time.Second)
			}
		default:
			if d.id() != sentinel || was != 2 || d.attempt() != 3 {
				t.Fatalf("came again: %q, attempt %d (was %d)", d.body(), d.attempt(), was)
			}
			ack(t, c, d)
		}
	}, func([]delivery) bool { return attempts[sentinel] == 3 })
	if want := map[string]int32{acked: 2, sentinel: 3}; !reflect.DeepEqual(attempts, want) {
		t.Errorf("last delivery attempts %v, want %v: %s", attempts, want, describe(back))
	}
}
