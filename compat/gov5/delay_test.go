package gov5

import (
	"testing"
	"time"

	rmq "github.com/apache/rocketmq-clients/golang/v5"
)

// A message with a delivery timestamp 5 s ahead on a DELAY topic is not
// received before it (the client's clock, 1 s of tolerance: the broker's
// timer rounds down to its second), then is, with that timestamp.
func TestDeliveryTimestampIsNotReceivedBeforeIt(t *testing.T) {
	t.Parallel()
	srv := serversOf(t)
	topic := newTopic(t, srv, "gov5_delay", 2, "DELAY")
	group := newGroup(t, srv, "GID_gov5_delay", false, 16)
	p := newProducer(t, srv, rmq.WithTopics(topic))
	c := newSimpleConsumer(t, srv, group, topic, rmq.SUB_ALL)
	deliverAt := time.Now().Add(5 * time.Second).Truncate(time.Millisecond)
	body := "delayed of " + topic
	m := message(topic, body, "TagD", "delay-1")
	m.SetDelayTimestamp(deliverAt)
	id := send(t, p, m)
	got := receiveUntil(t, c, 30*time.Second, deliveryWait, "the delayed message", func(d delivery) {
		ack(t, c, d)
	}, func(ds []delivery) bool { return len(ds) > 0 })
	if len(got) != 1 || got[0].id() != id {
		t.Fatalf("received %s, want only %s", describe(got), id)
	}
	d := got[0]
	if d.body() != body {
		t.Errorf("body %q", d.body())
	}
	if ts := d.mv.GetDeliveryTimestamp(); ts == nil || !ts.Equal(deliverAt) {
		t.Errorf("delivery timestamp %v, sent %v", ts, deliverAt)
	}
	if early := deliverAt.Sub(d.at); early > time.Second {
		t.Errorf("received %v before its delivery timestamp", early)
	}
	t.Logf("the delayed message came %v after its delivery timestamp", d.at.Sub(deliverAt))
}
