package gov5

import (
	"fmt"
	"reflect"
	"testing"

	rmq "github.com/apache/rocketmq-clients/golang/v5"
)

// Messages of three message groups on a FIFO topic reach a PushConsumer of a
// FIFO group (consumeMessageOrderly) in the order they were sent, per
// message group.
func TestFifoMessagesArriveInOrderPerMessageGroup(t *testing.T) {
	t.Parallel()
	srv := serversOf(t)
	topic := newTopic(t, srv, "gov5_fifo", 4, "FIFO")
	group := newGroup(t, srv, "GID_gov5_fifo", true, 16)
	got := &pushed{}
	newPushConsumer(t, srv, group, topic, rmq.SUB_ALL, got)
	p := newProducer(t, srv, rmq.WithTopics(topic))
	sentByGroup := map[string][]string{}
	ids := map[string]bool{}
	for i := 0; i < 30; i++ {
		mg := fmt.Sprintf("order-%d", i%3)
		body := fmt.Sprintf("fifo %d of %s of %s", i, mg, topic)
		m := message(topic, body, "TagF", fmt.Sprintf("fifo-%d", i))
		m.SetMessageGroup(mg)
		ids[send(t, p, m)] = true
		sentByGroup[mg] = append(sentByGroup[mg], body)
	}
	eventually(t, retryWait, "the 30 FIFO messages pushed", func() error {
		if n := len(got.ids()); n < len(ids) {
			return fmt.Errorf("%d of %d: %s", n, len(ids), describe(got.all()))
		}
		return nil
	})
	gotByGroup := map[string][]string{}
	for _, d := range got.all() {
		if !ids[d.id()] {
			t.Fatalf("delivered what was not sent: %s %q", d.id(), d.body())
		}
		mg := d.mv.GetMessageGroup()
		if mg == nil {
			t.Fatalf("no message group: %q", d.body())
		}
		gotByGroup[*mg] = append(gotByGroup[*mg], d.body())
		if d.attempt() != 1 {
			t.Errorf("delivery attempt of %q: %d", d.body(), d.attempt())
		}
	}
	if !reflect.DeepEqual(gotByGroup, sentByGroup) {
		t.Errorf("bodies per message group, in the order they came:\n got %v\nsent %v", gotByGroup, sentByGroup)
	}
}
