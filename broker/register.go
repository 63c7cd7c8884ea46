package broker

// Registration with the name servers (BrokerOuterAPI.registerBrokerAll):
// REGISTER_BROKER (103) to every configured name server at start, every
// registerNameServerPeriod (30 s by default) and whenever a topic is
// created; UNREGISTER_BROKER (104) at shutdown.
//
// REGISTER_BROKER header: brokerAddr, brokerId, brokerName, clusterName,
// haServerAddr, compressed, bodyCrc32 (5.x also enableActingMaster). Body: RegisterBrokerBody, the topic table with its
// DataVersion and an empty filter-server list, topic permissions masked by
// the broker's own when it is not fully readable and writable.

import (
	"context"
	"crypto/tls"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// registrar keeps the broker registered.
type registrar struct {
	log      *zap.Logger
	line     line
	settings *liveSettings
	id       *identity
	topics   *topicTable
	client   *remoting.Client
	// onMaster, when set, is told the master's HA address and address a
	// name server answers a registration with ("" when it has none).
	onMaster func(haServerAddr, masterAddr string)
	// isolated, when set and true, skips registrations: a controller-mode
	// broker that does not know its role yet stays out of the routes.
	isolated func() bool
	// changed is signalled when a topic is created or changed, so that the
	// name servers learn of it at once.
	changed chan struct{}
	// roleChanged is signalled by a controller-mode role change (see
	// masterRegisterRetries).
	roleChanged chan struct{}
	// masterRetryDelay spaces those registrations (a second).
	masterRetryDelay time.Duration
	mu               sync.Mutex // one registration round at a time
}

// masterRegisterRetries bounds the registrations, a second apart, of a
// controller-mode broker turned slave whose name servers do not answer
// with its new master's HA address yet: the new master's own registration
// races the slave's, and until a name server has it, the slave has no
// address to replicate from. Java's slave waits for its next periodic
// registration (30 s); a three-broker group killed 100 times here had its
// other slave out of the SyncStateSet for 26 s a round, half the rounds.
const masterRegisterRetries = 30

// newRegistrar builds the registrar; clientTLS, when set, makes its
// connections to the name servers TLS (useTLS).
func newRegistrar(log *zap.Logger, l line, live *liveSettings, id *identity, topics *topicTable,
	clientTLS *tls.Config) *registrar {
	return &registrar{log: log, line: l, settings: live, id: id, topics: topics,
		changed: make(chan struct{}, 1), roleChanged: make(chan struct{}, 1), masterRetryDelay: time.Second,
		client: remoting.NewClient(remoting.ClientOptions{Logger: log, DialTimeout: 3 * time.Second, TLSConfig: clientTLS})}
}

// namesrvAddrs splits namesrvAddr ("a:9876;b:9876").
func (r *registrar) namesrvAddrs() []string {
	var out []string
	for _, a := range strings.Split(r.settings.load().Broker.NamesrvAddr, ";") {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// topicChanged asks for a registration now.
func (r *registrar) topicChanged() {
	select {
	case r.changed <- struct{}{}:
	default:
	}
}

// roleChangedNow asks for a registration now, repeated while a slave's
// master is unknown (masterRegisterRetries).
func (r *registrar) roleChangedNow() {
	select {
	case r.roleChanged <- struct{}{}:
	default:
	}
}

// loop registers every period, on topic changes and on role changes until
// stop.
func (r *registrar) loop(stop <-chan struct{}) {
	tick := time.NewTicker(r.settings.load().RegisterPeriod)
	defer tick.Stop()
	var retry <-chan time.Time
	retries := 0
	afterRoleChange := func() {
		retry = nil
		if r.registerAll(false) || !r.awaitsMaster() || retries >= masterRegisterRetries {
			return
		}
		retries++
		retry = time.After(r.masterRetryDelay)
	}
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
			r.registerAll(false)
		case <-r.changed:
			r.registerAll(false)
		case <-r.roleChanged:
			retries = 0
			afterRoleChange()
		case <-retry:
			afterRoleChange()
		}
	}
}

// awaitsMaster tells a controller-mode slave, which learns its master's HA
// address from the name servers.
func (r *registrar) awaitsMaster() bool {
	set := r.settings.load()
	return set.Broker.EnableControllerMode && set.Store.BrokerRole == conf.Slave
}

// registerNow registers with every name server and returns once they
// answered (or timed out).
func (r *registrar) registerNow() { r.registerAll(false) }

// registerAll sends REGISTER_BROKER to every name server in parallel and
// waits for them (or their timeout); it tells whether an answer named a
// master's HA address.
func (r *registrar) registerAll(oneway bool) (masterKnown bool) {
	if r.isolated != nil && r.isolated() {
		r.log.Info("Skip register for broker is isolated")
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	addrs := r.namesrvAddrs()
	if len(addrs) == 0 {
		return false
	}
	set := r.settings.load()
	body := r.body(set)
	var wg sync.WaitGroup
	var known atomic.Bool
	for _, addr := range addrs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r.registerOne(addr, body, oneway, set) != "" {
				known.Store(true)
			}
		}()
	}
	wg.Wait()
	return known.Load()
}

// registerOne registers with one name server; it returns the master's HA
// address the answer named ("" for none).
func (r *registrar) registerOne(addr string, body []byte, oneway bool, set *settings) (masterHA string) {
	c := set.Broker
	req := remoting.NewRequest(remoting.RegisterBroker, map[string]string{
		"brokerAddr": r.id.brokerAddr(), "brokerId": itoa(c.BrokerId), "brokerName": c.BrokerName,
		"clusterName": c.BrokerClusterName, "haServerAddr": r.id.haServerAddr,
		"compressed": "false", "bodyCrc32": itoa(protocol.BodyCRC32(body)),
	})
	req.Version = r.line.version()
	if r.line.registersActingMaster() {
		// Without enableSlaveActingMaster, 5.x sends no
		// heartbeatTimeoutMillis: the name server's 120 s expiry applies.
		req.SetExt("enableActingMaster", "false")
	}
	req.Body = body
	if oneway {
		if err := r.client.InvokeOneway(addr, req); err != nil {
			r.log.Warn("register broker to name server failed", zap.String("namesrv", addr), zap.Error(err))
		}
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), set.RegisterTimeout)
	defer cancel()
	resp, err := r.client.Invoke(ctx, addr, req)
	switch {
	case err != nil:
		r.log.Warn("register broker to name server failed", zap.String("namesrv", addr), zap.Error(err))
	case resp.Code != int32(remoting.Success):
		r.log.Warn("register broker to name server refused", zap.String("namesrv", addr), zap.Int32("code", resp.Code), zap.String("remark", resp.Remark))
	default:
		r.log.Debug("register broker to name server OK", zap.String("namesrv", addr))
		masterHA = resp.ExtString("haServerAddr")
		if r.onMaster != nil {
			r.onMaster(masterHA, resp.ExtString("masterAddr"))
		}
	}
	return masterHA
}

// body is the RegisterBrokerBody JSON of the current topic table.
func (r *registrar) body(set *settings) []byte {
	w := r.topics.wrapper(r.line)
	if perm := set.Broker.BrokerPermission; perm&(protocol.PermRead|protocol.PermWrite) != protocol.PermRead|protocol.PermWrite {
		for name, tc := range w.TopicConfigTable {
			tc.Perm &= perm
			w.TopicConfigTable[name] = tc
		}
	}
	b := &protocol.RegisterBrokerBody{TopicConfigSerializeWrapper: w, FilterServerList: []string{}}
	return b.AppendJSON(nil)
}

// unregisterAll sends UNREGISTER_BROKER to every name server.
func (r *registrar) unregisterAll() {
	set := r.settings.load()
	c := set.Broker
	for _, addr := range r.namesrvAddrs() {
		req := remoting.NewRequest(remoting.UnregisterBroker, map[string]string{
			"brokerAddr": r.id.brokerAddr(), "brokerId": strconv.FormatInt(c.BrokerId, 10),
			"brokerName": c.BrokerName, "clusterName": c.BrokerClusterName,
		})
		req.Version = r.line.version()
		ctx, cancel := context.WithTimeout(context.Background(), set.RegisterTimeout)
		if _, err := r.client.Invoke(ctx, addr, req); err != nil {
			r.log.Warn("unregister broker from name server failed", zap.String("namesrv", addr), zap.Error(err))
		} else {
			r.log.Info("unregisterBroker OK", zap.String("namesrv", addr))
		}
		cancel()
	}
}

// close drops the connections to the name servers.
func (r *registrar) close() { r.client.Close() }
