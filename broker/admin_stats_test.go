package broker

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// viewStats asks VIEW_BROKER_STATS_DATA.
func viewStats(t *testing.T, c *remoting.Client, b *Broker, name, key string) *remoting.Command {
	t.Helper()
	return invoke(t, c, b.Addr(), remoting.NewRequest(remoting.ViewBrokerStatsData, map[string]string{"statsName": name, "statsKey": key}))
}

// sendAndPull stores n messages on queue 0 of topic and pulls them for
// group.
func sendAndPull(t *testing.T, c *remoting.Client, b *Broker, topic, group string, n int) {
	t.Helper()
	for range n {
		require.Equal(t, int32(remoting.Success), invoke(t, c, b.Addr(), withBody(sendRequest(topic, 0, nil, nil), []byte("m"))).Code)
	}
	dispatched(t, b)
	resp := invoke(t, c, b.Addr(), pullRequest(group, topic, 0, 0, "*", protocol.PullFlagSubscription, 0))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	require.Len(t, decodeRecords(t, resp.Body), n)
}

func TestViewBrokerStatsDataCountsSendsAndPulls(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	c := newClient(t, nil)
	resp := viewStats(t, c, b, statTopicPutNums, "TV")
	assert.Equal(t, int32(remoting.SystemError), resp.Code)
	assert.Equal(t, "The stats <TOPIC_PUT_NUMS> <TV> not exist", resp.Remark)

	sendAndPull(t, c, b, "TV", "GV", 3)
	b.brokerStats.sample(windowMinute)
	for _, q := range []struct{ name, key string }{
		{statTopicPutNums, "TV"}, {statGroupGetNums, "TV@GV"}, {statBrokerPutNums, "TestCluster"}, {statBrokerGetNums, "TestCluster"},
	} {
		resp := viewStats(t, c, b, q.name, q.key)
		require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
		assert.Contains(t, string(resp.Body), `"statsMinute":{"avgpt":`, q.name)
		assert.Contains(t, string(resp.Body), `"sum":3,`, q.name)
	}
	consume := invoke(t, c, b.Addr(), remoting.NewRequest(remoting.GetConsumeStats, map[string]string{"consumerGroup": "GV", "topic": "TV"}))
	require.Equal(t, int32(remoting.Success), consume.Code)
	assert.NotContains(t, string(consume.Body), `"consumeTps":0.0,`, "the group's pull TPS")
}

func TestBrokerConsumeStatsListsEveryGroup(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	c := newClient(t, nil)
	sendAndPull(t, c, b, "TB", "GB", 2)
	createGroup(t, c, b, "GB", 16)
	commit(t, c, b, "GB", "TB", 0, 1)
	resp := invoke(t, c, b.Addr(), remoting.NewRequest(remoting.GetBrokerConsumeStats, map[string]string{"isOrder": "false"}))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	body := string(resp.Body)
	assert.True(t, strings.HasPrefix(body, `{"brokerAddr":"`+b.id.brokerAddr()+`","consumeStatsList":[`), body)
	assert.Contains(t, body, `{"GB":[{"consumeTps":`)
	assert.Contains(t, body, `{"brokerName":"broker-t","queueId":0,"topic":"TB"}:{"brokerOffset":2,"consumerOffset":1,"lastTimestamp":`)
	assert.Contains(t, body, `{"brokerName":"broker-t","queueId":3,"topic":"TB"}:{"brokerOffset":0,"consumerOffset":0,"lastTimestamp":0}`)
	assert.Contains(t, body, `"totalDiff":1}`)

	resp = invoke(t, c, b.Addr(), remoting.NewRequest(remoting.GetBrokerConsumeStats, map[string]string{"isOrder": "true"}))
	assert.Contains(t, string(resp.Body), `{"GB":[]}`, "TB is not an order topic")
}

func TestQueryConsumeTimeSpan(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	c := newClient(t, nil)
	resp := invoke(t, c, b.Addr(), remoting.NewRequest(remoting.QueryConsumeTimeSpan, map[string]string{"topic": "TQ", "group": "GQ"}))
	assert.Equal(t, int32(remoting.TopicNotExist), resp.Code)
	assert.Equal(t, "topic[TQ] not exist", resp.Remark)

	sendAndPull(t, c, b, "TQ", "GQ", 2)
	commit(t, c, b, "GQ", "TQ", 0, 1)
	resp = invoke(t, c, b.Addr(), remoting.NewRequest(remoting.QueryConsumeTimeSpan, map[string]string{"topic": "TQ", "group": "GQ"}))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	first, last := b.store.StoreTimeAt("TQ", 0, 0), b.store.StoreTimeAt("TQ", 0, 1)
	body := string(resp.Body)
	assert.Contains(t, body, fmt.Sprintf(`{"consumeTimeStamp":%d,"consumeTimeStampStr":"`, first))
	assert.Contains(t, body, fmt.Sprintf(`"maxTimeStamp":%d,"maxTimeStampStr":"`, last))
	assert.Contains(t, body, `"messageQueue":{"brokerName":"broker-t","queueId":0,"topic":"TQ"}`)
	assert.Contains(t, body, fmt.Sprintf(`"minTimeStamp":%d,"minTimeStampStr":"`, first))
	assert.Contains(t, body, `{"consumeTimeStamp":-1,`, "an empty queue")
	assert.Equal(t, 4, strings.Count(body, `"messageQueue"`), "one line per write queue")
}

func TestCloneGroupOffsetCopiesOneTopic(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	c := newClient(t, nil)
	sendAndPull(t, c, b, "TC", "GSRC", 3)
	commit(t, c, b, "GSRC", "TC", 0, 3)
	clone := func(topic string) {
		resp := invoke(t, c, b.Addr(), remoting.NewRequest(remoting.CloneGroupOffset, map[string]string{
			"srcGroup": "GSRC", "destGroup": "GDST", "topic": topic, "offline": "false"}))
		require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	}
	clone("")
	assert.Equal(t, int64(-1), b.offsets.query("GDST", "TC", 0), "without a topic Java copies nothing")
	clone("TC")
	assert.Equal(t, b.offsets.groupQueues("GSRC", "TC"), b.offsets.groupQueues("GDST", "TC"))
	assert.Equal(t, int64(3), b.offsets.query("GDST", "TC", 0))
}

func TestCleanUnusedTopicAndExpiredQueues(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	c := newClient(t, nil)
	sendAndPull(t, c, b, "TU", "GU", 1)
	sendAndPull(t, c, b, "TK", "GU", 1)
	require.True(t, b.topics.remove("TU"))
	resp := invoke(t, c, b.Addr(), remoting.NewRequest(remoting.CleanUnusedTopic, nil))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	assert.NotContains(t, b.store.Topics(), "TU")
	assert.Contains(t, b.store.Topics(), "TK")

	resp = invoke(t, c, b.Addr(), remoting.NewRequest(remoting.CleanExpiredConsumequeue, nil))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	assert.Contains(t, b.store.Topics(), "TK", "its message is still in the commitlog")
}

func TestGetConsumerStatusAsksTheGroupsClients(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	admin := newClient(t, nil)
	resp := invoke(t, admin, b.Addr(), remoting.NewRequest(remoting.InvokeBrokerToGetConsumerStatus, map[string]string{"topic": "TS", "group": "GS"}))
	assert.Equal(t, int32(remoting.SystemError), resp.Code)
	assert.Equal(t, "No Any Consumer online in the consumer group: [GS]", resp.Remark)

	asked := make(chan *remoting.Command, 1)
	r := remoting.NewRouter(nil)
	p := r.NewPool(remoting.PoolOptions{Name: "status", Workers: 1, Queue: 10})
	r.Handle(remoting.GetConsumerStatusFromClient, p, func(req *remoting.Request) *remoting.Command {
		asked <- req.Cmd
		answer := remoting.NewResponse(req.Cmd, remoting.Success, "")
		answer.Body = []byte(`{"consumerTable":{},"messageQueueTable":{{"brokerName":"broker-t","queueId":1,"topic":"TS"}:7}}`)
		return answer
	})
	consumer := newClient(t, r)
	require.Equal(t, int32(remoting.Success), invoke(t, consumer, b.Addr(), heartbeatRequest(t, "c1", "GS", "TS", "*")).Code)

	resp = invoke(t, admin, b.Addr(), remoting.NewRequest(remoting.InvokeBrokerToGetConsumerStatus, map[string]string{"topic": "TS", "group": "GS"}))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	assert.Equal(t, `{"consumerTable":{"c1":{{"brokerName":"broker-t","queueId":1,"topic":"TS"}:7}},"messageQueueTable":{}}`, string(resp.Body))
	q := <-asked
	assert.Equal(t, "TS", q.ExtString("topic"))
	assert.Equal(t, "GS", q.ExtString("group"))

	resp = invoke(t, admin, b.Addr(), remoting.NewRequest(remoting.InvokeBrokerToGetConsumerStatus, map[string]string{"topic": "TS", "group": "GS", "clientAddr": "other"}))
	require.Equal(t, int32(remoting.Success), resp.Code)
	assert.Equal(t, `{"consumerTable":{},"messageQueueTable":{}}`, string(resp.Body), "only the named client is asked")
}

func TestGetConsumerStatusBodyRoundTrip(t *testing.T) {
	in := `{"consumerTable":{"c1":{{"brokerName":"b","queueId":0,"topic":"T"}:5}},"messageQueueTable":{{"brokerName":"b","queueId":2,"topic":"T"}:9}}`
	body, err := protocol.DecodeGetConsumerStatusBody([]byte(in))
	require.NoError(t, err)
	assert.Equal(t, int64(9), body.MessageQueueTable[protocol.MessageQueue{Topic: "T", BrokerName: "b", QueueID: 2}])
	assert.Equal(t, in, string(body.AppendJSON(nil)))
}
