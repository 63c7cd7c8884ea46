package broker

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"go.uber.org/zap/zaptest"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// The route cache reads the readable queues of a topic's route, keeps
// them while the name server is away, and forgets a topic the name
// server no longer knows, unless it is a retry topic.
func TestTopicRoutesFollowTheNameServer(t *testing.T) {
	ns := startFakeNamesrv(t)
	c := remoting.NewClient(remoting.ClientOptions{Logger: zaptest.NewLogger(t)})
	t.Cleanup(c.Close)
	addrs := []string{ns.addr}
	r := newTopicRoutes(zaptest.NewLogger(t), c, func() []string { return addrs })
	route := &protocol.TopicRouteData{QueueDatas: []protocol.QueueData{
		{BrokerName: "b2", ReadQueueNums: 1, Perm: 4}, {BrokerName: "b1", ReadQueueNums: 2, Perm: 6}}}
	for _, topic := range []string{"T", "%RETRY%G"} {
		ns.setRoute(topic, route)
		want := []protocol.MessageQueue{{Topic: topic, BrokerName: "b1", QueueID: 0},
			{Topic: topic, BrokerName: "b1", QueueID: 1}, {Topic: topic, BrokerName: "b2", QueueID: 0}}
		assert.Equal(t, want, r.subscribeInfo(topic), "sorted as MessageQueue.compareTo")
	}
	assert.Nil(t, r.subscribeInfo("U"), "a topic the name server does not know")

	addrs = []string{"127.0.0.1:1"} // away
	r.update("T")
	assert.Len(t, r.subscribeInfo("T"), 3, "kept while the name server is away")
	addrs = []string{ns.addr}
	ns.setRoute("T", nil)
	ns.setRoute("%RETRY%G", nil)
	r.update("T")
	r.update("%RETRY%G")
	r.mu.RLock()
	_, known := r.queues["T"]
	_, retryKnown := r.queues["%RETRY%G"]
	r.mu.RUnlock()
	assert.False(t, known, "forgotten once the name server no longer knows it")
	assert.True(t, retryKnown, "a retry topic is kept")
}
