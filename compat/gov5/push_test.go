package gov5

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	rmq "github.com/apache/rocketmq-clients/golang/v5"
)

// A PushConsumer's listener gets every message once, with delivery attempt 1.
func TestPushConsumerGetsEveryMessageOnce(t *testing.T) {
	t.Parallel()
	srv := serversOf(t)
	topic := newTopic(t, srv, "gov5_push", 4, "NORMAL")
	group := newGroup(t, srv, "GID_gov5_push", false, 16)
	got := &pushed{}
	newPushConsumer(t, srv, group, topic, rmq.SUB_ALL, got)
	p := newProducer(t, srv, rmq.WithTopics(topic))
	bodyOf := map[string]string{}
	for i := 0; i < 20; i++ {
		body := fmt.Sprintf("push %d of %s", i, topic)
		bodyOf[send(t, p, message(topic, body, "TagA", fmt.Sprintf("push-%d", i)))] = body
	}
	eventually(t, deliveryWait, "the 20 messages pushed", func() error {
		if n := len(got.ids()); n < len(bodyOf) {
			return fmt.Errorf("%d of %d: %s", n, len(bodyOf), describe(got.all()))
		}
		return nil
	})
	all := got.all()
	if len(all) != 20 {
		t.Fatalf("%d deliveries, want 20: %s", len(all), describe(all))
	}
	for _, d := range all {
		if bodyOf[d.id()] != d.body() {
			t.Errorf("delivered %s %q, sent under that id: %q", d.id(), d.body(), bodyOf[d.id()])
		}
		if d.attempt() != 1 {
			t.Errorf("delivery attempt of %q: %d", d.body(), d.attempt())
		}
		if d.mv.GetTopic() != topic {
			t.Errorf("topic of %q: %s", d.body(), d.mv.GetTopic())
		}
	}
}

// A message the listener fails (FAILURE) comes back with delivery attempt
// 2; the others come once.
func TestPushConsumerFailureComesBackWithAttemptTwo(t *testing.T) {
	t.Parallel()
	srv := serversOf(t)
	topic := newTopic(t, srv, "gov5_pushfail", 2, "NORMAL")
	group := newGroup(t, srv, "GID_gov5_pushfail", false, 16)
	got := &pushed{answer: func(mv *rmq.MessageView) rmq.ConsumerResult {
		if slices.Contains(mv.GetKeys(), "fail") && mv.GetDeliveryAttempt() == 1 {
			return rmq.FAILURE
		}
		return rmq.SUCCESS
	}}
	newPushConsumer(t, srv, group, topic, rmq.SUB_ALL, got)
	p := newProducer(t, srv, rmq.WithTopics(topic))
	failing := map[string]string{}
	fine := map[string]string{}
	for i := 0; i < 4; i++ {
		if i%2 == 0 {
			body := fmt.Sprintf("failed once %d of %s", i, topic)
			failing[send(t, p, message(topic, body, "TagA", "fail", fmt.Sprintf("n%d", i)))] = body
		} else {
			body := fmt.Sprintf("fine %d of %s", i, topic)
			fine[send(t, p, message(topic, body, "TagA", "fine", fmt.Sprintf("n%d", i)))] = body
		}
	}
	eventually(t, retryWait, "each failed message delivered again and the rest once", func() error {
		for id, body := range failing {
			if n := len(got.of(id)); n != 2 {
				return fmt.Errorf("%d deliveries of %q: %s", n, body, describe(got.all()))
			}
		}
		for id, body := range fine {
			if n := len(got.of(id)); n != 1 {
				return fmt.Errorf("%d deliveries of %q: %s", n, body, describe(got.all()))
			}
		}
		return nil
	})
	for id, body := range failing {
		var attempts []int32
		for _, d := range got.of(id) {
			attempts = append(attempts, d.attempt())
			if d.body() != body || len(d.mv.GetKeys()) != 2 || !slices.Contains(d.mv.GetKeys(), "fail") {
				t.Errorf("a delivery of %q: body %q, keys %v", body, d.body(), d.mv.GetKeys())
			}
		}
		if !reflect.DeepEqual(attempts, []int32{1, 2}) {
			t.Errorf("delivery attempts of %q: %v", body, attempts)
		}
	}
	for id, body := range fine {
		if a := got.of(id)[0].attempt(); a != 1 {
			t.Errorf("delivery attempt of %q: %d", body, a)
		}
	}
	if all := got.all(); len(all) != 6 {
		t.Errorf("%d deliveries, want 6: %s", len(all), describe(all))
	}
}
