package broker

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest/observer"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// TestTraceTopicEnableMakesRegistersAndReservesTheTraceTopic: with
// traceTopicEnable the broker makes msgTraceTopicName (one queue, read and
// write) at start, registers it, lists it among the system topics and
// refuses UPDATE_AND_CREATE_TOPIC for it, as for the other topics it made
// (TopicConfigManager's addSystemTopic).
func TestTraceTopicEnableMakesRegistersAndReservesTheTraceTopic(t *testing.T) {
	for _, line := range []protocol.Line{protocol.Line4, protocol.Line5} {
		t.Run(line.String(), func(t *testing.T) {
			ns := startFakeNamesrv(t)
			cfg := testConfigs(t.TempDir(), ns.addr)
			cfg.Broker.TraceTopicEnable, cfg.Broker.MsgTraceTopicName = true, "MyTraceTopic"
			var b *Broker
			if line >= protocol.Line5 {
				b = startLine5Broker(t, cfg)
			} else {
				b = startBroker(t, cfg, nil)
			}
			tc, ok := ns.lastTopics()["MyTraceTopic"]
			require.True(t, ok, "registered")
			assert.Equal(t, int32(1), tc.ReadQueueNums)
			assert.Equal(t, int32(1), tc.WriteQueueNums)
			assert.Equal(t, protocol.PermRead|protocol.PermWrite, tc.Perm)

			c := newClient(t, nil)
			resp := invoke(t, c, b.Addr(), remoting.NewRequest(remoting.GetSystemTopicListFromBroker, nil))
			require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
			assert.Contains(t, string(resp.Body), `"MyTraceTopic"`)
			reserved := []string{"MyTraceTopic", "TestCluster", "broker-t", "TestCluster_REPLY_TOPIC", TopicBenchmark}
			want := int32(remoting.SystemError)
			if line >= protocol.Line5 {
				want = int32(remoting.InvalidParameter)
				// 5.x's TopicValidator also reserves the RocksDB offset checkpoint topic.
				assert.Contains(t, string(resp.Body), `"CHECKPOINT_TOPIC"`)
				reserved = append(reserved, "CHECKPOINT_TOPIC")
			} else {
				assert.NotContains(t, string(resp.Body), `"CHECKPOINT_TOPIC"`)
			}
			for _, topic := range reserved {
				req := remoting.NewRequest(remoting.UpdateAndCreateTopic, map[string]string{"topic": topic, "defaultTopic": TopicAutoCreate,
					"readQueueNums": "4", "writeQueueNums": "4", "perm": "6", "topicFilterType": "SINGLE_TAG", "topicSysFlag": "0", "order": "false"})
				resp := invoke(t, c, b.Addr(), req)
				assert.Equal(t, want, resp.Code, topic)
				assert.Equal(t, "The topic["+topic+"] is conflict with system topic.", resp.Remark)
			}
			tc, _ = b.topics.get("MyTraceTopic")
			assert.Equal(t, int32(1), tc.WriteQueueNums, "unchanged")
		})
	}
}

func TestTraceTopicIsMadeOnlyWhenEnabled(t *testing.T) {
	cfg := testConfigs(t.TempDir(), "")
	for _, tc := range builtinTopics(cfg.Broker, newLine(protocol.Line5)) {
		assert.NotEqual(t, cfg.Broker.MsgTraceTopicName, tc.TopicName)
	}
	cfg.Broker.TraceTopicEnable = true
	names := map[string]bool{}
	for _, tc := range builtinTopics(cfg.Broker, newLine(protocol.Line4)) {
		names[tc.TopicName] = true
	}
	assert.True(t, names["RMQ_SYS_TRACE_TOPIC"], "the default msgTraceTopicName")
}

// TestSystemTopicsAndBadNamesAreNotDeleted: DELETE_TOPIC_IN_BROKER refuses a
// system topic (4.x SYSTEM_ERROR, 5.x INVALID_PARAMETER) and keeps it; 4.x
// validates the name as a create does, 5.x only refuses a blank one.
func TestSystemTopicsAndBadNamesAreNotDeleted(t *testing.T) {
	for _, line := range []protocol.Line{protocol.Line4, protocol.Line5} {
		t.Run(line.String(), func(t *testing.T) {
			cfg := testConfigs(t.TempDir(), "")
			var b *Broker
			if line >= protocol.Line5 {
				b = startLine5Broker(t, cfg)
			} else {
				b = startBroker(t, cfg, nil)
			}
			want := int32(remoting.SystemError)
			if line >= protocol.Line5 {
				want = int32(remoting.InvalidParameter)
			}
			c := newClient(t, nil)
			del := func(topic string) *remoting.Command {
				return invoke(t, c, b.Addr(), remoting.NewRequest(remoting.DeleteTopicInBroker, map[string]string{"topic": topic}))
			}
			for _, topic := range []string{TopicAutoCreate, TopicSchedule, "rmq_sys_anything", "broker-t"} {
				resp := del(topic)
				assert.Equal(t, want, resp.Code, topic)
				assert.Equal(t, "The topic["+topic+"] is conflict with system topic.", resp.Remark)
			}
			_, ok := b.topics.get(TopicAutoCreate)
			assert.True(t, ok, "TBW102 kept")

			resp := del(" ")
			assert.Equal(t, want, resp.Code)
			assert.Equal(t, "The specified topic is blank.", resp.Remark)
			resp = del("bad topic!")
			if line >= protocol.Line5 {
				assert.Equal(t, int32(remoting.Success), resp.Code, "5.x does not check the characters on delete")
			} else {
				assert.Equal(t, want, resp.Code)
				assert.Contains(t, resp.Remark, "illegal characters")
			}
		})
	}
}

// TestTopicChangesThroughTheAdminCodesAreLogged: creating, updating and
// deleting a topic with UPDATE_AND_CREATE_TOPIC and DELETE_TOPIC_IN_BROKER
// log what Java's AdminBrokerProcessor and TopicConfigManager log.
func TestTopicChangesThroughTheAdminCodesAreLogged(t *testing.T) {
	ns := startFakeNamesrv(t)
	core, logs := observer.New(zap.InfoLevel)
	b, err := New(Options{Configs: testConfigs(t.TempDir(), ns.addr), Logger: zap.New(core), ListenHost: "127.0.0.1"})
	require.NoError(t, err)
	require.NoError(t, b.Start())
	t.Cleanup(func() { _ = b.Close() })
	c := newClient(t, nil)
	create := func(queues string) {
		req := remoting.NewRequest(remoting.UpdateAndCreateTopic, map[string]string{"topic": "LoggedTopic", "defaultTopic": TopicAutoCreate,
			"readQueueNums": queues, "writeQueueNums": queues, "perm": "6", "topicFilterType": "SINGLE_TAG", "topicSysFlag": "0", "order": "false"})
		resp := invoke(t, c, b.Addr(), req)
		require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	}
	create("4")
	create("8")
	for range 2 {
		resp := invoke(t, c, b.Addr(), remoting.NewRequest(remoting.DeleteTopicInBroker, map[string]string{"topic": "LoggedTopic"}))
		require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	}
	var lines []string
	for _, e := range logs.FilterField(zap.String("topic", "LoggedTopic")).All() {
		lines = append(lines, e.Level.String()+" "+e.Message)
	}
	for _, e := range logs.FilterMessage("create new topic").All() {
		assert.Contains(t, e.ContextMap()["config"], `"topicName":"LoggedTopic"`)
		assert.Contains(t, e.ContextMap()["config"], `"readQueueNums":4`)
	}
	assert.Equal(t, []string{
		"info updateAndCreateTopic called", "info updateAndCreateTopic called", "info update topic config",
		"info deleteTopic called", "info deleteTopic called", "warn delete topic config failed, topic not exists",
	}, lines)
	assert.Equal(t, 1, logs.FilterMessage("create new topic").Len())
	assert.Equal(t, 1, logs.FilterMessage("delete topic config OK").Len())
}
