package broker

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/internal/testclock"
	"github.com/rmqgo/rmqgo/store"
)

func TestStatsItemWindowArithmetic(t *testing.T) {
	it := &statsItem{}
	assert.Equal(t, protocol.BrokerStatsItem{}, it.snapshot(windowMinute), "not sampled yet")
	it.add(5, 2)
	const t0 = 1_700_000_000_000
	it.sample(windowMinute, t0)
	// A synthetic zero sample 10 s earlier makes the first values show.
	assert.Equal(t, protocol.BrokerStatsItem{Sum: 5, Tps: 0.5, Avgpt: 2.5}, it.snapshot(windowMinute))
	assert.Equal(t, protocol.BrokerStatsItem{}, it.snapshot(windowHour), "each window is sampled on its own")

	for i := int64(1); i <= 5; i++ {
		it.sample(windowMinute, t0+i*10_000)
	}
	s := it.snapshot(windowMinute)
	assert.Equal(t, int64(5), s.Sum, "seven samples: the zero one is still the first")
	assert.InDelta(t, 5.0/60, s.Tps, 1e-12)

	it.sample(windowMinute, t0+60_000)
	assert.Equal(t, protocol.BrokerStatsItem{}, it.snapshot(windowMinute), "the values left the minute")
	it.add(6, 3)
	it.sample(windowMinute, t0+70_000)
	assert.Equal(t, protocol.BrokerStatsItem{Sum: 6, Tps: 0.1, Avgpt: 2}, it.snapshot(windowMinute))
}

func TestStatsWindowsKeepTheirLengths(t *testing.T) {
	it := &statsItem{}
	for i := range int64(40) {
		it.add(1, 1)
		it.sample(windowMinute, i*10_000)
		it.sample(windowHour, i*600_000)
		it.sample(windowDay, i*3_600_000)
	}
	assert.Len(t, it.windows[windowMinute], 7)
	assert.Len(t, it.windows[windowHour], 7)
	assert.Len(t, it.windows[windowDay], 25)
	assert.Equal(t, protocol.BrokerStatsItem{Sum: 24, Tps: 24.0 / 86400, Avgpt: 1}, it.snapshot(windowDay))
}

func TestBrokerStatsRecordsAsJavaDoes(t *testing.T) {
	clock := testclock.New()
	s := newBrokerStats("C1", false, clock.Now)
	s.stored("T", store.PutResult{Status: store.PutOK, MsgNum: 3, WroteBytes: 300})
	s.stored("T", store.PutResult{Status: store.PutFlushDiskTimeout, MsgNum: 1, WroteBytes: 100})
	s.stored("T", store.PutResult{Status: store.PutMessageIllegal, MsgNum: 1, WroteBytes: 100})
	arrived := clock.Now()
	clock.Advance(4 * time.Millisecond)
	s.pulled("G", "T", 1, 2, 200, arrived)
	s.sentBack("G", "T")
	s.sample(windowMinute)

	for _, c := range []struct {
		name, key string
		want      protocol.BrokerStatsItem
	}{
		{statTopicPutNums, "T", protocol.BrokerStatsItem{Sum: 4, Tps: 0.4, Avgpt: 2}},
		{statTopicPutSize, "T", protocol.BrokerStatsItem{Sum: 400, Tps: 40, Avgpt: 200}},
		{statBrokerPutNums, "C1", protocol.BrokerStatsItem{Sum: 4, Tps: 0.4}},
		{statGroupGetNums, "T@G", protocol.BrokerStatsItem{Sum: 2, Tps: 0.2, Avgpt: 2}},
		{statGroupGetSize, "T@G", protocol.BrokerStatsItem{Sum: 200, Tps: 20, Avgpt: 200}},
		{statGroupGetLatency, "T@G", protocol.BrokerStatsItem{Sum: 4, Tps: 0.4, Avgpt: 4}},
		{statBrokerGetNums, "C1", protocol.BrokerStatsItem{Sum: 2, Tps: 0.2}},
		{statSndbckPutNums, "T@G", protocol.BrokerStatsItem{Sum: 1, Tps: 0.1, Avgpt: 1}},
	} {
		it := s.item(c.name, c.key)
		require.NotNil(t, it, c.name)
		assert.Equal(t, c.want, it.snapshot(windowMinute), c.name)
	}
	assert.InDelta(t, 0.2, s.groupGetTps("G", "T"), 1e-12)
	assert.Zero(t, s.groupGetTps("other", "T"))
	assert.Nil(t, s.item(statTopicPutNums, "nope"))
	assert.Nil(t, s.item("NO_SUCH_STATS", "T"))

	s.topicDeleted("T")
	assert.Nil(t, s.item(statTopicPutNums, "T"))
	assert.Nil(t, s.item(statGroupGetNums, "T@G"))
	assert.NotNil(t, s.item(statBrokerPutNums, "C1"))
}

func TestStatsItemCreatedBetweenSamplesShowsAtTheNext(t *testing.T) {
	clock := testclock.New()
	s := newBrokerStats("C1", false, clock.Now)
	s.sample(windowMinute)
	s.stored("T", store.PutResult{Status: store.PutOK, MsgNum: 1, WroteBytes: 10})
	assert.Equal(t, int64(0), s.item(statTopicPutNums, "T").snapshot(windowMinute).Sum)
	clock.Advance(10 * time.Second)
	s.sample(windowMinute)
	assert.Equal(t, int64(1), s.item(statTopicPutNums, "T").snapshot(windowMinute).Sum)
}

// The hot path: a known key costs no allocation.
func TestStatsRecordingDoesNotAllocate(t *testing.T) {
	s := newBrokerStats("C1", true, time.Now)
	res := store.PutResult{Status: store.PutOK, MsgNum: 1, WroteBytes: 10}
	s.stored("TopicA", res)
	s.pulled("GroupA", "TopicA", 3, 1, 10, time.Now())
	allocs := testing.AllocsPerRun(100, func() {
		s.stored("TopicA", res)
		s.pulled("GroupA", "TopicA", 3, 1, 10, time.Now())
	})
	assert.Zero(t, allocs)
}

func TestBrokerStatsDataJSON(t *testing.T) {
	d := protocol.BrokerStatsData{StatsMinute: protocol.BrokerStatsItem{Sum: 3, Tps: 0.05, Avgpt: 1}}
	assert.Equal(t, `{"statsDay":{"avgpt":0.0,"sum":0,"tps":0.0},"statsHour":{"avgpt":0.0,"sum":0,"tps":0.0},`+
		`"statsMinute":{"avgpt":1.0,"sum":3,"tps":0.05}}`, string(d.AppendJSON(nil)))
}

func BenchmarkStatsPulled(b *testing.B) {
	s := newBrokerStats("C1", true, time.Now)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			s.pulled("GroupA", "TopicA", 3, 1, 10, time.Now())
		}
	})
}

func TestGroupGetLatencyIsKeyedByQueueWithDetailStats(t *testing.T) {
	clock := testclock.New()
	s := newBrokerStats("C1", true, clock.Now)
	s.pulled("G", "T", 2, 1, 10, clock.Now())
	assert.NotNil(t, s.item(statGroupGetLatency, "2@T@G"))
	assert.Nil(t, s.item(statGroupGetLatency, "T@G"))
	s.topicDeleted("T")
	assert.Nil(t, s.item(statGroupGetLatency, "2@T@G"))
}
