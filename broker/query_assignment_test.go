package broker

import (
	"fmt"
	"os"
	"strings"
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

// queryAssignment asks QUERY_ASSIGNMENT and returns its answer's body.
func queryAssignment(t *testing.T, c *remoting.Client, b *Broker, body string) string {
	t.Helper()
	resp := invoke(t, c, b.Addr(), withBody(remoting.NewRequest(remoting.QueryAssignment, nil), []byte(body)))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	return string(resp.Body)
}

func assignmentBody(client, model, strategy string) string {
	return `{"clientId":"` + client + `","consumerGroup":"G","messageModel":"` + model + `","strategyName":"` +
		strategy + `","topic":"T"}`
}

// QUERY_ASSIGNMENT shares the topic's queues (from the name server's
// route) among the group's registered clients by the strategy asked for,
// gives every queue to a broadcasting client, answers a POP group with
// whole brokers, and answers {} where Java makes no assignment.
func TestQueryAssignment(t *testing.T) {
	ns := startFakeNamesrv(t)
	ns.setRoute("T", &protocol.TopicRouteData{
		QueueDatas: []protocol.QueueData{{BrokerName: "broker-t", ReadQueueNums: 4, WriteQueueNums: 4, Perm: 6},
			{BrokerName: "broker-w", ReadQueueNums: 2, WriteQueueNums: 2, Perm: 2}}, // write-only: not consumed
		BrokerDatas: []protocol.BrokerData{}})
	b := startLine5Broker(t, testConfigs(t.TempDir(), ns.addr))
	admin := newClient(t, nil)
	for _, id := range []string{"cidA", "cidB"} {
		c := newClient(t, nil)
		require.Equal(t, int32(remoting.Success), invoke(t, c, b.Addr(), heartbeatRequest(t, id, "G", "T", "*")).Code)
	}
	queue := func(id int) string {
		return fmt.Sprintf(`{"messageQueue":{"brokerName":"broker-t","queueId":%d,"topic":"T"},"mode":"PULL"}`, id)
	}
	list := func(ids ...int) string {
		parts := make([]string, len(ids))
		for i, id := range ids {
			parts[i] = queue(id)
		}
		return `{"messageQueueAssignments":[` + strings.Join(parts, ",") + `]}`
	}
	assert.Equal(t, list(0, 1), queryAssignment(t, admin, b, assignmentBody("cidA", "CLUSTERING", "AVG")))
	assert.Equal(t, list(2, 3), queryAssignment(t, admin, b, assignmentBody("cidB", "CLUSTERING", "AVG")))
	assert.Equal(t, list(1, 3), queryAssignment(t, admin, b, assignmentBody("cidB", "CLUSTERING", "AVG_BY_CIRCLE")))
	assert.Equal(t, list(0, 1, 2, 3), queryAssignment(t, admin, b, assignmentBody("cidA", "BROADCASTING", "AVG")))
	assert.Equal(t, `{"messageQueueAssignments":[]}`, queryAssignment(t, admin, b, assignmentBody("stranger", "CLUSTERING", "AVG")))
	assert.Equal(t, `{}`, queryAssignment(t, admin, b, assignmentBody("cidA", "CLUSTERING", "NOPE")), "an unknown strategy")
	assert.Equal(t, `{}`, queryAssignment(t, admin, b, strings.Replace(assignmentBody("cidA", "CLUSTERING", "AVG"), `"G"`, `"G2"`, 1)),
		"a group with no client")
	assert.Equal(t, `{}`, queryAssignment(t, admin, b, strings.Replace(assignmentBody("cidA", "CLUSTERING", "AVG"), `"T"`, `"U"`, 1)),
		"a topic the name server does not know")

	require.Equal(t, int32(remoting.Success), createTopic(t, admin, b, "T", "").Code)
	require.Equal(t, int32(remoting.Success), setRequestMode(t, admin, b, `{"consumerGroup":"G","mode":"POP","popShareQueueNum":0,"topic":"T"}`).Code)
	assert.Equal(t, `{"messageQueueAssignments":[{"messageQueue":{"brokerName":"broker-t","queueId":-1,"topic":"T"},"mode":"POP"}]}`,
		queryAssignment(t, admin, b, assignmentBody("cidA", "CLUSTERING", "AVG")))

	resp := invoke(t, admin, b.Addr(), remoting.NewRequest(remoting.QueryAssignment, nil))
	assert.Equal(t, int32(remoting.SystemError), resp.Code, "no body")
}
