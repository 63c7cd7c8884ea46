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
func (l *liveSettings) publish(c *conf.BrokerConfigs) { l.cur.Store(newSettings(c)) }

// ms converts a Java millisecond setting.
func ms[T int32 | int64](v T) time.Duration { return time.Duration(v) * time.Millisecond }

// positiveOr is d, or def when d is not positive.
func positiveOr(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}
