package conf

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func bindBroker(t *testing.T, file string) (*BrokerConfigs, []Warning) {
	t.Helper()
	p, err := ParseProperties([]byte(file), "broker.conf")
	require.NoError(t, err)
	b := DefaultBrokerConfigs(testEnv())
	return b, Bind(p, b.Objects()...)
}

// The distribution's broker.conf binds without warnings.
func TestBindDistributionBrokerConf(t *testing.T) {
	b, ws := bindBroker(t, "brokerClusterName = DefaultCluster\nbrokerName = broker-a\nbrokerId = 0\n"+
		"deleteWhen = 04\nfileReservedTime = 48\nbrokerRole = ASYNC_MASTER\nflushDiskType = ASYNC_FLUSH\n")
	assert.Empty(t, ws)
	assert.Equal(t, "broker-a", b.Broker.BrokerName)
	assert.Equal(t, int32(48), b.Store.FileReservedTime)
	assert.Equal(t, AsyncMaster, b.Store.BrokerRole)
	at, ok := OriginOf(b.Store, "fileReservedTime")
	require.True(t, ok)
	assert.Equal(t, Origin{File: "broker.conf", Line: 5}, at)
}

func TestBindValues(t *testing.T) {
	tests := []struct {
		name, line string
		get        func(b *BrokerConfigs) any
		want       any
		warn       string // substring of the warning; "" for none
	}{
		{"int", "defaultTopicQueueNums=16", func(b *BrokerConfigs) any { return b.Broker.DefaultTopicQueueNums }, int32(16), ""},
		{"int plus sign", "defaultTopicQueueNums=+16", func(b *BrokerConfigs) any { return b.Broker.DefaultTopicQueueNums }, int32(16), ""},
		{"int leading zeros", "defaultTopicQueueNums=010", func(b *BrokerConfigs) any { return b.Broker.DefaultTopicQueueNums }, int32(10), ""},
		{"int trailing blank keeps default", "defaultTopicQueueNums=16 ", func(b *BrokerConfigs) any { return b.Broker.DefaultTopicQueueNums }, int32(8), "Java does not trim"},
		{"int expression keeps default", "mappedFileSizeCommitLog=1024*1024*10", func(b *BrokerConfigs) any { return b.Store.MappedFileSizeCommitLog }, int32(1 << 30), "default 1073741824 kept"},
		{"int hex keeps default", "defaultTopicQueueNums=0x10", func(b *BrokerConfigs) any { return b.Broker.DefaultTopicQueueNums }, int32(8), "not a Java int"},
		{"int overflow keeps default", "maxMessageSize=2147483648", func(b *BrokerConfigs) any { return b.Store.MaxMessageSize }, int32(4 << 20), "out of range"},
		{"int minimum", "brokerPermission=-2147483648", func(b *BrokerConfigs) any { return b.Broker.BrokerPermission }, int32(-2147483648), ""},
		{"long", "brokerId=3", func(b *BrokerConfigs) any { return b.Broker.BrokerId }, int64(3), ""},
		{"long beyond int", "consumerFallbehindThreshold=4294967296", func(b *BrokerConfigs) any { return b.Broker.ConsumerFallbehindThreshold }, int64(1 << 32), ""},
		{"bool true any case", "aclEnable=TRUE", func(b *BrokerConfigs) any { return b.Broker.AclEnable }, true, ""},
		{"bool false", "autoCreateTopicEnable=false", func(b *BrokerConfigs) any { return b.Broker.AutoCreateTopicEnable }, false, ""},
		{"bool trailing blank is false", "autoCreateTopicEnable=true ", func(b *BrokerConfigs) any { return b.Broker.AutoCreateTopicEnable }, false, "remove the surrounding blanks"},
		{"bool yes is false", "autoCreateTopicEnable=yes", func(b *BrokerConfigs) any { return b.Broker.AutoCreateTopicEnable }, false, "reads as false"},
		{"bool 1 is false", "autoCreateTopicEnable=1", func(b *BrokerConfigs) any { return b.Broker.AutoCreateTopicEnable }, false, "reads as false"},
		{"string trimmed", "brokerName=  broker-a \t", func(b *BrokerConfigs) any { return b.Broker.BrokerName }, "broker-a", "surrounding blanks"},
		{"string empty", "brokerIP2=", func(b *BrokerConfigs) any { return b.Broker.BrokerIP2 }, "", ""},
		{"enum", "brokerRole=SLAVE", func(b *BrokerConfigs) any { return b.Store.BrokerRole }, Slave, ""},
		{"enum trimmed", "flushDiskType = SYNC_FLUSH ", func(b *BrokerConfigs) any { return b.Store.FlushDiskType }, SyncFlush, "surrounding blanks"},
		{"enum case-sensitive keeps default", "brokerRole=slave", func(b *BrokerConfigs) any { return b.Store.BrokerRole }, AsyncMaster, "is not one of ASYNC_MASTER, SYNC_MASTER, SLAVE"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, ws := bindBroker(t, "# first line\n"+tt.line+"\n")
			assert.Equal(t, tt.want, tt.get(b))
			if tt.warn == "" {
				assert.Empty(t, ws)
				return
			}
			require.Len(t, ws, 1, "%v", ws)
			assert.Contains(t, ws[0].Message, tt.warn)
			assert.Equal(t, "broker.conf", ws[0].File)
			assert.Equal(t, 2, ws[0].Line)
		})
	}
}

func TestBindTrueWithTrailingSpaceWarnsAtItsLine(t *testing.T) {
	b, ws := bindBroker(t, "brokerName=a\n\n# on\nautoCreateTopicEnable=true \nbrokerId=0\n")
	assert.False(t, b.Broker.AutoCreateTopicEnable)
	require.Len(t, ws, 1)
	assert.Equal(t, Warning{
		File: "broker.conf", Line: 4, Key: "autoCreateTopicEnable",
		Message: `"true " reads as false: Java's Boolean.parseBoolean is true only for "true" (remove the surrounding blanks)`,
	}, ws[0])
	assert.Equal(t, `broker.conf:4: autoCreateTopicEnable: "true " reads as false: `+
		`Java's Boolean.parseBoolean is true only for "true" (remove the surrounding blanks)`, ws[0].String())
}

func TestBindUnknownKeys(t *testing.T) {
	b, ws := bindBroker(t, "brokerName=a\nmapedFileSizeCommitLog=10485760\nBrokerName=b\nenablePopLog=true\n"+
		"isEnableBatchPush=true\nnoSuchKey=1\n")
	assert.Equal(t, int32(1<<30), b.Store.MappedFileSizeCommitLog, "the old spelling is ignored, as by Java")
	assert.Equal(t, "a", b.Broker.BrokerName)
	require.Len(t, ws, 5, "%v", ws)
	assert.Equal(t, Warning{File: "broker.conf", Line: 2, Key: "mapedFileSizeCommitLog",
		Message: "unknown key, ignored (old spelling: Java 4.5.2 and later read only mappedFileSizeCommitLog)"}, ws[0])
	assert.Contains(t, ws[1].Message, "did you mean brokerName?")
	assert.Equal(t, 3, ws[1].Line)
	assert.Equal(t, "a RocketMQ 5.x setting rmqgo does not implement, ignored", ws[2].Message)
	assert.Equal(t, "isEnableBatchPush", ws[3].Key)
	assert.Equal(t, "unknown key, ignored", ws[4].Message)
}

// ACL 2.0's keys are read by the broker itself: no warning.
func TestBindAuthKeysReadElsewhere(t *testing.T) {
	_, ws := bindBroker(t, "authenticationEnabled=true\nauthorizationStrategy=x\nstatefulAuthenticationCacheMaxNum=5\n")
	assert.Empty(t, ws)
}

// A key is known when any of the configs bound together has it; a key two
// configs share sets both, and a bad value for it is reported once.
func TestBindAcrossConfigs(t *testing.T) {
	b, ws := bindBroker(t, "listenPort=30911\nwriteBufferHighWaterMark=65536\nwriteBufferLowWaterMark=x\n"+
		"enableBatchPush=true\nclientWorkerThreads=2\n")
	assert.Equal(t, int32(30911), b.NettyServer.ListenPort)
	assert.Equal(t, int32(65536), b.NettyServer.WriteBufferHighWaterMark)
	assert.Equal(t, int32(65536), b.NettyClient.WriteBufferHighWaterMark)
	assert.True(t, b.Store.EnableBatchPush, "bound through its setter name")
	assert.Equal(t, int32(2), b.NettyClient.ClientWorkerThreads)
	require.Len(t, ws, 1, "%v", ws)
	assert.Equal(t, "writeBufferLowWaterMark", ws[0].Key)

	// The same file bound to the name server's configs: broker keys are unknown there.
	p, err := ParseProperties([]byte("listenPort=9877\nbrokerName=x\n"), "namesrv.conf")
	require.NoError(t, err)
	n := DefaultNamesrvConfigs(testEnv())
	ws = Bind(p, n.Objects()...)
	assert.Equal(t, int32(9877), n.NettyServer.ListenPort)
	require.Len(t, ws, 1)
	assert.Equal(t, "brokerName", ws[0].Key)
}

func TestBindWarningsSortedByLine(t *testing.T) {
	_, ws := bindBroker(t, "zzz=1\nbrokerId=x\naaa=2\n")
	var lines []int
	for _, w := range ws {
		lines = append(lines, w.Line)
	}
	assert.Equal(t, []int{1, 2, 3}, lines)
	assert.True(t, strings.HasPrefix(ws[1].String(), "broker.conf:2: brokerId: "))
}

// The same file bound by Java's MixAll.properties2Object to the four
// configs gave these values with the 5.3.3 classes (which trim strings, as
// Bind does); 4.9.8 differed only in brokerName ("broker-a ") and brokerRole
// (ASYNC_MASTER: BrokerRole.valueOf("SLAVE ") throws).
func TestBindMatchesJavaProperties2Object(t *testing.T) {
	b, ws := bindBroker(t, "brokerName = broker-a \nbrokerId=1x\ndefaultTopicQueueNums=16 \n"+
		"autoCreateTopicEnable=true \naclEnable=TRUE\nmappedFileSizeCommitLog=1024*1024*10\n"+
		"mapedFileSizeCommitLog=10485760\nbrokerRole = SLAVE \nflushDiskType=sync_flush\nlistenPort=+30911\n"+
		"writeBufferHighWaterMark=65536\nmaxMessageSize=010\nconsumerFallbehindThreshold=4294967296\n"+
		"brokerPermission=-2147483649\n")
	assert.Equal(t, "broker-a", b.Broker.BrokerName)
	assert.Equal(t, int64(0), b.Broker.BrokerId)
	assert.Equal(t, int32(8), b.Broker.DefaultTopicQueueNums)
	assert.False(t, b.Broker.AutoCreateTopicEnable)
	assert.True(t, b.Broker.AclEnable)
	assert.Equal(t, int32(1073741824), b.Store.MappedFileSizeCommitLog)
	assert.Equal(t, Slave, b.Store.BrokerRole)
	assert.Equal(t, AsyncFlush, b.Store.FlushDiskType)
	assert.Equal(t, int32(30911), b.NettyServer.ListenPort)
	assert.Equal(t, int32(65536), b.NettyServer.WriteBufferHighWaterMark)
	assert.Equal(t, int32(65536), b.NettyClient.WriteBufferHighWaterMark)
	assert.Equal(t, int32(10), b.Store.MaxMessageSize)
	assert.Equal(t, int64(4294967296), b.Broker.ConsumerFallbehindThreshold)
	assert.Equal(t, int32(6), b.Broker.BrokerPermission)
	keys := make([]string, 0, len(ws))
	for _, w := range ws {
		keys = append(keys, w.Key)
	}
	assert.Equal(t, []string{"brokerName", "brokerId", "defaultTopicQueueNums", "autoCreateTopicEnable",
		"mappedFileSizeCommitLog", "mapedFileSizeCommitLog", "brokerRole", "flushDiskType", "brokerPermission"}, keys)
}
