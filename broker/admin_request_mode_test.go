package broker

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/configfile"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

func setRequestMode(t *testing.T, c *remoting.Client, b *Broker, body string) *remoting.Command {
	t.Helper()
	return invoke(t, c, b.Addr(), withBody(remoting.NewRequest(remoting.SetMessageRequestMode, nil), []byte(body)))
}

// SET_MESSAGE_REQUEST_MODE keeps a group's mode of a topic in
// messageRequestMode.json, as fastjson writes it, and 402 answers it; the
// table is there again after a restart.
func TestSetMessageRequestModeIsKeptAndWritten(t *testing.T) {
	dir := t.TempDir()
	b := startLine5Broker(t, testConfigs(dir, ""))
	c := newClient(t, nil)
	require.Equal(t, int32(remoting.Success), createTopic(t, c, b, "T", "").Code)

	resp := setRequestMode(t, c, b, `{"consumerGroup":"G","mode":"POP","popShareQueueNum":1,"topic":"T"}`)
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	want := `{"messageRequestModeMap":{"T":{"G":{"consumerGroup":"G","mode":"POP","popShareQueueNum":1,"topic":"T"}}}}`
	resp = invoke(t, c, b.Addr(), remoting.NewRequest(remoting.GetAllMessageRequestMode, nil))
	assert.Equal(t, want, string(resp.Body))
	file, err := os.ReadFile(dir + "/store/config/" + configfile.MessageRequestModeFile)
	require.NoError(t, err)
	assert.Equal(t, "{\n\t\"messageRequestModeMap\":{\n\t\t\"T\":{\n\t\t\t\"G\":{\n\t\t\t\t\"consumerGroup\":\"G\",\n\t\t\t\t\"mode\":\"POP\",\n\t\t\t\t\"popShareQueueNum\":1,\n\t\t\t\t\"topic\":\"T\"\n\t\t\t}\n\t\t}\n\t}\n}",
		string(file), "fastjson's PrettyFormat")

	require.NoError(t, b.Close())
	b = startLine5Broker(t, testConfigs(dir, ""))
	resp = invoke(t, c, b.Addr(), remoting.NewRequest(remoting.GetAllMessageRequestMode, nil))
	assert.Equal(t, want, string(resp.Body), "loaded again")
}

// What SET_MESSAGE_REQUEST_MODE refuses, with Java's codes and remarks;
// nothing refused reaches the table.
func TestSetMessageRequestModeRefusals(t *testing.T) {
	cfg := testConfigs(t.TempDir(), "")
	cfg.Broker.AutoCreateSubscriptionGroup = false
	b := startLine5Broker(t, cfg)
	c := newClient(t, nil)
	require.Equal(t, int32(remoting.Success), createTopic(t, c, b, "T", "").Code)
	for _, tc := range []struct {
		body   string
		code   remoting.ResponseCode
		remark string
	}{
		{`{"consumerGroup":"G","mode":"POP","topic":"%RETRY%G"}`, remoting.NoPermission, "retry topic is not allowed to set mode"},
		{`{"consumerGroup":"G","mode":"POP","topic":"Nope"}`, remoting.TopicNotExist, "topic[Nope] not exist"},
		{`{"consumerGroup":"G","mode":"POP","topic":"T"}`, remoting.SubscriptionGroupNotExist, "subscription group does not exist"},
		{``, remoting.SystemError, nullPointerRemark},
	} {
		resp := setRequestMode(t, c, b, tc.body)
		assert.Equal(t, int32(tc.code), resp.Code, tc.body)
		assert.Equal(t, tc.remark, resp.Remark, tc.body)
	}
	resp := invoke(t, c, b.Addr(), remoting.NewRequest(remoting.GetAllMessageRequestMode, nil))
	assert.Equal(t, `{"messageRequestModeMap":{}}`, string(resp.Body))
}

// A 5.x slave takes its master's request modes: its own topics the
// master lacks go.
func TestSlaveTakesTheMastersRequestModes(t *testing.T) {
	master, slave := startPair(t, protocol.Line5, nil)
	c := newClient(t, nil)
	require.Equal(t, int32(remoting.Success), createTopic(t, c, master, "T", "").Code)
	require.Equal(t, int32(remoting.Success),
		setRequestMode(t, c, master, `{"consumerGroup":"G","mode":"POP","popShareQueueNum":1,"topic":"T"}`).Code)
	slave.modes.set(protocol.SetMessageRequestModeRequestBody{Topic: "Gone", ConsumerGroup: "G", Mode: protocol.RequestModePull})
	slave.slaveSync.syncAll()
	resp := invoke(t, c, slave.Addr(), remoting.NewRequest(remoting.GetAllMessageRequestMode, nil))
	assert.Equal(t, `{"messageRequestModeMap":{"T":{"G":{"consumerGroup":"G","mode":"POP","popShareQueueNum":1,"topic":"T"}}}}`,
		string(resp.Body))
}
