package broker

// Wiring: the one place where the broker is put together. New opens the
// tables and the store, then builds each service with the few things it
// uses (a view of the store, the tables it touches, the live settings, the
// line, the clock) and the routing table over them. Nothing a service
// holds points back at the Broker.
//
//	tables      topics, groups, offsets, filters, clients, queue locks
//	background  registrar, pull holds, delay levels, timers, transaction
//	            check, runtime and broker statistics
//	handlers    send, recall, pull, query, clients, offsets, topic/group/config
//	            admin, stats, consumer calls, runtime info, transactions
//	servers     main and VIP, each a router over routes() with its pools

import (
	"crypto/tls"
	"fmt"
	"path/filepath"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/configfile"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/internal/storeconf"
	"github.com/rmqgo/rmqgo/internal/tlsconf"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// New opens the store and loads the config files, and builds every
// service, but does not listen.
func New(o Options) (*Broker, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	o = o.withDefaults()
	b := &Broker{log: o.Logger, line: newLine(o.Line), settings: newLiveSettings(o.Configs), id: newIdentity(o.Configs),
		statsLogger: o.StatsLogger, stop: make(chan struct{})}
	if err := b.openTables(o); err != nil {
		return nil, err
	}
	sopts, err := storeconf.Options(o.Configs.Store, b.line.five())
	if err != nil {
		return nil, err
	}
	if o.Configs.Broker.EnableControllerMode {
		storeconf.ControllerMode(&sopts, o.Configs.Store)
	}
	if b.store, err = store.Open(sopts, o.Logger); err != nil {
		return nil, fmt.Errorf("broker: %w", err)
	}
	if err := b.wireServices(o); err != nil {
		return nil, err
	}
	if err := b.wireServers(o); err != nil {
		return nil, err
	}
	b.wireMetrics(o)
	return b, nil
}

// openTables loads topics.json, subscriptionGroup.json,
// consumerOffset.json (over the built-in entries), consumerFilter.json and
// messageRequestMode.json.
func (b *Broker) openTables(o Options) error {
	c, log, now := o.Configs, o.Logger, o.Now
	dir := configfile.Dir{Path: c.Store.StorePathRootDir + "/config", Line: b.line.Line}
	var err error
	if b.topics, err = newTopicTable(dir, b.settings, log, now); err != nil {
		return fmt.Errorf("broker: %w", err)
	}
	if b.groups, err = newGroupTable(dir, c.Broker.AutoCreateSubscriptionGroup, log, now); err != nil {
		return fmt.Errorf("broker: %w", err)
	}
	if b.offsets, err = newOffsetTable(dir, log, now); err != nil {
		return fmt.Errorf("broker: %w", err)
	}
	if b.filters, err = newFilterTable(dir, b.settings, log, now); err != nil {
		return fmt.Errorf("broker: %w", err)
	}
	if b.modes, err = newRequestModeTable(dir, log); err != nil {
		return fmt.Errorf("broker: %w", err)
	}
	if bf := b.filters.bloom; bf != nil {
		// the consume-queue extension's bit map is the bloom filter's size
		c.Store.BitMapLengthConsumeQueueExt = bf.m
		b.settings.publish(c)
	}
	notifier := &idsChangedNotifier{log: log, version: b.line.version(), groups: b.groups}
	b.clients = newClientTable(log, now, notifier.notify, b.filters.unregister)
	return nil
}

// wireServices builds the background services and the handler families.
func (b *Broker) wireServices(o Options) error {
	log, now, st := o.Logger, o.Now, b.store
	dir := configfile.Dir{Path: o.Configs.Store.StorePathRootDir + "/config", Line: b.line.Line}
	delays := st.DelayLevels()
	c := o.Configs.Broker
	if addr := promAddr(c, log); addr != "" {
		b.metrics = newBrokerMetrics(now, int(c.MetricsOtelCardinalityLimit))
		b.metricsAddr = addr
	}
	b.schedule = &scheduleService{log: log, now: now, line: b.line, settings: b.settings, store: st, dir: dir, delays: delays,
		metrics: b.metrics}
	if err := b.schedule.load(); err != nil {
		return fmt.Errorf("broker: %w", err)
	}
	b.timer = newTimerService(log, now, b.line, st, newTimerConf(o.Configs.Store), dir.File(legacyTimerFile))
	if err := b.wireACL(o); err != nil {
		return err
	}
	b.stats = newRuntimeStats(now, st)
	b.brokerStats = newBrokerStats(c.BrokerClusterName, c.EnableDetailStat, now)
	clientTLS, err := tlsconf.ForClient(o.Configs.TLS, o.Configs.NettyClient.UseTLS, log)
	if err != nil {
		return fmt.Errorf("broker: %w", err)
	}
	b.reg = newRegistrar(log, b.line, b.settings, b.id, b.topics, clientTLS)
	b.routes = newTopicRoutes(log, b.reg.client, b.reg.namesrvAddrs)
	b.reg.onMaster = b.onRegistered
	controllerMode := c.EnableControllerMode
	if o.Configs.Store.BrokerRole == conf.Slave || controllerMode {
		b.slaveSync = &slaveSync{log: log, line: b.line, id: b.id, client: b.reg.client, topics: b.topics,
			groups: b.groups, offsets: b.offsets, schedule: b.schedule, modes: b.modes, controllerMode: controllerMode}
	}
	if controllerMode {
		b.wireControllerMode(o, clientTLS)
	} else {
		b.ha = newReplication(log, st, o.Configs, o.ListenHost)
	}
	b.topics.announce = b.reg.topicChanged
	b.holds = newPullHolds(now, st)
	b.popPolling = newPopPolling(now, b.settings)
	b.notifies = newPopPolling(now, b.settings)
	b.notifies.wakeLast = true
	st.SetArrivalListener(func(a store.Arrival) {
		b.holds.onArrival(a)
		b.popPolling.onArrival(a)
		b.notifies.onArrival(a)
	})
	rd := redirects{line: b.line, now: now, maxLevel: int32(len(delays)), timer: b.timer.conf}
	b.handlers = b.newHandlers(o, rd)
	if b.masterServices != nil {
		b.masterServices.tx = b.handlers.tx
		b.roles.configRole = b.handlers.config.setRole
	}
	b.holds.rerun = b.handlers.pull.rerunPull
	if err := b.wireOrders(o, dir); err != nil {
		return err
	}
	b.popPolling.rerun = b.handlers.pop.popMessage
	b.notifies.rerun = b.handlers.pop.notification
	b.revive = &reviveService{log: log, now: now, line: b.line, settings: b.settings, id: b.id, store: st, topics: b.topics,
		groups: b.groups, offsets: b.offsets, records: b.handlers.pop.records, redirects: rd, timer: b.timer,
		master: b.runsMasterServices}
	return nil
}

// wireOrders loads consumerOrderInfo.json (5.x) and hands the table to
// the POP handlers, with the timers that wake the pops of a queue an
// orderly pop no longer blocks.
func (b *Broker) wireOrders(o Options, dir configfile.Dir) error {
	if !b.line.five() {
		return nil
	}
	scope := orderInfoScope{
		readQueueNums: func(topic string) (int32, bool) { tc, ok := b.topics.get(topic); return tc.ReadQueueNums, ok },
		groupExists:   func(group string) bool { _, ok := b.groups.get(group); return ok },
	}
	t, err := newOrderInfoTable(dir, o.Logger, o.Now, scope)
	if err != nil {
		return fmt.Errorf("broker: %w", err)
	}
	b.orders = t
	b.orderTimers = newOrderUnlockTimers(o.Now, b.queueUnblocked)
	t.watch(b.orderTimers)
	b.handlers.pop.orders = t
	b.handlers.acks.orders = t
	b.handlers.acks.unblocked = b.popPolling.wakeOne
	return nil
}

// queueUnblocked wakes what waits on a queue an orderly pop no longer
// blocks: a pop of every queue when the queue has messages past the
// group's offset, else a pop of that queue; and a NOTIFICATION.
func (b *Broker) queueUnblocked(topic, group string, queueID int32) {
	if b.store.MaxOffset(topic, queueID) > b.offsets.query(group, topic, queueID) {
		b.popPolling.wakeOne(topic, group, -1)
	} else {
		b.popPolling.wakeOne(topic, group, queueID)
	}
	b.notifies.wakeOne(topic, group, -1)
	b.notifies.wakeOne(topic, group, queueID)
}

// newHandlers builds the request families.
func (b *Broker) newHandlers(o Options, rd redirects) handlers {
	log, now, st, set, l := o.Logger, o.Now, b.store, b.settings, b.line
	rp := replier{version: l.version()}
	records := &reviveWriter{line: l, now: now, id: b.id, store: st, redirects: rd,
		topic: protocol.ReviveTopic(o.Configs.Broker.BrokerClusterName)}
	locks := &popLocks{}
	return handlers{
		pop: &popService{replier: rp, line: l, log: log, now: now, settings: set, id: b.id, store: st, topics: b.topics,
			groups: b.groups, filters: b.filters, offsets: b.offsets, records: records, polling: b.popPolling, notifies: b.notifies, locks: locks},
		acks: &ackService{replier: rp, line: l, log: log, now: now, store: st, topics: b.topics, offsets: b.offsets,
			records: records, locks: locks},
		send: &sendService{replier: rp, line: l, settings: set, id: b.id, store: st, topics: b.topics, groups: b.groups,
			stats: b.brokerStats, metrics: b.metrics, redirects: rd},
		recall: &recallService{replier: rp, line: l, now: now, settings: set, id: b.id, store: st, topics: b.topics,
			stats: b.brokerStats, redirects: rd},
		pull: &pullService{replier: rp, line: l, log: log, now: now, settings: set, id: b.id, store: st, topics: b.topics,
			groups: b.groups, clients: b.clients, filters: b.filters, offsets: b.offsets, holds: b.holds, stats: b.brokerStats,
			metrics: b.metrics},
		query: &queryService{replier: rp, log: log, settings: set, store: st},
		clients: &clientService{replier: rp, log: log, now: now, settings: set, clients: b.clients, groups: b.groups,
			topics: b.topics, filters: b.filters, locks: newQueueLocks(now), notify: b.clients.notify},
		offsets: &offsetService{replier: rp, line: l, log: log, settings: set, store: st, offsets: b.offsets,
			topics: b.topics, groups: b.groups, clients: b.clients},
		topics: &topicAdmin{replier: rp, line: l, log: log, settings: set, store: st, topics: b.topics,
			offsets: b.offsets, stats: b.brokerStats, registerNow: b.reg.registerNow},
		groups: &groupAdmin{replier: rp, line: l, log: log, settings: set, groups: b.groups, offsets: b.offsets},
		stats: &statsAdmin{replier: rp, line: l, log: log, now: now, settings: set, id: b.id, store: st, topics: b.topics,
			groups: b.groups, offsets: b.offsets, clients: b.clients, schedule: b.schedule, stats: b.brokerStats},
		config: &configAdmin{replier: rp, line: l, log: log, config: o.Configs.NewConfiguration(l.five()),
			configs: o.Configs, settings: set, topics: b.topics, registerNow: b.reg.registerNow},
		calls: &consumerCalls{replier: rp, log: log, settings: set, clients: b.clients, records: st},
		runtime: &runtimeInfo{replier: rp, line: l, now: now, settings: set, store: st, stats: b.stats,
			schedule: b.schedule, timer: b.timer},
		acl: &aclAdmin{replier: rp, guard: b.acl, id: b.id, now: now, home: o.Configs.Broker.RocketmqHome,
			cluster: o.Configs.Broker.BrokerClusterName, name: o.Configs.Broker.BrokerName},
		auth: &authAdmin{replier: rp, guard: b.auth},
		modes: &requestModes{replier: rp, log: log, settings: set, modes: b.modes, topics: b.topics, groups: b.groups,
			clients: b.clients, routes: b.routes},
		ha:        &haStatus{replier: rp, settings: set, store: st, master: b.ha.master, client: b.ha.client, auto: b.ha.auto},
		ctl:       &controllerAdmin{replier: rp, settings: set, replicas: b.replicas, store: st},
		timerSync: newTimerSync(rp, set, b.timer, now),
		tx: &transactionService{replier: rp, line: l, log: log, now: now, settings: set, id: b.id, store: st,
			topics: b.topics, clients: b.clients, offsets: b.offsets, metrics: b.metrics, redirects: rd},
	}
}

// wireControllerMode builds what enableControllerMode adds: the
// AutoSwitchHA service, the replicas manager that talks to the
// controllers and the role switch it drives (replicas*.go).
func (b *Broker) wireControllerMode(o Options, clientTLS *tls.Config) {
	log, st := o.Logger, b.store
	var replicas *replicasManager
	b.ha = newAutoSwitchReplication(log, st, o.Configs, o.ListenHost, func(set []int64) {
		if replicas != nil {
			replicas.proposeFromHA(set)
		}
	})
	b.masterServices = &masterServices{schedule: b.schedule, timer: b.timer} // tx once the handlers are built
	roles := &roleSwitch{settings: b.settings, store: st, ha: b.ha.auto, master: b.masterServices,
		slaveSync: b.slaveSync, topics: b.topics, reg: b.reg} // configRole once the handlers are built
	b.roles = roles
	client := remoting.NewClient(remoting.ClientOptions{Logger: log, DialTimeout: 3 * time.Second, TLSConfig: clientTLS})
	files := identityFiles{path: o.Configs.Store.StorePathBrokerIdentity}
	if files.path == "" {
		files.path = filepath.Join(o.Configs.Store.StorePathRootDir, "brokerIdentity")
	}
	replicas = newReplicasManager(log, b.settings, b.id, client, b.ha.auto, st, files, roles)
	b.replicas = replicas
	b.reg.isolated = replicas.isIsolated
}

// wireServers builds the main server and, unless the port is ephemeral,
// the VIP one, each with its own router and pools over the same routes,
// and the TLS mode and config of tls.server.* (docs/tls.md).
func (b *Broker) wireServers(o Options) error {
	set := b.settings.load()
	tlsMode, tlsConfig, err := tlsconf.ForServer(o.Configs.TLS, o.Logger)
	if err != nil {
		return fmt.Errorf("broker: %w", err)
	}
	routes := b.handlers.routes()
	ports := []int32{set.NettyServer.ListenPort}
	if p := set.NettyServer.ListenPort; p != 0 {
		ports = append(ports, p-2)
	}
	for _, port := range ports {
		router, p := newRouter(routes, b.line, set, o.Logger, b.guards()...)
		if b.metrics != nil {
			router.Observe(b.metrics.observe)
		}
		b.handlers.runtime.pools = append(b.handlers.runtime.pools, p)
		b.servers = append(b.servers, remoting.NewServer(remoting.ServerOptions{
			Addr: o.listenAddr(port), Router: router, Logger: o.Logger, OnClose: b.onChannelClose,
			IdleTimeout: idleTimeout(set.NettyServer.ServerChannelMaxIdleTimeSeconds),
			TLSMode:     tlsMode, TLSConfig: tlsConfig,
		}))
	}
	return nil
}

// wireACL loads ACL 1.0 when aclEnable is on for the 4.x line, and ACL
// 2.0 when authenticationEnabled or authorizationEnabled is on for the
// 5.x line (auth.go). 5.3.3 has no ACL 1.0 (aclEnable is ignored there, as
// 5.3.3 ignores it, with a warning); 4.9.x has no ACL 2.0 (its keys are
// ignored, with a warning).
func (b *Broker) wireACL(o Options) error {
	if err := b.wireAuth(o); err != nil {
		return err
	}
	if !o.Configs.Broker.AclEnable {
		return nil
	}
	if b.line.five() {
		o.Logger.Warn("aclEnable is ACL 1.0, which 5.3.3 no longer has: nothing is checked, as on the Java 5.3.3 broker")
		return nil
	}
	var err error
	if b.acl, err = newACLGuard(o.Logger, b.line, aclFile(o.Configs)); err != nil {
		return fmt.Errorf("broker: acl: %w", err)
	}
	return nil
}

// wireAuth opens ACL 2.0 on the 5.x line when broker.conf asks for it
// (the checks, a metadata provider for the admin codes, or the
// migration); on the 4.x line its keys are left unread.
func (b *Broker) wireAuth(o Options) error {
	if !b.line.five() {
		if keys := authKeysIn(o.Configs.File); len(keys) > 0 {
			o.Logger.Warn("ACL 2.0 keys, which 4.9.x does not have: ignored, as the Java 4.9.x broker ignores them",
				zap.Strings("keys", keys))
		}
		return nil
	}
	cfg, err := readAuthConfig(o.Configs.File)
	if err != nil {
		return err
	}
	if !cfg.authn && !cfg.authz && !cfg.authnMeta && !cfg.migrateV1 {
		return nil
	}
	configDir := filepath.Join(o.Configs.Store.StorePathRootDir, "config")
	g, err := newAuthGuard(o.Logger, replier{version: b.line.version()}, cfg, configDir,
		o.Configs.Broker.BrokerClusterName, aclFile(o.Configs))
	if err != nil {
		return fmt.Errorf("broker: acl 2.0: %w", err)
	}
	g.localProxyToken = o.LocalProxyToken
	b.auth = g
	return nil
}

// authKeysIn are the ACL 2.0 (AuthConfig) keys p sets.
func authKeysIn(p *conf.Properties) []string {
	var keys []string
	if p == nil {
		return nil
	}
	for _, e := range p.Entries() {
		if conf.IsAuthConfigKey(e.Key) {
			keys = append(keys, e.Key)
		}
	}
	return keys
}

// guards are the request guards in force (none, ACL 1.0's or ACL 2.0's).
func (b *Broker) guards() []requestGuard {
	var out []requestGuard
	if b.acl != nil {
		out = append(out, b.acl)
	}
	if b.auth != nil && (b.auth.cfg.authn || b.auth.cfg.authz) {
		out = append(out, b.auth)
	}
	return out
}

// aclFile is where plain_acl.yml is: as LoadBroker found it, else under
// rocketmqHome.
func aclFile(c *conf.BrokerConfigs) string {
	if c.AclPlainFile != "" {
		return c.AclPlainFile
	}
	return filepath.Join(c.Broker.RocketmqHome, "conf", "plain_acl.yml")
}

// wireMetrics builds the Prometheus exporter when metrics are on.
func (b *Broker) wireMetrics(o Options) {
	if b.metrics == nil {
		return
	}
	rt := b.handlers.runtime
	b.metricsServer = &metricsServer{log: o.Logger, metrics: b.metrics, addr: b.metricsAddr, src: &metricsSources{
		line: b.line, settings: b.settings, topics: b.topics, groups: b.groups, clients: b.clients, offsets: b.offsets,
		store: b.store, timer: b.timer, reviveQueues: o.Configs.Broker.ReviveQueueNum,
		queued:   func(k poolKind) int { n, _ := rt.poolLoad(k); return n },
		earliest: func() int64 { return rt.earliestMessageTime(b.settings.load()) },
	}}
}

// onChannelClose runs on the event loop: a client's connection went, so
// its registrations go too (off the loop).
func (b *Broker) onChannelClose(ch *remoting.Channel) {
	b.clients.channelClosed(ch)
}

// idleTimeout is serverChannelMaxIdleTimeSeconds as a duration; Netty's
// idle handler is off for 0 or less, and so is ours.
func idleTimeout(seconds int32) time.Duration {
	return time.Duration(max(seconds, 0)) * time.Second
}
