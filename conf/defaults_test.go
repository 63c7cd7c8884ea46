package conf

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testEnv is the machine the Java listings in testdata/ were produced on:
// 4 CPUs, user.home /home/test, host name vm, local address 192.0.2.2, no
// ROCKETMQ_HOME or NAMESRV_ADDR.
func testEnv() Env {
	return Env{
		Vars:         map[string]string{},
		SysProps:     map[string]string{"user.home": "/home/test"},
		HostName:     "vm",
		LocalAddress: "192.0.2.2",
		NumCPU:       4,
	}
}

// javaFourLines renders objs as PrintConfig does but without the 5.x keys,
// i.e. what Java 4.9.8's printObjectProperties prints.
func javaFourLines(objs ...Object) []string {
	var lines []string
	for _, obj := range objs {
		sv := structOf(obj)
		for _, f := range fieldsOf(sv.Type()) {
			if !f.since5 {
				lines = append(lines, f.print+"="+formatValue(sv.Field(f.index)))
			}
		}
	}
	return lines
}

func readGolden(t *testing.T, name string) []string {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	require.NoError(t, err)
	var lines []string
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if !strings.HasPrefix(l, "#") {
			lines = append(lines, l)
		}
	}
	return lines
}

// The -p listing of the defaults is line for line what the Java 4.9.8
// classes print (testdata/java498_*_p.txt, see their headers).
func TestDefaultsMatchJavaListing(t *testing.T) {
	b := DefaultBrokerConfigs(testEnv())
	assert.Equal(t, readGolden(t, "java498_broker_p.txt"), javaFourLines(b.Objects()...))
	n := DefaultNamesrvConfigs(testEnv())
	assert.Equal(t, readGolden(t, "java498_namesrv_p.txt"), javaFourLines(n.Objects()...))
}

// A sample of defaults with where each value comes from in Java 4.9.8
// (B = common/.../BrokerConfig.java, S = store/.../config/MessageStoreConfig.java,
// NS = remoting/.../netty/NettyServerConfig.java, NC = NettyClientConfig.java,
// N = common/.../namesrv/NamesrvConfig.java, BS = broker/.../BrokerStartup.java,
// NSS = namesrv/.../NamesrvStartup.java, SYS = NettySystemConfig.java),
// computed for testEnv (4 CPUs).
func TestDefaultsSample(t *testing.T) {
	b := DefaultBrokerConfigs(testEnv())
	n := DefaultNamesrvConfigs(testEnv())
	tests := []struct {
		key, want, source string
		obj               Object
	}{
		{"brokerClusterName", "DefaultCluster", `B: "DefaultCluster"`, b.Broker},
		{"brokerName", "vm", "B: localHostName()", b.Broker},
		{"brokerIP1", "192.0.2.2", "B: RemotingUtil.getLocalAddress()", b.Broker},
		{"brokerIP2", "192.0.2.2", "B: RemotingUtil.getLocalAddress()", b.Broker},
		{"brokerId", "0", "B: MixAll.MASTER_ID", b.Broker},
		{"brokerPermission", "6", "B: PERM_READ | PERM_WRITE", b.Broker},
		{"defaultTopicQueueNums", "8", "B: 8", b.Broker},
		{"autoCreateTopicEnable", "true", "B: true", b.Broker},
		{"autoCreateSubscriptionGroup", "true", "B: true", b.Broker},
		{"sendMessageThreadPoolNums", "4", "B: min(ncpu, 4)", b.Broker},
		{"pullMessageThreadPoolNums", "24", "B: 16 + ncpu*2", b.Broker},
		{"queryMessageThreadPoolNums", "12", "B: 8 + ncpu", b.Broker},
		{"heartbeatThreadPoolNums", "4", "B: min(32, ncpu)", b.Broker},
		{"endTransactionThreadPoolNums", "16", "B: max(8 + ncpu*2, send*4)", b.Broker},
		{"waitTimeMillsInSendQueue", "200", "B: 200", b.Broker},
		{"enablePropertyFilter", "false", "B: false", b.Broker},
		{"traceTopicEnable", "false", "B: false", b.Broker},
		{"msgTraceTopicName", "RMQ_SYS_TRACE_TOPIC", "B: TopicValidator.RMQ_SYS_TRACE_TOPIC", b.Broker},
		{"aclEnable", "false", "B: false", b.Broker},
		{"registerNameServerPeriod", "30000", "B: 1000 * 30", b.Broker},
		{"transactionTimeOut", "6000", "B: 6 * 1000", b.Broker},
		{"transactionCheckMax", "15", "B: 15", b.Broker},
		{"transactionCheckInterval", "60000", "B: 60 * 1000 (5.3.3: 30 * 1000)", b.Broker},
		{"consumerFallbehindThreshold", "17179869184", "B: 1024L * 1024 * 1024 * 16", b.Broker},
		{"configBlackList", "configBlackList;brokerConfigPath", "B", b.Broker},
		{"listenPort", "10911", "BS: setListenPort(10911); class default 8888", b.NettyServer},
		{"serverWorkerThreads", "8", "NS: 8", b.NettyServer},
		{"serverSocketBacklog", "1024", "SYS: com.rocketmq.remoting.socket.backlog, 1024", b.NettyServer},
		{"clientCallbackExecutorThreads", "4", "NC: availableProcessors()", b.NettyClient},
		{"connectTimeoutMillis", "3000", "SYS: client.connect.timeout, 3000", b.NettyClient},
		{"storePathRootDir", "/home/test/store", `S: user.home + "/store"`, b.Store},
		{"storePathCommitLog", "", "S: null (getter derives root/commitlog)", b.Store},
		{"mappedFileSizeCommitLog", "1073741824", "S: 1024 * 1024 * 1024", b.Store},
		{"mappedFileSizeConsumeQueue", "6000000", "S: 300000 * CQ_STORE_UNIT_SIZE", b.Store},
		{"flushIntervalCommitLog", "500", "S: 500", b.Store},
		{"flushCommitLogLeastPages", "4", "S: 4", b.Store},
		{"deleteWhen", "04", `S: "04"`, b.Store},
		{"fileReservedTime", "72", "S: 72", b.Store},
		{"diskMaxUsedSpaceRatio", "75", "S: 75", b.Store},
		{"maxMessageSize", "4194304", "S: 1024 * 1024 * 4", b.Store},
		{"syncFlushTimeout", "5000", "S: 1000 * 5", b.Store},
		{"haListenPort", "10912", "BS: listenPort + 1", b.Store},
		{"brokerRole", "ASYNC_MASTER", "S: BrokerRole.ASYNC_MASTER", b.Store},
		{"flushDiskType", "ASYNC_FLUSH", "S: FlushDiskType.ASYNC_FLUSH", b.Store},
		{"messageDelayLevel", "1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h", "S", b.Store},
		{"kvConfigPath", "/home/test/namesrv/kvConfig.json", `N: user.home + "/namesrv/kvConfig.json"`, n.Namesrv},
		{"configStorePath", "/home/test/namesrv/namesrv.properties", "N", n.Namesrv},
		{"listenPort", "9876", "NSS: setListenPort(9876)", n.NettyServer},
	}
	for _, tt := range tests {
		got, ok := itemValue(tt.obj, tt.key)
		require.True(t, ok, tt.key)
		assert.Equal(t, tt.want, got, "%s (%s)", tt.key, tt.source)
	}
}

// Defaults Java takes from the environment.
func TestDefaultsFromEnv(t *testing.T) {
	env := testEnv()
	env.Vars = map[string]string{"ROCKETMQ_HOME": "/opt/rmq", "NAMESRV_ADDR": "ns:9876"}
	env.HostName = ""
	env.NumCPU = 1
	env.SysProps["com.rocketmq.remoting.socket.sndbuf.size"] = "65536"
	env.SysProps["com.rocketmq.remoting.client.worker.size"] = "x" // unparsable: default
	env.SysProps["rocketmq.broker.diskSpaceWarningLevelRatio"] = "0.95"
	b := DefaultBrokerConfigs(env)
	assert.Equal(t, "/opt/rmq", b.Broker.RocketmqHome)
	assert.Equal(t, "ns:9876", b.Broker.NamesrvAddr)
	assert.Equal(t, "DEFAULT_BROKER", b.Broker.BrokerName)
	assert.Equal(t, int32(1), b.Broker.SendMessageThreadPoolNums)
	assert.Equal(t, int32(10), b.Broker.EndTransactionThreadPoolNums) // max(8+2, 4*1)
	assert.Equal(t, int32(65536), b.NettyServer.ServerSocketSndBufSize)
	assert.Equal(t, int32(65536), b.NettyClient.ClientSocketSndBufSize)
	assert.Equal(t, int32(4), b.NettyClient.ClientWorkerThreads)
	assert.False(t, b.NettyClient.UseTLS)
	assert.Equal(t, int32(95), b.Store.DiskSpaceWarningLevelRatio)
	assert.Equal(t, int32(85), b.Store.DiskSpaceCleanForciblyRatio)

	// System properties win over environment variables.
	env.SysProps["rocketmq.home.dir"] = "/srv/rmq"
	env.SysProps["rocketmq.namesrv.addr"] = "a:1;b:2"
	env.SysProps["tls.server.mode"] = "enforcing"
	b = DefaultBrokerConfigs(env)
	assert.Equal(t, "/srv/rmq", b.Broker.RocketmqHome)
	assert.Equal(t, "a:1;b:2", b.Broker.NamesrvAddr)
	assert.True(t, b.NettyClient.UseTLS)
	env.SysProps["tls.enable"] = "false"
	assert.False(t, DefaultBrokerConfigs(env).NettyClient.UseTLS)
}

func itemValue(obj Object, key string) (string, bool) {
	for _, kv := range objectItems(obj, false) {
		if kv.key == key {
			return kv.value, true
		}
	}
	return "", false
}
