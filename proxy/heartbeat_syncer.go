package proxy

// HeartbeatSyncer (cluster mode): proxies behind one load balancer share
// their consumers, so that each answers GET_CONSUMER_LIST_BY_GROUP with
// the whole group (remoting consumers rebalance on it) and knows the
// settings of a gRPC client whose calls land on it
// (docs/reference/proxy.md §6.7, proxy-remoting.md §4.6). Every consumer
// registration of a local client (each remoting HEART_BEAT, each gRPC
// Heartbeat) and each UNREGISTER_CLIENT / NotifyClientTermination is sent
// as a message to heartbeatSyncerTopicName (DefaultHeartBeatSyncerTopic,
// one queue on every master of heartbeatSyncerTopicClusterName, made at
// start when missing), producer group PID_<topic>; every proxy reads the
// topic from its last offset, as a broadcasting consumer CID_<topic>, and
// registers the consumers of the others (not its own: localProxyId).
// Java's proxies and ours read each other's messages.
//
// The message body, as fastjson writes HeartbeatSyncerData (UNREGISTER
// leaves out the consume fields), channelData a JSON string of the
// RemoteChannel (extendAttribute: the remoting client's subscriptions as
// JSON, or a gRPC client's Settings as protobuf JSON; type REMOTING or
// GRPC_V2):
//
//	{"channelData":"{\"extendAttribute\":\"[...]\",\"localAddress\":\"10.0.0.5:8080\",\"remoteAddress\":\"10.0.0.9:51234\",
//	   \"remoteProxyIp\":\"10.0.0.5\",\"type\":\"REMOTING\"}",
//	 "clientId":"10.0.0.9@1234","consumeFromWhere":"CONSUME_FROM_FIRST_OFFSET","consumeType":"CONSUME_PASSIVELY",
//	 "group":"g","heartbeatType":"REGISTER","language":"JAVA","lastUpdateTimestamp":1700000000000,
//	 "localProxyId":"10.0.0.5%8080%8081","messageModel":"CLUSTERING","subscriptionDataSet":[{SubscriptionData}],"version":479}
//
// A remote consumer lives until its UNREGISTER or 120 s without a
// REGISTER (a closed connection is not told, as in Java).
//
// Differences from Java: a topic that cannot be made or routed at start
// is tried again every second (Java's start-up fails); messages wait in a
// bounded queue (heartbeatSyncerThreadPoolQueueCapacity) and are dropped
// when it is full, as Java's pool rejects them.

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"sync"
	"time"

	jsoniter "github.com/json-iterator/go"
	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// Channel types of a RemoteChannel (ChannelProtocolType).
const (
	channelRemoting = "REMOTING"
	channelGrpcV2   = "GRPC_V2"
)

// HeartbeatType values.
const (
	syncRegister   = "REGISTER"
	syncUnregister = "UNREGISTER"
)

const (
	// syncerTopicRetry is how soon a topic not made or not routed yet is
	// tried again; syncerRetry how often new queues are looked for and a
	// failed pull is tried again.
	syncerTopicRetry  = time.Second
	syncerRetry       = 10 * time.Second
	syncerPullSuspend = 15 * time.Second
	syncerSenders     = 4
)

// syncerData is HeartbeatSyncerData (fields in fastjson's order).
type syncerData struct {
	ChannelData         string                      `json:"channelData"`
	ClientID            string                      `json:"clientId"`
	ConsumeFromWhere    string                      `json:"consumeFromWhere,omitempty"`
	ConsumeType         string                      `json:"consumeType,omitempty"`
	Group               string                      `json:"group"`
	HeartbeatType       string                      `json:"heartbeatType"`
	Language            string                      `json:"language,omitempty"`
	LastUpdateTimestamp int64                       `json:"lastUpdateTimestamp"`
	LocalProxyID        string                      `json:"localProxyId"`
	MessageModel        string                      `json:"messageModel,omitempty"`
	SubscriptionDataSet []protocol.SubscriptionData `json:"subscriptionDataSet,omitempty"`
	Version             int32                       `json:"version"`
}

// remoteChannel is a RemoteChannel as RemoteChannelSerializer writes it.
type remoteChannel struct {
	ExtendAttribute string `json:"extendAttribute,omitempty"`
	LocalAddress    string `json:"localAddress"`
	RemoteAddress   string `json:"remoteAddress"`
	RemoteProxyIP   string `json:"remoteProxyIp"`
	Type            string `json:"type"`
}

// id is RemoteChannelId's.
func (c remoteChannel) id() string {
	return c.RemoteProxyIP + "@" + c.RemoteAddress + "@" + c.LocalAddress + "@" + c.Type
}

// heartbeatSyncer sends this proxy's consumers and reads the others'.
type heartbeatSyncer struct {
	log      *zap.Logger
	brokers  *brokers
	topic    string
	cluster  string
	proxyID  string
	proxyIP  string
	outbox   chan *syncerData
	received func(d *syncerData, ch remoteChannel)
	stop     chan struct{}
	wg       sync.WaitGroup

	mu      sync.Mutex
	pulling map[string]bool // brokerName/queueId
}

// newHeartbeatSyncer is the syncer of a cluster-mode proxy whose ports
// are remotingPort and grpcPort; received is told of every other proxy's
// message.
func newHeartbeatSyncer(cfg Config, remotingPort, grpcPort string, b *brokers, log *zap.Logger,
	received func(*syncerData, remoteChannel)) *heartbeatSyncer {
	cluster := cfg.HeartbeatSyncerTopicClusterName
	if cluster == "" {
		cluster = cfg.RocketMQClusterName
	}
	return &heartbeatSyncer{log: log, brokers: b, topic: cfg.HeartbeatSyncerTopicName, cluster: cluster,
		proxyID: cfg.LocalServeAddr + "%" + remotingPort + "%" + grpcPort,
		proxyIP: cfg.LocalServeAddr, outbox: make(chan *syncerData, cfg.HeartbeatSyncerThreadPoolQueueCapacity),
		received: received, stop: make(chan struct{}), pulling: map[string]bool{}}
}

// start makes the topic when missing and runs the senders and readers.
func (s *heartbeatSyncer) start() {
	for range syncerSenders {
		s.wg.Add(1)
		go s.sendLoop()
	}
	s.wg.Add(1)
	go s.readLoop()
}

// close stops the syncer; wait waits for its goroutines, which a pull in
// flight holds until the broker answers or its client is closed.
func (s *heartbeatSyncer) close() { close(s.stop) }

func (s *heartbeatSyncer) wait() { s.wg.Wait() }

// publish queues a message, or drops it when the queue is full.
func (s *heartbeatSyncer) publish(kind, group string, c *remotingClient, ch remoteChannel) {
	d := &syncerData{HeartbeatType: kind, ClientID: c.clientID, Language: c.language, Version: c.version,
		Group: group, LastUpdateTimestamp: time.Now().UnixMilli(), LocalProxyID: s.proxyID}
	if kind == syncRegister {
		d.ConsumeType, d.MessageModel, d.ConsumeFromWhere = c.consumer.ConsumeType, c.consumer.MessageModel, c.consumer.ConsumeFromWhere
		d.SubscriptionDataSet = c.consumer.SubscriptionDataSet
	}
	ch.RemoteProxyIP = s.proxyIP
	data, err := jsoniter.Marshal(ch)
	if err != nil {
		return
	}
	d.ChannelData = string(data)
	select {
	case s.outbox <- d:
	default:
		s.log.Warn("heartbeat sync dropped: its queue is full", zap.String("group", group), zap.String("clientId", c.clientID))
	}
}

func (s *heartbeatSyncer) sendLoop() {
	defer s.wg.Done()
	for {
		select {
		case <-s.stop:
			return
		case d := <-s.outbox:
			if err := s.send(d); err != nil {
				s.log.Warn("heartbeat sync not sent", zap.String("topic", s.topic), zap.String("group", d.Group), zap.Error(err))
			}
		}
	}
}

// send puts one message on a queue of the topic (SEND_MESSAGE_V2, 3 s).
func (s *heartbeatSyncer) send(d *syncerData) error {
	body, err := jsoniter.Marshal(d)
	if err != nil {
		return err
	}
	r, err := s.brokers.route(s.topic)
	if err != nil {
		return err
	}
	queues := writeQueues(s.topic, r)
	if len(queues) == 0 {
		return errTopicNotFound
	}
	q := queues[int(time.Now().UnixNano()%int64(len(queues)))]
	addr, err := s.brokers.masterOf(s.topic, q.BrokerName)
	if err != nil {
		return err
	}
	req := remoting.NewRequest(remoting.SendMessageV2, map[string]string{
		"a": "PID_" + s.topic, "b": s.topic, "c": "TBW102", "d": "0", "e": strconv.Itoa(int(q.QueueID)), "f": "0",
		"g": strconv.FormatInt(time.Now().UnixMilli(), 10), "h": "0", "i": "", "j": "0", "k": "false", "m": "false",
		"n": q.BrokerName})
	req.Body = body
	resp, err := s.brokers.call(addr, req, brokerCallTimeout)
	if err != nil {
		return err
	}
	if resp.Code != int32(remoting.Success) {
		return fmt.Errorf("send: code %d %s", resp.Code, resp.Remark)
	}
	return nil
}

// readLoop makes the topic when missing, then keeps a reader on each of
// its queues, looking for new ones every syncerRetry.
func (s *heartbeatSyncer) readLoop() {
	defer s.wg.Done()
	made := false
	for {
		if !made {
			made = s.makeTopic()
		}
		wait := syncerTopicRetry
		if made {
			s.readNewQueues()
			wait = syncerRetry
		}
		select {
		case <-s.stop:
			return
		case <-time.After(wait):
		}
	}
}

// makeTopic creates the topic (1 queue, perm 6) on every master of the
// cluster that lacks it; it reports whether the name servers route it.
func (s *heartbeatSyncer) makeTopic() bool {
	r, err := s.brokers.namesrvRoute(s.cluster)
	if err != nil {
		s.log.Warn("heartbeat sync topic: the cluster has no route yet", zap.String("cluster", s.cluster), zap.Error(err))
		return false
	}
	for _, bd := range r.BrokerDatas {
		addr, ok := bd.BrokerAddrs.Get(protocol.MasterID)
		if !ok {
			continue
		}
		if _, err := s.brokers.topicConfigAt(addr, s.topic); err == nil {
			continue
		}
		req := remoting.NewRequest(remoting.UpdateAndCreateTopic, map[string]string{"topic": s.topic, "defaultTopic": "TBW102",
			"readQueueNums": "1", "writeQueueNums": "1", "perm": "6", "topicFilterType": "SINGLE_TAG", "topicSysFlag": "0", "order": "false"})
		if resp, err := s.brokers.call(addr, req, brokerCallTimeout); err != nil || resp.Code != int32(remoting.Success) {
			s.log.Warn("heartbeat sync topic not created", zap.String("broker", addr), zap.Error(err))
		}
	}
	if _, err := s.brokers.namesrvRoute(s.topic); err != nil {
		s.log.Warn("heartbeat sync topic not routed yet", zap.String("topic", s.topic), zap.Error(err))
		return false
	}
	s.log.Info("heartbeat sync topic ready", zap.String("topic", s.topic), zap.String("cluster", s.cluster))
	return true
}

// readNewQueues starts a reader on each queue of the topic without one.
func (s *heartbeatSyncer) readNewQueues() {
	r, err := s.brokers.namesrvRoute(s.topic)
	if err != nil {
		return
	}
	for _, q := range r.QueueDatas {
		for id := int32(0); id < q.ReadQueueNums; id++ {
			key := q.BrokerName + "/" + strconv.Itoa(int(id))
			s.mu.Lock()
			started := s.pulling[key]
			s.pulling[key] = true
			s.mu.Unlock()
			if !started {
				s.wg.Add(1)
				go s.readQueue(q.BrokerName, id, key)
			}
		}
	}
}

// readQueue pulls one queue from its last offset (as a broadcasting
// consumer from CONSUME_FROM_LAST_OFFSET), with long polling.
func (s *heartbeatSyncer) readQueue(brokerName string, queueID int32, key string) {
	defer s.wg.Done()
	defer func() {
		s.mu.Lock()
		delete(s.pulling, key)
		s.mu.Unlock()
	}()
	offset := int64(-1)
	for {
		select {
		case <-s.stop:
			return
		default:
		}
		next, err := s.pullOnce(brokerName, queueID, offset)
		if err != nil {
			s.log.Debug("heartbeat sync pull failed", zap.String("queue", key), zap.Error(err))
			select {
			case <-s.stop:
				return
			case <-time.After(syncerRetry / 3):
			}
			continue
		}
		offset = next
	}
}

// pullOnce reads from offset (-1: the queue's end) and returns where to
// read next.
func (s *heartbeatSyncer) pullOnce(brokerName string, queueID int32, offset int64) (int64, error) {
	addr, err := s.brokers.masterOf(s.topic, brokerName)
	if err != nil {
		return offset, err
	}
	q := strconv.Itoa(int(queueID))
	if offset < 0 {
		resp, err := s.brokers.call(addr, remoting.NewRequest(remoting.GetMaxOffset,
			map[string]string{"topic": s.topic, "queueId": q, "bname": brokerName}), brokerCallTimeout)
		if err != nil {
			return offset, err
		}
		return resp.ExtInt64("offset")
	}
	req := remoting.NewRequest(remoting.PullMessage, map[string]string{
		"consumerGroup": "CID_" + s.topic, "topic": s.topic, "queueId": q, "queueOffset": strconv.FormatInt(offset, 10),
		"maxMsgNums": "32", "sysFlag": strconv.Itoa(protocol.PullFlagSuspend | protocol.PullFlagSubscription), "commitOffset": "0", "suspendTimeoutMillis": strconv.Itoa(int(syncerPullSuspend / time.Millisecond)),
		"subscription": "*", "subVersion": "0", "expressionType": "TAG", "bname": brokerName})
	resp, err := s.brokers.call(addr, req, syncerPullSuspend+pullTimeoutReserve)
	if err != nil {
		return offset, err
	}
	switch remoting.ResponseCode(resp.Code) {
	case remoting.Success:
		s.deliver(resp.Body)
	case remoting.PullNotFound, remoting.PullRetryImmediately, remoting.PullOffsetMoved:
	default:
		return offset, fmt.Errorf("pull: code %d %s", resp.Code, resp.Remark)
	}
	return resp.ExtInt64Or("nextBeginOffset", offset), nil
}

// deliver hands every other proxy's message of a pull's body on.
func (s *heartbeatSyncer) deliver(body []byte) {
	for len(body) >= 4 {
		n := int(binary.BigEndian.Uint32(body))
		if n <= 0 || n > len(body) {
			return
		}
		rec, err := store.DecodeRecord(body[:n])
		body = body[n:]
		if err != nil {
			continue
		}
		var d syncerData
		if err := lenient.Unmarshal(rec.Body, &d); err != nil {
			s.log.Warn("heartbeat sync message not readable", zap.Error(err))
			continue
		}
		if d.LocalProxyID == s.proxyID {
			continue
		}
		var ch remoteChannel
		if err := lenient.Unmarshal([]byte(d.ChannelData), &ch); err != nil {
			continue
		}
		s.received(&d, ch)
	}
}
