package broker

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
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
	assert.Regexp(t, `^\[<=0ms\]:\d+ \[0~10ms\]:\d+ .* \[10s~\]:\d+ $`, m["putMessageDistributeTime"])
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
