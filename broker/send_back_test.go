package broker

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// sendBackRequest is a CONSUMER_SEND_MSG_BACK as the 4.9.8 client sends it.
func sendBackRequest(offset int64, group string, delayLevel, maxReconsumeTimes int32, originMsgID string) *remoting.Command {
	req := remoting.NewRequest(remoting.ConsumerSendMsgBack, map[string]string{
		"offset": itoa(offset), "group": group, "delayLevel": itoa(delayLevel), "originMsgId": originMsgID,
		"originTopic": "TB", "unitMode": "false", "maxReconsumeTimes": itoa(maxReconsumeTimes),
	})
	req.Version = protocol.VersionV4_9_8
	return req
}

// A message handed back goes to %RETRY%group through the delay levels with
// its reconsume count raised and its first topic and id recorded, and
// once the count reaches the maximum to %DLQ%group, intact.
func TestSendBackRetriesThenDeadLetters(t *testing.T) {
	c := testConfigs(t.TempDir(), "")
	c.Store.MessageDelayLevel = "1s 1s 1s"
	b := startBroker(t, c, nil)
	cl := newClient(t, nil)
	resp := invoke(t, cl, b.Addr(), withBody(sendRequest("TB", 0, nil, map[string]string{"TAGS": "TagA", "KEYS": "k", "UNIQ_KEY": "U1", "p": "v"}), []byte("pay")))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	origID := resp.ExtString("msgId")
	_, origOffset, err := store.DecodeMessageID(origID)
	require.NoError(t, err)

	resp = invoke(t, cl, b.Addr(), sendBackRequest(origOffset, "GB", 0, 2, "U1"))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	dispatched(t, b)
	held := queueRecords(t, b, store.ScheduleTopic, 2)
	require.Len(t, held, 1, "level 0 means 3 + reconsumeTimes")
	eventually(t, func() bool { return b.store.MaxOffset("%RETRY%GB", 0) == 1 }, "retry delivered")
	retry := queueRecords(t, b, "%RETRY%GB", 0)[0]
	assert.Equal(t, "pay", string(retry.Body))
	assert.Equal(t, int32(1), retry.ReconsumeTimes)
	p := store.ParseProperties(string(retry.Properties))
	assert.Equal(t, "TB", p["RETRY_TOPIC"])
	assert.Equal(t, origID, p["ORIGIN_MESSAGE_ID"])
	assert.Equal(t, "U1", p["UNIQ_KEY"])
	assert.Equal(t, "v", p["p"])
	assert.Equal(t, "false", p["WAIT"])
	assert.Equal(t, "3", p["DELAY"])

	resp = invoke(t, cl, b.Addr(), sendBackRequest(retry.PhysicalOffset, "GB", 1, 1, "U1"))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	dispatched(t, b)
	dlq := queueRecords(t, b, "%DLQ%GB", 0)
	require.Len(t, dlq, 1, "reconsumeTimes 1 reached maxReconsumeTimes 1")
	assert.Equal(t, "pay", string(dlq[0].Body))
	assert.Equal(t, int32(2), dlq[0].ReconsumeTimes)
	p = store.ParseProperties(string(dlq[0].Properties))
	assert.Equal(t, origID, p["ORIGIN_MESSAGE_ID"], "the first message's id stays")
	assert.Equal(t, "TB", p["RETRY_TOPIC"])
	assert.Equal(t, "0", p["DELAY"])
	tc, ok := b.topics.get("%DLQ%GB")
	require.True(t, ok)
	assert.Equal(t, int32(1), tc.WriteQueueNums)
	assert.Equal(t, protocol.PermRead|protocol.PermWrite, tc.Perm)

	resp = invoke(t, cl, b.Addr(), sendBackRequest(1<<40, "GB", 0, 2, ""))
	assert.Equal(t, int32(remoting.SystemError), resp.Code)
	assert.Equal(t, "look message by offset failed, 1099511627776", resp.Remark)
}
