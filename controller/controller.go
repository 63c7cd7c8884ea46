package controller

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hashicorp/raft"
	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/remoting"
)

// applyTimeout bounds a write's wait for its Raft commit, as Java waits 5 s
// for DLedger's.
const applyTimeout = 5 * time.Second

// notLeaderRemark is Java's remark for CONTROLLER_NOT_LEADER.
const notLeaderRemark = "The controller is not in leader state"

// Controller is a running controller: its remoting port, its Raft member,
// the replicated tables and its own heartbeat table.
type Controller struct {
	opts       Options
	log        *zap.Logger
	settings   *settings
	tables     *tables
	heartbeats *heartbeats
	m          *manager
	server     *remoting.Server
	client     *remoting.Client
	stream     *streamLayer
	cons       *consensus

	// ready is set once this member leads and has applied every entry
	// committed before it did (Java's initial proposal).
	ready atomic.Bool
	// scheduler is Java's single event-scheduler thread: leader requests
	// run one at a time, each after the previous one's commit.
	scheduler sync.Mutex

	closedChans chan *remoting.Channel
	stop        chan struct{}
	wg          sync.WaitGroup
	closeOnce   sync.Once
}

// manager is ReplicasInfoManager: the request logic over the replicated
// tables and this controller's heartbeat table.
type manager struct {
	t       *tables
	hb      *heartbeats
	unclean func() bool
}

// New builds a controller; Start joins the group and listens.
func New(opts Options) (*Controller, error) {
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	opts = opts.withDefaults()
	c := &Controller{
		opts: opts, log: opts.Logger, settings: newSettings(&opts),
		tables: newTables(), heartbeats: newHeartbeats(opts.Now),
		closedChans: make(chan *remoting.Channel, 1024), stop: make(chan struct{}),
	}
	c.m = &manager{t: c.tables, hb: c.heartbeats, unclean: c.settings.unclean.Load}
	self := opts.Members[opts.Self]
	var err error
	if opts.JRaft {
		c.stream, err = ownStream(listenAddrFor(opts.ListenAddr, self.RaftAddr), self.RaftAddr, ownStreamTLS(&opts))
	} else {
		c.stream, err = sharedStream(self.RaftAddr, opts.ClientTLSConfig)
	}
	if err != nil {
		return nil, err
	}
	so := remoting.ServerOptions{
		Addr: opts.ListenAddr, Router: c.newRouter(), Logger: opts.Logger, OnClose: c.onClose,
		TLSMode: opts.TLSMode, TLSConfig: opts.TLSConfig,
	}
	if !opts.JRaft {
		so.Diversions = []remoting.Diversion{{Head: raftHead, Take: c.stream.take}}
	}
	c.server = remoting.NewServer(so)
	c.client = remoting.NewClient(remoting.ClientOptions{Logger: opts.Logger, TLSConfig: opts.ClientTLSConfig})
	return c, nil
}

// listenAddrFor is the Raft listener of a jRaft-keyed member: the listen
// host of the controller port with the Raft endpoint's port.
func listenAddrFor(listen, raftAddr string) string {
	host, _, _ := splitHostPort(listen)
	_, port, _ := splitHostPort(raftAddr)
	return host + ":" + port
}

// Start listens, joins the Raft group and starts the background work.
func (c *Controller) Start() error {
	// Raft first: the handlers read c.cons from the first request on (its
	// peers' connections wait in the stream until the server hands them over)
	cons, err := startConsensus(c.opts.StoreDir, c.opts.Members, c.opts.Self, &fsm{t: c.tables, log: c.log}, c.stream, c.log)
	if err != nil {
		return err
	}
	c.cons = cons
	if err := c.server.Start(); err != nil {
		c.cons.close()
		c.cons = nil
		return fmt.Errorf("controller: %w", err)
	}
	c.wg.Add(3)
	go c.watchLeadership()
	go c.housekeeping()
	go c.scanInactiveMasters()
	c.log.Info("controller started", zap.String("addr", c.Addr()), zap.String("id", c.opts.Members[c.opts.Self].ID))
	return nil
}

// Addr is the controller port's bound host:port.
func (c *Controller) Addr() string { return c.server.Addr() }

// BootMessage is the line Java's ControllerStartup prints once serving.
func (c *Controller) BootMessage() string {
	return "The Controller Server boot success. serializeType=JSON"
}

// EmbeddedBootMessage is the line NamesrvStartup prints for a controller
// it runs.
func (c *Controller) EmbeddedBootMessage() string {
	return "The ControllerManager boot success. serializeType=JSON"
}

// IsLeader reports whether this controller leads and serves writes.
func (c *Controller) IsLeader() bool {
	return c.ready.Load() && c.cons != nil && c.cons.raft.State() == raft.Leader
}

// Close leaves the group and stops serving.
func (c *Controller) Close() error {
	var err error
	c.closeOnce.Do(func() {
		close(c.stop)
		c.ready.Store(false)
		err = c.server.Shutdown()
		c.wg.Wait()
		if c.cons != nil {
			c.cons.close()
		}
		_ = c.stream.Close()
		c.client.Close()
		c.log.Info("controller stopped")
	})
	return err
}

// watchLeadership follows Raft's leadership: on winning it, a barrier
// (the entry Java's DLedger controller proposes first) makes every earlier
// entry applied before requests are served.
func (c *Controller) watchLeadership() {
	defer c.wg.Done()
	for {
		select {
		case <-c.stop:
			return
		case leader := <-c.cons.raft.LeaderCh():
			c.ready.Store(false)
			if !leader {
				c.log.Info("controller is no longer the leader")
				continue
			}
			if err := c.cons.raft.Barrier(applyTimeout).Error(); err != nil {
				c.log.Warn("controller won the election but could not catch up", zap.Error(err))
				continue
			}
			c.ready.Store(true)
			c.log.Info("controller is the leader")
		}
	}
}

// leaderAnswer runs fn as the leader's scheduler does and commits its
// events: CONTROLLER_NOT_LEADER on a follower, SYSTEM_ERROR when the
// commit fails (the tables then stay as they were).
func (c *Controller) leaderAnswer(fn func() answer) answer {
	c.scheduler.Lock()
	defer c.scheduler.Unlock()
	if !c.IsLeader() {
		return fail(remoting.ControllerNotLeader, notLeaderRemark)
	}
	a := fn()
	if len(a.events) == 0 && !c.settings.processRead.Load() {
		return a
	}
	if err := c.cons.raft.Apply(encodeEntry(a.events), applyTimeout).Error(); err != nil {
		if errors.Is(err, raft.ErrNotLeader) || errors.Is(err, raft.ErrLeadershipLost) {
			return fail(remoting.ControllerNotLeader, notLeaderRemark)
		}
		return fail(remoting.SystemError, "the controller could not commit the request: "+err.Error())
	}
	return a
}

// leaderOnly serves a request through leaderAnswer.
func (c *Controller) leaderOnly(fn func(header, []byte) answer) remoting.Handler {
	return func(req *remoting.Request) *remoting.Command {
		a := c.leaderAnswer(func() answer { return fn(header{req.Cmd}, req.Cmd.Body) })
		return a.response(req.Cmd)
	}
}

// newRouter registers the codes ControllerManager.registerProcessor does,
// all on one pool; any other code is REQUEST_CODE_NOT_SUPPORTED.
func (c *Controller) newRouter() *remoting.Router {
	r := remoting.NewRouter(c.log)
	pool := r.NewPool(remoting.PoolOptions{Name: "controller", Workers: c.opts.ThreadPoolNums, Queue: c.opts.QueueCapacity})
	m := c.m
	handlers := map[remoting.RequestCode]remoting.Handler{
		remoting.ControllerAlterSyncStateSet: c.leaderOnly(m.alterSyncStateSet),
		remoting.ControllerElectMaster:       c.electMaster,
		remoting.ControllerRegisterBroker:    c.leaderOnly(func(h header, _ []byte) answer { return m.registerBroker(h) }),
		remoting.ControllerGetReplicaInfo:    c.leaderOnly(func(h header, _ []byte) answer { return m.getReplicaInfo(h) }),
		remoting.ControllerGetMetadataInfo:   c.getMetadataInfo,
		remoting.ControllerGetSyncStateData:  c.leaderOnly(func(_ header, body []byte) answer { return m.getSyncStateData(body) }),
		remoting.UpdateControllerConfig:      c.updateControllerConfig,
		remoting.GetControllerConfig:         c.getControllerConfig,
		remoting.CleanBrokerData:             c.leaderOnly(func(h header, _ []byte) answer { return m.cleanBrokerData(h) }),
		remoting.ControllerGetNextBrokerId:   c.leaderOnly(func(h header, _ []byte) answer { return m.getNextBrokerID(h) }),
		remoting.ControllerApplyBrokerId:     c.leaderOnly(func(h header, _ []byte) answer { return m.applyBrokerID(h) }),
		remoting.BrokerHeartbeat:             c.brokerHeartbeat,
	}
	for code, h := range handlers {
		r.Handle(code, pool, h)
	}
	r.SetFallback(func(req *remoting.Request) *remoting.Command {
		if req.Cmd.IsOneway() {
			return nil
		}
		return remoting.NotSupported(req)
	})
	return r
}

// electMaster serves CONTROLLER_ELECT_MASTER and, on SUCCESS, tells the
// set's live brokers.
func (c *Controller) electMaster(req *remoting.Request) *remoting.Command {
	name := header{req.Cmd}.str("brokerName", "")
	a := c.leaderAnswer(func() answer { return c.m.electMaster(header{req.Cmd}) })
	if a.code == remoting.Success {
		c.notifyRoleChanged(name)
	}
	return a.response(req.Cmd)
}
