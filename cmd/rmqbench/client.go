package main

// What rmqbench produce and consume share: the route lookup a Java client
// makes (GET_ROUTEINFO_BY_TOPIC, 105) and the queues it derives from it,
// the HEART_BEAT (34) body, and the ids a Java client makes up (clientID,
// UNIQ_KEY).

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// Names a Java client uses (MixAll), wire values: do not change.
const (
	// autoCreateTopic is the template topic a producer falls back on
	// (createTopicKey), with defaultTopicQueueNums queues.
	autoCreateTopic       = "TBW102"
	defaultTopicQueueNums = 4
	clientInnerProducer   = "CLIENT_INNER_PRODUCER"
)

// errNoRoute is returned when the name server knows no route for a topic.
var errNoRoute = errors.New("rmqbench: no route")

// messageQueue is one queue of a topic on one broker master.
type messageQueue struct {
	broker string // brokerName
	addr   string // the master's address
	id     int32
}

func (q messageQueue) String() string { return fmt.Sprintf("%s:%d@%s", q.broker, q.id, q.addr) }

// wire holds what every request of one rmqbench run has in common.
type wire struct {
	client    *remoting.Client
	timeout   time.Duration
	serialize remoting.SerializeType
}

// request returns a request with the run's header encoding.
func (w *wire) request(code remoting.RequestCode, ext map[string]string) *remoting.Command {
	req := remoting.NewRequest(code, ext)
	req.SerializeType = w.serialize
	return req
}

// call sends req to addr and waits at most w.timeout.
func (w *wire) call(addr string, req *remoting.Command) (*remoting.Command, error) {
	return w.client.InvokeTimeout(addr, req, w.timeout)
}

// serializeType is the header encoding asked for with -rocketmq-header.
func serializeType(binary bool) remoting.SerializeType {
	if binary {
		return remoting.SerializeRocketMQ
	}
	return remoting.SerializeJSON
}

// firstAddr is the first address of a ';' separated name server list.
func firstAddr(list string) string { return strings.TrimSpace(strings.Split(list, ";")[0]) }

// lookupRoute asks the name server for topic's route; errNoRoute when it
// answers TOPIC_NOT_EXIST.
func (w *wire) lookupRoute(namesrv, topic string) (*protocol.TopicRouteData, error) {
	resp, err := w.call(namesrv, w.request(remoting.GetRouteinfoByTopic, map[string]string{"topic": topic}))
	if err != nil {
		return nil, err
	}
	switch remoting.ResponseCode(resp.Code) {
	case remoting.Success:
		return protocol.DecodeTopicRouteData(resp.Body)
	case remoting.TopicNotExist:
		return nil, fmt.Errorf("%w for topic %s", errNoRoute, topic)
	default:
		return nil, fmt.Errorf("rmqbench: route of %s: %s (%d) %s", topic, remoting.ResponseCode(resp.Code), resp.Code, resp.Remark)
	}
}

// waitRoute looks the route up every second until it exists or ctx ends;
// note is told once when it does not exist yet.
func (w *wire) waitRoute(ctx context.Context, namesrv, topic string, note func()) (*protocol.TopicRouteData, error) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for first := true; ; first = false {
		route, err := w.lookupRoute(namesrv, topic)
		if !errors.Is(err, errNoRoute) {
			return route, err
		}
		if first {
			note()
		}
		select {
		case <-ctx.Done():
			return nil, err
		case <-tick.C:
		}
	}
}

// masterAddrs maps each broker name of the route to its master's address.
func masterAddrs(route *protocol.TopicRouteData) map[string]string {
	m := make(map[string]string, len(route.BrokerDatas))
	for _, b := range route.BrokerDatas {
		if addr, ok := b.BrokerAddrs.Get(0); ok {
			m[b.BrokerName] = addr
		}
	}
	return m
}

// routeQueues lists the queues a client uses, as
// topicRouteData2TopicPublishInfo (write) and topicRouteData2
// TopicSubscribeInfo (read) do: queue data sorted by broker name, those
// with the permission bit, queues 0..n-1 of each, n capped at limit when
// limit > 0. Brokers without a master are left out (a consumer could read
// from a slave; rmqbench reads from masters only).
func routeQueues(route *protocol.TopicRouteData, write bool, limit int32) []messageQueue {
	masters := masterAddrs(route)
	datas := append([]protocol.QueueData(nil), route.QueueDatas...)
	sort.Slice(datas, func(i, j int) bool { return datas[i].BrokerName < datas[j].BrokerName })
	var queues []messageQueue
	for _, qd := range datas {
		perm, n := protocol.PermRead, qd.ReadQueueNums
		if write {
			perm, n = protocol.PermWrite, qd.WriteQueueNums
		}
		addr, ok := masters[qd.BrokerName]
		if qd.Perm&perm == 0 || !ok {
			continue
		}
		if limit > 0 {
			n = min(n, limit)
		}
		for id := int32(0); id < n; id++ {
			queues = append(queues, messageQueue{broker: qd.BrokerName, addr: addr, id: id})
		}
	}
	return queues
}

// brokerAddrs is the distinct broker addresses of queues, sorted.
func brokerAddrs(queues []messageQueue) []string {
	seen := map[string]bool{}
	var addrs []string
	for _, q := range queues {
		if !seen[q.addr] {
			seen[q.addr] = true
			addrs = append(addrs, q.addr)
		}
	}
	sort.Strings(addrs)
	return addrs
}

// The heartbeat body types.
type (
	heartbeatData    = protocol.HeartbeatData
	consumerData     = protocol.ConsumerData
	producerData     = protocol.ProducerData
	subscriptionData = protocol.SubscriptionData
)

// heartbeat sends data to every address; the first failure is returned.
func (w *wire) heartbeat(addrs []string, data *heartbeatData) error {
	body, err := json.Marshal(data)
	if err != nil {
		return err
	}
	for _, addr := range addrs {
		req := w.request(remoting.HeartBeat, nil)
		req.Body = body
		resp, err := w.call(addr, req)
		if err != nil {
			return fmt.Errorf("rmqbench: heartbeat to %s: %w", addr, err)
		}
		if resp.Code != int32(remoting.Success) {
			return fmt.Errorf("rmqbench: heartbeat to %s: %s (%d) %s", addr, remoting.ResponseCode(resp.Code), resp.Code, resp.Remark)
		}
	}
	return nil
}

// newClientID is a Java clientID: clientIP@instanceName, the instance name
// being pid#nanotime as 4.9.x and 5.x clients make it.
func newClientID() string {
	return fmt.Sprintf("%s@%d#%d", localIPv4(), os.Getpid(), time.Now().UnixNano())
}

// localIPv4 is the first non-loopback IPv4 address, else 127.0.0.1.
func localIPv4() net.IP {
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
			return n.IP.To4()
		}
	}
	return net.IPv4(127, 0, 0, 1).To4()
}

// uniqIDs makes message ids shaped like MessageClientIDSetter's: a fixed
// 10-byte prefix (IPv4, low 16 bits of the pid, 4 random bytes standing in
// for the class loader hash), then the milliseconds since the start of the
// month (4 bytes) and a counter (2 bytes), as 32 upper-case hex digits.
type uniqIDs struct {
	prefix     string
	monthStart time.Time
	counter    atomic.Uint32
}

func newUniqIDs() *uniqIDs {
	var p [10]byte
	copy(p[:4], localIPv4())
	pid := os.Getpid()
	p[4], p[5] = byte(pid>>8), byte(pid)
	_, _ = rand.Read(p[6:])
	now := time.Now()
	return &uniqIDs{prefix: strings.ToUpper(hex.EncodeToString(p[:])),
		monthStart: time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, now.Location())}
}

// next returns a new id.
func (u *uniqIDs) next() string {
	var b [6]byte
	ms := uint32(time.Since(u.monthStart).Milliseconds())
	n := u.counter.Add(1)
	b[0], b[1], b[2], b[3] = byte(ms>>24), byte(ms>>16), byte(ms>>8), byte(ms)
	b[4], b[5] = byte(n>>8), byte(n)
	return u.prefix + strings.ToUpper(hex.EncodeToString(b[:]))
}
