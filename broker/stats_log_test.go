package broker

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/rmqgo/rmqgo/internal/protocol"
)

func TestStatsLogLineIsJavas(t *testing.T) {
	// The line of a Java 4.9.7 broker's stats.log.
	assert.Equal(t, "[GROUP_GET_SIZE] [compat_oneway_16697d_20@compat_cg_16697d_21] Stats In One Minute, SUM: 9690 TPS: 242.25 AVGPT: 2422.50",
		statsLogLine("GROUP_GET_SIZE", "compat_oneway_16697d_20@compat_cg_16697d_21", windowMinute,
			protocol.BrokerStatsItem{Sum: 9690, Tps: 242.25, Avgpt: 2422.5}))
	assert.Equal(t, "[BROKER_PUT_NUMS] [DefaultCluster] Stats In One Day, SUM: 0 TPS: 0.00 AVGPT: 0.00",
		statsLogLine("BROKER_PUT_NUMS", "DefaultCluster", windowDay, protocol.BrokerStatsItem{}))
}

func TestStatsPrintTimesAreJavas(t *testing.T) {
	now := time.Date(2026, 12, 3, 8, 41, 17, 5, time.UTC)
	assert.Equal(t, time.Date(2026, 12, 3, 8, 42, 0, 0, time.UTC), nextStatsPrint(windowMinute, now))
	assert.Equal(t, time.Date(2026, 12, 3, 9, 0, 0, 0, time.UTC), nextStatsPrint(windowHour, now))
	assert.Equal(t, time.Date(2026, 12, 3, 23, 59, 58, 0, time.UTC), nextStatsPrint(windowDay, now))
	late := time.Date(2026, 12, 3, 23, 59, 59, 0, time.UTC)
	assert.Equal(t, time.Date(2026, 12, 4, 23, 59, 58, 0, time.UTC), nextStatsPrint(windowDay, late))
}

func TestStatsLogWritesEveryItemOfEverySet(t *testing.T) {
	at := time.Date(2026, 12, 3, 8, 0, 0, 0, time.UTC)
	s := newBrokerStats("DefaultCluster", false, func() time.Time { return at })
	s.topicPutNums.add([]byte("TopicA"), 10, 1)
	s.sample(windowMinute)
	at = at.Add(10 * time.Second)
	s.topicPutNums.add([]byte("TopicA"), 20, 2)
	s.sample(windowMinute)
	core, logs := observer.New(zap.InfoLevel)
	s.logWindow(zap.New(core), windowMinute)
	var lines []string
	for _, e := range logs.All() {
		lines = append(lines, e.Message)
	}
	assert.Equal(t, []string{"[TOPIC_PUT_NUMS] [TopicA] Stats In One Minute, SUM: 30 TPS: 1.50 AVGPT: 10.00"}, lines)
}
