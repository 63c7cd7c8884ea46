package broker

// TopicRouteInfoManager (5.x): the routes of the topics QUERY_ASSIGNMENT
// was asked about, fetched from the name server (GET_ROUTEINFO_BY_TOPIC)
// the first time and again every loadBalancePollNameServerInterval, and
// each route's readable queues: for every queue data whose perm is
// readable, the queues 0..readQueueNums-1 of its broker
// (topicRouteData2TopicSubscribeInfo). The name servers are asked in
// turn until one answers. A topic the name server does not know has no
// queues; one it stops knowing is forgotten at the next refresh
// (cleanNoneRouteTopic), unless it is a retry topic; a refresh that fails
// otherwise keeps what was there.

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// routeRequestTimeout is the timeout of one route request (Java's 3 s).
const routeRequestTimeout = 3 * time.Second

// errNoNamesrv is a route asked for with no name server address set.
var errNoNamesrv = errors.New("no name server address (namesrvAddr)")

// topicRoutes caches the readable queues of the topics asked about.
type topicRoutes struct {
	log      *zap.Logger
	client   *remoting.Client
	namesrvs func() []string

	mu     sync.RWMutex
	queues map[string][]protocol.MessageQueue // topic -> readable queues
}

func newTopicRoutes(log *zap.Logger, client *remoting.Client, namesrvs func() []string) *topicRoutes {
	return &topicRoutes{log: log, client: client, namesrvs: namesrvs, queues: map[string][]protocol.MessageQueue{}}
}

// subscribeInfo is getTopicSubscribeInfo: the topic's readable queues,
// fetched now when the topic is new; nil when no name server knows it.
func (r *topicRoutes) subscribeInfo(topic string) []protocol.MessageQueue {
	r.mu.RLock()
	qs, ok := r.queues[topic]
	r.mu.RUnlock()
	if ok {
		return qs
	}
	r.update(topic)
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.queues[topic]
}

// refreshLoop fetches every known topic's route again each period.
func (r *topicRoutes) refreshLoop(stop <-chan struct{}, period time.Duration) {
	runEvery(stop, period, func() {
		r.mu.RLock()
		topics := make([]string, 0, len(r.queues))
		for t := range r.queues {
			topics = append(topics, t)
		}
		r.mu.RUnlock()
		for _, t := range topics {
			r.update(t)
		}
	})
}

// update asks the name servers for the topic's route and keeps its
// readable queues; a failure keeps what was there.
func (r *topicRoutes) update(topic string) {
	route, err := r.fetch(topic)
	if err != nil {
		r.log.Error("updateTopicRouteInfoFromNameServer Exception", zap.String("topic", topic), zap.Error(err))
		var remote *remoteError
		if errors.As(err, &remote) && remote.code == int32(remoting.TopicNotExist) &&
			!strings.HasPrefix(topic, RetryGroupTopicPrefix) {
			r.mu.Lock()
			delete(r.queues, topic)
			r.mu.Unlock()
		}
		return
	}
	qs := readableQueues(topic, route)
	r.mu.Lock()
	r.queues[topic] = qs
	r.mu.Unlock()
}

// fetch is GET_ROUTEINFO_BY_TOPIC to each name server in turn.
func (r *topicRoutes) fetch(topic string) (*protocol.TopicRouteData, error) {
	var last error = errNoNamesrv
	for _, addr := range r.namesrvs() {
		req := remoting.NewRequest(remoting.GetRouteinfoByTopic, map[string]string{"topic": topic})
		ctx, cancel := context.WithTimeout(context.Background(), routeRequestTimeout)
		resp, err := r.client.Invoke(ctx, addr, req)
		cancel()
		if err != nil {
			last = err
			continue
		}
		if resp.Code != int32(remoting.Success) {
			return nil, &remoteError{code: resp.Code, remark: resp.Remark}
		}
		return protocol.DecodeTopicRouteData(resp.Body)
	}
	return nil, last
}

// readableQueues is topicRouteData2TopicSubscribeInfo, sorted as
// MessageQueue.compareTo sorts (topic, broker name, queue id).
func readableQueues(topic string, route *protocol.TopicRouteData) []protocol.MessageQueue {
	qs := []protocol.MessageQueue{}
	for _, qd := range route.QueueDatas {
		if qd.Perm&protocol.PermRead == 0 {
			continue
		}
		for i := int32(0); i < qd.ReadQueueNums; i++ {
			qs = append(qs, protocol.MessageQueue{Topic: topic, BrokerName: qd.BrokerName, QueueID: i})
		}
	}
	slices.SortFunc(qs, compareQueues)
	return qs
}
