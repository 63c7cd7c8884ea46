// One Go service with many groups at once, the way Go services run: the
// client's default instance (none named), so one client per process sends
// one HEART_BEAT holding every producer and consumer group, with the
// subscriptions' tag hash codes as JSON strings ("codeSet":["2598919",...]).
// A transaction producer, two plain producers and four push consumers (one
// on "TagA || TagC", three on "*") all start before any message is sent;
// every consumer gets its messages (the tagged one only its tags), committed
// transactions arrive, the rolled back one never does, and the producer gets
// its check-back for the unknown one.
//
// The transaction producer starts first: the Go client registers its
// check-back handler for the group whose producer or consumer made the
// client instance, and drops check-backs for any other producer group
// ("producer group is not equal", internal/client.go of v2.1.2 and master).
package goclient

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/rocketmq-client-go/v2/primitive"
)

func TestOneProcessManyGroupsAllStartedBeforeSending(t *testing.T) {
	t.Parallel()
	a := newAppInstance(t, "") // the client's default instance
	tagTopic := a.newTopic("gc_multi_tag", 4)
	plainTopic := a.newTopic("gc_multi_plain", 4)
	txTopic := a.newTopic("gc_multi_tx", 2)

	l := newTxListener()
	txGroup := unique("gc_multi_txp")
	tp := a.txProducer(txGroup, l)
	rr := newRoundRobin(a, tagTopic)
	plain := a.producer(unique("gc_multi_p"))

	got := newReceived()
	a.pushConsumer(unique("gc_multi_ac"), tagTopic, tags("TagA || TagC"), got.concurrently("TagA || TagC"))
	a.pushConsumer(unique("gc_multi_tagall"), tagTopic, all, got.concurrently("tag topic *"))
	a.pushConsumer(unique("gc_multi_plain"), plainTopic, all, got.concurrently("plain topic *"))
	a.pushConsumer(unique("gc_multi_tx"), txTopic, all, got.concurrently("tx topic *"))

	// Sends start only now, with every group running.
	var wanted []*primitive.Message
	for i := 0; i < 4; i++ {
		for _, tag := range []string{"TagA", "TagB", "TagC", "TagD"} {
			m := message(tagTopic, fmt.Sprintf("multi %s %d of %s", tag, i, tagTopic), tag, "multi-key")
			rr.send(m)
			if tag == "TagA" || tag == "TagC" {
				wanted = append(wanted, m)
			}
		}
	}
	wanted = append(wanted, rr.fence(func(q int) *primitive.Message {
		return message(tagTopic, fmt.Sprintf("multi fence of queue %d of %s", q, tagTopic), "TagA", "fence-key")
	})...)
	var plainSent []*primitive.Message
	for i := 0; i < 20; i++ {
		m := message(plainTopic, fmt.Sprintf("multi plain %d of %s", i, plainTopic), "TagPlain")
		sendOK(t, plain, m)
		plainSent = append(plainSent, m)
	}
	sent := map[string]*primitive.Message{}
	results := map[string]*primitive.TransactionSendResult{}
	for _, o := range []string{outcomeCommit, outcomeRollback, outcomeCheckCommit} {
		m := txMessage(txTopic, o)
		r, err := retryBusy(t, "SendMessageInTransaction "+o, func() (*primitive.TransactionSendResult, error) {
			return tp.SendMessageInTransaction(context.Background(), m)
		})
		if err != nil {
			t.Fatalf("SendMessageInTransaction %s: %v", o, err)
		}
		if r.Status != primitive.SendOK {
			t.Fatalf("SendMessageInTransaction %s: status %d", o, r.Status)
		}
		sent[o], results[o] = m, r
	}
	body := func(o string) string { return string(sent[o].Body) }

	got.awaitAll(t, deliveryWait, "tag topic *", bodies(rr.sent))
	got.awaitAll(t, deliveryWait, "TagA || TagC", bodies(wanted))
	got.awaitAll(t, deliveryWait, "plain topic *", bodies(plainSent))
	eventually(t, deliveryWait, "the unknown transaction is checked", func() error {
		return l.checked(body(outcomeCheckCommit))
	})
	committed := []string{body(outcomeCommit), body(outcomeCheckCommit)}
	got.awaitAll(t, deliveryWait, "tx topic *", committed)

	got.assertOnly(t, "TagA || TagC", bodies(wanted))
	got.assertOnly(t, "tag topic *", bodies(rr.sent))
	got.assertOnly(t, "plain topic *", bodies(plainSent))
	got.assertOnly(t, "tx topic *", committed)
	for who, msgs := range map[string][]*primitive.Message{
		"TagA || TagC": wanted, "tag topic *": rr.sent, "plain topic *": plainSent,
	} {
		first := got.first(who)
		for _, m := range msgs {
			assertIntact(t, m, first[string(m.Body)].msg)
		}
	}
	first := got.first("tx topic *")
	for _, o := range []string{outcomeCommit, outcomeCheckCommit} {
		assertCommittedIntact(t, sent[o], results[o], txGroup, first[body(o)].msg)
	}
	assertCheckIntact(t, sent[outcomeCheckCommit], results[outcomeCheckCommit], l.checksOf(body(outcomeCheckCommit))[0])
	for _, o := range []string{outcomeCommit, outcomeRollback} {
		if n := len(l.checksOf(body(o))); n > 0 {
			t.Errorf("the %s transaction, decided at once, was checked %d times", o, n)
		}
	}
}
