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
	"strconv"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// registrar keeps the broker registered.
type registrar struct {
	b      *Broker
	client *remoting.Client
	// changed is signalled when a topic is created or changed, so that the
	// name servers learn of it at once.
	changed chan struct{}
	mu      sync.Mutex // one registration round at a time
}

func newRegistrar(b *Broker) *registrar {
	return &registrar{b: b, changed: make(chan struct{}, 1),
		client: remoting.NewClient(remoting.ClientOptions{Logger: b.log, DialTimeout: 3 * time.Second})}
}

// namesrvAddrs splits namesrvAddr ("a:9876;b:9876").
func (r *registrar) namesrvAddrs() []string {
	var out []string
	for _, a := range strings.Split(r.b.opts.Configs.Broker.NamesrvAddr, ";") {
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

// loop registers every period and on topic changes until stop.
func (r *registrar) loop(stop <-chan struct{}) {
	tick := time.NewTicker(r.b.opts.Configs.Broker.RegisterPeriod())
	defer tick.Stop()
	for {
		select {
		case <-stop:
			return
		case <-tick.C:
			r.registerAll(false)
		case <-r.changed:
			r.registerAll(false)
		}
	}
}

// registerAll sends REGISTER_BROKER to every name server in parallel and
// waits for them (or their timeout).
func (r *registrar) registerAll(oneway bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	addrs := r.namesrvAddrs()
	if len(addrs) == 0 {
		return
	}
	body, err := r.body()
	if err != nil {
		r.b.log.Error("register broker: body", zap.Error(err))
		return
	}
	var wg sync.WaitGroup
	for _, addr := range addrs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r.registerOne(addr, body, oneway)
		}()
	}
	wg.Wait()
}

// registerOne registers with one name server.
func (r *registrar) registerOne(addr string, body []byte, oneway bool) {
	c := r.b.opts.Configs
	req := remoting.NewRequest(remoting.RegisterBroker, map[string]string{
		"brokerAddr": r.b.brokerAddr(), "brokerId": itoa(c.Broker.BrokerId), "brokerName": c.Broker.BrokerName,
		"clusterName": c.Broker.BrokerClusterName, "haServerAddr": r.b.opts.haServerAddr(),
		"compressed": "false", "bodyCrc32": itoa(protocol.BodyCRC32(body)),
	})
	req.Version = r.b.version
	if r.b.opts.Line >= protocol.Line5 {
		// Without enableSlaveActingMaster, 5.x sends no
		// heartbeatTimeoutMillis: the name server's 120 s expiry applies.
		req.SetExt("enableActingMaster", "false")
	}
	req.Body = body
	if oneway {
		if err := r.client.InvokeOneway(addr, req); err != nil {
			r.b.log.Warn("register broker to name server failed", zap.String("namesrv", addr), zap.Error(err))
		}
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), ms(c.Broker.RegisterBrokerTimeoutMills))
	defer cancel()
	resp, err := r.client.Invoke(ctx, addr, req)
	switch {
	case err != nil:
		r.b.log.Warn("register broker to name server failed", zap.String("namesrv", addr), zap.Error(err))
	case resp.Code != int32(remoting.Success):
		r.b.log.Warn("register broker to name server refused", zap.String("namesrv", addr), zap.Int32("code", resp.Code), zap.String("remark", resp.Remark))
	default:
		r.b.log.Debug("register broker to name server OK", zap.String("namesrv", addr))
	}
}

// body is the RegisterBrokerBody JSON of the current topic table.
func (r *registrar) body() ([]byte, error) {
	topics, version := r.b.topics.snapshot()
	if perm := r.b.opts.Configs.Broker.BrokerPermission; perm&(protocol.PermRead|protocol.PermWrite) != protocol.PermRead|protocol.PermWrite {
		for name, tc := range topics {
			tc.Perm &= perm
			topics[name] = tc
		}
	}
	w := protocol.TopicConfigSerializeWrapper{DataVersion: version, TopicConfigTable: topics}
	if r.b.opts.Line >= protocol.Line5 {
		mv := version
		w.MappingDataVersion = &mv
	}
	b := &protocol.RegisterBrokerBody{TopicConfigSerializeWrapper: w, FilterServerList: []string{}}
	return b.AppendJSON(nil), nil
}

// unregisterAll sends UNREGISTER_BROKER to every name server.
func (r *registrar) unregisterAll() {
	c := r.b.opts.Configs.Broker
	for _, addr := range r.namesrvAddrs() {
		req := remoting.NewRequest(remoting.UnregisterBroker, map[string]string{
			"brokerAddr": r.b.brokerAddr(), "brokerId": strconv.FormatInt(c.BrokerId, 10),
			"brokerName": c.BrokerName, "clusterName": c.BrokerClusterName,
		})
		req.Version = r.b.version
		ctx, cancel := context.WithTimeout(context.Background(), ms(c.RegisterBrokerTimeoutMills))
		if _, err := r.client.Invoke(ctx, addr, req); err != nil {
			r.b.log.Warn("unregister broker from name server failed", zap.String("namesrv", addr), zap.Error(err))
		} else {
			r.b.log.Info("unregisterBroker OK", zap.String("namesrv", addr))
		}
		cancel()
	}
}

// close drops the connections to the name servers.
func (r *registrar) close() { r.client.Close() }
