package controller

import (
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// testBroker plays a controller-mode broker's side of the wire: its own
// connection to the controller (closing it is the broker dying) and a
// port that receives the role-change notifications.
type testBroker struct {
	t      *testing.T
	cli    *remoting.Client
	port   *fakeBroker
	ctl    string
	id     int64
	addr   string
	epoch  int32
	offset int64
}

func newTestBroker(t *testing.T, ctl string) *testBroker {
	b := &testBroker{t: t, cli: newClient(t), port: startFakeBroker(t), ctl: ctl}
	b.addr = b.port.srv.Addr()
	return b
}

func (b *testBroker) ext(more map[string]string) map[string]string {
	m := map[string]string{"clusterName": "DefaultCluster", "brokerName": "broker-a"}
	for k, v := range more {
		m[k] = v
	}
	return m
}

// register runs ReplicasManager.register: next id, apply, register.
func (b *testBroker) register() *remoting.Command {
	t := b.t
	resp := call(t, b.cli, b.ctl, remoting.ControllerGetNextBrokerId, b.ext(nil), nil)
	require.EqualValues(t, remoting.Success, resp.Code, resp.Remark)
	b.id, _ = strconv.ParseInt(resp.ExtString("nextBrokerId"), 10, 64)
	resp = call(t, b.cli, b.ctl, remoting.ControllerApplyBrokerId, b.ext(map[string]string{
		"appliedBrokerId": strconv.FormatInt(b.id, 10), "registerCheckCode": b.addr + ";1700000000000",
	}), nil)
	require.EqualValues(t, remoting.Success, resp.Code, resp.Remark)
	resp = call(t, b.cli, b.ctl, remoting.ControllerRegisterBroker, b.ext(map[string]string{
		"brokerId": strconv.FormatInt(b.id, 10), "brokerAddress": b.addr,
	}), nil)
	require.EqualValues(t, remoting.Success, resp.Code, resp.Remark)
	return resp
}

// heartbeat sends BROKER_HEARTBEAT oneway, as brokers do, and waits until
// the controller counts the broker alive.
func (b *testBroker) heartbeat(c *Controller) {
	req := remoting.NewRequest(remoting.BrokerHeartbeat, b.ext(map[string]string{
		"brokerAddr": b.addr, "brokerId": strconv.FormatInt(b.id, 10),
		"epoch": strconv.Itoa(int(b.epoch)), "maxOffset": strconv.FormatInt(b.offset, 10),
		"confirmOffset": strconv.FormatInt(b.offset, 10), "heartbeatTimeoutMills": "60000",
	}))
	req.Flag |= remoting.FlagOneway
	require.NoError(b.t, b.cli.InvokeOneway(b.ctl, req))
	require.Eventually(b.t, func() bool { return c.heartbeats.alive("DefaultCluster", "broker-a", b.id) },
		5*time.Second, 5*time.Millisecond)
}

func (b *testBroker) die() { b.cli.Close() }

func TestABrokerSetRegistersElectsAndFailsOver(t *testing.T) {
	addrs := freeAddrs(t, 1)
	c := testController(t, groupOf(addrs), 0, t.TempDir(), nil)
	leaderOf(t, c)
	b1, b2 := newTestBroker(t, addrs[0]), newTestBroker(t, addrs[0])

	resp := b1.register()
	assert.Equal(t, int64(1), b1.id)
	assert.Equal(t, `{"syncStateSet":[],"syncStateSetEpoch":0}`, string(resp.Body))
	_, hasMaster := resp.Ext("masterBrokerId")
	assert.False(t, hasMaster, "no master yet")
	b1.heartbeat(c)

	resp = call(t, b1.cli, addrs[0], remoting.ControllerElectMaster, b1.ext(map[string]string{"brokerId": "1"}), nil)
	require.EqualValues(t, remoting.Success, resp.Code, resp.Remark)
	assert.Equal(t, "1", resp.ExtString("masterBrokerId"))
	assert.Equal(t, b1.addr, resp.ExtString("masterAddress"))
	assert.Equal(t, "1", resp.ExtString("masterEpoch"))
	assert.Equal(t, "1", resp.ExtString("syncStateSetEpoch"))
	assert.Equal(t, `{"brokerMemberGroup":{"brokerAddrs":{1:"`+b1.addr+`"},"brokerName":"broker-a","cluster":"DefaultCluster"},"syncStateSet":[1]}`, string(resp.Body))
	n := <-b1.port.notified
	assert.Equal(t, "1", n.ExtString("masterBrokerId"))

	resp = b2.register()
	assert.Equal(t, int64(2), b2.id)
	assert.Equal(t, "1", resp.ExtString("masterBrokerId"), "a live master is named to a registering broker")
	b2.heartbeat(c)
	resp = call(t, b2.cli, addrs[0], remoting.ControllerElectMaster, b2.ext(map[string]string{"brokerId": "2"}), nil)
	assert.EqualValues(t, remoting.ControllerMasterStillExist, resp.Code)
	assert.Equal(t, "The old master 1 is still alive, not need to elect new master for broker broker-a", resp.Remark)

	sss := (&protocol.SyncStateSet{Members: []int64{1, 2}, Epoch: 1}).AppendJSON(nil)
	resp = call(t, b1.cli, addrs[0], remoting.ControllerAlterSyncStateSet, map[string]string{
		"brokerName": "broker-a", "masterBrokerId": "1", "masterEpoch": "1"}, sss)
	require.EqualValues(t, remoting.Success, resp.Code, resp.Remark)
	assert.Equal(t, "2", resp.ExtString("newSyncStateSetEpoch"))
	resp = call(t, b1.cli, addrs[0], remoting.ControllerAlterSyncStateSet, map[string]string{
		"brokerName": "broker-a", "masterBrokerId": "1", "masterEpoch": "1"}, sss)
	assert.EqualValues(t, remoting.ControllerAlterSyncStateSetFailed, resp.Code, "the same set again")

	resp = call(t, b2.cli, addrs[0], remoting.ControllerGetSyncStateData, nil, []byte(`["broker-a","broker-x"]`))
	require.EqualValues(t, remoting.Success, resp.Code, resp.Remark)
	info, err := protocol.ReadBrokerReplicasInfo(resp.Body)
	require.NoError(t, err)
	assert.Equal(t, protocol.BrokerReplicasInfo{"broker-a": {MasterBrokerID: 1, MasterAddress: b1.addr, MasterEpoch: 1, SyncStateSetEpoch: 2,
		InSync: []protocol.ReplicaIdentity{{BrokerName: "broker-a", BrokerID: 1, BrokerAddress: b1.addr, Alive: true},
			{BrokerName: "broker-a", BrokerID: 2, BrokerAddress: b2.addr, Alive: true}}}}, info)

	b1.die() // the master's connection closes: broker 2, in sync, takes over
	n = <-b2.port.notified
	assert.Equal(t, "2", n.ExtString("masterBrokerId"))
	assert.Equal(t, "2", n.ExtString("masterEpoch"))
	assert.Equal(t, "3", n.ExtString("syncStateSetEpoch"))
	assert.Equal(t, `{"syncStateSet":[2],"syncStateSetEpoch":3}`, string(n.Body))
	resp = call(t, b2.cli, addrs[0], remoting.ControllerGetReplicaInfo, map[string]string{"brokerName": "broker-a"}, nil)
	require.EqualValues(t, remoting.Success, resp.Code, resp.Remark)
	assert.Equal(t, "2", resp.ExtString("masterBrokerId"))
	assert.Equal(t, b2.addr, resp.ExtString("masterAddress"))
	assert.Equal(t, "2", resp.ExtString("masterEpoch"))
}

func TestFollowersAnswerNotLeaderAndTheGroupSurvivesItsLeader(t *testing.T) {
	addrs := freeAddrs(t, 3)
	members := groupOf(addrs)
	base := t.TempDir()
	dirs := []string{filepath.Join(base, "0"), filepath.Join(base, "1"), filepath.Join(base, "2")}
	cs := make([]*Controller, 3)
	for i := range cs {
		cs[i] = testController(t, members, i, dirs[i], nil)
	}
	leader := leaderOf(t, cs...)
	var follower *Controller
	for _, c := range cs {
		if c != leader {
			follower = c
			break
		}
	}
	cli := newClient(t)
	resp := call(t, cli, follower.Addr(), remoting.ControllerGetNextBrokerId, map[string]string{"clusterName": "c", "brokerName": "b"}, nil)
	assert.EqualValues(t, remoting.ControllerNotLeader, resp.Code)
	assert.Equal(t, "The controller is not in leader state", resp.Remark)

	resp = call(t, cli, follower.Addr(), remoting.ControllerGetMetadataInfo, nil, nil)
	require.EqualValues(t, remoting.Success, resp.Code)
	assert.Equal(t, "false", resp.ExtString("isLeader"))
	assert.Equal(t, leader.Addr(), resp.ExtString("controllerLeaderAddress"))
	assert.Equal(t, "group1", resp.ExtString("group"))
	assert.Equal(t, "n0:"+addrs[0]+";n1:"+addrs[1]+";n2:"+addrs[2]+";", resp.ExtString("peers"))

	b := newTestBroker(t, leader.Addr())
	b.register()
	require.NoError(t, leader.Close())
	var rest []*Controller
	for _, c := range cs {
		if c != leader {
			rest = append(rest, c)
		}
	}
	next := leaderOf(t, rest...)
	resp = call(t, cli, next.Addr(), remoting.ControllerGetNextBrokerId, map[string]string{"clusterName": "DefaultCluster", "brokerName": "broker-a"}, nil)
	require.EqualValues(t, remoting.Success, resp.Code, resp.Remark)
	assert.Equal(t, "2", resp.ExtString("nextBrokerId"), "the new leader has the id the old one handed out")

	// the whole group stops and starts again: the state comes back from disk
	for _, c := range rest {
		require.NoError(t, c.Close())
	}
	for i := range cs {
		cs[i] = testController(t, members, i, dirs[i], nil)
	}
	again := leaderOf(t, cs...)
	resp = call(t, cli, again.Addr(), remoting.ControllerGetReplicaInfo, map[string]string{"brokerName": "broker-a"}, nil)
	require.EqualValues(t, remoting.Success, resp.Code, resp.Remark)
	resp = call(t, cli, again.Addr(), remoting.ControllerGetNextBrokerId, map[string]string{"clusterName": "DefaultCluster", "brokerName": "broker-a"}, nil)
	assert.Equal(t, "2", resp.ExtString("nextBrokerId"))
}
