// Sends of every kind the Go client has (SendSync, SendAsync, SendOneWay and
// a batch through SendSync) reach a push consumer, each message as sent:
// body, tag, keys, user properties, and the msgId the send returned (each
// message its own).
package goclient

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/apache/rocketmq-client-go/v2/primitive"
)

func TestSendSyncAsyncOnewayAndBatchArriveIntact(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	topic := a.newTopic("gc_send", 4)
	got := newReceived()
	a.pushConsumer(unique("gc_send_c"), topic, all, got.concurrently("consumer"))
	p := a.producer(unique("gc_send_p"))

	var sent []*primitive.Message
	msgIDs := map[string]string{} // body -> msgId the send returned
	mk := func(kind string, i int) *primitive.Message {
		body := fmt.Sprintf("%s %d of %s", kind, i, topic)
		m := message(topic, body, "Tag"+kind, kind+"-key", fmt.Sprintf("%s-%d", kind, i))
		m.WithProperty("u_kind", kind)
		sent = append(sent, m)
		return m
	}

	for i := 0; i < 5; i++ {
		m := mk("sync", i)
		r := sendOK(t, p, m)
		msgIDs[string(m.Body)] = r.MsgID
	}

	var wg sync.WaitGroup
	var mu sync.Mutex
	var asyncErrs []error
	var busy []*primitive.Message // refused as busy: sent again below
	for i := 0; i < 5; i++ {
		m := mk("async", i)
		wg.Add(1)
		err := p.SendAsync(context.Background(), func(_ context.Context, r *primitive.SendResult, err error) {
			defer wg.Done()
			mu.Lock()
			defer mu.Unlock()
			switch {
			case isBusy(err):
				busy = append(busy, m)
			case err != nil:
				asyncErrs = append(asyncErrs, err)
			case r.Status != primitive.SendOK:
				asyncErrs = append(asyncErrs, fmt.Errorf("status %d: %s", r.Status, r))
			default:
				msgIDs[string(m.Body)] = r.MsgID
			}
		}, m)
		if err != nil {
			wg.Done()
			t.Fatalf("SendAsync: %v", err)
		}
	}
	wg.Wait()
	if len(asyncErrs) > 0 {
		t.Fatalf("async sends failed: %v", asyncErrs)
	}
	for _, m := range busy {
		t.Logf("%s: the broker was busy; sending it again (sync)", m.Body)
		msgIDs[string(m.Body)] = sendOK(t, p, m).MsgID
	}

	for i := 0; i < 5; i++ {
		if err := p.SendOneWay(context.Background(), mk("oneway", i)); err != nil {
			t.Fatalf("SendOneWay: %v", err)
		}
	}

	var batch []*primitive.Message
	for i := 0; i < 5; i++ {
		batch = append(batch, mk("batch", i))
	}
	// A batch send returns one result for the batch (its MsgID is that of
	// the batch, not of its messages), so only its status is checked here.
	sendOK(t, p, batch...)

	got.awaitAll(t, deliveryWait, "consumer", bodies(sent))
	ids := map[string]string{} // msgId -> body that had it
	got.assertOnly(t, "consumer", bodies(sent))
	first := got.first("consumer")
	for _, m := range sent {
		d := first[string(m.Body)]
		assertIntact(t, m, d.msg)
		if d.msg.GetProperty("u_kind") != m.GetProperty("u_kind") {
			t.Errorf("%s: user property u_kind %q", m.Body, d.msg.GetProperty("u_kind"))
		}
		if want, ok := msgIDs[string(m.Body)]; ok && d.msg.MsgId != want {
			t.Errorf("%s: msgId %q, the send returned %q", m.Body, d.msg.MsgId, want)
		}
		if d.msg.MsgId == "" || ids[d.msg.MsgId] != "" {
			t.Errorf("%s: msgId %q is empty or also that of %s", m.Body, d.msg.MsgId, ids[d.msg.MsgId])
		}
		ids[d.msg.MsgId] = string(m.Body)
	}
}
