package proxy

// MessagingService: one method per RPC, each in the file of its family
// (route.go, client.go, send.go, recall.go, receive.go, ack.go,
// transaction.go); the RPCs Java leaves
// unimplemented (PullMessage, UpdateOffset, GetOffset, QueryOffset) answer
// as the generated base does, UNIMPLEMENTED.

import (
	"sync"

	"google.golang.org/grpc"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/proxy/apiv2"
	"github.com/rmqgo/rmqgo/remoting"
)

// messaging is the MessagingService.
type messaging struct {
	apiv2.UnimplementedMessagingServiceServer
	cfg     Config
	log     *zap.Logger
	brokers *brokers
	local   LocalBroker
	// settings are the clients' settings, by client id, as their
	// telemetry streams sent them (GrpcClientSettingsManager).
	settings sync.Map // string -> *apiv2.Settings
	rr       roundRobin
	streams  streams
	txs      txTable
	renews   renewTable
	// channels are the clients' own connections to a broker in process
	// (registration.go); relays the broker's questions relayed to them
	// (relay.go).
	channels *clientChannels
	relays   relayTable
	// reg carries the heartbeats of the clients' groups when the broker
	// is not in process; registered are the groups it last heartbeated
	// (heartbeatLoop's own).
	reg        invoker
	registered registeredGroups
	hbMu       sync.Mutex // one heartbeat at a time
	// hbKick asks heartbeatLoop for a heartbeat now; kicks made while
	// one is pending make one heartbeat.
	hbKick chan struct{}
	stop   chan struct{}
	// remotingTxGroups and remotingCheck are the remoting port's
	// transactional producers (remoting_port.go): their groups are
	// heartbeated with the gRPC clients', and a check-back no gRPC client
	// takes goes to one of them.
	remotingTxGroups func() map[string][]string
	remotingCheck    func(group, brokerName string, check *remoting.Command) bool
	// syncer shares the gRPC consumers with other proxies (cluster
	// mode); grpcLocalAddr is the gRPC port's address it names.
	syncer        *heartbeatSyncer
	grpcLocalAddr string
}

func newMessaging(cfg Config, b *brokers, local LocalBroker, log *zap.Logger, reg invoker, channels *clientChannels) *messaging {
	return &messaging{cfg: cfg, log: log, brokers: b, local: local, reg: reg, channels: channels,
		hbKick: make(chan struct{}, 1), stop: make(chan struct{})}
}

// start runs the heartbeats of the clients' groups (unless each client
// registers itself) and the renewal of receipt handles, until close.
func (m *messaging) start() {
	if !m.channels.perClient() {
		go m.heartbeatLoop(m.stop)
	}
	go m.renewLoop(m.stop)
}

func (m *messaging) close() { close(m.stop) }

// PullMessage, UpdateOffset, GetOffset and QueryOffset are not
// implemented by Java's proxy either (interceptor.go answers them first).
func (m *messaging) PullMessage(*apiv2.PullMessageRequest, grpc.ServerStreamingServer[apiv2.PullMessageResponse]) error {
	return unimplementedError("PullMessage")
}

// roundRobin spreads sends and receives over queues and brokers.
type roundRobin struct {
	mu sync.Mutex
	n  map[string]uint32
}

// next is key's next index below n.
func (r *roundRobin) next(key string, n int) int {
	if n <= 0 {
		return 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.n == nil {
		r.n = map[string]uint32{}
	}
	v := r.n[key]
	r.n[key] = v + 1
	return int(v % uint32(n))
}
