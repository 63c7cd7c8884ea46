package controller

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/internal/testclock"
	"github.com/rmqgo/rmqgo/remoting"
)

// testManager is the request logic over tables that apply every event at
// once, as a one-member group whose commits never fail.
type testManager struct {
	*manager
	clock   *testclock.Clock
	unclean bool
}

func newTestManager() *testManager {
	clock := testclock.New()
	tm := &testManager{clock: clock}
	tm.manager = &manager{t: newTables(), hb: newHeartbeats(clock.Now), unclean: func() bool { return tm.unclean }}
	return tm
}

func hdr(kv ...string) header {
	ext := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		ext[kv[i]] = kv[i+1]
	}
	return header{remoting.NewRequest(0, ext)}
}

// commit applies an answer's events, as their commit does.
func (tm *testManager) commit(a answer) answer {
	for _, e := range a.events {
		tm.t.apply(e)
	}
	return a
}

// join registers id at addr in broker-a and heartbeats it.
func (tm *testManager) join(t *testing.T, id int64, epoch int32, maxOffset int64, priority int32) {
	t.Helper()
	idText := strconv.FormatInt(id, 10)
	addr := "127.0.0.1:" + strconv.Itoa(30000+int(id))
	a := tm.commit(tm.applyBrokerID(hdr("clusterName", "DefaultCluster", "brokerName", "broker-a",
		"appliedBrokerId", idText, "registerCheckCode", addr+";1")))
	require.EqualValues(t, remoting.Success, a.code, a.remark)
	tm.beat(id, epoch, maxOffset, priority)
}

func (tm *testManager) beat(id int64, epoch int32, maxOffset int64, priority int32) {
	tm.hb.beat(brokerKey{"DefaultCluster", "broker-a", id}, brokerLive{
		addr: "127.0.0.1:" + strconv.Itoa(30000+int(id)), timeout: 10 * time.Second,
		epoch: epoch, maxOffset: maxOffset, priority: priority,
	})
}

func (tm *testManager) kill(id int64) {
	tm.hb.mu.Lock()
	delete(tm.hb.live, brokerKey{"DefaultCluster", "broker-a", id})
	tm.hb.mu.Unlock()
}

func (tm *testManager) elect(kv ...string) answer {
	return tm.commit(tm.electMaster(hdr(append([]string{"brokerName", "broker-a"}, kv...)...)))
}

func (tm *testManager) sync() *syncInfo {
	_, s, _ := tm.t.set("broker-a")
	return s
}

func TestEventsAreWrittenAsJavasFastJsonSerializerWritesThem(t *testing.T) {
	for _, tc := range []struct {
		e    event
		json string
	}{
		{event{kind: eventElectMaster, brokerName: "broker-a", elected: true, brokerID: 2},
			`{"brokerName":"broker-a","eventType":"ELECT_MASTER_EVENT","newMasterBrokerId":2,"newMasterElected":true}`},
		{event{kind: eventElectMaster, brokerName: "broker-a"},
			`{"brokerName":"broker-a","eventType":"ELECT_MASTER_EVENT","newMasterElected":false}`},
		{event{kind: eventApplyBrokerID, clusterName: "DefaultCluster", brokerName: "broker-a", brokerID: 1,
			brokerAddress: "127.0.0.1:30911", checkCode: "127.0.0.1:30911;1700000000000"},
			`{"brokerAddress":"127.0.0.1:30911","brokerName":"broker-a","clusterName":"DefaultCluster","eventType":"APPLY_BROKER_ID_EVENT","newBrokerId":1,"registerCheckCode":"127.0.0.1:30911;1700000000000"}`},
		{event{kind: eventAlterSyncStateSet, brokerName: "broker-a", ids: []int64{2, 1}},
			`{"brokerName":"broker-a","eventType":"ALTER_SYNC_STATE_SET_EVENT","newSyncStateSet":[1,2]}`},
		{event{kind: eventCleanBrokerData, brokerName: "broker-a"},
			`{"brokerName":"broker-a","eventType":"CLEAN_BROKER_DATA_EVENT"}`},
		{event{kind: eventUpdateBrokerAddress, clusterName: "c", brokerName: "b", brokerID: 3, brokerAddress: "h:1"},
			`{"brokerAddress":"h:1","brokerId":3,"brokerName":"b","clusterName":"c","eventType":"UPDATE_BROKER_ADDRESS"}`},
	} {
		assert.Equal(t, tc.json, string(tc.e.appendJSON(nil)))
	}
	events := []event{
		{kind: eventApplyBrokerID, clusterName: "c", brokerName: "b", brokerID: 1, brokerAddress: "h:1", checkCode: "h:1;5"},
		{kind: eventAlterSyncStateSet, brokerName: "b", ids: []int64{1, 2}},
		{kind: eventCleanBrokerData, brokerName: "b", ids: []int64{2}},
	}
	entry := encodeEntry(events)
	back, err := decodeEntry(entry)
	require.NoError(t, err)
	assert.Equal(t, events, back)
	_, err = decodeEntry(entry[:len(entry)-1])
	assert.Error(t, err, "a cut entry")
}

// The cases of Java's ReplicasInfoManagerTest for the election policy.
func TestElectionPrefersEpochThenOffsetThenPriority(t *testing.T) {
	for _, tc := range []struct {
		name string
		two  [3]int64 // epoch, maxOffset, priority of broker 2
		tri  [3]int64
		want string
	}{
		{"higher epoch wins", [3]int64{1, 2, 0}, [3]int64{0, 3, 0}, "2"},
		{"same epoch, higher offset wins", [3]int64{1, 2, 0}, [3]int64{1, 3, 0}, "3"},
		{"same epoch and offset, lower priority wins", [3]int64{1, 3, 2}, [3]int64{1, 3, 1}, "3"},
		{"a full tie goes to the smaller id", [3]int64{1, 3, 1}, [3]int64{1, 3, 1}, "2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tm := newTestManager()
			tm.join(t, 1, 0, 0, 0)
			tm.join(t, 2, 0, 0, 0)
			tm.join(t, 3, 0, 0, 0)
			require.EqualValues(t, remoting.Success, tm.elect("brokerId", "1").code)
			tm.commit(answer{events: []event{{kind: eventAlterSyncStateSet, brokerName: "broker-a", ids: []int64{1, 2, 3}}}})
			tm.kill(1)
			tm.kill(2)
			tm.kill(3)
			tm.beat(2, int32(tc.two[0]), tc.two[1], int32(tc.two[2]))
			tm.beat(3, int32(tc.tri[0]), tc.tri[1], int32(tc.tri[2]))
			a := tm.elect()
			require.EqualValues(t, remoting.Success, a.code, a.remark)
			assert.Equal(t, tc.want, a.header[0].value)
			assert.Equal(t, int32(2), tm.sync().masterEpoch)
		})
	}
}

func TestAFailedControllerElectionStillRaisesTheMasterEpoch(t *testing.T) {
	tm := newTestManager()
	tm.join(t, 1, 0, 0, 0)
	tm.join(t, 2, 0, 0, 0)
	require.EqualValues(t, remoting.Success, tm.elect("brokerId", "1").code)
	tm.kill(1)
	tm.kill(2)
	a := tm.elect()
	assert.EqualValues(t, remoting.ControllerMasterNotAvailable, a.code)
	assert.Equal(t, "Old master has down and failed to elect a new broker master", a.remark)
	assert.Equal(t, int32(2), tm.sync().masterEpoch, "testAllReplicasShutdownAndRestart: epoch 2 after one failure")
	assert.Zero(t, tm.sync().master)
	assert.Equal(t, []int64{1}, tm.sync().sss, "the set is kept")

	a = tm.elect("brokerId", "2") // a broker asks: not in the set, so nobody
	assert.EqualValues(t, remoting.ControllerElectMasterFailed, a.code)
	assert.Equal(t, "Failed to elect a new master", a.remark)
	assert.Equal(t, int32(2), tm.sync().masterEpoch, "a broker's failed election changes nothing")

	tm.beat(1, 1, 100, 0)
	a = tm.elect("brokerId", "1")
	require.EqualValues(t, remoting.Success, a.code, a.remark)
	assert.Equal(t, int32(3), tm.sync().masterEpoch)
}

func TestUncleanElectionOnlyWhenEnabled(t *testing.T) {
	tm := newTestManager()
	tm.join(t, 1, 0, 0, 0)
	tm.join(t, 2, 0, 0, 0)
	require.EqualValues(t, remoting.Success, tm.elect("brokerId", "1").code)
	tm.kill(1)
	assert.EqualValues(t, remoting.ControllerMasterNotAvailable, tm.elect().code, "2 is not in the set")
	tm.unclean = true
	a := tm.elect()
	require.EqualValues(t, remoting.Success, a.code, a.remark)
	assert.Equal(t, int64(2), tm.sync().master)
}

func TestAdminElectionNamesItsBrokerOrNobody(t *testing.T) {
	tm := newTestManager()
	tm.join(t, 1, 0, 0, 0)
	tm.join(t, 2, 0, 0, 0)
	tm.join(t, 3, 0, 0, 0)
	require.EqualValues(t, remoting.Success, tm.elect("brokerId", "1").code)
	tm.commit(answer{events: []event{{kind: eventAlterSyncStateSet, brokerName: "broker-a", ids: []int64{1, 2}}}})
	a := tm.elect("brokerId", "2", "designateElect", "true")
	require.EqualValues(t, remoting.Success, a.code, a.remark)
	assert.Equal(t, int64(2), tm.sync().master)
	a = tm.elect("brokerId", "3", "designateElect", "true")
	assert.EqualValues(t, remoting.ControllerElectMasterFailed, a.code, "3 is alive but not in the set")
}

func TestAlterSyncStateSetRefusals(t *testing.T) {
	tm := newTestManager()
	tm.join(t, 1, 0, 0, 0)
	tm.join(t, 2, 0, 0, 0)
	require.EqualValues(t, remoting.Success, tm.elect("brokerId", "1").code)
	alter := func(master, epoch string, ids []int64, sssEpoch int32) answer {
		body := (&protocol.SyncStateSet{Members: ids, Epoch: sssEpoch}).AppendJSON(nil)
		return tm.alterSyncStateSet(hdr("brokerName", "broker-a", "masterBrokerId", master, "masterEpoch", epoch), body)
	}
	for _, tc := range []struct {
		a      answer
		code   remoting.ResponseCode
		remark string
	}{
		{alter("1", "1", []int64{1}, 1), remoting.ControllerAlterSyncStateSetFailed, "The newSyncStateSet is equal with oldSyncStateSet, no needed to update syncStateSet"},
		{alter("2", "1", []int64{1, 2}, 1), remoting.ControllerInvalidMaster, "Rejecting alter syncStateSet request because the current leader is:{1}, not {2}"},
		{alter("1", "0", []int64{1, 2}, 1), remoting.ControllerFencedMasterEpoch, "Rejecting alter syncStateSet request because the current master epoch is:{1}, not {0}"},
		{alter("1", "1", []int64{1, 2}, 0), remoting.ControllerFencedSyncStateSetEpoch, "Rejecting alter syncStateSet request because the current syncStateSet epoch is:{1}, not {0}"},
		{alter("1", "1", []int64{1, 5}, 1), remoting.ControllerInvalidReplicas, "Rejecting alter syncStateSet request because the replicas {5} don't exist"},
		{alter("1", "1", []int64{2}, 1), remoting.ControllerAlterSyncStateSetFailed, "Rejecting alter syncStateSet request because the newSyncStateSet don't contains origin leader {1}"},
	} {
		assert.EqualValues(t, tc.code, tc.a.code)
		assert.Equal(t, tc.remark, tc.a.remark)
	}
	tm.kill(2)
	a := alter("1", "1", []int64{1, 2}, 1)
	assert.EqualValues(t, remoting.ControllerBrokerNotAlive, a.code)
	assert.Equal(t, "Rejecting alter syncStateSet request because the replicas {2} don't alive", a.remark)
}

func TestApplyBrokerIDAndClean(t *testing.T) {
	tm := newTestManager()
	a := tm.applyBrokerID(hdr("clusterName", "c", "brokerName", "broker-a", "appliedBrokerId", "2", "registerCheckCode", "h:1;1"))
	assert.EqualValues(t, remoting.ControllerBrokerIdInvalid, a.code)
	assert.Equal(t, "Broker-set: broker-a hasn't been registered in controller, but broker try to apply brokerId: 2", a.remark)
	tm.join(t, 1, 0, 0, 0)
	a = tm.applyBrokerID(hdr("clusterName", "c", "brokerName", "broker-a", "appliedBrokerId", "1", "registerCheckCode", "other:1;1"))
	assert.EqualValues(t, remoting.ControllerBrokerIdInvalid, a.code)
	assert.Equal(t, "Fail to apply brokerId: 1 in broker-set: broker-a", a.remark)
	tm.join(t, 1, 0, 0, 0) // the same broker again: accepted, the next id unchanged
	next := tm.getNextBrokerID(hdr("clusterName", "c", "brokerName", "broker-a"))
	assert.Equal(t, field{"nextBrokerId", "2"}, next.header[2])

	tm.join(t, 2, 0, 0, 0)
	require.EqualValues(t, remoting.Success, tm.elect("brokerId", "1").code)
	a = tm.cleanBrokerData(hdr("clusterName", "DefaultCluster", "brokerName", "broker-a"))
	assert.EqualValues(t, remoting.ControllerInvalidCleanBrokerMetadata, a.code)
	assert.Equal(t, "Broker broker-a is still alive, clean up failure", a.remark)
	a = tm.cleanBrokerData(hdr("clusterName", "DefaultCluster", "brokerName", "broker-a", "brokerControllerIdsToClean", "2"))
	assert.Equal(t, "Broker [broker-a,  2] is still alive, clean up failure", a.remark)
	a = tm.cleanBrokerData(hdr("clusterName", "DefaultCluster", "brokerName", "broker-a", "brokerControllerIdsToClean", "x"))
	assert.Equal(t, `Please set the option <brokerControllerIdsToClean> according to the format, exception: java.lang.NumberFormatException: For input string: "x"`, a.remark)
	tm.kill(2)
	a = tm.commit(tm.cleanBrokerData(hdr("clusterName", "DefaultCluster", "brokerName", "broker-a", "brokerControllerIdsToClean", "2")))
	require.EqualValues(t, remoting.Success, a.code, a.remark)
	_, gone := tm.t.replicas["broker-a"].ids[2]
	assert.False(t, gone)
	a = tm.commit(tm.cleanBrokerData(hdr("brokerName", "broker-a", "isCleanLivingBroker", "true")))
	require.EqualValues(t, remoting.Success, a.code, a.remark)
	_, _, known := tm.t.set("broker-a")
	assert.False(t, known, "the whole set is gone")
	a = tm.cleanBrokerData(hdr("brokerName", "broker-a", "isCleanLivingBroker", "true"))
	assert.Equal(t, "Broker broker-a is not existed,clean broker data failure.", a.remark)
}
