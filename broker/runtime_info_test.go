package broker

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/internal/testclock"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// The runtime info has every key mqadmin, the dashboard and
// rocketmq-exporter read, in the formats they parse.
func TestBrokerRuntimeInfoHasEveryKeyInJavaFormats(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	cl := newClient(t, nil)
	for i := range 3 {
		resp := invoke(t, cl, b.Addr(), withBody(sendRequest("TR", 0, nil, map[string]string{"UNIQ_KEY": "U" + strconv.Itoa(i)}), []byte("x")))
		require.Equal(t, int32(remoting.Success), resp.Code)
	}
	resp := invoke(t, cl, b.Addr(), remoting.NewRequest(remoting.GetBrokerRuntimeInfo, nil))
	require.Equal(t, int32(remoting.Success), resp.Code)
	kv, err := protocol.DecodeKVTable(resp.Body)
	require.NoError(t, err)
	m := kv.Table

	longs := []string{"msgPutTotalTodayNow", "msgPutTotalTodayMorning", "msgPutTotalYesterdayMorning",
		"msgGetTotalTodayNow", "msgGetTotalTodayMorning", "msgGetTotalYesterdayMorning", "bootTimestamp",
		"brokerVersion", "earliestMessageTimeStamp", "startAcceptSendRequestTimeStamp", "commitLogMinOffset",
		"commitLogMaxOffset", "dispatchMaxBuffer", "getMessageEntireTimeMax", "putMessageEntireTimeMax",
		"putMessageTimesTotal", "putMessageSizeTotal", "dispatchBehindBytes", "pageCacheLockTimeMills",
		"remainTransientStoreBufferNumbs", "sendThreadPoolQueueSize", "sendThreadPoolQueueCapacity",
		"pullThreadPoolQueueSize", "pullThreadPoolQueueCapacity", "queryThreadPoolQueueSize",
		"queryThreadPoolQueueCapacity", "sendThreadPoolQueueHeadWaitTimeMills", "pullThreadPoolQueueHeadWaitTimeMills",
		"queryThreadPoolQueueHeadWaitTimeMills", "EndTransactionQueueSize", "EndTransactionThreadPoolQueueCapacity",
		"putMessageFailedTimes"}
	for _, k := range longs {
		_, err := strconv.ParseInt(m[k], 10, 64)
		assert.NoError(t, err, k)
	}
	for _, k := range []string{"commitLogDiskRatio", "consumeQueueDiskRatio", "putMessageAverageSize", "putLatency99", "putLatency999"} {
		_, err := strconv.ParseFloat(m[k], 64)
		assert.NoError(t, err, k)
	}
	assert.Equal(t, "3", m["putMessageTimesTotal"])
	assert.Equal(t, "3", m["msgPutTotalTodayNow"])
	assert.Equal(t, "V4_9_8", m["brokerVersionDesc"])
	assert.Equal(t, "null", m["putMessageDistributeTime"], "in the first minute")
	assert.Regexp(t, `^\[ \d+ days, \d+ hours, \d+ minutes, \d+ seconds \]$`, m["runtime"])
	assert.Regexp(t, `^Total : \d+\.\d [KMGTPE]iB, Free : \d+\.\d [KMGTPE]iB\.$`, m["commitLogDirCapacity"])
	assert.Regexp(t, `^\d+(\.\d)? (B|[KMGTPE]iB)$`, m["remainHowManyDataToFlush"])
	for _, k := range []string{"putTps", "getFoundTps", "getMissTps", "getTotalTps", "getTransferedTps"} {
		assert.Equal(t, 3, len(strings.Split(m[k], " ")), k)
	}

	r := &runtimeStats{}
	for i := range statsHistory {
		r.samples = append(r.samples, statsSample{at: time.UnixMilli(int64(i) * 1000), put: int64(i) * 5})
	}
	tps := regexp.MustCompile(`^5\.0 5\.0 5\.0$`)
	assert.Regexp(t, tps, r.tps(func(s statsSample) int64 { return s.put }), "10, 60 and 600 s windows once sampled")
}

func TestHumanBytesIsJavas(t *testing.T) {
	assert.Equal(t, "1023 B", humanBytes(1023))
	assert.Equal(t, "1.0 KiB", humanBytes(1024))
	assert.Equal(t, "1.5 MiB", humanBytes(3<<19))
	assert.Equal(t, "[ 1 days, 2 hours, 3 minutes, 4 seconds ]", runtimeText(26*time.Hour+3*time.Minute+4*time.Second))
	assert.Equal(t, "1,234", javaGrouped(1234))
}

// Java computes the ratio as used/(used+usable) rounded up to a percent
// (getDiskPartitionSpaceUsedPercent); mqadmin brokerStatus against 4.9.7
// showed 0.33 where used/total was 0.12 (root-reserved blocks).
func TestJavaDiskRatioIsUsedOverUsedPlusUsableRoundedUp(t *testing.T) {
	const gib = 1 << 30
	assert.Equal(t, 0.33, store.DiskUsedRatio(252*gib, 222*gib, 61*gib))
	assert.Equal(t, 0.5, store.DiskUsedRatio(100, 50, 50))
	assert.Equal(t, 0.34, store.DiskUsedRatio(300, 200, 199))
	assert.Equal(t, -1.0, store.DiskUsedRatio(0, 0, 0))
}

// 4.9.x reads 2*maxMessageSize bytes at the commitlog's min offset to
// find the earliest store time and reports -1 while the first file has
// fewer written bytes (mqadmin brokerStatus against 4.9.7: -1 after a few
// sends); 5.x reads just the record's head.
func TestEarliestMessageTimeOf49IsMinusOneUntilFileHasTwoMaxMessageSizes(t *testing.T) {
	for _, c := range []struct {
		line    protocol.Line
		maxSize int32
		want    bool // a real timestamp
	}{
		{protocol.Line4, 4 << 20, false},
		{protocol.Line4, 16, true},
		{protocol.Line5, 4 << 20, true},
	} {
		cfg := testConfigs(t.TempDir(), "")
		cfg.Store.MaxMessageSize = c.maxSize
		b, err := New(Options{Configs: cfg, Logger: zaptest.NewLogger(t), ListenHost: "127.0.0.1", Line: c.line})
		require.NoError(t, err)
		require.NoError(t, b.Start())
		t.Cleanup(func() { _ = b.Close() })
		cl := newClient(t, nil)
		resp := invoke(t, cl, b.Addr(), withBody(sendRequest("TE", 0, nil, nil), []byte("m")))
		require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
		got := b.handlers.runtime.table()["earliestMessageTimeStamp"]
		if c.want {
			assert.NotEqual(t, "-1", got, "line %d maxMessageSize %d", c.line, c.maxSize)
		} else {
			assert.Equal(t, "-1", got, "line %d maxMessageSize %d", c.line, c.maxSize)
		}
	}
	assert.False(t, fourEarliestReadable(0, 0, 1<<30, 4<<20))
	assert.True(t, fourEarliestReadable(100, 1<<30, 1<<30, 4<<20))
	assert.False(t, fourEarliestReadable(1<<30-1, 1<<30+5, 1<<30, 1))
}

// mqadmin brokerStatus against 4.9.7 and 5.3.3: 2147483647 with the
// default transientStorePoolEnable=false.
func TestRemainTransientStoreBufferNumbsIsMaxIntWithoutPool(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	assert.Equal(t, "2147483647", b.handlers.runtime.table()["remainTransientStoreBufferNumbs"])
	assert.Equal(t, "0", remainTransientBuffers(true))
}

// mqadmin brokerStatus against 5.3.3 lists putLatency99 and putLatency999
// too (StoreStatsService.getRuntimeInfo on both lines).
func TestLine5RuntimeInfoHasPutLatencies(t *testing.T) {
	b, err := New(Options{Configs: testConfigs(t.TempDir(), ""), Logger: zaptest.NewLogger(t), ListenHost: "127.0.0.1", Line: protocol.Line5})
	require.NoError(t, err)
	require.NoError(t, b.Start())
	t.Cleanup(func() { _ = b.Close() })
	m := b.handlers.runtime.table()
	assert.Regexp(t, `^\d+\.\d\d$`, m["putLatency99"])
	assert.Regexp(t, `^\d+\.\d\d$`, m["putLatency999"])
}

// A fresh Java broker reports commitLogMinOffset -1 until the first put
// makes a commitlog file, putMessageDistributeTime "null" until a minute
// has rolled (then the last minute's counts only) and getTotalTps "0.0"
// for each window not yet sampled (rocketmq-dashboard 2.1.0's cluster page
// against 5.3.3, side by side with ours).
func TestRuntimeInfoOfAFreshBrokerIsJavas(t *testing.T) {
	clock := testclock.New()
	b := startBroker(t, testConfigs(t.TempDir(), ""), clock.Now)
	m := b.handlers.runtime.table()
	assert.Equal(t, "-1", m["commitLogMinOffset"])
	assert.Equal(t, "null", m["putMessageDistributeTime"])
	assert.Equal(t, "0.0 0.0 0.0", m["getTotalTps"])
	assert.Equal(t, "  ", m["getMissTps"], "the other TPS figures stay empty")

	cl := newClient(t, nil)
	for i := range 3 {
		resp := invoke(t, cl, b.Addr(), withBody(sendRequest("TD", 0, nil, map[string]string{"UNIQ_KEY": "D" + strconv.Itoa(i)}), []byte("x")))
		require.Equal(t, int32(remoting.Success), resp.Code)
	}
	assert.Equal(t, "0", b.handlers.runtime.table()["commitLogMinOffset"])
	assert.Equal(t, "null", b.handlers.runtime.table()["putMessageDistributeTime"], "within the first minute")

	puts := func() int64 {
		var sum int64
		for _, f := range strings.Fields(b.handlers.runtime.table()["putMessageDistributeTime"]) {
			n, err := strconv.ParseInt(f[strings.LastIndexByte(f, ':')+1:], 10, 64)
			require.NoError(t, err, f)
			sum += n
		}
		return sum
	}
	clock.Advance(distributionRoll + time.Second)
	b.stats.sample()
	assert.Regexp(t, `^\[<=0ms\]:\d+ \[0~10ms\]:\d+ .* \[10s~\]:\d+ $`, b.handlers.runtime.table()["putMessageDistributeTime"])
	assert.Equal(t, int64(3), puts(), "the first minute's puts")
	clock.Advance(distributionRoll + time.Second)
	b.stats.sample()
	assert.Equal(t, int64(0), puts(), "no put in the last minute")
	assert.Len(t, strings.Fields(b.handlers.runtime.table()["putMessageDistributeTime"]), len(store.PutTimeBuckets))

	r := &runtimeStats{}
	for i := range 61 {
		r.samples = append(r.samples, statsSample{at: time.UnixMilli(int64(i) * 1000), getFound: int64(i) * 3, getMiss: int64(i)})
	}
	assert.Equal(t, "4.0 4.0 0.0", r.totalTPS(), "found plus miss; 0.0 for the 600 s window not yet sampled")
}
