package broker

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

func TestRegistersBuiltinTopicsAtStartAndUnregistersAtClose(t *testing.T) {
	ns := startFakeNamesrv(t)
	b, err := New(Options{Configs: testConfigs(t.TempDir(), ns.addr), ListenHost: "127.0.0.1"})
	require.NoError(t, err)
	require.NoError(t, b.Start())
	topics := ns.lastTopics()
	for _, name := range []string{TopicAutoCreate, TopicSelfTest, TopicBenchmark, TopicOffsetMovedEvent, TopicSchedule, "TestCluster", "broker-t", "TestCluster_REPLY_TOPIC"} {
		assert.Contains(t, topics, name)
	}
	assert.Equal(t, protocol.PermInherit|protocol.PermRead|protocol.PermWrite, topics[TopicAutoCreate].Perm)
	assert.Equal(t, int32(8), topics[TopicAutoCreate].WriteQueueNums)
	require.NoError(t, b.Close())
	ns.mu.Lock()
	defer ns.mu.Unlock()
	assert.Equal(t, 1, ns.unre)
}

func TestAdminCreatedTopicIsRegisteredBeforeTheAnswer(t *testing.T) {
	ns := startFakeNamesrv(t)
	b := startBroker(t, testConfigs(t.TempDir(), ns.addr), nil)
	req := remoting.NewRequest(remoting.UpdateAndCreateTopic, map[string]string{"topic": "Made", "defaultTopic": TopicAutoCreate,
		"readQueueNums": "3", "writeQueueNums": "3", "perm": "6", "topicFilterType": "SINGLE_TAG", "topicSysFlag": "0", "order": "false"})
	require.Equal(t, int32(remoting.Success), invoke(t, newClient(t, nil), b.Addr(), req).Code)
	tc, ok := ns.lastTopics()["Made"]
	require.True(t, ok)
	assert.Equal(t, int32(3), tc.ReadQueueNums)
}

func TestWritePermissionOffMasksRegisteredTopics(t *testing.T) {
	ns := startFakeNamesrv(t)
	c := testConfigs(t.TempDir(), ns.addr)
	c.Broker.BrokerPermission = protocol.PermRead
	b := startBroker(t, c, nil)
	assert.Equal(t, protocol.PermRead, ns.lastTopics()[TopicSelfTest].Perm)
	resp := invoke(t, newClient(t, nil), b.Addr(), withBody(sendRequest(TopicBenchmark, 0, []byte("x"), nil), []byte("x")))
	assert.Equal(t, int32(remoting.Success), resp.Code, "only order topics are refused by the broker's own permission")
}
