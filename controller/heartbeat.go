package controller

// BROKER_HEARTBEAT (904) and the heartbeat table
// (DefaultBrokerHeartbeatManager, docs/reference/controller.md §6.1).
//
// Request header: clusterName, brokerAddr, brokerName, brokerId (the
// controller id), epoch, maxOffset, confirmOffset, heartbeatTimeoutMills
// (default 10000), electionPriority (default Integer.MAX_VALUE).
// Response: SUCCESS "Heart beat success"; CONTROLLER_INVALID_REQUEST
// "Heart beat with empty brokerId" without brokerId. Brokers send it
// oneway to every controller, so each keeps its own table: liveness is not
// replicated.
//
// A broker is alive while lastUpdate + its timeout >= now. The expiry scan
// (every scanNotActiveBrokerInterval) drops the others and closes their
// connections; a connection that closes drops its broker at once. Either
// way the controller is told the broker went inactive (onInactive).
// Epoch, maxOffset and confirmOffset are replaced only by a heartbeat with
// a higher epoch, or the same epoch and a higher maxOffset, as Java does:
// the election sees the best a broker ever reported.

import (
	"math"
	"sync"
	"time"

	"github.com/rmqgo/rmqgo/remoting"
)

// defaultHeartbeatTimeout is DEFAULT_BROKER_CHANNEL_EXPIRED_TIME.
const defaultHeartbeatTimeout = 10 * time.Second

// brokerKey names a replica: its set and controller id.
type brokerKey struct {
	cluster, name string
	id            int64
}

// brokerLive is BrokerLiveInfo.
type brokerLive struct {
	addr          string
	timeout       time.Duration
	ch            *remoting.Channel
	last          time.Time
	epoch         int32
	maxOffset     int64
	confirmOffset int64
	priority      int32
}

// heartbeats is the table. It is safe for concurrent use.
type heartbeats struct {
	mu   sync.Mutex
	now  func() time.Time
	live map[brokerKey]*brokerLive
}

func newHeartbeats(now func() time.Time) *heartbeats {
	return &heartbeats{now: now, live: map[brokerKey]*brokerLive{}}
}

func (c *Controller) brokerHeartbeat(req *remoting.Request) *remoting.Command {
	h := header{req.Cmd}
	if _, ok := req.Cmd.Ext("brokerId"); !ok {
		if req.Cmd.IsOneway() {
			return nil
		}
		return remoting.NewResponse(req.Cmd, remoting.ControllerInvalidRequest, "Heart beat with empty brokerId")
	}
	key := brokerKey{h.str("clusterName", ""), h.str("brokerName", ""), h.long("brokerId", 0)}
	c.heartbeats.beat(key, brokerLive{
		addr:          h.str("brokerAddr", ""),
		timeout:       time.Duration(h.long("heartbeatTimeoutMills", defaultHeartbeatTimeout.Milliseconds())) * time.Millisecond,
		ch:            req.Ch,
		epoch:         h.int("epoch", -1),
		maxOffset:     h.long("maxOffset", -1),
		confirmOffset: h.long("confirmOffset", -1),
		priority:      h.int("electionPriority", math.MaxInt32),
	})
	if req.Cmd.IsOneway() {
		return nil
	}
	return remoting.NewResponse(req.Cmd, remoting.Success, "Heart beat success")
}

// beat records a heartbeat (onBrokerHeartbeat).
func (t *heartbeats) beat(key brokerKey, hb brokerLive) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	prev, ok := t.live[key]
	if !ok {
		hb.last, hb.confirmOffset = now, 0
		t.live[key] = &hb
		return
	}
	prev.last, prev.timeout, prev.priority = now, hb.timeout, hb.priority
	if hb.epoch > prev.epoch || hb.epoch == prev.epoch && hb.maxOffset > prev.maxOffset {
		prev.epoch, prev.maxOffset, prev.confirmOffset = hb.epoch, hb.maxOffset, hb.confirmOffset
	}
}

// alive is isBrokerActive.
func (t *heartbeats) alive(cluster, name string, id int64) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	b, ok := t.live[brokerKey{cluster, name, id}]
	return ok && !b.last.Add(b.timeout).Before(t.now())
}

// info returns a copy of a replica's live info.
func (t *heartbeats) info(cluster, name string, id int64) (brokerLive, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	b, ok := t.live[brokerKey{cluster, name, id}]
	if !ok {
		return brokerLive{}, false
	}
	return *b, true
}

// expire drops the replicas whose heartbeats stopped and returns them
// with their connections, for the caller to close.
func (t *heartbeats) expire() ([]brokerKey, []*remoting.Channel) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	var keys []brokerKey
	var chans []*remoting.Channel
	for k, b := range t.live {
		if now.Sub(b.last) > b.timeout {
			delete(t.live, k)
			keys = append(keys, k)
			if b.ch != nil {
				chans = append(chans, b.ch)
			}
		}
	}
	return keys, chans
}

// closed drops the replicas that heartbeated over ch.
func (t *heartbeats) closed(ch *remoting.Channel) []brokerKey {
	t.mu.Lock()
	defer t.mu.Unlock()
	var keys []brokerKey
	for k, b := range t.live {
		if b.ch == ch {
			delete(t.live, k)
			keys = append(keys, k)
		}
	}
	return keys
}
