// Push consumers: two groups consuming one topic concurrently each get every
// message once; an orderly consumer gets the messages of each sharding key,
// which a hash queue selector pins to one queue, in the order they were sent,
// one listener per queue at a time.
package goclient

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/apache/rocketmq-client-go/v2/consumer"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/producer"
)

func TestPushConcurrentlyEveryGroupGetsEveryMessage(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	topic := a.newTopic("gc_push", 4)
	got := newReceived()
	a.pushConsumer(unique("gc_push_g1"), topic, all, got.concurrently("g1"),
		consumer.WithConsumeGoroutineNums(8))
	a.pushConsumer(unique("gc_push_g2"), topic, all, got.concurrently("g2"),
		consumer.WithConsumeMessageBatchMaxSize(4))
	p := a.producer(unique("gc_push_p"))

	var sent []*primitive.Message
	for i := 0; i < 40; i++ {
		m := message(topic, fmt.Sprintf("push %d of %s", i, topic), "TagPush", fmt.Sprintf("k%d", i))
		sendOK(t, p, m)
		sent = append(sent, m)
	}
	for _, g := range []string{"g1", "g2"} {
		got.awaitAll(t, deliveryWait, g, bodies(sent))
		got.assertOnly(t, g, bodies(sent))
		first := got.first(g)
		for _, m := range sent {
			assertIntact(t, m, first[string(m.Body)].msg)
		}
	}
}

func TestPushOrderlyKeepsTheOrderOfEachShardingKey(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	topic := a.newTopic("gc_order", 4)
	got := newReceived()
	a.pushConsumer(unique("gc_order_c"), topic, all, got.orderly("orderly"), consumer.WithConsumerOrder(true))
	p := a.producer(unique("gc_order_p"), producer.WithQueueSelector(producer.NewHashQueueSelector()))

	const keys, perKey = 6, 12
	queueOf := map[string]int{} // sharding key -> queue its sends went to
	var sent []*primitive.Message
	for i := 0; i < perKey; i++ {
		for k := 0; k < keys; k++ {
			key := fmt.Sprintf("order-key-%d", k)
			m := message(topic, fmt.Sprintf("%s seq %d of %s", key, i, topic), "TagOrder", key)
			m.WithShardingKey(key)
			m.WithProperty("u_key", key)
			m.WithProperty("u_seq", strconv.Itoa(i))
			r := sendOK(t, p, m)
			if q, ok := queueOf[key]; ok && q != r.MessageQueue.QueueId {
				t.Fatalf("%s: sent to queue %d, earlier ones of its key to %d", m.Body, r.MessageQueue.QueueId, q)
			}
			queueOf[key] = r.MessageQueue.QueueId
			sent = append(sent, m)
		}
	}

	got.awaitAll(t, deliveryWait, "orderly", bodies(sent))
	got.assertOnly(t, "orderly", bodies(sent))
	got.assertNoViolations(t)
	next := map[string]int{} // sharding key -> seq expected next
	for _, d := range got.deliveries("orderly") {
		key, seq := d.msg.GetProperty("u_key"), d.msg.GetProperty("u_seq")
		if d.msg.Queue == nil || d.msg.Queue.QueueId != queueOf[key] {
			t.Errorf("%s arrived from queue %v, its key was sent to %d", d.msg.Body, d.msg.Queue, queueOf[key])
		}
		n, err := strconv.Atoi(seq)
		if err != nil {
			t.Fatalf("%s: u_seq %q", d.msg.Body, seq)
		}
		switch {
		case n == next[key]:
			next[key]++
		case n < next[key]:
			// A redelivery of an earlier message: allowed (at least once).
		default:
			t.Errorf("key %s: seq %d arrived before seq %d", key, n, next[key])
		}
	}
	for k, n := range next {
		if n != perKey {
			t.Errorf("key %s: %d of %d arrived in order", k, n, perKey)
		}
	}
}
