package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/broker"
	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/namesrv"
)

// mqadmin runs one command line with RMQGO_LINE=line and the environment
// given, and returns its exit code, stdout and stderr.
func mqadmin(line string, environ map[string]string, args ...string) (int, string, string) {
	var out, errOut bytes.Buffer
	getenv := func(k string) string {
		if k == "RMQGO_LINE" {
			return line
		}
		return environ[k]
	}
	code := run(args, getenv, &out, &errOut)
	return code, out.String(), errOut.String()
}

// Java's mqadmin 4.9.8 and 5.3.3 print these for "mqadmin help updateTopic".
const (
	javaHelpUpdateTopic4 = `usage: mqadmin updateTopic -b <arg> | -c <arg>  [-h] [-n <arg>] [-o <arg>] [-p <arg>] [-r <arg>] [-s <arg>] -t
       <arg> [-u <arg>] [-w <arg>]
 -b,--brokerAddr <arg>       create topic to which broker
 -c,--clusterName <arg>      create topic to which cluster
 -h,--help                   Print help
 -n,--namesrvAddr <arg>      Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'
 -o,--order <arg>            set topic's order(true|false)
 -p,--perm <arg>             set topic's permission(2|4|6), intro[2:W 4:R; 6:RW]
 -r,--readQueueNums <arg>    set read queue nums
 -s,--hasUnitSub <arg>       has unit sub (true|false)
 -t,--topic <arg>            topic name
 -u,--unit <arg>             is unit topic (true|false)
 -w,--writeQueueNums <arg>   set write queue nums
`
	javaHelpUpdateTopic5Head = `usage: mqadmin updateTopic [-a <arg>] -b <arg> | -c <arg>  [-h] [-n <arg>] [-o <arg>] [-p <arg>] [-r <arg>]
       [-s <arg>] -t <arg> [-u <arg>] [-w <arg>]
 -a,--attributes <arg>       attribute(+a=b,+c=d,-e)
`
)

func TestHelpIsJavas(t *testing.T) {
	code, out, _ := mqadmin("4", nil, "help", "updateTopic")
	assert.Equal(t, 0, code)
	assert.Equal(t, javaHelpUpdateTopic4, out)
	_, out, _ = mqadmin("5", nil, "help", "updateTopic")
	assert.True(t, strings.HasPrefix(out, javaHelpUpdateTopic5Head), out)
}

func TestMissingRequiredOptionPrintsUsage(t *testing.T) {
	code, out, errOut := mqadmin("4", nil, "topicStatus", "-n", "127.0.0.1:9876")
	assert.Equal(t, 1, code)
	assert.Equal(t, "Missing required option: t\n", errOut)
	assert.Equal(t, "usage: mqadmin topicStatus [-h] [-n <arg>] -t <arg>\n"+
		" -h,--help                Print help\n"+
		" -n,--namesrvAddr <arg>   Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'\n"+
		" -t,--topic <arg>         topic name\n", out)

	code, _, errOut = mqadmin("4", nil, "updateTopic", "-t", "T")
	assert.Equal(t, 1, code)
	assert.Equal(t, "Missing required option: [-b create topic to which broker, -c create topic to which cluster]\n", errOut)
}

func TestCommandListAndUnknownCommands(t *testing.T) {
	_, out, _ := mqadmin("4", nil)
	assert.True(t, strings.HasPrefix(out, "The most commonly used mqadmin commands are:\n   updateTopic          Update or create topic\n"), out)
	assert.Contains(t, out, "   clusterList          List all of clusters\n")
	assert.Contains(t, out, "\nSee 'mqadmin help <command>' for more information on a specific command.\n")

	_, out, _ = mqadmin("4", nil, "noSuchCommand")
	assert.Equal(t, "The sub command noSuchCommand not exist.\n", out)
	_, out, _ = mqadmin("4", nil, "printMsg", "-t", "T")
	assert.Contains(t, out, "printMsg is not in this mqadmin (rmqgo)")
}

func TestOptionSpellings(t *testing.T) {
	opts := append(commonOptions(), topicStatusOptions(protocol.Line4)...)
	for _, args := range [][]string{{"-t", "T1"}, {"-tT1"}, {"--topic", "T1"}, {"--topic=T1"}} {
		c, err := scan(opts, append(args, "-n", "ns:9876"))
		require.NoError(t, err, args)
		assert.Equal(t, "T1", c.get("t"), args)
		assert.Equal(t, "ns:9876", c.get("n"), args)
	}
	_, err := scan(opts, []string{"-x", "1"})
	assert.EqualError(t, err, "Unrecognized option: -x")
}

func TestPrettyRouteIsFastjsons(t *testing.T) {
	r := &protocol.TopicRouteData{
		BrokerDatas: []protocol.BrokerData{{Cluster: "DefaultCluster", BrokerName: "broker-a",
			BrokerAddrs: protocol.BrokerAddrs{{ID: 0, Addr: "127.0.0.1:10911"}}}},
		QueueDatas: []protocol.QueueData{{BrokerName: "broker-a", ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6}},
	}
	want4 := "{\n\t\"brokerDatas\":[\n\t\t{\n\t\t\t\"brokerAddrs\":{0:\"127.0.0.1:10911\"\n\t\t\t},\n\t\t\t\"brokerName\":\"broker-a\",\n" +
		"\t\t\t\"cluster\":\"DefaultCluster\"\n\t\t}\n\t],\n\t\"filterServerTable\":{},\n\t\"queueDatas\":[\n\t\t{\n" +
		"\t\t\t\"brokerName\":\"broker-a\",\n\t\t\t\"perm\":6,\n\t\t\t\"readQueueNums\":4,\n\t\t\t\"topicSysFlag\":0,\n" +
		"\t\t\t\"writeQueueNums\":4\n\t\t}\n\t]\n}"
	assert.Equal(t, want4, prettyRoute(r, protocol.Line4))
	assert.Contains(t, prettyRoute(r, protocol.Line5), "\"cluster\":\"DefaultCluster\",\n\t\t\t\"enableActingMaster\":false\n\t\t}")
}

func TestJavaFormats(t *testing.T) {
	assert.Equal(t, "0.13", javaFixed(0.125, 2))
	assert.Equal(t, "0.0", javaDouble(0))
	assert.Equal(t, "abc", frontStringAtLeast("abcdef", 3))
	assert.Equal(t, [][2]string{{"a", "1"}, {"b", "x=y"}}, parseProperties("a=1\n\nb=x=y\n"))
	assert.Equal(t, "0-0(0.0w, 0.0, 0.0)", timerProgress(nil))
}

// startServers runs this project's name server and broker-a on free ports.
func startServers(t *testing.T) (nsAddr, brokerAddr string) {
	o := namesrv.DefaultOptions()
	o.ListenAddr, o.KVConfigPath, o.Logger = "127.0.0.1:0", filepath.Join(t.TempDir(), "kv.json"), zap.NewNop()
	ns, err := namesrv.New(o)
	require.NoError(t, err)
	require.NoError(t, ns.Start())
	t.Cleanup(func() { _ = ns.Close() })

	dir := t.TempDir()
	c := conf.DefaultBrokerConfigs(conf.Env{HostName: "admin", LocalAddress: "127.0.0.1",
		SysProps: map[string]string{"user.home": dir}, Vars: map[string]string{"ROCKETMQ_HOME": dir}})
	c.NettyServer.ListenPort, c.Store.HaListenPort = 0, 0
	c.Broker.BrokerName, c.Broker.NamesrvAddr = "broker-a", ns.Addr()
	c.Store.StorePathRootDir, c.Store.StorePathCommitLog = dir+"/store", dir+"/store/commitlog"
	c.Store.MappedFileSizeCommitLog, c.Store.MappedFileSizeConsumeQueue = 4<<20, 20*1000
	b, err := broker.New(broker.Options{Configs: c, ListenHost: "127.0.0.1", Logger: zap.NewNop()})
	require.NoError(t, err)
	require.NoError(t, b.Start())
	t.Cleanup(func() { _ = b.Close() })
	return ns.Addr(), b.Addr()
}

// TestCommandsAgainstOurServers runs the topic and group commands as an
// operator would, the name server given by NAMESRV_ADDR.
func TestCommandsAgainstOurServers(t *testing.T) {
	ns, addr := startServers(t)
	env := map[string]string{"NAMESRV_ADDR": ns}
	require.Eventually(t, func() bool {
		_, out, _ := mqadmin("4", env, "clusterList")
		return strings.Contains(out, addr)
	}, 10*time.Second, 50*time.Millisecond)
	_, out, _ := mqadmin("4", env, "clusterList")
	assert.Regexp(t, `(?m)^DefaultCluster +broker-a +0 +`+addr+` +V4_9_8 +0\.00\(0,0ms\)`, out)

	_, out, errOut := mqadmin("4", env, "updateTopic", "-c", "DefaultCluster", "-t", "AdminTopic", "-r", "4", "-w", "4")
	assert.Equal(t, "create topic to "+addr+" success.\nTopicConfig [topicName=AdminTopic, readQueueNums=4, writeQueueNums=4, perm=RW-, topicFilterType=SINGLE_TAG, topicSysFlag=0, order=false]", out, errOut)
	require.Eventually(t, func() bool {
		_, out, _ := mqadmin("5", env, "topicStatus", "-t", "AdminTopic")
		return strings.Count(out, "broker-a") == 4
	}, 10*time.Second, 50*time.Millisecond)
	_, out, _ = mqadmin("5", env, "topicStatus", "-t", "AdminTopic")
	assert.Contains(t, out, "broker-a                          3     0                     0                       \n\nTopic Put TPS: 0.0\n")

	_, out, _ = mqadmin("5", env, "updateSubGroup", "-b", addr, "-g", "AdminGroup")
	assert.Equal(t, "create subscription group to "+addr+" success.\n"+
		"SubscriptionGroupConfig{groupName=AdminGroup, consumeEnable=true, consumeFromMinEnable=false, consumeBroadcastEnable=false, consumeMessageOrderly=false, retryQueueNums=1, retryMaxTimes=16, groupRetryPolicy=GroupRetryPolicy{type=CUSTOMIZED, exponentialRetryPolicy=null, customizedRetryPolicy=null}, brokerId=0, whichBrokerWhenConsumeSlowly=1, notifyConsumerIdsChangedEnable=true, groupSysFlag=0, consumeTimeoutMinute=15, subscriptionDataSet=null, attributes={}}", out)

	_, out, _ = mqadmin("4", env, "updateBrokerConfig", "-b", addr, "-k", "maxMessageSize", "-v", "4194000")
	assert.Equal(t, "update broker config success, "+addr+"\n", out)
	_, out, _ = mqadmin("4", env, "getBrokerConfig", "-b", addr)
	assert.Regexp(t, `(?m)^maxMessageSize +=  4194000$`, out)

	_, out, _ = mqadmin("4", env, "deleteTopic", "-c", "DefaultCluster", "-t", "AdminTopic")
	assert.Equal(t, "delete topic [AdminTopic] from cluster [DefaultCluster] success.\ndelete topic [AdminTopic] from NameServer success.\n", out)
	_, _, errOut = mqadmin("4", env, "topicRoute", "-t", "AdminTopic")
	assert.Contains(t, errOut, "No topic route info in name server for the topic: AdminTopic")
}

func TestPropertiesPrintInJavaHashMapOrder(t *testing.T) {
	// As Java's mqadmin printed them for the same properties, stored in
	// this order (the broker appends CLUSTER; CLUSTER and UNIQ_KEY share a
	// bucket, so the order they were put in shows).
	pairs := [][2]string{{"TAGS", "TagA"}, {"KEYS", "mqaKey2"}, {"UNIQ_KEY", "U"}, {"CLUSTER", "DefaultCluster"}}
	assert.Equal(t, "{KEYS=mqaKey2, UNIQ_KEY=U, CLUSTER=DefaultCluster, TAGS=TagA}", javaHashMapString(pairs, 16))
	pairs = append(pairs, [2]string{"MAX_OFFSET", "1"}, [2]string{"MIN_OFFSET", "0"})
	assert.Equal(t, "{MIN_OFFSET=0, MAX_OFFSET=1, KEYS=mqaKey2, UNIQ_KEY=U, CLUSTER=DefaultCluster, TAGS=TagA}", javaHashMapString(pairs, 16))
	// 5.3.3's map starts at 128 buckets.
	pairs = [][2]string{{"TRACE_ON", "true"}, {"MSG_REGION", "DefaultRegion"}, {"KEYS", "mqaKey3"}, {"UNIQ_KEY", "U"},
		{"CLUSTER", "DefaultCluster"}, {"WAIT", "true"}, {"TAGS", "TagA"}}
	assert.Equal(t, "{MSG_REGION=DefaultRegion, UNIQ_KEY=U, CLUSTER=DefaultCluster, TAGS=TagA, KEYS=mqaKey3, WAIT=true, TRACE_ON=true}", javaHashMapString(pairs, 128))
}

func TestResetQueuesPrintInJavaHashMapOrder(t *testing.T) {
	m := map[protocol.MessageQueue]int64{}
	for q := int32(0); q < 4; q++ {
		m[protocol.MessageQueue{Topic: "MqaTopic", BrokerName: "broker-a", QueueID: q}] = 1
	}
	var ids []int32
	for _, q := range hashMapQueueOrder(m) {
		ids = append(ids, q.QueueID)
	}
	assert.Equal(t, []int32{0, 2, 1, 3}, ids) // as Java's mqadmin printed them
}
