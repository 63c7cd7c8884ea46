// Transactions with check-back: a TransactionProducer whose local
// transaction commits, rolls back, or stays unknown; the broker asks the
// producer group about the unknown ones (CHECK_TRANSACTION_STATE) and the
// listener's CheckLocalTransaction commits one and rolls back the other.
// Committed messages arrive intact (with TRAN_MSG and PGROUP), rolled back
// ones never do, and only the unknown ones are asked about, each as sent.
package goclient

import (
	"context"
	"testing"

	"github.com/apache/rocketmq-client-go/v2/primitive"
)

func TestTransactionsCommitRollbackAndCheckBack(t *testing.T) {
	t.Parallel()
	a := newApp(t)
	topic := a.newTopic("gc_tx", 2)
	group := unique("gc_tx_p")
	l := newTxListener()
	// The transaction producer comes first in its client instance: the Go
	// client hands check-backs only to the group that made the instance
	// (see multigroup_test.go).
	tp := a.txProducer(group, l)
	got := newReceived()
	a.pushConsumer(unique("gc_tx_c"), topic, all, got.concurrently("consumer"))

	want := map[string]primitive.LocalTransactionState{
		outcomeCommit:        primitive.CommitMessageState,
		outcomeRollback:      primitive.RollbackMessageState,
		outcomeCheckRollback: unknownState,
		outcomeCheckCommit:   unknownState,
	}
	sent := map[string]*primitive.Message{}
	results := map[string]*primitive.TransactionSendResult{}
	// The check-committed one last: once it arrives every earlier one was decided.
	for _, o := range []string{outcomeCommit, outcomeRollback, outcomeCheckRollback, outcomeCheckCommit} {
		m := txMessage(topic, o)
		r, err := retryBusy(t, "SendMessageInTransaction "+o, func() (*primitive.TransactionSendResult, error) {
			return tp.SendMessageInTransaction(context.Background(), m)
		})
		if err != nil {
			t.Fatalf("SendMessageInTransaction %s: %v", o, err)
		}
		if r.Status != primitive.SendOK {
			t.Fatalf("SendMessageInTransaction %s: status %d", o, r.Status)
		}
		if r.State != want[o] {
			t.Errorf("SendMessageInTransaction %s: state %d, want %d", o, r.State, want[o])
		}
		sent[o], results[o] = m, r
	}
	body := func(o string) string { return string(sent[o].Body) }

	eventually(t, deliveryWait, "both unknown transactions are checked", func() error {
		return l.checked(body(outcomeCheckCommit), body(outcomeCheckRollback))
	})
	committed := []string{body(outcomeCommit), body(outcomeCheckCommit)}
	got.awaitAll(t, deliveryWait, "consumer", committed)
	got.assertOnly(t, "consumer", committed)

	first := got.first("consumer")
	for _, o := range []string{outcomeCommit, outcomeCheckCommit} {
		assertCommittedIntact(t, sent[o], results[o], group, first[body(o)].msg)
	}
	if n := got.counts("consumer")[body(outcomeCommit)]; n != 1 {
		t.Errorf("the committed transaction arrived %d times", n)
	}
	for _, o := range []string{outcomeCommit, outcomeRollback} {
		if n := len(l.checksOf(body(o))); n > 0 {
			t.Errorf("the %s transaction, decided at once, was checked %d times", o, n)
		}
	}
	for _, o := range []string{outcomeCheckCommit, outcomeCheckRollback} {
		checks := l.checksOf(body(o))
		assertCheckIntact(t, sent[o], results[o], checks[0])
		t.Logf("%s: %d check-back(s)", o, len(checks))
	}
}

// assertCommittedIntact checks a delivered transaction message: as sent,
// with the msgId the send returned, and the transaction properties.
func assertCommittedIntact(t *testing.T, sent *primitive.Message, r *primitive.TransactionSendResult,
	group string, got *primitive.MessageExt) {
	t.Helper()
	assertIntact(t, sent, got)
	if got.MsgId != r.MsgID {
		t.Errorf("%s: msgId %q, the send returned %q", sent.Body, got.MsgId, r.MsgID)
	}
	if v := got.GetProperty(primitive.PropertyTransactionPrepared); v != "true" {
		t.Errorf("%s: TRAN_MSG %q (properties %v)", sent.Body, v, got.GetProperties())
	}
	if v := got.GetProperty(primitive.PropertyProducerGroup); v != group {
		t.Errorf("%s: PGROUP %q, want %q", sent.Body, v, group)
	}
}

// assertCheckIntact checks what CheckLocalTransaction got: the half message
// as sent, under its real topic, with the UNIQ_KEY the send returned as its
// transaction id.
func assertCheckIntact(t *testing.T, sent *primitive.Message, r *primitive.TransactionSendResult,
	checked *primitive.MessageExt) {
	t.Helper()
	assertIntact(t, sent, checked)
	if v := checked.GetProperty(primitive.PropertyUniqueClientMessageIdKeyIndex); v != r.MsgID {
		t.Errorf("check-back for %s: UNIQ_KEY %q, the send returned %q", sent.Body, v, r.MsgID)
	}
	if checked.TransactionId != r.MsgID {
		t.Errorf("check-back for %s: transaction id %q, want %q", sent.Body, checked.TransactionId, r.MsgID)
	}
}
