package broker

// The queue allocation of QUERY_ASSIGNMENT (5.x server-side rebalance):
// Java's AllocateMessageQueueAveragely ("AVG"),
// AllocateMessageQueueAveragelyByCircle ("AVG_BY_CIRCLE") and
// QueryAssignmentProcessor.allocate4Pop, over the queues sorted as
// MessageQueue.compareTo sorts them and the client ids sorted as strings.
//
//	AVG, client i of c over q queues: mod = q % c; avg = 1 when q <= c,
//	  else q/c + 1 for i < mod and q/c otherwise; from i*avg (i < mod)
//	  or i*avg + mod, min(avg, q - start) queues.
//	AVG_BY_CIRCLE: every queue j with j % c == i.
//	POP, share n: n <= 0 or n >= c-1: every queue of every broker as one
//	  (topic, broker, -1); else c <= q: the client's share and the shares
//	  of the n clients after it (wrapping); else the one queue i % q.
//
// A client not in the list gets nothing; an empty client id, queue list
// or client list is an error (Java's IllegalArgumentException), which
// QUERY_ASSIGNMENT answers with no assignment.

import (
	"cmp"
	"errors"
	"slices"

	"github.com/rmqgo/rmqgo/internal/protocol"
)

// allocateStrategy gives a client its share of the queues.
type allocateStrategy func(clientID string, mqAll []protocol.MessageQueue, cidAll []string) ([]protocol.MessageQueue, error)

// allocateStrategies are the strategies QUERY_ASSIGNMENT knows by name.
var allocateStrategies = map[string]allocateStrategy{
	"AVG":           allocateAveragely,
	"AVG_BY_CIRCLE": allocateByCircle,
}

var (
	errEmptyClientID = errors.New("currentCID is empty")
	errNoQueues      = errors.New("mqAll is null or mqAll empty")
	errNoClients     = errors.New("cidAll is null or cidAll empty")
)

// clientIndex is the strategies' check: the client's place in the list,
// -1 when it is not there.
func clientIndex(clientID string, mqAll []protocol.MessageQueue, cidAll []string) (int, error) {
	switch {
	case clientID == "":
		return -1, errEmptyClientID
	case len(mqAll) == 0:
		return -1, errNoQueues
	case len(cidAll) == 0:
		return -1, errNoClients
	}
	return slices.Index(cidAll, clientID), nil
}

// allocateAveragely is AllocateMessageQueueAveragely.
func allocateAveragely(clientID string, mqAll []protocol.MessageQueue, cidAll []string) ([]protocol.MessageQueue, error) {
	i, err := clientIndex(clientID, mqAll, cidAll)
	if err != nil || i < 0 {
		return []protocol.MessageQueue{}, err
	}
	q, c := len(mqAll), len(cidAll)
	mod := q % c
	avg := q / c
	switch {
	case q <= c:
		avg = 1
	case mod > 0 && i < mod:
		avg++
	}
	start := i*avg + mod
	if mod > 0 && i < mod {
		start = i * avg
	}
	n := min(avg, q-start)
	out := []protocol.MessageQueue{}
	for k := 0; k < n; k++ {
		out = append(out, mqAll[start+k])
	}
	return out, nil
}

// allocateByCircle is AllocateMessageQueueAveragelyByCircle.
func allocateByCircle(clientID string, mqAll []protocol.MessageQueue, cidAll []string) ([]protocol.MessageQueue, error) {
	i, err := clientIndex(clientID, mqAll, cidAll)
	if err != nil || i < 0 {
		return []protocol.MessageQueue{}, err
	}
	out := []protocol.MessageQueue{}
	for j := i; j < len(mqAll); j += len(cidAll) {
		out = append(out, mqAll[j])
	}
	return out, nil
}

// allocateForPop is allocate4Pop: a POP group's clients may share queues.
func allocateForPop(strategy allocateStrategy, clientID string, mqAll []protocol.MessageQueue, cidAll []string,
	popShareQueueNum int32) ([]protocol.MessageQueue, error) {
	if popShareQueueNum <= 0 || int(popShareQueueNum) >= len(cidAll)-1 {
		out := make([]protocol.MessageQueue, 0, len(mqAll))
		for _, mq := range mqAll {
			out = append(out, protocol.MessageQueue{Topic: mq.Topic, BrokerName: mq.BrokerName, QueueID: -1})
		}
		return out, nil
	}
	if len(cidAll) > len(mqAll) {
		// every client gets one queue
		i, err := clientIndex(clientID, mqAll, cidAll)
		if err != nil || i < 0 {
			return []protocol.MessageQueue{}, err
		}
		return []protocol.MessageQueue{mqAll[i%len(mqAll)]}, nil
	}
	out, err := strategy(clientID, mqAll, cidAll)
	if err != nil {
		return nil, err
	}
	if i := slices.Index(cidAll, clientID); i >= 0 {
		for k := 1; k <= int(popShareQueueNum); k++ {
			more, err := strategy(cidAll[(i+k)%len(cidAll)], mqAll, cidAll)
			if err != nil {
				return nil, err
			}
			out = append(out, more...)
		}
	}
	return out, nil
}

// compareQueues is MessageQueue.compareTo: topic, broker name, queue id.
func compareQueues(a, b protocol.MessageQueue) int {
	if c := cmp.Compare(a.Topic, b.Topic); c != 0 {
		return c
	}
	if c := cmp.Compare(a.BrokerName, b.BrokerName); c != 0 {
		return c
	}
	return cmp.Compare(a.QueueID, b.QueueID)
}

// queueSet is a HashSet of queues, in compareQueues order.
func queueSet(qs []protocol.MessageQueue) []protocol.MessageQueue {
	out := slices.Clone(qs)
	slices.SortFunc(out, compareQueues)
	return slices.Compact(out)
}
