package gov5

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	rmq "github.com/apache/rocketmq-clients/golang/v5"
)

// A transaction producer: a committed message arrives, a rolled back one
// never does, and one neither committed nor rolled back is checked back
// (transactionCheckInterval 1 s, transactionTimeOut 6 s in ref-servers.sh)
// and arrives once the checker commits it. "Never" is the topic's queues
// holding two messages once both came.
func TestTransactionsCommitRollbackAndCheckBack(t *testing.T) {
	t.Parallel()
	srv := serversOf(t)
	topic := newTopic(t, srv, "gov5_tx", 2, "TRANSACTION")
	group := newGroup(t, srv, "GID_gov5_tx", false, 16)
	var mu sync.Mutex
	var checked []string
	checker := &rmq.TransactionChecker{Check: func(mv *rmq.MessageView) rmq.TransactionResolution {
		key := ""
		if len(mv.GetKeys()) > 0 {
			key = mv.GetKeys()[0]
		}
		mu.Lock()
		checked = append(checked, key)
		mu.Unlock()
		if key == "tx-rollback" {
			return rmq.ROLLBACK
		}
		return rmq.COMMIT
	}}
	p := newProducer(t, srv, rmq.WithTopics(topic), rmq.WithTransactionChecker(checker))
	c := newSimpleConsumer(t, srv, group, topic, rmq.SUB_ALL)

	sendTx := func(body, key string) (string, rmq.Transaction) {
		tx := p.BeginTransaction()
		r, err := p.SendWithTransaction(context.Background(), message(topic, body+" of "+topic, "TagX", key), tx)
		if err != nil || len(r) != 1 {
			t.Fatalf("send %s in a transaction: %v %v", body, r, err)
		}
		return r[0].MessageID, tx
	}
	committed, t1 := sendTx("committed", "tx-commit")
	if err := t1.Commit(); err != nil {
		t.Fatalf("commit: %v", err)
	}
	rolledBack, t2 := sendTx("rolled back", "tx-rollback")
	if err := t2.RollBack(); err != nil {
		t.Fatalf("rollback: %v", err)
	}
	unended, _ := sendTx("unended", "tx-unknown")

	ids := map[string]bool{}
	receiveUntil(t, c, 30*time.Second, retryWait, "the committed message and the one the checker committed", func(d delivery) {
		if d.id() == rolledBack {
			t.Fatalf("the rolled back message arrived: %q", d.body())
		}
		if ids[d.id()] {
			t.Fatalf("received twice: %q", d.body())
		}
		ids[d.id()] = true
		ack(t, c, d)
	}, func([]delivery) bool { return ids[committed] && ids[unended] })
	if len(ids) != 2 {
		t.Errorf("received %v, want %s and %s", ids, committed, unended)
	}
	mu.Lock()
	asked := append([]string(nil), checked...)
	mu.Unlock()
	if !slices.Contains(asked, "tx-unknown") {
		t.Errorf("the checker was not asked about the unended message: %v", asked)
	}
	if slices.Contains(asked, "tx-commit") {
		t.Errorf("the checker was asked about the committed message: %v", asked)
	}
	if n := queued(t, srv, topic, 2); n != 2 {
		t.Errorf("%d messages in the queues of %s, want 2 (the committed ones)", n, topic)
	}
	t.Logf("check-backs asked about %v", asked)
}
