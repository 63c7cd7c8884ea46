package broker

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/configfile"
	"github.com/rmqgo/rmqgo/internal/storeconf"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// ErrClosed is returned by Start after Close.
var ErrClosed = errors.New("broker: closed")

// Broker is a running broker: the store, the tables that own topics,
// groups, offsets and clients, the main and VIP servers, and the
// background services (name-server registration, offset persistence,
// client expiry, long-polling timers).
type Broker struct {
	opts      Options
	log       *zap.Logger
	now       func() time.Time
	storeHost netip.AddrPort
	version   int32
	// config is the Configuration GET_BROKER_CONFIG and
	// UPDATE_BROKER_CONFIG read and update (over opts.Configs).
	config *conf.Configuration

	store   *store.Store
	topics  *topicTable
	groups  *groupTable
	offsets *offsetTable
	clients *clientTable
	locks   *queueLocks
	holds   *pullHolds
	reg     *registrar

	schedule *scheduleService
	stats    *runtimeStats
	filters  *filterTable
	timer    *timerService
	tx       *transactionService
	// brokerStats are BrokerStatsManager's per-topic and per-group sets.
	brokerStats *brokerStats

	server    *remoting.Server
	vipServer *remoting.Server
	// serverPools are the handler pools of each server (runtime info).
	serverPools []pools

	stop      chan struct{}
	wg        sync.WaitGroup
	closeOnce sync.Once
	started   bool
}

// New opens the store and loads the config files, but does not listen.
func New(o Options) (*Broker, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	o = o.withDefaults()
	host, _ := o.storeHost()
	b := &Broker{opts: o, log: o.Logger, now: o.Now, storeHost: host, version: o.version(), stop: make(chan struct{})}
	b.config = o.Configs.NewConfiguration(o.line5())
	if err := b.openTables(); err != nil {
		return nil, err
	}
	sopts, err := storeconf.Options(o.Configs.Store, o.Line >= 5)
	if err != nil {
		return nil, err
	}
	if b.store, err = store.Open(sopts, o.Logger); err != nil {
		return nil, fmt.Errorf("broker: %w", err)
	}
	b.clients = newClientTable(b)
	b.locks = newQueueLocks(b.now)
	b.holds = newPullHolds(b)
	b.store.SetArrivalListener(b.holds.onArrival)
	b.reg = newRegistrar(b)
	b.server = b.newServer(o.listenAddr(o.Configs.NettyServer.ListenPort))
	if o.Configs.NettyServer.ListenPort != 0 {
		b.vipServer = b.newServer(o.listenAddr(o.Configs.NettyServer.ListenPort - 2))
	}
	return b, nil
}

// openTables loads topics.json, subscriptionGroup.json,
// consumerOffset.json (over the built-in entries) and delayOffset.json.
func (b *Broker) openTables() error {
	c := b.opts.Configs
	dir := configfile.Dir{Path: c.Store.StorePathRootDir + "/config", Line: b.opts.Line}
	var err error
	if b.topics, err = newTopicTable(dir, c.Broker, b.log, b.now); err != nil {
		return fmt.Errorf("broker: %w", err)
	}
	if b.groups, err = newGroupTable(dir, c.Broker.AutoCreateSubscriptionGroup, b.log, b.now); err != nil {
		return fmt.Errorf("broker: %w", err)
	}
	if b.offsets, err = newOffsetTable(dir, b.log, b.now); err != nil {
		return fmt.Errorf("broker: %w", err)
	}
	if b.filters, err = newFilterTable(dir, c.Broker, b.log, b.now); err != nil {
		return fmt.Errorf("broker: %w", err)
	}
	if bf := b.filters.bloom; bf != nil {
		c.Store.BitMapLengthConsumeQueueExt = bf.m
	}
	if b.schedule, err = newScheduleService(b, dir); err != nil {
		return fmt.Errorf("broker: %w", err)
	}
	b.timer = newTimerService(b, dir)
	b.stats = newRuntimeStats(b)
	b.brokerStats = newBrokerStats(c.Broker.BrokerClusterName, c.Broker.EnableDetailStat, b.now)
	b.tx = newTransactionService(b)
	return nil
}

// newServer builds one remoting server on the broker's router.
func (b *Broker) newServer(addr string) *remoting.Server {
	return remoting.NewServer(remoting.ServerOptions{
		Addr: addr, Router: b.newRouter(), Logger: b.log,
		OnClose: b.onChannelClose,
	})
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
	if err := b.server.Start(); err != nil {
		return fmt.Errorf("broker: %w", err)
	}
	if b.vipServer != nil {
		if err := b.vipServer.Start(); err != nil {
			return fmt.Errorf("broker: fast port: %w", err)
		}
	}
	if b.opts.Configs.NettyServer.ListenPort == 0 {
		// An ephemeral port (tests): advertise the one bound.
		if ap, err := netip.ParseAddrPort(b.server.Addr()); err == nil {
			b.storeHost = netip.AddrPortFrom(b.storeHost.Addr(), ap.Port())
		}
	}
	b.started = true
	b.schedule.start()
	b.timer.start()
	b.reg.registerAll(false)
	b.goService(b.reg.loop)
	b.goService(b.persistLoop)
	b.goService(b.clients.expiryLoop)
	b.goService(b.holds.loop)
	b.goService(b.schedule.loop)
	b.goService(b.timer.loop)
	b.goService(b.stats.loop)
	b.goService(b.brokerStats.loop)
	if b.opts.StatsLogger != nil {
		b.goService(func(stop <-chan struct{}) { b.brokerStats.logLoop(stop, b.opts.StatsLogger) })
	}
	b.goService(b.tx.checkLoop)
	b.log.Info("broker started", zap.String("addr", b.server.Addr()), zap.String("brokerAddr", b.brokerAddr()))
	return nil
}

// goService runs a background service until Close.
func (b *Broker) goService(fn func(stop <-chan struct{})) {
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		fn(b.stop)
	}()
}

// Addr is the bound host:port of the main server.
func (b *Broker) Addr() string { return b.server.Addr() }

// BootMessage is the line Java's BrokerStartup prints once serving.
func (b *Broker) BootMessage() string {
	c := b.opts.Configs.Broker
	msg := "The broker[" + c.BrokerName + ", " + b.brokerAddr() + "] boot success. serializeType=JSON"
	if c.NamesrvAddr != "" {
		msg += " and name server is " + c.NamesrvAddr
	}
	return msg
}

// brokerAddr is brokerIP1 + ":" + listenPort as Java joins them (no
// brackets around an IPv6 address): the address the broker registers with
// the name servers and clients connect to.
func (b *Broker) brokerAddr() string {
	return b.opts.Configs.Broker.BrokerIP1 + ":" + strconv.Itoa(int(b.storeHost.Port()))
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
		errs := []error{b.server.Shutdown()}
		if b.vipServer != nil {
			errs = append(errs, b.vipServer.Shutdown())
		}
		b.wg.Wait()
		b.reg.close()
		b.offsets.persist(true)
		b.filters.persist()
		b.schedule.persist(true)
		b.timer.persist()
		errs = append(errs, b.store.Close())
		err = errors.Join(errs...)
		b.log.Info("broker stopped")
	})
	return err
}

// persistLoop writes consumer offsets every flushConsumerOffsetInterval.
func (b *Broker) persistLoop(stop <-chan struct{}) {
	every := ms(b.opts.Configs.Broker.FlushConsumerOffsetInterval)
	if every <= 0 {
		every = 5 * time.Second
	}
	runEvery(stop, every, func() {
		b.offsets.persist(false)
		b.filters.persist()
	})
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

// onChannelClose runs on the event loop: a client's connection went, so
// its registrations go too (off the loop).
func (b *Broker) onChannelClose(ch *remoting.Channel) {
	b.clients.channelClosed(ch)
}

// itoa formats an int64 header field.
func itoa[T int32 | int64 | int](v T) string { return strconv.FormatInt(int64(v), 10) }
