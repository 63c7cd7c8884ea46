// The Go client's pull consumer: Poll hands over what its background pulls
// fetched, ACK commits it, and every message arrives intact; PullFrom reads
// a queue from an offset on demand and finds the same messages at the
// offsets the sends returned.
package goclient

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/apache/rocketmq-client-go/v2/consumer"
	"github.com/apache/rocketmq-client-go/v2/primitive"
)

func TestLitePullPollAckAndPullFrom(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	topic := a.newTopic("gc_pull", 2)
	c := a.pullConsumer(unique("gc_pull_c"), topic, all)
	p := a.producer(unique("gc_pull_p"))

	var sent []*primitive.Message
	at := map[string]*primitive.SendResult{}
	for i := 0; i < 16; i++ {
		m := message(topic, fmt.Sprintf("pull %d of %s", i, topic), "TagPull", fmt.Sprintf("pull-%d", i))
		at[string(m.Body)] = sendOK(t, p, m)
		sent = append(sent, m)
	}

	got := newReceived()
	eventually(t, deliveryWait, "Poll returned every message", func() error {
		cr, err := c.Poll(context.Background(), time.Second)
		if err == nil {
			got.add("poll", cr.GetMsgList()...)
			c.ACK(context.Background(), cr, consumer.ConsumeSuccess)
		} else if !consumer.IsNoNewMsgError(err) {
			return fmt.Errorf("Poll: %w", err)
		}
		return missingOf(got.counts("poll"), bodies(sent))
	})
	got.assertOnly(t, "poll", bodies(sent))
	first := got.first("poll")
	for _, m := range sent {
		assertIntact(t, m, first[string(m.Body)].msg)
	}

	// PullFrom each queue from offset 0: the messages sent to it, each at
	// the offset its send returned.
	pulled := newReceived()
	for _, q := range a.awaitRoute(topic) {
		r, err := c.PullFrom(context.Background(), q, 0, 32)
		if err != nil {
			t.Fatalf("PullFrom %s: %v", q, err)
		}
		msgs := r.GetMessageExts()
		if len(msgs) == 0 && len(r.GetBody()) > 0 {
			msgs = primitive.DecodeMessage(r.GetBody())
		}
		pulled.add("pullFrom", msgs...)
		for _, m := range msgs {
			s := at[string(m.Body)]
			if s == nil {
				continue
			}
			if s.MessageQueue.QueueId != q.QueueId || s.QueueOffset != m.QueueOffset {
				t.Errorf("%s: pulled from queue %d offset %d, sent to queue %d offset %d",
					m.Body, q.QueueId, m.QueueOffset, s.MessageQueue.QueueId, s.QueueOffset)
			}
		}
	}
	if err := missingOf(pulled.counts("pullFrom"), bodies(sent)); err != nil {
		t.Fatalf("PullFrom: %v", err)
	}
	pulled.assertOnly(t, "pullFrom", bodies(sent))
}
