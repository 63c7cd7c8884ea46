package namesrv

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/remoting"
)

// ErrClosed is returned by Start after Close.
var ErrClosed = errors.New("namesrv: closed")

// NameServer is a running name server: the remoting server, the route
// table, the KV config and the liveness scan.
type NameServer struct {
	opts    Options
	log     *zap.Logger
	cfg     *settings
	routes  *routeTable
	kv      *kvStore
	server  *remoting.Server
	fetcher *remoting.Client // ClusterTest lookups; nil otherwise
	started time.Time

	// closedChans queues connections that closed, for the housekeeping
	// goroutine (the event loop must not wait for the route lock).
	closedChans chan *remoting.Channel
	stop        chan struct{}
	wg          sync.WaitGroup
	closeOnce   sync.Once
}

// New builds a name server from opts: it loads the KV config file and
// registers every handler, but does not listen yet.
func New(opts Options) (*NameServer, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	opts = opts.withDefaults()
	kv, err := openKVStore(opts.KVConfigPath, opts.Logger)
	if err != nil {
		return nil, err
	}
	cfg := newSettings(&opts)
	ns := &NameServer{
		opts: opts, log: opts.Logger, cfg: cfg, kv: kv,
		routes:      newRouteTable(opts.Logger, cfg, opts.Now, opts.BrokerChannelExpiredTime),
		closedChans: make(chan *remoting.Channel, 3000),
		stop:        make(chan struct{}),
	}
	if opts.ClusterTest {
		ns.fetcher = remoting.NewClient(remoting.ClientOptions{Logger: opts.Logger})
	}
	ns.server = remoting.NewServer(remoting.ServerOptions{
		Addr: opts.ListenAddr, Router: ns.newRouter(), Logger: opts.Logger,
		EventLoops: opts.EventLoops, OnClose: ns.onClose, IdleTimeout: opts.ServerChannelMaxIdleTime,
		TLSMode: opts.TLSMode, TLSConfig: opts.TLSConfig,
	})
	return ns, nil
}

// Start listens and starts the liveness scan.
func (ns *NameServer) Start() error {
	select {
	case <-ns.stop:
		return ErrClosed
	default:
	}
	ns.started = ns.opts.Now()
	if err := ns.server.Start(); err != nil {
		return fmt.Errorf("namesrv: %w", err)
	}
	ns.wg.Add(1)
	go ns.housekeeping()
	ns.log.Info("name server started", zap.String("addr", ns.Addr()))
	return nil
}

// Addr is the bound host:port.
func (ns *NameServer) Addr() string { return ns.server.Addr() }

// BootMessage is the line Java's NamesrvStartup prints once serving.
func (ns *NameServer) BootMessage() string {
	return "The Name Server boot success. serializeType=JSON"
}

// Close stops serving, closes every connection and waits for the
// background work to end.
func (ns *NameServer) Close() error {
	var err error
	ns.closeOnce.Do(func() {
		close(ns.stop)
		err = ns.server.Shutdown()
		ns.wg.Wait()
		if ns.fetcher != nil {
			ns.fetcher.Close()
		}
		ns.log.Info("name server stopped")
	})
	return err
}

// onClose runs on the event loop: it only queues connections brokers
// registered over (nothing is left to clean once Close began).
func (ns *NameServer) onClose(ch *remoting.Channel) {
	if _, ok := ch.Attr(brokerChannelAttr{}); !ok {
		return
	}
	select {
	case <-ns.stop:
		return
	default:
	}
	select {
	case ns.closedChans <- ch:
	default:
		ns.wg.Add(1)
		go func() {
			defer ns.wg.Done()
			ns.routes.onChannelClosed(ch)
		}()
	}
}

// housekeeping is BrokerHousekeepingService and the scanNotActiveBroker
// schedule in one goroutine: closed broker connections are removed at
// once, expired brokers every ScanNotActiveBrokerInterval.
func (ns *NameServer) housekeeping() {
	defer ns.wg.Done()
	tick := time.NewTicker(ns.opts.ScanNotActiveBrokerInterval)
	defer tick.Stop()
	for {
		select {
		case <-ns.stop:
			return
		case ch := <-ns.closedChans:
			ns.routes.onChannelClosed(ch)
		case <-tick.C:
			for _, ch := range ns.routes.scanExpired() {
				_ = ch.Close()
			}
		}
	}
}

// newRouter is the dispatch table: GET_ROUTEINFO_BY_TOPIC on the client
// pool as in 5.x, every other code on the default pool, unknown codes
// answered REQUEST_CODE_NOT_SUPPORTED.
func (ns *NameServer) newRouter() *remoting.Router {
	r := remoting.NewRouter(ns.log)
	o := &ns.opts
	client := r.NewPool(remoting.PoolOptions{Name: "client", Workers: o.ClientRequestThreadPoolNums, Queue: o.ClientRequestThreadPoolQueueCapacity})
	def := r.NewPool(remoting.PoolOptions{Name: "default", Workers: o.DefaultThreadPoolNums, Queue: o.DefaultThreadPoolQueueCapacity})
	r.Handle(remoting.GetRouteinfoByTopic, client, ns.getRouteInfoByTopic)
	for code, h := range ns.defaultHandlers() {
		r.Handle(code, def, h)
	}
	r.SetFallback(notSupported)
	return r
}

// defaultHandlers are the codes of DefaultRequestProcessor (4.9.8 and
// 5.3.3).
func (ns *NameServer) defaultHandlers() map[remoting.RequestCode]remoting.Handler {
	return map[remoting.RequestCode]remoting.Handler{
		remoting.PutKvConfig:                   ns.putKVConfig,
		remoting.GetKvConfig:                   ns.getKVConfig,
		remoting.DeleteKvConfig:                ns.deleteKVConfig,
		remoting.GetKvlistByNamespace:          ns.getKVListByNamespace,
		remoting.QueryDataVersion:              ns.queryDataVersion,
		remoting.RegisterBroker:                ns.registerBroker,
		remoting.UnregisterBroker:              ns.unregisterBroker,
		remoting.BrokerHeartbeat:               ns.brokerHeartbeat,
		remoting.GetBrokerMemberGroup:          ns.getBrokerMemberGroup,
		remoting.GetBrokerClusterInfo:          ns.getBrokerClusterInfo,
		remoting.WipeWritePermOfBroker:         ns.wipeWritePermOfBroker,
		remoting.AddWritePermOfBroker:          ns.addWritePermOfBroker,
		remoting.GetAllTopicListFromNameserver: ns.getAllTopicList,
		remoting.DeleteTopicInNamesrv:          ns.deleteTopicInNamesrv,
		remoting.RegisterTopicInNamesrv:        ns.registerTopicInNamesrv,
		remoting.GetTopicsByCluster:            ns.getTopicsByCluster,
		remoting.GetSystemTopicListFromNs:      ns.getSystemTopicList,
		remoting.GetUnitTopicList:              ns.getUnitTopicList,
		remoting.GetHasUnitSubTopicList:        ns.getHasUnitSubTopicList,
		remoting.GetHasUnitSubUnunitTopicList:  ns.getHasUnitSubUnUnitTopicList,
		remoting.UpdateNamesrvConfig:           ns.updateNamesrvConfig,
		remoting.GetNamesrvConfig:              ns.getNamesrvConfig,
	}
}

// notSupported answers an unknown code as 5.x DefaultRequestProcessor
// does; a oneway request gets nothing. (4.9.8 answers nothing at all: its
// default processor returns null, and the caller times out.)
func notSupported(req *remoting.Request) *remoting.Command {
	if req.Cmd.IsOneway() {
		return nil
	}
	return remoting.NotSupported(req)
}
