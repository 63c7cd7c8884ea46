package broker

// Settings: what the broker's services read of broker.conf while it runs.
//
// UPDATE_BROKER_CONFIG changes settings while requests are served, so no
// service reads the configs conf.Configuration updates. Each reads the
// current snapshot instead: an immutable copy made at start and after
// every update, swapped whole (liveSettings.publish), so a request sees
// one consistent set of values and never a half-written one. A service
// loads the snapshot once per request or round and reads it from there.
//
// Settings Java reads once at start (ports, pool sizes, store paths,
// service periods) are read from the first snapshot; the rest (brokerPermission,
// autoCreateTopicEnable, slaveReadEnable, longPollingEnable,
// transactionTimeOut, ...) take effect with the next request.

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/rmqgo/rmqgo/conf"
)

// settings is one snapshot: the configs, and the millisecond settings the
// services use as durations. Never written after it is published.
type settings struct {
	*conf.BrokerConfigs

	// ShortPolling is shortPollingTimeMills: how long a pull waits
	// without long polling.
	ShortPolling time.Duration
	// TransactionTimeout is transactionTimeOut: how old a half message
	// must be before the broker asks its producer.
	TransactionTimeout time.Duration
	// TransactionCheckInterval is transactionCheckInterval (a minute when
	// not positive).
	TransactionCheckInterval time.Duration
	// FlushConsumerOffsets is flushConsumerOffsetInterval (5 s when not
	// positive).
	FlushConsumerOffsets time.Duration
	// FlushDelayOffsets is flushDelayOffsetInterval (10 s when not
	// positive).
	FlushDelayOffsets time.Duration
	// RegisterPeriod is registerNameServerPeriod clamped to 10..60 s.
	RegisterPeriod time.Duration
	// RegisterTimeout is registerBrokerTimeoutMills.
	RegisterTimeout time.Duration
	// WaitInSendQueue is waitTimeMillsInSendQueue.
	WaitInSendQueue time.Duration
	// FileReserved is fileReservedTime (hours).
	FileReserved time.Duration
}

// newSettings snapshots c.
func newSettings(c *conf.BrokerConfigs) *settings {
	s := &settings{BrokerConfigs: c.Snapshot()}
	b, st := s.Broker, s.Store
	s.ShortPolling = ms(b.ShortPollingTimeMills)
	s.TransactionTimeout = ms(b.TransactionTimeOut)
	s.TransactionCheckInterval = positiveOr(ms(b.TransactionCheckInterval), time.Minute)
	s.FlushConsumerOffsets = positiveOr(ms(b.FlushConsumerOffsetInterval), 5*time.Second)
	s.FlushDelayOffsets = positiveOr(ms(st.FlushDelayOffsetInterval), 10*time.Second)
	s.RegisterPeriod = b.RegisterPeriod()
	s.RegisterTimeout = ms(b.RegisterBrokerTimeoutMills)
	s.WaitInSendQueue = ms(b.WaitTimeMillsInSendQueue)
	s.FileReserved = time.Duration(st.FileReservedTime) * time.Hour
	return s
}

// liveSettings holds the current snapshot.
type liveSettings struct {
	cur atomic.Pointer[settings]
	// role, once a controller decided it, replaces broker.conf's brokerId
	// and brokerRole in every snapshot (controller mode).
	role atomic.Pointer[roleOverride]
	mu   sync.Mutex // one publish at a time
}

// roleOverride is the id and role a controller gave the broker.
type roleOverride struct {
	brokerID int64
	role     conf.BrokerRole
}

// newLiveSettings starts with a snapshot of c.
func newLiveSettings(c *conf.BrokerConfigs) *liveSettings {
	l := &liveSettings{}
	l.publish(c)
	return l
}

// load returns the current snapshot.
func (l *liveSettings) load() *settings { return l.cur.Load() }

// publish makes a snapshot of c the current one; the caller holds c still
// (conf.Configuration.View) while it is copied.
func (l *liveSettings) publish(c *conf.BrokerConfigs) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.cur.Store(l.withRole(newSettings(c)))
}

// setRole publishes the current snapshot with the id and role a
// controller gave (controller mode).
func (l *liveSettings) setRole(brokerID int64, role conf.BrokerRole) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.role.Store(&roleOverride{brokerID: brokerID, role: role})
	l.cur.Store(l.withRole(newSettings(l.cur.Load().BrokerConfigs)))
}

// withRole applies the controller's role to a fresh snapshot (which
// newSettings copied, so it may be changed).
func (l *liveSettings) withRole(s *settings) *settings {
	if r := l.role.Load(); r != nil {
		s.Broker.BrokerId, s.Store.BrokerRole = r.brokerID, r.role
	}
	return s
}

// ms converts a Java millisecond setting.
func ms[T int32 | int64](v T) time.Duration { return time.Duration(v) * time.Millisecond }

// positiveOr is d, or def when d is not positive.
func positiveOr(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}
