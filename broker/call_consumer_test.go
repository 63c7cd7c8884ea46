package broker

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// CONSUME_MESSAGE_DIRECTLY reaches the named consumer with the stored
// message, and its answer comes back to the admin tool; a consumer that is
// not connected is reported.
func TestConsumeMessageDirectlyIsForwardedToTheConsumer(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	got := make(chan *remoting.Command, 1)
	r := remoting.NewRouter(nil)
	p := r.NewPool(remoting.PoolOptions{Name: "direct", Workers: 1, Queue: 10})
	r.Handle(remoting.ConsumeMessageDirectly, p, func(req *remoting.Request) *remoting.Command {
		got <- req.Cmd
		resp := remoting.NewResponse(req.Cmd, remoting.Success, "")
		resp.Body = []byte(`{"consumeResult":"CR_SUCCESS"}`)
		return resp
	})
	consumer := newClient(t, r)
	require.Equal(t, int32(remoting.Success), invoke(t, consumer, b.Addr(), heartbeatRequest(t, "c1", "GD", "TDir", "*")).Code)
	admin := newClient(t, nil)
	sent := invoke(t, admin, b.Addr(), withBody(sendRequest("TDir", 0, nil, map[string]string{"UNIQ_KEY": "U1"}), []byte("again")))
	require.Equal(t, int32(remoting.Success), sent.Code)

	ask := func(clientID string) *remoting.Command {
		return invoke(t, admin, b.Addr(), remoting.NewRequest(remoting.ConsumeMessageDirectly, map[string]string{
			"consumerGroup": "GD", "clientId": clientID, "msgId": sent.ExtString("msgId"), "topic": "TDir",
		}))
	}
	resp := ask("c1")
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	assert.JSONEq(t, `{"consumeResult":"CR_SUCCESS"}`, string(resp.Body))
	fwd := <-got
	assert.Equal(t, "broker-t", fwd.ExtString("brokerName"))
	rec, err := store.DecodeRecord(fwd.Body)
	require.NoError(t, err)
	assert.Equal(t, "again", string(rec.Body))

	resp = ask("nobody")
	assert.Equal(t, int32(remoting.SystemError), resp.Code)
	assert.Equal(t, "The Consumer <GD> <nobody> not online", resp.Remark)
}
