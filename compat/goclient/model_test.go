// Message models with two instances of one consumer group in one process
// (two Go-client instance names, as two services would be): clustering
// splits the topic's queues between them, so each message reaches the group
// (at least once) and both instances get a share; broadcasting gives every
// message to each instance.
package goclient

import (
	"fmt"
	"testing"

	"github.com/apache/rocketmq-client-go/v2/consumer"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/producer"
)

func TestClusteringSplitsTheMessagesBetweenTwoInstances(t *testing.T) {
	t.Parallel()
	one, two := newApp(t), newApp(t)
	topic := one.newTopic("gc_cluster", 4)
	group := unique("gc_cluster_c")
	got := newReceived()
	one.pushConsumer(group, topic, all, got.concurrently("one"))
	two.pushConsumer(group, topic, all, got.concurrently("two"))
	p := one.producer(unique("gc_cluster_p"), producer.WithQueueSelector(producer.NewManualQueueSelector()))
	queues := one.awaitRoute(topic)

	// Rounds of one message per queue until each instance has got some: the
	// instances rebalance when the second one joins, in the background.
	var sent []*primitive.Message
	for round := 0; ; round++ {
		var roundSent []*primitive.Message
		for _, q := range queues {
			m := message(topic, fmt.Sprintf("cluster round %d queue %d of %s", round, q.QueueId, topic), "TagCluster")
			m.Queue = q
			sendOK(t, p, m)
			roundSent = append(roundSent, m)
		}
		sent = append(sent, roundSent...)
		got.awaitAll(t, deliveryWait, "", bodies(roundSent))
		if len(got.deliveries("one")) > 0 && len(got.deliveries("two")) > 0 {
			break
		}
		if round == 30 {
			t.Fatalf("after %d rounds one instance still got nothing: one %d, two %d deliveries",
				round+1, len(got.deliveries("one")), len(got.deliveries("two")))
		}
	}
	got.assertOnly(t, "", bodies(sent))
	first := got.first("")
	for _, m := range sent {
		assertIntact(t, m, first[string(m.Body)].msg)
	}
	t.Logf("%d messages: instance one got %d, instance two %d (deliveries)", len(sent),
		len(got.deliveries("one")), len(got.deliveries("two")))
}

func TestBroadcastingGivesEveryInstanceEveryMessage(t *testing.T) {
	t.Parallel()
	one, two := newApp(t), newApp(t)
	topic := one.newTopic("gc_bcast", 4)
	group := unique("gc_bcast_c")
	got := newReceived()
	one.pushConsumer(group, topic, all, got.concurrently("one"), consumer.WithConsumerModel(consumer.BroadCasting))
	two.pushConsumer(group, topic, all, got.concurrently("two"), consumer.WithConsumerModel(consumer.BroadCasting))
	p := one.producer(unique("gc_bcast_p"))

	var sent []*primitive.Message
	for i := 0; i < 20; i++ {
		m := message(topic, fmt.Sprintf("broadcast %d of %s", i, topic), "TagBroadcast")
		sendOK(t, p, m)
		sent = append(sent, m)
	}
	for _, who := range []string{"one", "two"} {
		got.awaitAll(t, deliveryWait, who, bodies(sent))
		got.assertOnly(t, who, bodies(sent))
		first := got.first(who)
		for _, m := range sent {
			assertIntact(t, m, first[string(m.Body)].msg)
		}
	}
}
