package broker

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// startPair starts a master and its slave of a line registered with one
// name server; the slave has learnt the master's addresses.
func startPair(t *testing.T, l protocol.Line, tune func(master, slave *conf.BrokerConfigs)) (master, slave *Broker) {
	t.Helper()
	ns := startMasterNamesrv(t)
	mc, sc := testConfigs(t.TempDir(), ns.addr), slaveConfigs(t.TempDir(), ns.addr)
	if tune != nil {
		tune(mc, sc)
	}
	master = startLineBroker(t, mc, l)
	ns.master.Store(master)
	slave = startLineBroker(t, sc, l)
	require.Equal(t, master.Addr(), slave.slaveSync.master(), "the registration answer names the master")
	return master, slave
}

// queryOffset asks QUERY_CONSUMER_OFFSET (-1 when the broker has none).
func queryOffset(t *testing.T, c *remoting.Client, b *Broker, group, topic string, queueID int32) int64 {
	t.Helper()
	resp := invoke(t, c, b.Addr(), remoting.NewRequest(remoting.QueryConsumerOffset, map[string]string{
		"consumerGroup": group, "topic": topic, "queueId": itoa(queueID)}))
	if resp.Code != int32(remoting.Success) {
		return -1
	}
	off, err := resp.ExtInt64("offset")
	require.NoError(t, err)
	return off
}

// allTopics asks GET_ALL_TOPIC_CONFIG.
func allTopics(t *testing.T, c *remoting.Client, b *Broker) *protocol.TopicConfigSerializeWrapper {
	t.Helper()
	resp := invoke(t, c, b.Addr(), remoting.NewRequest(remoting.GetAllTopicConfig, nil))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	w, err := protocol.DecodeTopicConfigSerializeWrapper(resp.Body)
	require.NoError(t, err)
	return w
}

// A slave copies its master's topics, groups, consumer offsets and delay
// offsets (the answers of the master's GET_ALL_* codes), on both lines.
func TestSlaveSyncsMasterMetadata(t *testing.T) {
	for _, l := range []protocol.Line{protocol.Line4, protocol.Line5} {
		t.Run("line"+itoa(int32(l)), func(t *testing.T) {
			master, slave := startPair(t, l, nil)
			c := newClient(t, nil)
			req := remoting.NewRequest(remoting.UpdateAndCreateTopic, map[string]string{"topic": "SyncedTopic", "defaultTopic": TopicAutoCreate,
				"readQueueNums": "3", "writeQueueNums": "3", "perm": "6", "topicFilterType": "SINGLE_TAG", "topicSysFlag": "0", "order": "false"})
			require.Equal(t, int32(remoting.Success), invoke(t, c, master.Addr(), req).Code)
			createGroup(t, c, master, "SyncedGroup", 5)
			commit(t, c, master, "SyncedGroup", "SyncedTopic", 2, 42)
			body := []byte("d")
			require.Equal(t, int32(remoting.Success), invoke(t, c, master.Addr(),
				withBody(sendRequest("SyncedTopic", 0, body, map[string]string{"DELAY": "1"}), body)).Code)
			eventually(t, func() bool { return master.schedule.offset(1) == 1 }, "the master delivered the delayed message")

			_, ok := allTopics(t, c, slave).TopicConfigTable["SyncedTopic"]
			require.False(t, ok, "not before the sync")
			slave.slaveSync.syncAll()

			mt, st := allTopics(t, c, master), allTopics(t, c, slave)
			assert.Equal(t, mt.DataVersion, st.DataVersion)
			assert.Equal(t, mt.TopicConfigTable, st.TopicConfigTable)
			mg, sg := allGroups(t, c, master), allGroups(t, c, slave)
			assert.Equal(t, mg.DataVersion, sg.DataVersion)
			assert.Equal(t, mg.SubscriptionGroupTable["SyncedGroup"], sg.SubscriptionGroupTable["SyncedGroup"])
			assert.Equal(t, int64(42), queryOffset(t, c, slave, "SyncedGroup", "SyncedTopic", 2))
			assert.Equal(t, int64(1), slave.schedule.offset(1))
			resp := invoke(t, c, master.Addr(), remoting.NewRequest(remoting.GetAllDelayOffset, nil))
			onDisk, err := os.ReadFile(filepath.Join(slave.settings.load().Store.StorePathRootDir, "config", "delayOffset.json"))
			require.NoError(t, err)
			assert.Equal(t, string(resp.Body), string(onDisk), "the master's text, as it came")
			onDisk, err = os.ReadFile(filepath.Join(slave.settings.load().Store.StorePathRootDir, "config", "topics.json"))
			require.NoError(t, err)
			assert.Contains(t, string(onDisk), "SyncedTopic")
		})
	}
}

// Offsets a client commits to the slave while the master is away stay
// there; once the master is back, its own replace them at the next sync
// (the client commits to the master again).
func TestSlaveOffsetsCommittedWhileMasterAwayGiveWayToMasters(t *testing.T) {
	master, slave := startPair(t, protocol.Line4, nil)
	c := newClient(t, nil)
	commit(t, c, master, "G", "T", 0, 10)
	slave.slaveSync.syncAll()
	require.Equal(t, int64(10), queryOffset(t, c, slave, "G", "T", 0))

	slave.slaveSync.setMaster("") // the name server has no master
	commit(t, c, slave, "G", "T", 0, 15)
	slave.slaveSync.syncAll()
	assert.Equal(t, int64(15), queryOffset(t, c, slave, "G", "T", 0), "nothing to sync from")

	slave.slaveSync.setMaster(master.Addr())
	commit(t, c, master, "G", "T", 0, 17)
	slave.slaveSync.syncAll()
	assert.Equal(t, int64(17), queryOffset(t, c, slave, "G", "T", 0))
}

// A slave does not deliver delayed messages (the master does, and they
// reach the slave through replication) and reports itself inactive on
// 5.x.
func TestSlaveRunsNoMasterServices(t *testing.T) {
	master, slave := startPair(t, protocol.Line5, nil)
	c := newClient(t, nil)
	body := []byte("d")
	require.Equal(t, int32(remoting.Success), invoke(t, c, master.Addr(),
		withBody(sendRequest("Delayed", 0, body, map[string]string{"DELAY": "1"}), body)).Code)
	eventually(t, func() bool { return master.store.MaxOffset("Delayed", 0) == 1 }, "the master delivered it")
	end := master.store.CommitLogMaxOffset()
	eventually(t, func() bool { return slave.store.CommitLogMaxOffset() == end }, "the slave has it")
	dispatched(t, slave)
	assert.Equal(t, int64(1), slave.store.MaxOffset("Delayed", 0), "delivered once, by the master")
	assert.Equal(t, int64(0), slave.schedule.offset(1), "the slave's schedule did not move")

	info := func(b *Broker) map[string]string {
		resp := invoke(t, c, b.Addr(), remoting.NewRequest(remoting.GetBrokerRuntimeInfo, nil))
		kv, err := protocol.DecodeKVTable(resp.Body)
		require.NoError(t, err)
		return kv.Table
	}
	assert.Equal(t, "true", info(master)["brokerActive"])
	si := info(slave)
	assert.Equal(t, "false", si["brokerActive"])
	assert.Equal(t, "2", si["msgPutTotalTodayNow"], "the replicated records count as puts on a slave")
}

// A 5.x master answers a slave's GET_ALL_MESSAGE_REQUEST_MODE with its
// (empty) table; 4.x does not know the code.
func TestMessageRequestModesPerLine(t *testing.T) {
	c := newClient(t, nil)
	five := startLineBroker(t, testConfigs(t.TempDir(), ""), protocol.Line5)
	resp := invoke(t, c, five.Addr(), remoting.NewRequest(remoting.GetAllMessageRequestMode, nil))
	require.Equal(t, int32(remoting.Success), resp.Code)
	assert.JSONEq(t, `{"messageRequestModeMap":{}}`, string(resp.Body))
	four := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	resp = invoke(t, c, four.Addr(), remoting.NewRequest(remoting.GetAllMessageRequestMode, nil))
	assert.Equal(t, int32(remoting.RequestCodeNotSupported), resp.Code)
}

// GET_BROKER_HA_STATUS (5.x, mqadmin haStatus): the master lists its slave
// in sync at its commitlog end; the slave names its master's HA address.
func TestBrokerHaStatus(t *testing.T) {
	master, slave := startPair(t, protocol.Line5, nil)
	c := newClient(t, nil)
	sendN(t, c, master, "THA", 3)
	end := master.store.CommitLogMaxOffset()
	eventually(t, func() bool { return master.ha.master.AckedOffset() == end }, "the slave acknowledged")
	var m struct {
		Master                   bool
		MasterCommitLogMaxOffset int64
		InSyncSlaveNums          int
		HaConnectionInfo         []struct {
			Addr                 string
			SlaveAckOffset, Diff int64
			InSync               bool
			TransferFromWhere    int64
		}
	}
	resp := invoke(t, c, master.Addr(), remoting.NewRequest(remoting.GetBrokerHaStatus, nil))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	require.NoError(t, jsonAPI.Unmarshal(resp.Body, &m), string(resp.Body))
	assert.True(t, m.Master)
	assert.Equal(t, end, m.MasterCommitLogMaxOffset)
	assert.Equal(t, 1, m.InSyncSlaveNums)
	require.Len(t, m.HaConnectionInfo, 1)
	assert.Equal(t, end, m.HaConnectionInfo[0].SlaveAckOffset)
	assert.Equal(t, int64(0), m.HaConnectionInfo[0].Diff)
	assert.Equal(t, end, m.HaConnectionInfo[0].TransferFromWhere)

	var s struct {
		Master              bool
		HaClientRuntimeInfo struct {
			MasterAddr string
			MaxOffset  int64
		}
	}
	resp = invoke(t, c, slave.Addr(), remoting.NewRequest(remoting.GetBrokerHaStatus, nil))
	require.NoError(t, jsonAPI.Unmarshal(resp.Body, &s), string(resp.Body))
	assert.False(t, s.Master)
	assert.Equal(t, master.ha.master.Addr(), s.HaClientRuntimeInfo.MasterAddr)
	assert.Equal(t, end, s.HaClientRuntimeInfo.MaxOffset)
}
