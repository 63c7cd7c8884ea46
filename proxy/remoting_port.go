package proxy

// The remoting port (remotingListenPort, 8080; Java's RemotingProtocolServer,
// docs/reference/proxy-remoting.md). One port serves remoting clients and,
// handed to the gRPC server, HTTP/2 (gRPC clients that take 8080 for their
// endpoint): remoting.Server's HTTP2 option. It runs in both modes, as
// Java's does:
//
//   - cluster mode (mqproxy): the proxy is the remoting clients' name
//     server and every broker. GET_ROUTEINFO_BY_TOPIC routes every broker
//     to this port (remoting_route.go); the messaging codes are forwarded
//     to the master of the broker the request names (remoting_forward.go);
//     heartbeats stay here (remoting_clients.go).
//   - local mode (--enable-proxy): routes name the gRPC port, and the
//     forwarded codes answer "request is not implemented in
//     LocalMessageService": remoting clients use the broker's own port.
//
// Codes (the registered ones; any other answers REQUEST_CODE_NOT_SUPPORTED
// " request type <code> not supported", nothing when oneway):
//
//	10 SEND_MESSAGE, 310 SEND_MESSAGE_V2, 320 SEND_BATCH_MESSAGE, 36 CONSUMER_SEND_MSG_BACK,
//	37 END_TRANSACTION, 370 RECALL_MESSAGE                                  remoting_forward.go
//	11 PULL_MESSAGE, 361 LITE_PULL_MESSAGE, 200050 POP_MESSAGE,
//	200051 ACK_MESSAGE, 200053 CHANGE_MESSAGE_INVISIBLETIME                 remoting_forward.go
//	14 QUERY_CONSUMER_OFFSET, 15 UPDATE_CONSUMER_OFFSET, 29 SEARCH_OFFSET_BY_TIMESTAMP,
//	30 GET_MAX_OFFSET, 31 GET_MIN_OFFSET, 41 LOCK_BATCH_MQ, 42 UNLOCK_BATCH_MQ  remoting_forward.go
//	34 HEART_BEAT, 35 UNREGISTER_CLIENT, 46 CHECK_CLIENT_CONFIG,
//	38 GET_CONSUMER_LIST_BY_GROUP, 203 GET_CONSUMER_CONNECTION_LIST         here
//	105 GET_ROUTEINFO_BY_TOPIC                                              remoting_route.go
//
// Differences from Java 5.3.3, where Java's behaviour is an accident
// (proxy-remoting.md §12):
//   - a broker that cannot be reached is answered SYSTEM_ERROR with the
//     client's opaque; Java answers with its own, which no client matches
//     (the client times out);
//   - POP_MESSAGE, ACK_MESSAGE and CHANGE_MESSAGE_INVISIBLETIME are
//     forwarded by bname; Java dispatches them to handlers that fail (POP:
//     SYSTEM_ERROR) or never answer (ACK, CHANGE);
//   - a producer's END_TRANSACTION is forwarded to its broker (by bname,
//     or the broker of the check-back it answers); Java drops the first
//     one and commits only on the broker's check-back;
//   - GET_CONSUMER_LIST_BY_GROUP of an unknown group answers the broker's
//     SYSTEM_ERROR "no consumer for this group, <g>"; Java's is an NPE;
//   - requests are served on bounded pools per family (Java 5.3.3 runs
//     every request on a 4-thread executor).
//
// In cluster mode the consumers registered here are shared with the other
// proxies of the cluster, and theirs kept here (heartbeat_syncer.go).

import (
	"crypto/tls"
	"net"
	"runtime"
	"strconv"
	"sync"
	"time"

	jsoniter "github.com/json-iterator/go"
	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// remotingPort is the remoting port and what its handlers use.
type remotingPort struct {
	log     *zap.Logger
	cfg     Config
	local   bool
	brokers *brokers
	// forward carries the forwarded requests (Java's ClusterMQClient).
	forward *remoting.Client
	clients *remotingClients
	// txBrokers is the broker of each check-back relayed to a producer,
	// by producer group and transaction id, for the END_TRANSACTION that
	// answers it.
	txBrokers txTable
	// accessHost is the host routes advertise (remotingAccessAddr).
	accessHost    string
	topicType     func(topic string) string
	kickHeartbeat func()
	gate          *authGate
	server        *remoting.Server
	// syncer shares the consumers with other proxies (cluster mode).
	syncer *heartbeatSyncer
	stop   chan struct{}
	done   sync.WaitGroup
}

// remotingPortOptions are what the port is built from.
type remotingPortOptions struct {
	cfg       Config
	log       *zap.Logger
	brokers   *brokers
	forward   *remoting.Client
	host      string // the host the port binds
	tlsMode   remoting.TLSMode
	tlsConfig *tls.Config
	http2     func(net.Conn)
	// topicType is a topic's message.type (messaging.topicMessageType);
	// kickHeartbeat asks for a heartbeat of the producer groups now.
	topicType     func(topic string) string
	kickHeartbeat func()
	// gate is ACL 2.0 (nil: off), as on the gRPC port.
	gate *authGate
}

// newRemotingPort builds the port and binds it.
func newRemotingPort(o remotingPortOptions) (*remotingPort, error) {
	p := &remotingPort{log: o.log, cfg: o.cfg, local: o.cfg.local(), brokers: o.brokers, forward: o.forward,
		clients: newRemotingClients(), accessHost: o.cfg.RemotingAccessAddr, topicType: o.topicType,
		kickHeartbeat: o.kickHeartbeat, gate: o.gate, stop: make(chan struct{})}
	if p.accessHost == "" {
		p.accessHost = o.cfg.LocalServeAddr
	}
	tc := o.tlsConfig
	if tc != nil {
		tc = tc.Clone()
		tc.NextProtos = []string{"h2"}
	}
	router := p.router()
	p.server = remoting.NewServer(remoting.ServerOptions{
		Addr: net.JoinHostPort(o.host, strconv.Itoa(o.cfg.RemotingListenPort)), Router: router, Logger: o.log,
		IdleTimeout: channelExpiredTimeout, TLSMode: o.tlsMode, TLSConfig: tc, HTTP2: o.http2,
		OnClose: p.clients.closed,
	})
	if err := p.server.Start(); err != nil {
		return nil, err
	}
	router.Start()
	p.done.Add(1)
	go p.expireLoop()
	return p, nil
}

// router maps the codes to their handlers, each family on its pool
// (Java's remoting*ThreadPoolNums and queue capacities).
func (p *remotingPort) router() *remoting.Router {
	r := remoting.NewRouter(p.log)
	n := runtime.NumCPU()
	pool := func(name string, workers, queue int) *remoting.Pool {
		return r.NewPool(remoting.PoolOptions{Name: name, Workers: workers, Queue: queue})
	}
	send, pull := pool("RemotingSendMessageThread", 4*n, 10000), pool("RemotingPullMessageThread", 4*n, 50000)
	offset, heartbeat := pool("RemotingUpdateOffsetThread", 4*n, 10000), pool("RemotingHeartbeatThread", 2*n, 50000)
	route, other := pool("RemotingTopicRouteThread", 2*n, 50000), pool("RemotingDefaultThread", 4*n, 50000)
	// every code is checked by ACL 2.0 first (remoting_auth.go)
	handle := func(c remoting.RequestCode, pool *remoting.Pool, h remoting.Handler) { r.Handle(c, pool, p.guard(h)) }
	for _, c := range []remoting.RequestCode{remoting.SendMessage, remoting.SendMessageV2, remoting.SendBatchMessage} {
		handle(c, send, p.send)
	}
	handle(remoting.ConsumerSendMsgBack, send, p.forwardByBrokerName)
	handle(remoting.EndTransaction, send, p.endTransaction)
	handle(remoting.RecallMessage, send, p.recall)
	handle(remoting.HeartBeat, heartbeat, p.heartbeat)
	handle(remoting.UnregisterClient, other, p.unregister)
	handle(remoting.CheckClientConfig, other, p.checkClientConfig)
	handle(remoting.PullMessage, pull, p.pull)
	handle(remoting.LitePullMessage, pull, p.pull)
	handle(remoting.PopMessage, pull, p.forwardByBrokerName)
	for _, c := range []remoting.RequestCode{remoting.UpdateConsumerOffset, remoting.AckMessage,
		remoting.ChangeMessageInvisibletime} {
		handle(c, offset, p.forwardByBrokerName)
	}
	handle(remoting.GetConsumerConnectionList, offset, p.consumerConnectionList)
	handle(remoting.GetConsumerListByGroup, other, p.consumerListByGroup)
	for _, c := range []remoting.RequestCode{remoting.GetMaxOffset, remoting.GetMinOffset,
		remoting.QueryConsumerOffset, remoting.SearchOffsetByTimestamp} {
		handle(c, other, p.forwardByBrokerName)
	}
	handle(remoting.LockBatchMq, other, p.lockBatch)
	handle(remoting.UnlockBatchMq, other, p.lockBatch)
	handle(remoting.GetRouteinfoByTopic, route, p.route)
	return r
}

// Addr is the bound address.
func (p *remotingPort) Addr() string { return p.server.Addr() }

// close stops the port: connections close, forwarded calls in flight
// answer into closed channels.
func (p *remotingPort) close() {
	close(p.stop)
	p.done.Wait()
	_ = p.server.Shutdown()
}

// expireLoop drops the registrations not refreshed in time and closes
// their connections (ClusterServiceManager's scan: every 10 s).
func (p *remotingPort) expireLoop() {
	defer p.done.Done()
	t := time.NewTicker(10 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case now := <-t.C:
			for _, ch := range p.clients.expire(now) {
				p.log.Info("remoting client expired: no heartbeat in 120 s", zap.String("remote", ch.RemoteAddr()))
				_ = ch.Close()
			}
		}
	}
}

// answer is a response the proxy writes itself: version 479 as Java's
// proxy, with the ext fields every response of the port carries.
func answer(req *remoting.Request, code remoting.ResponseCode, remark string) *remoting.Command {
	resp := remoting.NewResponse(req.Cmd, code, remark)
	resp.Version = int32(protocol.VersionV5_3_3)
	stampResponse(resp)
	return resp
}

// succeeded is SUCCESS with an empty remark, as Java's proxy answers a
// heartbeat and the client's other registration calls.
func succeeded(req *remoting.Request) *remoting.Command {
	resp := answer(req, remoting.Success, "")
	resp.HasRemark = true
	return resp
}

// stampResponse sets what Java's proxy sets on every response it writes:
// MSG_REGION (regionId, "") and TRACE_ON (traceOn, false).
func stampResponse(resp *remoting.Command) {
	resp.SetExt("MSG_REGION", "")
	resp.SetExt("TRACE_ON", "false")
}

// heartbeat is HEART_BEAT: the client's groups registered here.
func (p *remotingPort) heartbeat(req *remoting.Request) *remoting.Command {
	hb, err := protocol.DecodeHeartbeatData(req.Cmd.Body)
	if hb == nil {
		return answer(req, remoting.SystemError, "heartbeat body: "+errText(err))
	}
	p.clients.heartbeat(req, hb, time.Now())
	if p.syncer != nil {
		p.syncer.syncRemotingConsumers(syncRegister, req.Ch, hb.ClientID, req.Cmd.Language.String(), req.Cmd.Version,
			hb.ConsumerDataSet)
	}
	return succeeded(req)
}

// unregister is UNREGISTER_CLIENT.
func (p *remotingPort) unregister(req *remoting.Request) *remoting.Command {
	group := req.Cmd.ExtString("consumerGroup")
	p.clients.unregister(req.Ch, req.Cmd.ExtString("producerGroup"), group)
	if p.syncer != nil && group != "" {
		p.syncer.syncRemotingConsumers(syncUnregister, req.Ch, req.Cmd.ExtString("clientID"), req.Cmd.Language.String(),
			req.Cmd.Version, []protocol.ConsumerData{{GroupName: group}})
	}
	return succeeded(req)
}

// checkClientConfig is CHECK_CLIENT_CONFIG: Java's proxy checks nothing.
func (p *remotingPort) checkClientConfig(req *remoting.Request) *remoting.Command {
	return succeeded(req)
}

// consumerListByGroup is GET_CONSUMER_LIST_BY_GROUP, from the consumers
// registered here.
func (p *remotingPort) consumerListByGroup(req *remoting.Request) *remoting.Command {
	group := req.Cmd.ExtString("consumerGroup")
	ids, ok := p.clients.consumerIDs(group)
	if !ok {
		return answer(req, remoting.SystemError, "no consumer for this group, "+group)
	}
	body, err := jsoniter.Marshal(struct {
		ConsumerIDList []string `json:"consumerIdList"`
	}{ids})
	if err != nil {
		return answer(req, remoting.SystemError, err.Error())
	}
	resp := answer(req, remoting.Success, "not set any response code")
	resp.Body = body
	return resp
}

// consumerConnectionList is GET_CONSUMER_CONNECTION_LIST.
func (p *remotingPort) consumerConnectionList(req *remoting.Request) *remoting.Command {
	group := req.Cmd.ExtString("consumerGroup")
	cc, ok := p.clients.consumerConnection(group)
	if !ok {
		return answer(req, remoting.ConsumerNotOnline, "the consumer group["+group+"] not online")
	}
	resp := answer(req, remoting.Success, "")
	resp.Body = cc.AppendJSON(nil)
	return resp
}

func errText(err error) string {
	if err == nil {
		return "empty"
	}
	return err.Error()
}
