package broker

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// groupBody is an UPDATE_AND_CREATE_SUBSCRIPTIONGROUP body.
func groupBody(group string, retryMaxTimes int32) []byte {
	c := protocol.NewSubscriptionGroupConfig(group)
	c.RetryMaxTimes = retryMaxTimes
	c.ConsumeBroadcastEnable = false
	return c.AppendJSON(nil, protocol.Line4)
}

func createGroup(t *testing.T, c *remoting.Client, b *Broker, group string, retryMaxTimes int32) {
	t.Helper()
	resp := invoke(t, c, b.Addr(), withBody(remoting.NewRequest(remoting.UpdateAndCreateSubscriptiongroup, nil), groupBody(group, retryMaxTimes)))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
}

// allGroups asks GET_ALL_SUBSCRIPTIONGROUP_CONFIG.
func allGroups(t *testing.T, c *remoting.Client, b *Broker) *protocol.SubscriptionGroupWrapper {
	t.Helper()
	resp := invoke(t, c, b.Addr(), remoting.NewRequest(remoting.GetAllSubscriptiongroupConfig, nil))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	w, err := protocol.DecodeSubscriptionGroupWrapper(resp.Body)
	require.NoError(t, err)
	return w
}

func commit(t *testing.T, c *remoting.Client, b *Broker, group, topic string, queueID int32, offset int64) {
	t.Helper()
	invoke(t, c, b.Addr(), remoting.NewRequest(remoting.UpdateConsumerOffset, map[string]string{
		"consumerGroup": group, "topic": topic, "queueId": itoa(queueID), "commitOffset": itoa(offset)}))
}

// consumedBy asks QUERY_TOPIC_CONSUME_BY_WHO.
func consumedBy(t *testing.T, c *remoting.Client, b *Broker, topic string) []string {
	t.Helper()
	resp := invoke(t, c, b.Addr(), remoting.NewRequest(remoting.QueryTopicConsumeByWho, map[string]string{"topic": topic}))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	var l struct{ GroupList []string }
	require.NoError(t, jsonAPI.Unmarshal(resp.Body, &l))
	require.NotNil(t, l.GroupList, string(resp.Body))
	return l.GroupList
}

func TestSubscriptionGroupIsCreatedListedReplacedAndDeleted(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	c := newClient(t, nil)
	before := allGroups(t, c, b)
	assert.Contains(t, before.SubscriptionGroupTable, GroupTools)

	createGroup(t, c, b, "G1", 5)
	w := allGroups(t, c, b)
	require.Contains(t, w.SubscriptionGroupTable, "G1")
	assert.Equal(t, int32(5), w.SubscriptionGroupTable["G1"].RetryMaxTimes)
	assert.False(t, w.SubscriptionGroupTable["G1"].ConsumeBroadcastEnable)
	assert.NotEqual(t, before.DataVersion, w.DataVersion)

	createGroup(t, c, b, "G1", 7)
	assert.Equal(t, int32(7), allGroups(t, c, b).SubscriptionGroupTable["G1"].RetryMaxTimes)
	data, err := os.ReadFile(filepath.Join(b.settings.load().Store.StorePathRootDir, "config", "subscriptionGroup.json"))
	require.NoError(t, err)
	assert.Contains(t, string(data), `"retryMaxTimes":7`)

	del := remoting.NewRequest(remoting.DeleteSubscriptiongroup, map[string]string{"groupName": "G1"})
	for range 2 { // a second delete is no error
		resp := invoke(t, c, b.Addr(), del)
		assert.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	}
	assert.NotContains(t, allGroups(t, c, b).SubscriptionGroupTable, "G1")
	resp := invoke(t, c, b.Addr(), remoting.NewRequest(remoting.DeleteSubscriptiongroup, nil))
	assert.Equal(t, int32(remoting.SystemError), resp.Code)
	assert.Equal(t, "the custom field <groupName> is null", resp.Remark)
}

// The 4.x header flag is removeOffset, the 5.x one cleanOffset; each line
// ignores the other's.
func TestDeleteSubscriptionGroupDropsOffsetsWithTheLinesFlag(t *testing.T) {
	for _, tc := range []struct {
		line       protocol.Line
		flag, skip string
	}{{protocol.Line4, "removeOffset", "cleanOffset"}, {protocol.Line5, "cleanOffset", "removeOffset"}} {
		t.Run(tc.line.String(), func(t *testing.T) {
			b := startLineBroker(t, testConfigs(t.TempDir(), ""), tc.line)
			c := newClient(t, nil)
			for _, g := range []string{"keep", "ignored", "drop"} {
				createGroup(t, c, b, g, 3)
				commit(t, c, b, g, "TD", 0, 4)
			}
			for g, flags := range map[string]map[string]string{"keep": {}, "ignored": {tc.skip: "true"}, "drop": {tc.flag: "true"}} {
				flags["groupName"] = g
				resp := invoke(t, c, b.Addr(), remoting.NewRequest(remoting.DeleteSubscriptiongroup, flags))
				require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
			}
			assert.ElementsMatch(t, []string{"keep", "ignored"}, consumedBy(t, c, b, "TD"))
			assert.Equal(t, int64(4), b.offsets.query("keep", "TD", 0))
			assert.Equal(t, int64(-1), b.offsets.query("drop", "TD", 0))
		})
	}
}

func TestSlaveRefusesToChangeTopicsAndSubscriptionGroupsOn4x(t *testing.T) {
	cfg := testConfigs(t.TempDir(), "")
	cfg.Store.BrokerRole, cfg.Broker.BrokerId = conf.Slave, 1
	b := startBroker(t, cfg, nil)
	c := newClient(t, nil)
	for _, req := range []*remoting.Command{
		withBody(remoting.NewRequest(remoting.UpdateAndCreateSubscriptiongroup, nil), groupBody("GS", 1)),
		remoting.NewRequest(remoting.DeleteSubscriptiongroup, map[string]string{"groupName": GroupTools}),
		remoting.NewRequest(remoting.UpdateAndCreateTopic, map[string]string{"topic": "TS", "readQueueNums": "4",
			"writeQueueNums": "4", "perm": "6", "topicFilterType": "SINGLE_TAG"}),
		remoting.NewRequest(remoting.DeleteTopicInBroker, map[string]string{"topic": "TS"}),
	} {
		resp := invoke(t, c, b.Addr(), req)
		assert.Equal(t, int32(remoting.SystemError), resp.Code)
		assert.Equal(t, slaveModifyRemark, resp.Remark)
	}
}

// startLineBroker starts a broker of a release line.
func startLineBroker(t *testing.T, c *conf.BrokerConfigs, line protocol.Line) *Broker {
	t.Helper()
	if line >= protocol.Line5 {
		return startLine5Broker(t, c)
	}
	return startBroker(t, c, nil)
}

func TestLine5SubscriptionGroupByNameAttributesAndForbiddenTable(t *testing.T) {
	cfg := testConfigs(t.TempDir(), "")
	cfg.Broker.AutoCreateSubscriptionGroup = false
	b := startLine5Broker(t, cfg)
	c := newClient(t, nil)
	createGroup(t, c, b, "G5", 6)

	resp := invoke(t, c, b.Addr(), remoting.NewRequest(remoting.GetSubscriptiongroupConfig, map[string]string{"group": "G5"}))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	got, err := protocol.DecodeSubscriptionGroupConfig(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, int32(6), got.RetryMaxTimes)
	assert.Contains(t, string(resp.Body), `"attributes":{}`)

	resp = invoke(t, c, b.Addr(), remoting.NewRequest(remoting.GetSubscriptiongroupConfig, map[string]string{"group": "nope"}))
	assert.Equal(t, int32(remoting.SubscriptionGroupNotExist), resp.Code)
	assert.Equal(t, "No group in this broker", resp.Remark)

	withAttr := protocol.NewSubscriptionGroupConfig("G5")
	withAttr.Attributes = map[string]string{"+x": "1"}
	resp = invoke(t, c, b.Addr(), withBody(remoting.NewRequest(remoting.UpdateAndCreateSubscriptiongroup, nil), withAttr.AppendJSON(nil, protocol.Line5)))
	assert.Equal(t, int32(remoting.SystemError), resp.Code)
	assert.Equal(t, "java.lang.RuntimeException: unsupported key: x", resp.Remark)

	resp = invoke(t, c, b.Addr(), remoting.NewRequest(remoting.GetAllSubscriptiongroupConfig, nil))
	assert.Contains(t, string(resp.Body), `"forbiddenTable":{}`)
	assert.Contains(t, string(resp.Body), `"stateVersion":`)
}

// groupListBody is an UPDATE_AND_CREATE_SUBSCRIPTIONGROUP_LIST body as the
// 5.3.3 client writes it.
func groupListBody(configs ...protocol.SubscriptionGroupConfig) []byte {
	body := []byte(`{"groupConfigList":[`)
	for i, c := range configs {
		if i > 0 {
			body = append(body, ',')
		}
		body = c.AppendJSON(body, protocol.Line5)
	}
	return append(body, "]}"...)
}

func TestLine5SubscriptionGroupListCreatesAndReplacesEveryGroup(t *testing.T) {
	b := startLine5Broker(t, testConfigs(t.TempDir(), ""))
	c := newClient(t, nil)
	createGroup(t, c, b, "GL1", 1)
	before := allGroups(t, c, b).DataVersion

	g1, g2 := protocol.NewSubscriptionGroupConfig("GL1"), protocol.NewSubscriptionGroupConfig("GL2")
	g1.RetryMaxTimes, g2.RetryMaxTimes, g2.ConsumeBroadcastEnable = 7, 9, false
	req := withBody(remoting.NewRequest(remoting.UpdateAndCreateSubscriptiongroupList, nil), groupListBody(g1, g2))
	resp := invoke(t, c, b.Addr(), req)
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)

	w := allGroups(t, c, b)
	assert.Equal(t, int32(7), w.SubscriptionGroupTable["GL1"].RetryMaxTimes, "replaced")
	assert.Equal(t, int32(9), w.SubscriptionGroupTable["GL2"].RetryMaxTimes, "created")
	assert.False(t, w.SubscriptionGroupTable["GL2"].ConsumeBroadcastEnable)
	assert.Equal(t, map[string]string{}, w.SubscriptionGroupTable["GL2"].Attributes)
	assert.Equal(t, before.Counter+2, w.DataVersion.Counter, "the version moves once per config")
	data, err := os.ReadFile(filepath.Join(b.settings.load().Store.StorePathRootDir, "config", "subscriptionGroup.json"))
	require.NoError(t, err)
	onDisk, err := protocol.DecodeSubscriptionGroupWrapper(data)
	require.NoError(t, err)
	assert.Equal(t, int32(9), onDisk.SubscriptionGroupTable["GL2"].RetryMaxTimes, "written to subscriptionGroup.json")

	req = withBody(remoting.NewRequest(remoting.UpdateAndCreateSubscriptiongroupList, nil), groupListBody())
	resp = invoke(t, c, b.Addr(), req)
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	assert.Equal(t, w.DataVersion, allGroups(t, c, b).DataVersion, "an empty list changes nothing")
}

func TestLine5SubscriptionGroupListRefusals(t *testing.T) {
	b := startLine5Broker(t, testConfigs(t.TempDir(), ""))
	c := newClient(t, nil)
	for _, body := range [][]byte{nil, []byte("null"), []byte(`{"groupConfigList":null}`), []byte(`{}`)} {
		req := withBody(remoting.NewRequest(remoting.UpdateAndCreateSubscriptiongroupList, nil), body)
		resp := invoke(t, c, b.Addr(), req)
		assert.Equal(t, int32(remoting.SystemError), resp.Code, "body %q", body)
		assert.Equal(t, "java.lang.NullPointerException", resp.Remark, "body %q", body)
	}

	ok, bad, after := protocol.NewSubscriptionGroupConfig("GOK"), protocol.NewSubscriptionGroupConfig("GBAD"), protocol.NewSubscriptionGroupConfig("GAFTER")
	bad.Attributes = map[string]string{"+x": "1"}
	req := withBody(remoting.NewRequest(remoting.UpdateAndCreateSubscriptiongroupList, nil), groupListBody(ok, bad, after))
	resp := invoke(t, c, b.Addr(), req)
	assert.Equal(t, int32(remoting.SystemError), resp.Code)
	assert.Equal(t, "java.lang.RuntimeException: unsupported key: x", resp.Remark)
	table := allGroups(t, c, b).SubscriptionGroupTable
	assert.Contains(t, table, "GOK", "the configs before the refused one stay")
	assert.NotContains(t, table, "GBAD")
	assert.NotContains(t, table, "GAFTER", "the configs after the refused one are not reached")
}

func TestLine4AnswersThe5xCodesNotSupported(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	c := newClient(t, nil)
	for _, code := range []remoting.RequestCode{remoting.UpdateAndCreateSubscriptiongroupList, remoting.GetSubscriptiongroupConfig,
		remoting.QueryTopicsByConsumer, remoting.QuerySubscriptionByConsumer} {
		resp := invoke(t, c, b.Addr(), remoting.NewRequest(code, map[string]string{"group": "g", "topic": "t"}))
		assert.Equal(t, int32(remoting.RequestCodeNotSupported), resp.Code, "code %d", code)
	}
}

func TestAlterGroupAttributesRefusesWhat5_3_3Refuses(t *testing.T) {
	for _, tc := range []struct {
		create  bool
		current map[string]string
		req     map[string]string
		err     string
	}{
		{true, nil, nil, ""},
		{false, map[string]string{"a": "1"}, map[string]string{}, ""},
		{true, nil, map[string]string{"x": "1"}, "kv string format wrong."},
		{true, nil, map[string]string{"xa": "1"}, "only add attribute is supported while creating topic. key: a"},
		{true, nil, map[string]string{"+a-b": "1"}, "kv string format wrong."},
		{false, nil, map[string]string{"-a": ""}, "attempt to delete a nonexistent key: a"},
		{false, nil, map[string]string{"*a": ""}, "wrong format key: a"},
		{false, nil, map[string]string{"+a": "1"}, "unsupported key: a"},
	} {
		got, err := alterAttributes(tc.create, groupAttributes, tc.current, tc.req)
		if tc.err == "" {
			require.NoError(t, err)
			assert.Equal(t, len(tc.current), len(got))
			assert.NotNil(t, got)
			continue
		}
		require.Error(t, err)
		assert.Contains(t, err.Error(), tc.err)
	}
}

// connectionBody is a ConsumerConnection / ProducerConnection body.
type connectionBody struct {
	ConnectionSet []struct {
		ClientID, ClientAddr, Language string
		Version                        int32
	} `json:"connectionSet"`
	ConsumeType, MessageModel, ConsumeFromWhere string
	SubscriptionTable                           map[string]subscriptionData
}

func TestConnectionListsDescribeTheClients(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	c := newClient(t, nil)
	resp := invoke(t, c, b.Addr(), heartbeatRequest(t, "10.0.0.9@c1", "CG", "TC", "TagA || TagB"))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	invoke(t, c, b.Addr(), producerHeartbeat(t, "PG1"))

	resp = invoke(t, c, b.Addr(), remoting.NewRequest(remoting.GetConsumerConnectionList, map[string]string{"consumerGroup": "CG"}))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	var cc connectionBody
	require.NoError(t, jsonAPI.Unmarshal(resp.Body, &cc), string(resp.Body))
	require.Len(t, cc.ConnectionSet, 1)
	conn := cc.ConnectionSet[0]
	assert.Equal(t, "10.0.0.9@c1", conn.ClientID)
	assert.Regexp(t, `^127\.0\.0\.1:\d+$`, conn.ClientAddr)
	assert.Equal(t, "JAVA", conn.Language)
	assert.Equal(t, remoting.DefaultVersion, conn.Version)
	assert.Equal(t, []string{consumePassively, modelClustering, "CONSUME_FROM_LAST_OFFSET"}, []string{cc.ConsumeType, cc.MessageModel, cc.ConsumeFromWhere})
	require.Contains(t, cc.SubscriptionTable, "TC")
	assert.Equal(t, "TagA || TagB", cc.SubscriptionTable["TC"].SubString)
	assert.ElementsMatch(t, []string{"TagA", "TagB"}, cc.SubscriptionTable["TC"].TagsSet)

	resp = invoke(t, c, b.Addr(), remoting.NewRequest(remoting.GetProducerConnectionList, map[string]string{"producerGroup": "PG1"}))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	var pc connectionBody
	require.NoError(t, jsonAPI.Unmarshal(resp.Body, &pc), string(resp.Body))
	require.Len(t, pc.ConnectionSet, 1)
	assert.Equal(t, "p1", pc.ConnectionSet[0].ClientID)
	assert.Equal(t, `{"connectionSet":[{"clientAddr":"`+pc.ConnectionSet[0].ClientAddr+`","clientId":"p1","language":"JAVA","version":`+
		strconv.Itoa(int(remoting.DefaultVersion))+`}]}`, string(resp.Body))

	resp = invoke(t, c, b.Addr(), remoting.NewRequest(remoting.GetConsumerConnectionList, map[string]string{"consumerGroup": "nobody"}))
	assert.Equal(t, int32(remoting.ConsumerNotOnline), resp.Code)
	assert.Equal(t, "the consumer group[nobody] not online", resp.Remark)
	resp = invoke(t, c, b.Addr(), remoting.NewRequest(remoting.GetProducerConnectionList, map[string]string{"producerGroup": "nobody"}))
	assert.Equal(t, int32(remoting.SystemError), resp.Code)
	assert.Equal(t, "the producer group[nobody] not exist", resp.Remark)
}

func TestTopicConsumeByWhoListsOnlineGroupsAndGroupsWithOffsets(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	c := newClient(t, nil)
	invoke(t, c, b.Addr(), heartbeatRequest(t, "c1", "ONLINE", "TW", "*"))
	commit(t, c, b, "OFFSETS", "TW", 1, 3)
	commit(t, c, b, "OTHER", "TX", 0, 1)
	assert.ElementsMatch(t, []string{"ONLINE", "OFFSETS"}, consumedBy(t, c, b, "TW"))
	assert.Empty(t, consumedBy(t, c, b, "nothing"))
}

func TestLine5TopicsAndSubscriptionByConsumer(t *testing.T) {
	b := startLine5Broker(t, testConfigs(t.TempDir(), ""))
	c := newClient(t, nil)
	invoke(t, c, b.Addr(), heartbeatRequest(t, "c1", "G", "TA", "x || y"))
	commit(t, c, b, "G", "TB", 0, 1)
	commit(t, c, b, "G", "TA", 0, 1)
	commit(t, c, b, "H", "TC", 0, 1)

	resp := invoke(t, c, b.Addr(), remoting.NewRequest(remoting.QueryTopicsByConsumer, map[string]string{"group": "G"}))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	assert.Equal(t, `{"brokerAddr":"`+b.id.brokerAddr()+`","topicList":["TA","TB"]}`, string(resp.Body))

	resp = invoke(t, c, b.Addr(), remoting.NewRequest(remoting.QuerySubscriptionByConsumer, map[string]string{"group": "G", "topic": "TA"}))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	var body struct {
		Group, Topic     string
		SubscriptionData *subscriptionData
	}
	require.NoError(t, jsonAPI.Unmarshal(resp.Body, &body))
	require.NotNil(t, body.SubscriptionData)
	assert.Equal(t, "x || y", body.SubscriptionData.SubString)
	assert.Equal(t, []string{"G", "TA"}, []string{body.Group, body.Topic})

	resp = invoke(t, c, b.Addr(), remoting.NewRequest(remoting.QuerySubscriptionByConsumer, map[string]string{"group": "G", "topic": "TB"}))
	assert.Equal(t, `{"group":"G","topic":"TB"}`, string(resp.Body))
}

func TestTopicStatsShowEachQueuesRange(t *testing.T) {
	for _, line := range []protocol.Line{protocol.Line4, protocol.Line5} {
		t.Run(line.String(), func(t *testing.T) {
			b := startLineBroker(t, testConfigs(t.TempDir(), ""), line)
			c := newClient(t, nil)
			for range 3 {
				invoke(t, c, b.Addr(), withBody(sendRequest("TS", 1, []byte("x"), nil), []byte("x")))
			}
			dispatched(t, b)
			tc, _ := b.topics.get("TS")
			tc.ReadQueueNums = 6
			b.topics.put(tc)
			resp := invoke(t, c, b.Addr(), remoting.NewRequest(remoting.GetTopicStatsInfo, map[string]string{"topic": "TS"}))
			require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
			body := string(resp.Body)
			ts := b.store.StoreTimeAt("TS", 1, 2)
			require.Positive(t, ts)
			assert.Contains(t, body, `{"brokerName":"broker-t","queueId":1,"topic":"TS"}:{"lastUpdateTimestamp":`+itoa(ts)+`,"maxOffset":3,"minOffset":0}`)
			assert.Contains(t, body, `{"brokerName":"broker-t","queueId":0,"topic":"TS"}:{"lastUpdateTimestamp":0,"maxOffset":0,"minOffset":0}`)
			queues := strings.Count(body, `"topic":"TS"`)
			if line >= protocol.Line5 {
				assert.Equal(t, 6, queues, "5.x: max(read, write)")
				assert.True(t, strings.HasSuffix(body, `},"topicPutTps":0.0}`), body)
			} else {
				assert.Equal(t, 4, queues, "4.x: the write queues")
				assert.NotContains(t, body, "topicPutTps")
			}
			resp = invoke(t, c, b.Addr(), remoting.NewRequest(remoting.GetTopicStatsInfo, map[string]string{"topic": "nope"}))
			assert.Equal(t, int32(remoting.TopicNotExist), resp.Code)
			assert.Equal(t, "topic[nope] not exist", resp.Remark)
		})
	}
}

func TestAllConsumerAndDelayOffsetsAreTheDocuments(t *testing.T) {
	for _, line := range []protocol.Line{protocol.Line4, protocol.Line5} {
		t.Run(line.String(), func(t *testing.T) {
			b := startLineBroker(t, testConfigs(t.TempDir(), ""), line)
			c := newClient(t, nil)
			commit(t, c, b, "G", "T", 2, 9)
			resp := invoke(t, c, b.Addr(), remoting.NewRequest(remoting.GetAllConsumerOffset, nil))
			require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
			assert.Contains(t, string(resp.Body), `"offsetTable":{"T@G":{2:9}}`)
			assert.Equal(t, line >= protocol.Line5, strings.Contains(string(resp.Body), `"groupTopicMap":{"G":["T"]}`))
			w, err := protocol.DecodeConsumerOffsetSerializeWrapper(resp.Body)
			require.NoError(t, err)
			assert.Equal(t, map[int32]int64{2: 9}, w.OffsetTable["T@G"])

			b.schedule.advance(3, 5)
			resp = invoke(t, c, b.Addr(), remoting.NewRequest(remoting.GetAllDelayOffset, nil))
			require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
			d, err := protocol.DecodeDelayOffsetSerializeWrapper(resp.Body)
			require.NoError(t, err)
			assert.Equal(t, int64(5), d.OffsetTable[3])
			assert.Equal(t, line >= protocol.Line5, strings.HasPrefix(string(resp.Body), `{"dataVersion":`), string(resp.Body))
		})
	}
}

// brokerConfigFixture is a broker started from a broker.conf in dir, as
// with -c, registering with a fake name server.
func brokerConfigFixture(t *testing.T, line protocol.Line) (*Broker, *fakeNamesrv, string) {
	t.Helper()
	dir := t.TempDir()
	ns := startFakeNamesrv(t)
	cfg := testConfigs(dir, ns.addr)
	path := filepath.Join(dir, "broker.conf")
	require.NoError(t, os.WriteFile(path, []byte("brokerName=broker-t\nmyOwnKey=kept\n"), 0o644))
	file, err := conf.LoadPropertiesFile(path)
	require.NoError(t, err)
	cfg.File, cfg.ConfigPath = file, path
	return startLineBroker(t, cfg, line), ns, path
}

// brokerConfig asks GET_BROKER_CONFIG.
func brokerConfig(t *testing.T, c *remoting.Client, b *Broker) (*remoting.Command, map[string]string) {
	t.Helper()
	resp := invoke(t, c, b.Addr(), remoting.NewRequest(remoting.GetBrokerConfig, nil))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	p, err := conf.ParseProperties(resp.Body, "body")
	require.NoError(t, err)
	return resp, p.Map()
}

func TestBrokerConfigIsReadUpdatedAndWrittenBack(t *testing.T) {
	b, ns, path := brokerConfigFixture(t, protocol.Line4)
	c := newClient(t, nil)
	resp, props := brokerConfig(t, c, b)
	assert.Equal(t, "broker-t", props["brokerName"])
	assert.Equal(t, "kept", props["myOwnKey"], "the file's own keys are listed")
	for _, key := range []string{"serverWorkerThreads", "clientWorkerThreads", "storePathRootDir", "brokerPermission"} {
		assert.Contains(t, props, key)
	}
	assert.Regexp(t, `^\{"counter":0,"timestamp":\d+\}$`, resp.ExtString("version"))

	update := withBody(remoting.NewRequest(remoting.UpdateBrokerConfig, nil), []byte("brokerPermission=4\nmyOwnKey=changed\n"))
	resp = invoke(t, c, b.Addr(), update)
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	resp, props = brokerConfig(t, c, b)
	assert.Equal(t, "4", props["brokerPermission"])
	assert.Equal(t, "changed", props["myOwnKey"])
	assert.Regexp(t, `^\{"counter":1,`, resp.ExtString("version"))
	assert.Equal(t, int32(4), b.settings.load().Broker.BrokerPermission, "the running broker reads the new value")
	eventually(t, func() bool { return ns.lastTopics()[TopicSelfTest].Perm == 4 }, "registration with perm 4")

	written, err := conf.LoadPropertiesFile(path)
	require.NoError(t, err)
	got := written.Map()
	assert.Equal(t, "4", got["brokerPermission"])
	assert.Equal(t, "broker-t", got["brokerName"])
	assert.Equal(t, "changed", got["myOwnKey"])
}

func TestBrokerConfigUpdateRefusesBlackListedKeysAndBadText(t *testing.T) {
	b, _, path := brokerConfigFixture(t, protocol.Line4)
	c := newClient(t, nil)
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	for body, want := range map[string]struct {
		code   remoting.ResponseCode
		remark string
	}{
		"brokerConfigPath=/elsewhere\n":       {remoting.NoPermission, remarkConfigBlackList},
		"rocketmqHome=/x\nbrokerPermission=2": {remoting.NoPermission, remarkConfigBlackList},
		"brokerPermission=\\uZZZZ\n":          {remoting.SystemError, remarkBadProperties},
		"":                                    {remoting.Success, ""},
	} {
		resp := invoke(t, c, b.Addr(), withBody(remoting.NewRequest(remoting.UpdateBrokerConfig, nil), []byte(body)))
		assert.Equal(t, int32(want.code), resp.Code, body)
		assert.Equal(t, want.remark, resp.Remark, body)
	}
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after), "nothing was written")
}

func TestLine5BrokerConfigIsSortedWithAStateVersion(t *testing.T) {
	b, _, _ := brokerConfigFixture(t, protocol.Line5)
	c := newClient(t, nil)
	resp := invoke(t, c, b.Addr(), remoting.NewRequest(remoting.GetBrokerConfig, nil))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	var keys []string
	for _, line := range strings.Split(strings.TrimSuffix(string(resp.Body), "\n"), "\n") {
		k, _, ok := strings.Cut(line, "=")
		require.True(t, ok, line)
		keys = append(keys, k)
	}
	assert.IsIncreasing(t, keys)
	assert.Regexp(t, `^\{"counter":0,"stateVersion":0,"timestamp":\d+\}$`, resp.ExtString("version"))
}

// mqadmin getBrokerConfig against 4.9.7: no 5.x keys (timerWheelEnable,
// enableControllerMode...), and bitMapLengthConsumeQueueExt is the bloom
// filter's bit count (112), which ConsumerFilterManager sets over the
// default 64; 5.3.3 lists both the 5.x keys and 112.
func TestBrokerConfigKeySetAndBloomBitsPerLine(t *testing.T) {
	for _, line := range []protocol.Line{protocol.Line4, protocol.Line5} {
		b, _, _ := brokerConfigFixture(t, line)
		_, props := brokerConfig(t, newClient(t, nil), b)
		assert.Equal(t, "112", props["bitMapLengthConsumeQueueExt"], "line %d", line)
		// 5.x keys rmqgo reads, and one it does not implement (listed at
		// 5.3.3's default); then 4.x keys 5.3.3 no longer has
		for _, key := range []string{"timerWheelEnable", "enableControllerMode", "splitRegistrationSize", "enablePopLog", "enableBatchPush"} {
			_, has := props[key]
			assert.Equal(t, line >= protocol.Line5, has, "line %d key %s", line, key)
		}
		for _, key := range []string{"commercialEnable", "maxDelayTime", "isEnableBatchPush"} {
			_, has := props[key]
			assert.Equal(t, line < protocol.Line5, has, "line %d key %s", line, key)
		}
		assert.Contains(t, props, "brokerName")
	}
	for _, c := range []struct{ f, n, m int32 }{{20, 32, 112}, {20, 64, 216}, {1, 1, 16}, {50, 10, 16}} {
		m, ok := bloomFilterBits(c.f, c.n)
		assert.True(t, ok)
		assert.Equal(t, c.m, m, "f=%d n=%d", c.f, c.n)
	}
	_, ok := bloomFilterBits(100, 32)
	assert.False(t, ok)
}
