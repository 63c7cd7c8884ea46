package broker

// LOCK_BATCH_MQ (41) and UNLOCK_BATCH_MQ (42): RebalanceLockManager, the
// queue locks orderly consumers hold.
//
// Body: {"clientId":"c","consumerGroup":"g","mqSet":[{"brokerName":"b","queueId":0,"topic":"T"}]}.
// LOCK_BATCH_MQ answers {"lockOKMQSet":[...]}: the queues now locked by
// the client. A lock lives 60 s after its last renewal
// (rocketmq.broker.rebalance.lockMaxLiveTime); an expired lock may be taken
// by another client of the group. UNLOCK_BATCH_MQ releases the client's own
// locks and answers SUCCESS.

import (
	"sync"
	"time"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// lockMaxLive is the default rocketmq.broker.rebalance.lockMaxLiveTime.
const lockMaxLive = 60 * time.Second

type lockEntry struct {
	clientID   string
	lastUpdate time.Time
}

// queueLocks is RebalanceLockManager: group -> queue -> holder.
type queueLocks struct {
	now func() time.Time

	mu    sync.Mutex
	locks map[string]map[queueRef]*lockEntry
}

func newQueueLocks(now func() time.Time) *queueLocks {
	return &queueLocks{now: now, locks: map[string]map[queueRef]*lockEntry{}}
}

// tryLock locks every queue it can for the client and returns those it
// holds now.
func (l *queueLocks) tryLock(group, clientID string, mqs []queueRef) []queueRef {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	g, ok := l.locks[group]
	if !ok {
		g = map[queueRef]*lockEntry{}
		l.locks[group] = g
	}
	out := make([]queueRef, 0, len(mqs))
	for _, mq := range mqs {
		e, ok := g[mq]
		switch {
		case !ok:
			g[mq] = &lockEntry{clientID: clientID, lastUpdate: now}
		case e.clientID == clientID || now.Sub(e.lastUpdate) > lockMaxLive:
			e.clientID, e.lastUpdate = clientID, now
		default:
			continue
		}
		out = append(out, mq)
	}
	return out
}

// unlock releases the client's locks on the queues.
func (l *queueLocks) unlock(group, clientID string, mqs []queueRef) {
	l.mu.Lock()
	defer l.mu.Unlock()
	g := l.locks[group]
	for _, mq := range mqs {
		if e, ok := g[mq]; ok && e.clientID == clientID {
			delete(g, mq)
		}
	}
}

// lockBatchMQ serves LOCK_BATCH_MQ.
func (s *clientService) lockBatchMQ(req *remoting.Request) *remoting.Command {
	body, err := protocol.DecodeLockBatchRequestBody(req.Cmd.Body)
	if err != nil {
		return s.reply(req.Cmd, remoting.SystemError, err.Error())
	}
	locked := s.locks.tryLock(body.ConsumerGroup, body.ClientID, body.MQSet)
	out, _ := jsonAPI.Marshal(struct {
		LockOKMQSet []queueRef `json:"lockOKMQSet"`
	}{locked})
	return s.replyBody(req.Cmd, out)
}

// unlockBatchMQ serves UNLOCK_BATCH_MQ.
func (s *clientService) unlockBatchMQ(req *remoting.Request) *remoting.Command {
	body, err := protocol.DecodeLockBatchRequestBody(req.Cmd.Body)
	if err != nil {
		return s.reply(req.Cmd, remoting.SystemError, err.Error())
	}
	s.locks.unlock(body.ConsumerGroup, body.ClientID, body.MQSet)
	return s.replyOK(req.Cmd)
}
