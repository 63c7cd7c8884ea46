package proxy

import (
	"encoding/json"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/proxy/apiv2"
	"github.com/rmqgo/rmqgo/remoting"
)

// heartbeatRecorder is a broker that answers every request and keeps the
// HEART_BEAT bodies.
type heartbeatRecorder struct {
	mu    sync.Mutex
	beats []protocol.HeartbeatData
}

func (r *heartbeatRecorder) InvokeTimeout(_ string, req *remoting.Command, _ time.Duration) (*remoting.Command, error) {
	if req.Code == int32(remoting.HeartBeat) {
		var hb protocol.HeartbeatData
		if err := json.Unmarshal(req.Body, &hb); err != nil {
			return nil, err
		}
		r.mu.Lock()
		r.beats = append(r.beats, hb)
		r.mu.Unlock()
	}
	return remoting.NewResponse(req, remoting.Success, ""), nil
}

func (r *heartbeatRecorder) InvokeOneway(string, *remoting.Command) error { return nil }

func (r *heartbeatRecorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.beats)
}

func consumerSettings(group, topic string) *apiv2.Settings {
	t := apiv2.ClientType_SIMPLE_CONSUMER
	return &apiv2.Settings{ClientType: &t, PubSub: &apiv2.Settings_Subscription{Subscription: &apiv2.Subscription{
		Group: &apiv2.Resource{Name: group}, Subscriptions: []*apiv2.SubscriptionEntry{{Topic: &apiv2.Resource{Name: topic},
			Expression: &apiv2.FilterExpression{Type: apiv2.FilterType_TAG, Expression: "*"}}}}}}
}

// A group's clients, however many, are one subscription per topic in the
// heartbeat, and a burst of clients starting makes a heartbeat or two,
// not one each: 2,000 idle SimpleConsumers of one group used to cost the
// proxy 2,000 heartbeats of 2,000 subscriptions each, O(n²), seconds of
// CPU long after they had started.
func TestClientsStartingInABurstMakeFewSmallHeartbeats(t *testing.T) {
	rec := &heartbeatRecorder{}
	local := LocalBroker{Addr: "127.0.0.1:10911", Name: "broker-a", Cluster: "DefaultCluster", IP: "127.0.0.1"}
	m := newMessaging(DefaultConfig(), newBrokers(rec, func() []string { return nil }, local), local, zap.NewNop(), rec, &clientChannels{})
	m.start()
	t.Cleanup(m.close)
	time.Sleep(50 * time.Millisecond) // the loop's first heartbeat: no group, nothing sent

	const clients = 500
	for i := range clients {
		topic := "TopicA"
		if i%2 == 1 {
			topic = "TopicB"
		}
		m.streams.put("client-"+strconv.Itoa(i), &clientStream{}, consumerSettings("GroupA", topic))
		m.kickHeartbeat()
	}
	require.Eventually(t, func() bool { return rec.count() > 0 }, 5*time.Second, 10*time.Millisecond)
	time.Sleep(200 * time.Millisecond)
	assert.Less(t, rec.count(), clients/10, "the kicks coalesce")

	rec.mu.Lock()
	last := rec.beats[len(rec.beats)-1]
	rec.mu.Unlock()
	require.Len(t, last.ConsumerDataSet, 1)
	cd := last.ConsumerDataSet[0]
	assert.Equal(t, "GroupA", cd.GroupName)
	topics := map[string]int{}
	for _, sd := range cd.SubscriptionDataSet {
		topics[sd.Topic]++
	}
	assert.Equal(t, map[string]int{"TopicA": 1, "TopicB": 1}, topics)
}
