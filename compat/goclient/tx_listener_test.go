// A local transaction listener for the transaction tests: it answers by the
// message's user property u_outcome and records what it was asked.
package goclient

import (
	"fmt"
	"sync"

	"github.com/apache/rocketmq-client-go/v2/primitive"
)

// unknownState is the Go client's "unknown" local transaction state, 3:
// v2.1.2 names it primitive.UnknowState and master primitive.UnkonwnState,
// so the tests use the value to compile against both.
const unknownState = primitive.LocalTransactionState(3)

// Outcomes a test asks of a transaction (the u_outcome property).
const (
	outcomeCommit        = "commit"         // ExecuteLocalTransaction commits
	outcomeRollback      = "rollback"       // ExecuteLocalTransaction rolls back
	outcomeCheckCommit   = "check-commit"   // unknown, then the check-back commits
	outcomeCheckRollback = "check-rollback" // unknown, then the check-back rolls back
)

// txListener answers ExecuteLocalTransaction and CheckLocalTransaction by
// u_outcome and records every call.
type txListener struct {
	mu       sync.Mutex
	executed map[string]*primitive.Message      // body -> message executed
	checks   map[string][]*primitive.MessageExt // body -> check-backs about it
}

func newTxListener() *txListener {
	return &txListener{executed: map[string]*primitive.Message{}, checks: map[string][]*primitive.MessageExt{}}
}

func (l *txListener) ExecuteLocalTransaction(m *primitive.Message) primitive.LocalTransactionState {
	l.mu.Lock()
	l.executed[string(m.Body)] = m
	l.mu.Unlock()
	switch m.GetProperty("u_outcome") {
	case outcomeCommit:
		return primitive.CommitMessageState
	case outcomeRollback:
		return primitive.RollbackMessageState
	default:
		return unknownState
	}
}

func (l *txListener) CheckLocalTransaction(m *primitive.MessageExt) primitive.LocalTransactionState {
	l.mu.Lock()
	l.checks[string(m.Body)] = append(l.checks[string(m.Body)], m)
	l.mu.Unlock()
	switch m.GetProperty("u_outcome") {
	case outcomeCommit, outcomeCheckCommit:
		return primitive.CommitMessageState
	default:
		return primitive.RollbackMessageState
	}
}

// checksOf returns the check-backs about body.
func (l *txListener) checksOf(body string) []*primitive.MessageExt {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]*primitive.MessageExt(nil), l.checks[body]...)
}

// checked is nil once every body has had a check-back.
func (l *txListener) checked(bodies ...string) error {
	for _, b := range bodies {
		if len(l.checksOf(b)) == 0 {
			return fmt.Errorf("no check-back yet for %q", b)
		}
	}
	return nil
}

// txMessage makes a transaction message of topic whose outcome is outcome.
func txMessage(topic, outcome string) *primitive.Message {
	m := message(topic, fmt.Sprintf("tx %s of %s", outcome, topic), "TagTx", "tx-"+outcome)
	m.WithProperty("u_outcome", outcome)
	return m
}
