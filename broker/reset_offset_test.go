package broker

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/remoting"
)

func resetRequest(topic, group string, ts int64, force bool) *remoting.Command {
	return remoting.NewRequest(remoting.InvokeBrokerToResetOffset, map[string]string{
		"topic": topic, "group": group, "timestamp": itoa(ts), "isForce": strconv.FormatBool(force)})
}

// 4.x: the online consumers are told the offsets at the time and move
// themselves; an offline group is refused so that mqadmin commits itself.
func TestResetOffsetTellsTheOnlineConsumers(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	notices := make(chan *remoting.Command, 4)
	r := remoting.NewRouter(nil)
	p := r.NewPool(remoting.PoolOptions{Name: "reset", Workers: 1, Queue: 10})
	r.Handle(remoting.ResetConsumerClientOffset, p, func(req *remoting.Request) *remoting.Command {
		notices <- req.Cmd
		return nil
	})
	cl := newClient(t, r)
	for range 3 {
		require.Equal(t, int32(remoting.Success), invoke(t, cl, b.Addr(), withBody(sendRequest("TRS", 0, nil, nil), []byte("m"))).Code)
	}
	dispatched(t, b)
	b.offsets.commit("GRS", "TRS", 0, 3)
	for q := int32(1); q < 4; q++ {
		b.offsets.commit("GRS", "TRS", q, 0)
	}
	resp := invoke(t, cl, b.Addr(), resetRequest("TRS", "GRS", 0, true))
	assert.Equal(t, int32(remoting.ConsumerNotOnline), resp.Code, "nobody to tell")

	require.Equal(t, int32(remoting.Success), invoke(t, cl, b.Addr(), heartbeatRequest(t, "c1", "GRS", "TRS", "*")).Code)
	resp = invoke(t, cl, b.Addr(), resetRequest("TRS", "GRS", 0, true))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	want := `{"offsetTable":{{"brokerName":"broker-t","queueId":0,"topic":"TRS"}:0,{"brokerName":"broker-t","queueId":1,"topic":"TRS"}:0,` +
		`{"brokerName":"broker-t","queueId":2,"topic":"TRS"}:0,{"brokerName":"broker-t","queueId":3,"topic":"TRS"}:0}}`
	assert.Equal(t, want, string(resp.Body))
	notice := <-notices
	assert.Equal(t, "GRS", notice.ExtString("group"))
	assert.Equal(t, want, string(notice.Body))
	assert.Equal(t, int64(3), b.offsets.query("GRS", "TRS", 0), "4.x leaves the commit to the clients")
}

// 5.x: the broker commits the reset itself and hands it to the next pull
// of each queue; an older commit in between is ignored.
func TestResetOffsetOnTheServer(t *testing.T) {
	b := startLine5Broker(t, testConfigs(t.TempDir(), ""))
	cl := newClient(t, nil)
	for range 3 {
		require.Equal(t, int32(remoting.Success), invoke(t, cl, b.Addr(), withBody(sendRequest("TRS", 0, nil, nil), []byte("m"))).Code)
	}
	dispatched(t, b)
	require.Equal(t, int32(remoting.Success), invoke(t, cl, b.Addr(), heartbeatRequest(t, "c1", "GRS", "TRS", "*")).Code)
	b.offsets.commit("GRS", "TRS", 0, 3)

	resp := invoke(t, cl, b.Addr(), resetRequest("TRS", "GRS", 0, true))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	assert.Equal(t, int64(0), b.offsets.query("GRS", "TRS", 0))
	upd := remoting.NewRequest(remoting.UpdateConsumerOffset, map[string]string{"consumerGroup": "GRS", "topic": "TRS", "queueId": "0", "commitOffset": "3"})
	assert.Equal(t, "Offset has been previously reset", invoke(t, cl, b.Addr(), upd).Remark)
	assert.Equal(t, int64(0), b.offsets.query("GRS", "TRS", 0))

	pull := invoke(t, cl, b.Addr(), pullRequest("GRS", "TRS", 0, 3, "*", 0, 0))
	assert.Equal(t, int32(remoting.PullOffsetMoved), pull.Code)
	assert.Equal(t, "0", pull.ExtString("nextBeginOffset"))
	pull = invoke(t, cl, b.Addr(), pullRequest("GRS", "TRS", 0, 0, "*", 0, 0))
	assert.Equal(t, int32(remoting.Success), pull.Code, "the reset was handed out once")
	assert.Zero(t, b.store.MaxOffset(TopicOffsetMovedEvent, 0), "5.x writes no offset-moved event")
}
