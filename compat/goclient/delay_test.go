// Delay levels (Message.WithDelayTimeLevel): a message of level 2 (5 s with
// the broker's default messageDelayLevel) arrives intact and not before its
// delay: the broker writes it to its topic no earlier than 5 s after it was
// born, and the listener sees it no earlier than 5 s after the send began.
// A message without a delay sent alongside arrives too.
package goclient

import (
	"fmt"
	"testing"
	"time"

	"github.com/apache/rocketmq-client-go/v2/primitive"
)

func TestDelayLevelTwoArrivesNotBeforeFiveSeconds(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	topic := a.newTopic("gc_delay", 2)
	got := newReceived()
	a.pushConsumer(unique("gc_delay_c"), topic, all, got.concurrently("consumer"))
	p := a.producer(unique("gc_delay_p"))

	const level, delay = 2, 5 * time.Second
	delayed := message(topic, "delayed level 2 of "+topic, "TagDelay", "delay-key")
	delayed.WithDelayTimeLevel(level)
	sentAt := time.Now()
	r := sendOK(t, p, delayed)
	plain := message(topic, fmt.Sprintf("not delayed of %s", topic), "TagDelay")
	sendOK(t, p, plain)

	got.awaitAll(t, deliveryWait, "consumer", []string{string(delayed.Body), string(plain.Body)})
	got.assertOnly(t, "consumer", []string{string(delayed.Body), string(plain.Body)})
	d := got.first("consumer")[string(delayed.Body)]
	assertIntact(t, delayed, d.msg)
	if d.msg.MsgId != r.MsgID {
		t.Errorf("msgId %q, the send returned %q", d.msg.MsgId, r.MsgID)
	}
	if v := d.msg.GetProperty(primitive.PropertyDelayTimeLevel); v != "2" {
		t.Errorf("property DELAY %q, want 2 (properties %v)", v, d.msg.GetProperties())
	}
	if early := sentAt.Add(delay).Sub(d.at); early > 0 {
		t.Errorf("the level %d message arrived %v before its delay", level, early)
	}
	if early := d.msg.BornTimestamp + delay.Milliseconds() - d.msg.StoreTimestamp; early > 0 {
		t.Errorf("the level %d message was stored in %s %d ms before its delay (born %d, stored %d)",
			level, topic, early, d.msg.BornTimestamp, d.msg.StoreTimestamp)
	}
	if born := time.UnixMilli(d.msg.BornTimestamp); born.Before(sentAt.Truncate(time.Millisecond)) {
		t.Errorf("born timestamp %v is before the send began (%v)", born, sentAt)
	}
	t.Logf("level %d: stored %d ms after born, arrived %v after the send began",
		level, d.msg.StoreTimestamp-d.msg.BornTimestamp, d.at.Sub(sentAt))
}
