package broker

// BrokerStatsManager's statistics, read by VIEW_BROKER_STATS_DATA (mqadmin
// statsAll, the dashboard, rocketmq-exporter) and GET_CONSUME_STATS'
// consumeTps. Recorded as Java records them:
//
//	TOPIC_PUT_NUMS  topic        messages stored by a send (a batch adds its
//	                             count in one call)
//	TOPIC_PUT_SIZE  topic        bytes of the stored records, one call a send
//	BROKER_PUT_NUMS cluster name messages stored by sends (no call count:
//	                             avgpt stays 0, as in Java)
//	GROUP_GET_NUMS  topic@group  messages a pull returned, one call a pull
//	GROUP_GET_SIZE  topic@group  bytes a pull returned
//	GROUP_GET_LATENCY queueId@topic@group (topic@group without
//	                enableDetailStat) ms from a pull's arrival to its answer
//	BROKER_GET_NUMS cluster name messages pulls returned (no call count)
//	SNDBCK_PUT_NUMS topic@group  messages a consumer handed back (the
//	                             message's first topic)
//
// Differences: a delayed or timer message counts under its own topic when
// sent (Java counts it under SCHEDULE_TOPIC_XXXX / the timer topic, then
// again under its topic when delivered); deliveries of delayed messages,
// transaction commits and the QUEUE_* / *_FROM_DISK / commercial sets are
// not recorded; GROUP_GET_LATENCY includes the time the pull waited in
// its pool's queue; 5.x's idle-item cleanup (off by default) is not done.

import (
	"strconv"
	"strings"
	"time"

	"github.com/rmqgo/rmqgo/store"
)

// Statistic names, Java's Stats constants.
const (
	statTopicPutNums    = "TOPIC_PUT_NUMS"
	statTopicPutSize    = "TOPIC_PUT_SIZE"
	statGroupGetNums    = "GROUP_GET_NUMS"
	statGroupGetSize    = "GROUP_GET_SIZE"
	statGroupGetLatency = "GROUP_GET_LATENCY"
	statSndbckPutNums   = "SNDBCK_PUT_NUMS"
	statBrokerPutNums   = "BROKER_PUT_NUMS"
	statBrokerGetNums   = "BROKER_GET_NUMS"
)

// brokerStats is BrokerStatsManager: the statistic sets by name.
type brokerStats struct {
	cluster []byte
	// detail is enableDetailStat: GROUP_GET_LATENCY keyed by queue.
	detail bool
	now    func() time.Time

	topicPutNums, topicPutSize, groupGetNums, groupGetSize *statsItemSet
	groupGetLatency, sndbckPutNums                         *statsItemSet
	brokerPutNums, brokerGetNums                           *statsItemSet
	// byName is every set, for VIEW_BROKER_STATS_DATA; fixed at creation.
	byName map[string]*statsItemSet
}

func newBrokerStats(cluster string, detail bool, now func() time.Time) *brokerStats {
	s := &brokerStats{cluster: []byte(cluster), detail: detail, now: now, byName: map[string]*statsItemSet{}}
	for _, p := range []struct {
		set  **statsItemSet
		name string
	}{
		{&s.topicPutNums, statTopicPutNums}, {&s.topicPutSize, statTopicPutSize},
		{&s.groupGetNums, statGroupGetNums}, {&s.groupGetSize, statGroupGetSize},
		{&s.groupGetLatency, statGroupGetLatency}, {&s.sndbckPutNums, statSndbckPutNums},
		{&s.brokerPutNums, statBrokerPutNums}, {&s.brokerGetNums, statBrokerGetNums},
	} {
		*p.set = newStatsItemSet(p.name)
		s.byName[p.name] = *p.set
	}
	return s
}

// item is BrokerStatsManager.getStatsItem: nil when the statistic or key
// is unknown.
func (s *brokerStats) item(name, key string) *statsItem {
	set, ok := s.byName[name]
	if !ok {
		return nil
	}
	return set.item(key)
}

// topicGroupKey appends "topic@group" to buf.
func topicGroupKey(buf []byte, topic, group string) []byte {
	buf = append(buf, topic...)
	buf = append(buf, '@')
	return append(buf, group...)
}

// stored records a send's stored messages (PUT_OK or stored with a flush
// or slave problem, Java's sendOK).
func (s *brokerStats) stored(topic string, res store.PutResult) {
	if !putStored(res) {
		return
	}
	var buf [128]byte
	key := append(buf[:0], topic...)
	n := int64(max(res.MsgNum, 1))
	s.topicPutNums.add(key, n, 1)
	s.topicPutSize.add(key, int64(res.WroteBytes), 1)
	s.brokerPutNums.add(s.cluster, n, 0)
}

// putStored tells whether a put stored its messages: PUT_OK, or stored
// with a flush or slave problem (Java's sendOK).
func putStored(res store.PutResult) bool {
	switch res.Status {
	case store.PutOK, store.PutFlushDiskTimeout, store.PutFlushSlaveTimeout, store.PutSlaveNotAvailable:
		return true
	}
	return false
}

// pulled records the messages a pull of a queue returned and its
// latency.
func (s *brokerStats) pulled(group, topic string, queueID int32, msgs, bytes int, arrived time.Time) {
	var buf [160]byte
	key := topicGroupKey(buf[:0], topic, group)
	s.groupGetNums.add(key, int64(msgs), 1)
	s.groupGetSize.add(key, int64(bytes), 1)
	s.brokerGetNums.add(s.cluster, int64(msgs), 0)
	if arrived.IsZero() {
		return
	}
	if s.detail {
		var qbuf [176]byte
		key = topicGroupKey(append(strconv.AppendInt(qbuf[:0], int64(queueID), 10), '@'), topic, group)
	}
	s.groupGetLatency.add(key, max(s.now().Sub(arrived).Milliseconds(), 0), 1)
}

// sentBack records a message a consumer of group handed back; topic is
// the message's first topic.
func (s *brokerStats) sentBack(group, topic string) {
	var buf [160]byte
	s.sndbckPutNums.add(topicGroupKey(buf[:0], topic, group), 1, 1)
}

// groupGetTps is tpsGroupGetNums: the group's pull TPS of a topic over
// the last minute.
func (s *brokerStats) groupGetTps(group, topic string) float64 {
	it := s.groupGetNums.item(topic + "@" + group)
	if it == nil {
		return 0
	}
	return it.snapshot(windowMinute).Tps
}

// topicDeleted is onTopicDeleted: a topic's statistics go with it.
func (s *brokerStats) topicDeleted(topic string) {
	s.topicPutNums.removeIf(func(k string) bool { return k == topic })
	s.topicPutSize.removeIf(func(k string) bool { return k == topic })
	prefix, infix := topic+"@", "@"+topic+"@"
	for _, set := range []*statsItemSet{s.groupGetNums, s.groupGetSize, s.sndbckPutNums} {
		set.removeIf(func(k string) bool { return strings.HasPrefix(k, prefix) })
	}
	s.groupGetLatency.removeIf(func(k string) bool { return strings.HasPrefix(k, prefix) || strings.Contains(k, infix) })
}

// sample samples every set's window.
func (s *brokerStats) sample(w statsWindowKind) {
	now := s.now().UnixMilli()
	for _, set := range s.byName {
		set.sample(w, now)
	}
}

// loop samples each window at its period, starting at once (Java's
// scheduleAtFixedRate with no initial delay), until stop.
func (s *brokerStats) loop(stop <-chan struct{}) {
	var tickers [3]*time.Ticker
	for w := range tickers {
		s.sample(statsWindowKind(w))
		tickers[w] = time.NewTicker(windowSpecs[w].period)
		defer tickers[w].Stop()
	}
	for {
		select {
		case <-stop:
			return
		case <-tickers[windowMinute].C:
			s.sample(windowMinute)
		case <-tickers[windowHour].C:
			s.sample(windowHour)
		case <-tickers[windowDay].C:
			s.sample(windowDay)
		}
	}
}

// firstTopic is the topic a handed-back message was first sent to: its
// RETRY_TOPIC property, or its topic.
func firstTopic(rec *store.Record) string {
	if t, ok := rec.Property(propRetryTopic); ok {
		return t
	}
	return rec.Topic
}
