// Retries to the dead letter queue: a listener that answers
// ConsumeRetryLater (next delay level 1, 1 s) for one message, in a group
// with MaxReconsumeTimes 1, gets it twice (reconsume times 0 and 1), intact;
// then the broker writes it to %DLQ%<group>, where a consumer of another
// group reads it with reconsume times 2 and its first topic in RETRY_TOPIC.
// A message the listener accepts comes once, and another group of the topic
// (the bystander) gets each message once.
package goclient

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/rocketmq-client-go/v2/consumer"
	"github.com/apache/rocketmq-client-go/v2/primitive"
)

func TestRetryLaterEndsInTheDeadLetterQueue(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	topic := a.newTopic("gc_retry", 2)
	group := unique("gc_retry_c")
	got := newReceived()
	const maxReconsume = 1
	a.pushConsumer(group, topic, all,
		func(ctx context.Context, msgs ...*primitive.MessageExt) (consumer.ConsumeResult, error) {
			got.add("retrying", msgs...)
			for _, m := range msgs {
				if strings.HasPrefix(string(m.Body), "doomed") {
					if cc, ok := primitive.GetConcurrentlyCtx(ctx); ok {
						cc.DelayLevelWhenNextConsume = 1
					}
					return consumer.ConsumeRetryLater, nil
				}
			}
			return consumer.ConsumeSuccess, nil
		},
		consumer.WithMaxReconsumeTimes(maxReconsume),
		consumer.WithConsumeMessageBatchMaxSize(1))
	// The broker makes the group's retry topic at the group's first
	// heartbeat (in Start). A consumer's Start also refreshes the routes of
	// every consumer of its client instance and rebalances them, so once the
	// name server routes the retry topic, starting the bystander makes the
	// retrying consumer pull it too (else it would at the client's next
	// route poll, up to 30 s later).
	a.awaitRoute("%RETRY%" + group)
	a.pushConsumer(unique("gc_retry_bystander"), topic, all, got.concurrently("bystander"))
	p := a.producer(unique("gc_retry_p"))

	doomed := message(topic, "doomed of "+topic, "TagRetry", "doomed-key")
	r := sendOK(t, p, doomed)
	fine := message(topic, "fine of "+topic, "TagRetry", "fine-key")
	sendOK(t, p, fine)

	eventually(t, retryWait, "the doomed message is consumed twice", func() error {
		if n := got.counts("retrying")[string(doomed.Body)]; n < maxReconsume+1 {
			return fmt.Errorf("%d deliveries so far", n)
		}
		return nil
	})
	tries := 0
	for _, d := range got.deliveries("retrying") {
		if string(d.msg.Body) != string(doomed.Body) {
			continue
		}
		assertIntact(t, doomed, d.msg)
		if d.msg.ReconsumeTimes != int32(tries) {
			t.Errorf("delivery %d: reconsume times %d, want %d", tries+1, d.msg.ReconsumeTimes, tries)
		}
		if d.msg.MsgId != r.MsgID {
			t.Errorf("delivery %d: msgId %q, the send returned %q", tries+1, d.msg.MsgId, r.MsgID)
		}
		if tries > 0 && d.msg.GetProperty(primitive.PropertyRetryTopic) != topic {
			t.Errorf("delivery %d: RETRY_TOPIC %q, want %q", tries+1, d.msg.GetProperty(primitive.PropertyRetryTopic), topic)
		}
		if from := fmt.Sprint(d.msg.Queue); tries > 0 && (d.msg.Queue == nil || d.msg.Queue.Topic != "%RETRY%"+group) {
			t.Errorf("delivery %d came from queue %s, not from the group's retry topic", tries+1, from)
		}
		tries++
	}

	dlq := "%DLQ%" + group
	a.awaitRoute(dlq)
	dead := newReceived()
	a.pushConsumer(unique("gc_retry_dlq"), dlq, all, dead.concurrently("dlq reader"))
	dead.awaitAll(t, deliveryWait, "dlq reader", []string{string(doomed.Body)})
	dead.assertOnly(t, "dlq reader", []string{string(doomed.Body)})
	d := dead.first("dlq reader")[string(doomed.Body)]
	if string(d.msg.Body) != string(doomed.Body) || d.msg.GetKeys() != doomed.GetKeys() ||
		d.msg.GetTags() != doomed.GetTags() || d.msg.GetProperty("u_body") != doomed.GetProperty("u_body") {
		t.Errorf("dead letter not intact: body %q tags %q keys %q properties %v",
			d.msg.Body, d.msg.GetTags(), d.msg.GetKeys(), d.msg.GetProperties())
	}
	if d.msg.Topic != dlq {
		t.Errorf("dead letter topic %q, want %q", d.msg.Topic, dlq)
	}
	if d.msg.ReconsumeTimes != maxReconsume+1 {
		t.Errorf("dead letter reconsume times %d, want %d", d.msg.ReconsumeTimes, maxReconsume+1)
	}
	if d.msg.GetProperty(primitive.PropertyRetryTopic) != topic {
		t.Errorf("dead letter RETRY_TOPIC %q, want %q", d.msg.GetProperty(primitive.PropertyRetryTopic), topic)
	}
	if d.msg.MsgId != r.MsgID {
		t.Errorf("dead letter msgId %q, the send returned %q", d.msg.MsgId, r.MsgID)
	}

	if n := got.counts("retrying")[string(doomed.Body)]; n != maxReconsume+1 {
		t.Errorf("the doomed message was consumed %d times, want %d", n, maxReconsume+1)
	}
	if n := got.counts("retrying")[string(fine.Body)]; n != 1 {
		t.Errorf("the accepted message was consumed %d times, want 1", n)
	}
	got.awaitAll(t, deliveryWait, "bystander", []string{string(doomed.Body), string(fine.Body)})
	for b, n := range got.counts("bystander") {
		if n != 1 {
			t.Errorf("another group of the topic got %q %d times, want once", b, n)
		}
	}
}
