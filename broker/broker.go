package broker

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// ErrClosed is returned by Start after Close.
var ErrClosed = errors.New("broker: closed")

// Broker is a running broker. New (wire.go) builds the store, the tables
// and every service with what it uses; the Broker owns their lifecycle:
// it starts the store, the servers and the background services, and
// stops, persists and closes them in order.
type Broker struct {
	log      *zap.Logger
	line     line
	settings *liveSettings
	id       *identity

	store   *store.Store
	topics  *topicTable
	groups  *groupTable
	offsets *offsetTable
	filters *filterTable
	modes   *requestModeTable
	// routes are the topic routes QUERY_ASSIGNMENT reads (5.x).
	routes  *topicRoutes
	clients *clientTable
	holds   *pullHolds
	// popPolling holds the POP requests that wait for messages, revive
	// puts back what POP consumers did not ack (5.x).
	popPolling *popPolling
	notifies   *popPolling
	revive     *reviveService
	// orders is the orderly pops' consumerOrderInfo.json and the timers
	// that wake pops when a queue unblocks (nil on 4.x).
	orders      *orderInfoTable
	orderTimers *orderUnlockTimers
	reg         *registrar
	ha          *replication
	// replicas and masterServices are nil unless enableControllerMode: a
	// controller decides the role, and the master-only services follow it.
	replicas       *replicasManager
	masterServices *masterServices
	roles          *roleSwitch
	// slaveSync is nil unless brokerRole=SLAVE.
	slaveSync   *slaveSync
	schedule    *scheduleService
	timer       *timerService
	stats       *runtimeStats
	brokerStats *brokerStats
	statsLogger *zap.Logger
	handlers    handlers
	// acl is nil unless aclEnable.
	acl *aclGuard
	// auth is nil unless ACL 2.0 is on (5.x line).
	auth *authGuard
	// metrics and metricsServer are nil unless metricsExporterType=PROM.
	metrics       *brokerMetrics
	metricsAddr   string
	metricsServer *metricsServer

	// servers are the main server and, unless listenPort is 0, the VIP
	// one on listenPort - 2.
	servers []*remoting.Server

	stop      chan struct{}
	wg        sync.WaitGroup
	closeOnce sync.Once
	started   bool
}

// Start starts the store, listens on the main and VIP ports, registers
// with the name servers and starts the background services.
func (b *Broker) Start() error {
	select {
	case <-b.stop:
		return ErrClosed
	default:
	}
	if err := b.store.Start(); err != nil {
		return fmt.Errorf("broker: %w", err)
	}
	for i, s := range b.servers {
		if err := s.Start(); err != nil {
			if i > 0 {
				return fmt.Errorf("broker: fast port: %w", err)
			}
			return fmt.Errorf("broker: %w", err)
		}
	}
	if b.id.port.Load() == 0 {
		// An ephemeral port (tests): advertise the one bound.
		if ap, err := netip.ParseAddrPort(b.Addr()); err == nil {
			b.id.port.Store(uint32(ap.Port()))
		}
	}
	if err := b.startReplication(); err != nil {
		return err
	}
	if b.metricsServer != nil {
		if err := b.metricsServer.start(); err != nil {
			return err
		}
	}
	b.started = true
	if b.replicas != nil {
		// fenced until a controller names the role (the first attempt
		// runs here, then every 5 s until one succeeds)
		b.replicas.start(b.stop, b.goService)
	} else if b.runsMasterServices() {
		b.schedule.start()
		b.timer.start()
	}
	b.reg.registerAll(false)
	b.startServices()
	b.log.Info("broker started", zap.String("addr", b.Addr()), zap.String("brokerAddr", b.id.brokerAddr()))
	return nil
}

// startServices starts the background services, each one goroutine until
// Close.
func (b *Broker) startServices() {
	set := b.settings.load()
	b.goService(b.reg.loop)
	b.goService(func(stop <-chan struct{}) { runEvery(stop, set.FlushConsumerOffsets, b.persistOffsets) })
	b.goService(b.clients.expiryLoop)
	b.goService(b.holds.loop)
	if b.replicas == nil && b.runsMasterServices() {
		b.goService(b.schedule.loop)
		b.goService(b.timer.loop)
		b.goService(b.handlers.tx.checkLoop)
	}
	if b.line.five() {
		b.goService(b.popPolling.loop)
		b.goService(b.notifies.loop)
		b.goService(b.orderTimers.run)
		b.goService(func(stop <-chan struct{}) { runEvery(stop, orderInfoPersistPeriod, b.orders.persist) })
		b.startRevive(set.Broker.ReviveQueueNum)
	}
	if b.slaveSync != nil {
		b.goService(b.slaveSync.loop)
	}
	if b.line.five() {
		period := time.Duration(set.Broker.LoadBalancePollNameServerInterval) * time.Millisecond
		b.goService(func(stop <-chan struct{}) { b.routes.refreshLoop(stop, period) })
	}
	b.goService(b.stats.loop)
	b.goService(b.brokerStats.loop)
	if b.statsLogger != nil {
		b.goService(func(stop <-chan struct{}) { b.brokerStats.logLoop(stop, b.statsLogger) })
	}
	if b.metricsServer != nil {
		b.goService(b.metricsServer.serve)
	}
	if b.acl != nil {
		b.goService(b.acl.watch)
	}
}

// startRevive starts a revive goroutine per revive queue; each one works
// while the broker is a master.
func (b *Broker) startRevive(queues int32) {
	for q := range queues {
		b.goService(func(stop <-chan struct{}) { b.revive.loop(q, stop) })
	}
}

// startReplication listens on the HA port (advertising the port bound
// when haListenPort is 0) and, on a slave, starts replicating.
func (b *Broker) startReplication() error {
	if err := b.ha.start(); err != nil {
		return fmt.Errorf("broker: HA port: %w", err)
	}
	if b.settings.load().Store.HaListenPort == 0 {
		if ap, err := netip.ParseAddrPort(b.ha.addr()); err == nil {
			host, _, _ := net.SplitHostPort(b.id.haServerAddr)
			b.id.haServerAddr = net.JoinHostPort(host, strconv.Itoa(int(ap.Port())))
		}
	}
	return nil
}

// MetricsAddr is the bound address of the Prometheus exporter, "" when
// metrics are off.
func (b *Broker) MetricsAddr() string {
	if b.metricsServer == nil || b.metricsServer.ln == nil {
		return ""
	}
	return b.metricsServer.ln.Addr().String()
}

// goService runs a background service until Close.
func (b *Broker) goService(fn func(stop <-chan struct{})) {
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		fn(b.stop)
	}()
}

// persistOffsets writes the consumer offsets and filters that changed,
// every flushConsumerOffsetInterval.
func (b *Broker) persistOffsets() {
	b.offsets.persist(false)
	b.filters.persist()
}

// Addr is the bound host:port of the main server.
func (b *Broker) Addr() string { return b.servers[0].Addr() }

// Server is the main remoting server, which the proxy of the process
// reaches in process (remoting.InProcess).
func (b *Broker) Server() *remoting.Server { return b.servers[0] }

// BootMessage is the line Java's BrokerStartup prints once serving.
func (b *Broker) BootMessage() string {
	c := b.settings.load().Broker
	msg := "The broker[" + c.BrokerName + ", " + b.id.brokerAddr() + "] boot success. serializeType=JSON"
	if c.NamesrvAddr != "" {
		msg += " and name server is " + c.NamesrvAddr
	}
	return msg
}

// Close unregisters from the name servers, stops serving, persists the
// tables and closes the store, as Java's shutdown hook does.
func (b *Broker) Close() error {
	var err error
	b.closeOnce.Do(func() {
		if b.started {
			b.reg.unregisterAll()
		}
		close(b.stop)
		b.holds.closeAll()
		b.popPolling.closeAll()
		b.notifies.closeAll()
		var errs []error
		for _, s := range b.servers {
			errs = append(errs, s.Shutdown())
		}
		b.wg.Wait()
		if b.masterServices != nil {
			b.masterServices.off()
		}
		if b.replicas != nil {
			b.replicas.client.Close()
		}
		errs = append(errs, b.ha.close())
		b.reg.close()
		b.offsets.persist(true)
		b.filters.persist()
		b.schedule.persist(true)
		b.timer.close()
		if b.orders != nil {
			b.orders.persist()
		}
		errs = append(errs, b.store.Close())
		err = errors.Join(errs...)
		b.log.Info("broker stopped")
	})
	return err
}

// runEvery is a background service's loop: fn every period until stop.
func runEvery(stop <-chan struct{}, period time.Duration, fn func()) {
	tick := time.NewTicker(period)
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
			fn()
		}
	}
}

// runsMasterServices tells whether this broker runs the master-only
// services (line.runsMasterServices).
func (b *Broker) runsMasterServices() bool {
	set := b.settings.load()
	return b.line.runsMasterServices(set.Broker.BrokerId, set.Store.BrokerRole)
}

// onRegistered takes what a name server answered a registration with:
// the master's HA address (replication) and address (slave sync), as
// doRegisterBrokerAll does with the first answer.
func (b *Broker) onRegistered(haServerAddr, masterAddr string) {
	b.ha.learnMaster(haServerAddr, masterAddr)
	if b.slaveSync != nil {
		b.slaveSync.setMaster(masterAddr)
	}
}
