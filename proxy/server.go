package proxy

// The gRPC server: MessagingService on grpcServerPort, with the inbound
// bound Java sets (grpcMaxInboundMessageSize, 130 MiB), over the brokers
// (brokers.go). Local mode (mqbroker --enable-proxy) serves the broker of
// its process; cluster mode (mqproxy) the brokers of namesrvAddr.

import (
	"crypto/tls"
	"fmt"
	"net"
	"runtime"
	"strconv"
	"time"

	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/keepalive"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/proxy/apiv2"
	"github.com/rmqgo/rmqgo/remoting"
)

// grpcClientIdle is grpcClientIdleTimeMills: a connection without a call
// for that long is sent GOAWAY.
const grpcClientIdle = 120 * time.Second

// connReadBuffer is each connection's read buffer (grpc-go's default is
// 32 KiB). Every client keeps a connection open, mostly idle: with 2,000
// of them the default buffers were 64 MB of a live heap of 108 MB, and the
// collector ran without pause under the broker's default memory limit
// (about 1.5 cores busy, bench/grpc-bench.sh); with 8 KiB (and grpc-go's
// write buffers released after each flush, its default since 1.85) it was
// 0.3-0.5 s of CPU in 30 s idle (rmqbench grpc-idle -c 2000 -polls 200), the
// SendMessage throughput unchanged.
const connReadBuffer = 8 << 10

// streamWorkers is how many goroutines serve the calls (grpc-go's
// NumStreamWorkers; beyond them a call gets a goroutine of its own, as
// without workers). A new goroutine per call grew its stack on every
// SendMessage, about a tenth of the CPU the proxy spent (runtime.newstack
// under processRPC); a worker keeps its grown stack. A unary call holds
// its worker until the broker answers, so there are as many as the
// senders a proxy commonly has in flight (64 per core; with 16 per core,
// 64 senders still spent 5 % in newstack), each idle one a few KB.
var streamWorkers = uint32(64 * runtime.GOMAXPROCS(0))

// LocalBroker is the broker a local-mode proxy serves.
type LocalBroker struct {
	Addr    string // its remoting address
	Name    string // brokerName
	Cluster string // brokerClusterName
	IP      string // brokerIP1: the host the route advertises
	// Token is the broker's secret for this proxy's requests
	// (protocol.LocalProxyField): they pass the broker's ACL 2.0.
	Token string
	// Server, when set, is the broker's remoting server, called in
	// process rather than over a loopback connection to Addr.
	Server *remoting.Server
}

// inProcess is how the proxy's clients reach the local broker without a
// socket (nil when it has no Server): the broker sees them at the gRPC
// port's address.
func (l LocalBroker) inProcess(grpcAddr net.Addr) *remoting.InProcess {
	if l.Server == nil {
		return nil
	}
	remote := "127.0.0.1:0"
	if a, ok := grpcAddr.(*net.TCPAddr); ok {
		remote = net.JoinHostPort("127.0.0.1", strconv.Itoa(a.Port))
	}
	return &remoting.InProcess{Addr: l.Addr, Server: l.Server, Remote: remote}
}

// stamp marks the requests to the local broker with its secret.
func (l LocalBroker) stamp(addr string, req *remoting.Command) {
	if l.Token != "" && addr == l.Addr {
		req.SetExt(protocol.LocalProxyField, l.Token)
	}
}

// Options are what a proxy is built from.
type Options struct {
	Config Config
	// Local is set for a proxy inside a broker (local mode).
	Local  LocalBroker
	Logger *zap.Logger
	// ListenHost is the host the gRPC port binds ("" all).
	ListenHost string
	// TLSMode and TLSConfig are tls.server.mode and the server's
	// certificate (internal/tlsconf), as for the broker's port.
	TLSMode   remoting.TLSMode
	TLSConfig *tls.Config
	// Home is ROCKETMQ_HOME, whose conf/tools.yml a cluster-mode proxy may
	// sign its requests with (auth_inner.go).
	Home string
}

// Server is a running proxy.
type Server struct {
	log       *zap.Logger
	cfg       Config
	grpc      *grpc.Server
	lis       net.Listener
	client    *remoting.Client
	regClient *remoting.Client
	svc       *messaging
	remoting  *remotingPort
}

// openRemotingPort binds the remoting port (remoting_port.go), its HTTP/2
// connections handed to the gRPC server, and hooks its transactional
// producers into the heartbeats and check-backs.
func (s *Server) openRemotingPort(o Options, b *brokers, gate *authGate) error {
	var http2 func(net.Conn)
	if s.cfg.EnableRemotingLocalProxyGrpc {
		http2 = s.lis.(*sniffListener).handOver
	}
	p, err := newRemotingPort(remotingPortOptions{cfg: s.cfg, log: o.Logger.Named("remoting"), brokers: b, forward: s.client,
		host: o.ListenHost, tlsMode: o.TLSMode, tlsConfig: o.TLSConfig, http2: http2,
		topicType: s.svc.topicMessageType, kickHeartbeat: s.svc.kickHeartbeat, gate: gate})
	if err != nil {
		return err
	}
	s.remoting = p
	s.svc.remotingTxGroups = p.clients.transactionalGroups
	s.svc.remotingCheck = p.relayCheck
	if !s.cfg.local() {
		svc := s.svc
		_, rport, _ := net.SplitHostPort(p.Addr())
		_, gport, _ := net.SplitHostPort(s.Addr())
		sy := newHeartbeatSyncer(s.cfg, rport, gport, b, o.Logger.Named("heartbeat-syncer"), func(d *syncerData, ch remoteChannel) {
			takeRemote(p.clients, svc, d, ch)
		})
		p.syncer, svc.syncer = sy, sy
		svc.grpcLocalAddr = s.Addr()
	}
	return nil
}

// RemotingAddr is the bound address of the remoting port.
func (s *Server) RemotingAddr() string { return s.remoting.Addr() }

// New builds the proxy and binds its gRPC port.
func New(o Options) (*Server, error) {
	if o.Logger == nil {
		o.Logger = zap.NewNop()
	}
	cfg := o.Config
	if o.Local.Addr != "" {
		cfg.ProxyMode = ModeLocal
	}
	gate, err := newAuthGate(cfg, nil)
	if err != nil {
		return nil, err
	}
	creds, sign, err := innerCredentials(cfg, o.Home)
	if err != nil {
		return nil, err
	}
	lis, err := net.Listen("tcp", net.JoinHostPort(o.ListenHost, strconv.Itoa(cfg.GrpcServerPort)))
	if err != nil {
		return nil, fmt.Errorf("proxy: gRPC port: %w", err)
	}
	// the brokers' requests to the proxy (a transaction check-back)
	var svc *messaging
	router := remoting.NewRouter(o.Logger)
	pool := router.NewPool(remoting.PoolOptions{Workers: 2, Queue: 10000})
	router.Handle(remoting.CheckTransactionState, pool, func(req *remoting.Request) *remoting.Command {
		return svc.checkTransactionState(req)
	})
	router.Handle(remoting.GetConsumerRunningInfo, pool, func(req *remoting.Request) *remoting.Command {
		return svc.consumerRunningInfo(req)
	})
	router.Handle(remoting.ConsumeMessageDirectly, pool, func(req *remoting.Request) *remoting.Command {
		return svc.consumeMessageDirectly(req)
	})
	// Two connections to each broker: the data calls, and the
	// registrations (heartbeats, and the check-backs they draw), which a
	// broker closes when a registration expires.
	stamp, inProcess := o.Local.stamp, o.Local.inProcess(lis.Addr())
	if sign {
		stamp = signer(creds)
	}
	client := remoting.NewClient(remoting.ClientOptions{Logger: o.Logger, Stamp: stamp, InProcess: inProcess})
	regClient := remoting.NewClient(remoting.ClientOptions{Logger: o.Logger, Router: router, Stamp: stamp, InProcess: inProcess})
	b := newBrokers(client, func() []string { return splitNamesrv(cfg.NamesrvAddr) }, o.Local)
	s := &Server{log: o.Logger, cfg: cfg, lis: newSniffListener(lis, o.TLSMode, o.TLSConfig), client: client, regClient: regClient}
	if gate != nil {
		gate.meta = newBrokerAuthMetadata(b, cfg)
	}
	svc = newMessaging(cfg, b, o.Local, o.Logger, regClient, &clientChannels{ip: inProcess, router: router})
	s.svc = svc
	if err := s.openRemotingPort(o, b, gate); err != nil {
		_ = s.lis.Close()
		client.Close()
		regClient.Close()
		return nil, fmt.Errorf("proxy: remoting port: %w", err)
	}
	svc.start()
	if s.remoting.syncer != nil {
		s.remoting.syncer.start()
	}
	p := pipeline{gate: gate}
	s.grpc = grpc.NewServer(grpc.MaxRecvMsgSize(cfg.GrpcMaxInboundMessageSize),
		grpc.ReadBufferSize(connReadBuffer), grpc.NumStreamWorkers(streamWorkers),
		grpc.KeepaliveParams(keepalive.ServerParameters{MaxConnectionIdle: grpcClientIdle}),
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: 5 * time.Minute}),
		grpc.UnaryInterceptor(p.unary), grpc.StreamInterceptor(p.stream))
	apiv2.RegisterMessagingServiceServer(s.grpc, s.svc)
	return s, nil
}

// Addr is the bound gRPC address.
func (s *Server) Addr() string { return s.lis.Addr().String() }

// Serve serves until Close; it returns at once, serving in the
// background.
func (s *Server) Serve() {
	go func() {
		if err := s.grpc.Serve(s.lis); err != nil {
			s.log.Warn("proxy gRPC server stopped", zap.Error(err))
		}
	}()
	s.log.Info("grpc server start", zap.String("addr", s.Addr()), zap.String("mode", s.cfg.ProxyMode))
	s.log.Info("remoting server start", zap.String("addr", s.RemotingAddr()))
}

// Close stops serving: streams end, requests in flight finish.
func (s *Server) Close() {
	if s.remoting.syncer != nil {
		s.remoting.syncer.close()
	}
	s.remoting.close()
	s.grpc.Stop()
	s.svc.close()
	s.svc.channels.closeAll()
	s.client.Close()
	s.regClient.Close()
	if s.remoting.syncer != nil {
		s.remoting.syncer.wait()
	}
}
