package proxy

// The brokers behind the proxy, reached over remoting in both modes: in
// local mode the broker of this process (the route is its own topic
// config, its queues served at this proxy's gRPC port), in cluster mode
// the brokers the name servers route to. Routes, topic configs and group
// configs are kept for routeCacheTTL, as Java's caches refresh them.

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

const (
	brokerCallTimeout = 3 * time.Second
	routeCacheTTL     = 20 * time.Second
)

// errTopicNotFound is a topic no name server (or, local, the broker)
// knows.
var errTopicNotFound = errors.New("topic not found")

// noRoute is the name servers' "topic not exist", as the Java client
// decorates it (MQClientException: CODE, DESC, the FAQ line).
func noRoute(topic string) error {
	return &topicNotFound{msg: "CODE: 17  DESC: No topic route info in name server for the topic: " + topic +
		"\nFor more information, please visit the url, https://rocketmq.apache.org/docs/bestPractice/06FAQ"}
}

// topicNotFound is errTopicNotFound with Java's message.
type topicNotFound struct{ msg string }

func (e *topicNotFound) Error() string { return e.msg }
func (e *topicNotFound) Unwrap() error { return errTopicNotFound }

// invoker sends a request to a remoting peer (*remoting.Client).
type invoker interface {
	InvokeTimeout(addr string, req *remoting.Command, timeout time.Duration) (*remoting.Command, error)
	InvokeOneway(addr string, req *remoting.Command) error
}

// brokers reaches the name servers and brokers.
type brokers struct {
	client   invoker
	namesrvs func() []string
	// localAddr is the broker of a local proxy ("" in cluster mode).
	localAddr    string
	localName    string
	localCluster string

	routes   *ttlCache[*protocol.TopicRouteData]
	nsRoutes *ttlCache[*protocol.TopicRouteData]
	topics   *ttlCache[protocol.TopicConfig]
	groups   *ttlCache[protocol.SubscriptionGroupConfig]
}

func newBrokers(client invoker, namesrvs func() []string, local LocalBroker) *brokers {
	return &brokers{client: client, namesrvs: namesrvs, localAddr: local.Addr, localName: local.Name, localCluster: local.Cluster,
		routes: newTTLCache[*protocol.TopicRouteData](routeCacheTTL), nsRoutes: newTTLCache[*protocol.TopicRouteData](routeCacheTTL),
		topics: newTTLCache[protocol.TopicConfig](routeCacheTTL), groups: newTTLCache[protocol.SubscriptionGroupConfig](routeCacheTTL)}
}

// ttlCacheMaxNum bounds a ttlCache, as Java's caches are bounded
// (topicConfigCacheMaxNum, userCacheMaxNum, ...: 20000).
const ttlCacheMaxNum = 20000

// ttlCache keeps fetched values by key for a while, at most
// ttlCacheMaxNum of them; a zero ttl keeps none.
type ttlCache[T any] struct {
	ttl time.Duration

	mu sync.Mutex
	m  map[string]cached[T]
}

// cached is a value and when it was fetched.
type cached[T any] struct {
	v  T
	at time.Time
}

func newTTLCache[T any](ttl time.Duration) *ttlCache[T] {
	return &ttlCache[T]{ttl: ttl, m: map[string]cached[T]{}}
}

// get returns a fresh cached value or fetches it; a failed fetch is not
// kept.
func (c *ttlCache[T]) get(key string, fetch func() (T, error)) (T, error) {
	if c.ttl <= 0 {
		return fetch()
	}
	c.mu.Lock()
	v, ok := c.m[key]
	c.mu.Unlock()
	if ok && time.Since(v.at) < c.ttl {
		return v.v, nil
	}
	got, err := fetch()
	if err != nil {
		return got, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, kept := c.m[key]; !kept && len(c.m) >= ttlCacheMaxNum {
		c.makeRoom()
	}
	c.m[key] = cached[T]{v: got, at: time.Now()}
	return got, nil
}

// makeRoom drops the expired values, or one value when none has expired
// (c.mu held).
func (c *ttlCache[T]) makeRoom() {
	for k, v := range c.m {
		if time.Since(v.at) >= c.ttl {
			delete(c.m, k)
		}
	}
	for k := range c.m {
		if len(c.m) < ttlCacheMaxNum {
			return
		}
		delete(c.m, k)
	}
}

// clientRoute is the route QueryRoute and QueryAssignment answer from,
// in both modes: the name servers'.
func (b *brokers) clientRoute(topic string) (*protocol.TopicRouteData, error) {
	return b.nsRoutes.get(topic, func() (*protocol.TopicRouteData, error) { return b.namesrvRoute(topic) })
}

// route is where sends and receives go: the name servers' route, or in
// local mode the local broker's topic config as one broker's queues.
func (b *brokers) route(topic string) (*protocol.TopicRouteData, error) {
	return b.routes.get(topic, func() (*protocol.TopicRouteData, error) {
		if b.localAddr != "" {
			return b.localRoute(topic)
		}
		return b.namesrvRoute(topic)
	})
}

// namesrvRoute asks the name servers in turn.
func (b *brokers) namesrvRoute(topic string) (*protocol.TopicRouteData, error) {
	var last error = errors.New("no name server address (namesrvAddr)")
	for _, ns := range b.namesrvs() {
		resp, err := b.client.InvokeTimeout(ns, remoting.NewRequest(remoting.GetRouteinfoByTopic, map[string]string{"topic": topic}), brokerCallTimeout)
		if err != nil {
			last = err
			continue
		}
		if resp.Code == int32(remoting.TopicNotExist) {
			return nil, noRoute(topic)
		}
		if resp.Code != int32(remoting.Success) {
			last = fmt.Errorf("route of %s: code %d %s", topic, resp.Code, resp.Remark)
			continue
		}
		r, err := protocol.DecodeTopicRouteData(resp.Body)
		if err == nil && (len(r.QueueDatas) == 0 || len(r.BrokerDatas) == 0) {
			return nil, noRoute(topic)
		}
		return r, err
	}
	return nil, last
}

// localRoute is LocalTopicRouteService's: the local broker's queues.
func (b *brokers) localRoute(topic string) (*protocol.TopicRouteData, error) {
	tc, err := b.topicConfigAt(b.localAddr, topic)
	if err != nil {
		return nil, err
	}
	return &protocol.TopicRouteData{
		QueueDatas: []protocol.QueueData{{BrokerName: b.localBrokerName(), ReadQueueNums: tc.ReadQueueNums,
			WriteQueueNums: tc.WriteQueueNums, Perm: tc.Perm, TopicSysFlag: tc.TopicSysFlag}},
		BrokerDatas: []protocol.BrokerData{{Cluster: b.localCluster, BrokerName: b.localBrokerName(),
			BrokerAddrs: protocol.BrokerAddrs{{ID: protocol.MasterID, Addr: b.localAddr}}}},
	}, nil
}

// localBrokerName is the local broker's name.
func (b *brokers) localBrokerName() string { return b.localName }

// topicConfig is a topic's config on one of its brokers (its
// message.type attribute decides what a queue accepts).
func (b *brokers) topicConfig(topic string) (protocol.TopicConfig, error) {
	return b.topics.get(topic, func() (protocol.TopicConfig, error) {
		addr, err := b.anyMaster(topic)
		if err != nil {
			return protocol.TopicConfig{}, err
		}
		return b.topicConfigAt(addr, topic)
	})
}

func (b *brokers) topicConfigAt(addr, topic string) (protocol.TopicConfig, error) {
	resp, err := b.client.InvokeTimeout(addr, remoting.NewRequest(remoting.GetTopicConfig, map[string]string{"topic": topic}), brokerCallTimeout)
	if err != nil {
		return protocol.TopicConfig{}, err
	}
	if resp.Code == int32(remoting.TopicNotExist) {
		return protocol.TopicConfig{}, errTopicNotFound
	}
	if resp.Code != int32(remoting.Success) {
		return protocol.TopicConfig{}, fmt.Errorf("topic config of %s: code %d %s", topic, resp.Code, resp.Remark)
	}
	return protocol.DecodeTopicConfig(resp.Body)
}

// groupConfig is a group's config on a master broker of topic's route
// (or the local broker); ok is false when no broker has it.
func (b *brokers) groupConfig(group, topic string) (protocol.SubscriptionGroupConfig, bool) {
	c, err := b.groups.get(group, func() (protocol.SubscriptionGroupConfig, error) {
		addr, err := b.anyMaster(topic)
		if err != nil {
			return protocol.SubscriptionGroupConfig{}, err
		}
		resp, err := b.client.InvokeTimeout(addr, remoting.NewRequest(remoting.GetSubscriptiongroupConfig, map[string]string{"group": group}), brokerCallTimeout)
		if err != nil {
			return protocol.SubscriptionGroupConfig{}, err
		}
		if resp.Code != int32(remoting.Success) || len(resp.Body) == 0 {
			return protocol.SubscriptionGroupConfig{}, fmt.Errorf("group %s: code %d", group, resp.Code)
		}
		return protocol.DecodeSubscriptionGroupConfig(resp.Body)
	})
	return c, err == nil
}

// anyMaster is the address of a master broker of topic's route.
func (b *brokers) anyMaster(topic string) (string, error) {
	if b.localAddr != "" {
		return b.localAddr, nil
	}
	r, err := b.route(topic)
	if err != nil {
		return "", err
	}
	for _, bd := range r.BrokerDatas {
		if addr, ok := bd.BrokerAddrs.Get(protocol.MasterID); ok {
			return addr, nil
		}
	}
	return "", fmt.Errorf("no master broker for %s", topic)
}

// masterOf is the address of a broker name's master in topic's route.
func (b *brokers) masterOf(topic, brokerName string) (string, error) {
	if b.localAddr != "" {
		return b.localAddr, nil
	}
	r, err := b.route(topic)
	if err != nil {
		return "", err
	}
	for _, bd := range r.BrokerDatas {
		if bd.BrokerName == brokerName {
			if addr, ok := bd.BrokerAddrs.Get(protocol.MasterID); ok {
				return addr, nil
			}
		}
	}
	return "", fmt.Errorf("broker %s of %s has no master", brokerName, topic)
}

// call sends a request to a broker.
func (b *brokers) call(addr string, req *remoting.Command, timeout time.Duration) (*remoting.Command, error) {
	if timeout <= 0 {
		timeout = brokerCallTimeout
	}
	return b.client.InvokeTimeout(addr, req, timeout)
}

// oneway sends a request that has no answer.
func (b *brokers) oneway(addr string, req *remoting.Command) error {
	return b.client.InvokeOneway(addr, req)
}

// splitNamesrv splits namesrvAddr ("a:9876;b:9876").
func splitNamesrv(s string) []string {
	var out []string
	for _, a := range strings.Split(s, ";") {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}
