package broker

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// recallRequest is a RECALL_MESSAGE as DefaultMQProducerImpl.recallMessage
// builds it.
func recallRequest(topic, handle string) *remoting.Command {
	return remoting.NewRequest(remoting.RecallMessage, map[string]string{
		"producerGroup": "PG", "topic": topic, "recallHandle": handle, "bname": "broker-t"})
}

// updateBrokerConfig sends UPDATE_BROKER_CONFIG with properties text.
func updateBrokerConfig(t *testing.T, cl *remoting.Client, b *Broker, props string) {
	t.Helper()
	resp := invoke(t, cl, b.Addr(), withBody(remoting.NewRequest(remoting.UpdateBrokerConfig, nil), []byte(props)))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
}

// sendTimerHandle sends a timer message to TM due at ms and returns the
// send's recall handle.
func sendTimerHandle(t *testing.T, cl *remoting.Client, b *Broker, key string, ms int64) string {
	t.Helper()
	props := dueAt(ms)
	props["UNIQ_KEY"] = key
	resp := invoke(t, cl, b.Addr(), withBody(sendRequest("TM", 0, nil, props), []byte("body of "+key)))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	handle, ok := resp.Ext("recallHandle")
	require.True(t, ok, "a recall handle for %s", key)
	return handle
}

// handleByHand is base64url("v1 <topic> <broker> <ms> <id>") with padding.
func handleByHand(topic, broker string, ms int64, id string) string {
	return base64.URLEncoding.EncodeToString([]byte(fmt.Sprintf("v1 %s %s %d %s", topic, broker, ms, id)))
}

// A single send of a timer message is answered with the handle of its
// real topic, the broker, its slot (TIMER_OUT_MS) plus one and its
// UNIQ_KEY; a plain message, a time already passed and a batch get none.
func TestSendOfATimerMessageIsAnsweredWithItsRecallHandle(t *testing.T) {
	b := startLine5Broker(t, testConfigs(t.TempDir(), ""))
	cl := newClient(t, nil)
	second := time.Now().Add(5*time.Second).UnixMilli() / 1000 * 1000
	handle := sendTimerHandle(t, cl, b, "U1", second+250)
	assert.Equal(t, handleByHand("TM", "broker-t", second+1, "U1"), handle, "the slot is the second, rounded down")
	handle = sendTimerHandle(t, cl, b, "U2", second+1000)
	assert.Equal(t, handleByHand("TM", "broker-t", second+1, "U2"), handle, "a time on the second is the slot before")

	dispatched(t, b)
	held := queueRecords(t, b, timerTopic, 0)
	require.Len(t, held, 2)
	out, _ := held[0].Property(propTimerOutMs)
	assert.Equal(t, strconv.FormatInt(second, 10), out, "the handle's time is TIMER_OUT_MS + 1")

	for name, props := range map[string]map[string]string{
		"plain":         {"UNIQ_KEY": "P"},
		"time passed":   {"UNIQ_KEY": "Q", "TIMER_DELIVER_MS": "1000"},
		"a delay level": {"UNIQ_KEY": "D", "DELAY": "1", "TIMER_DELIVER_MS": strconv.FormatInt(second+250, 10)},
	} {
		resp := invoke(t, cl, b.Addr(), withBody(sendRequest("TM", 0, nil, props), []byte("x")))
		require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
		_, ok := resp.Ext("recallHandle")
		assert.False(t, ok, "%s: no recall handle", name)
	}
	batch := sendRequest("TM", 0, nil, dueAt(second+250))
	batch.Code = int32(remoting.SendBatchMessage)
	batch.Body = encodeBatchBody(map[string]string{"UNIQ_KEY": "B1", "TIMER_DELIVER_MS": strconv.FormatInt(second+250, 10)})
	resp := invoke(t, cl, b.Addr(), batch)
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	_, ok := resp.Ext("recallHandle")
	assert.False(t, ok, "a batch: no recall handle")
}

// encodeBatchBody is one message of a batch body with props.
func encodeBatchBody(props map[string]string) []byte {
	p := store.EncodeProperties(props)
	body := []byte("batch")
	out := make([]byte, 0, 64)
	be := func(v uint32) { out = append(out, byte(v>>24), byte(v>>16), byte(v>>8), byte(v)) }
	be(uint32(batchEntryFixed + len(body) + len(p)))
	be(0)
	be(0)
	be(0)
	be(uint32(len(body)))
	out = append(out, body...)
	out = append(out, byte(len(p)>>8), byte(len(p)))
	return append(out, p...)
}

// Each refusal of RECALL_MESSAGE, with Java's code and remark, in Java's
// order; recallMessageEnable and allowRecallWhenBrokerNotWriteable are
// read per request (UPDATE_BROKER_CONFIG turns them).
func TestRecallRefusals(t *testing.T) {
	b := startLine5Broker(t, testConfigs(t.TempDir(), ""))
	cl := newClient(t, nil)
	at := time.Now().Add(10 * time.Second).UnixMilli()
	handle := sendTimerHandle(t, cl, b, "U1", at)
	recall := func(topic, handle string) *remoting.Command {
		t.Helper()
		resp := invoke(t, cl, b.Addr(), recallRequest(topic, handle))
		assert.Equal(t, "DefaultRegion", resp.ExtString(propMsgRegion), "MSG_REGION on every answer")
		return resp
	}
	refused := func(resp *remoting.Command, code remoting.ResponseCode, remark string) {
		t.Helper()
		assert.Equal(t, int32(code), resp.Code, resp.Remark)
		assert.Equal(t, remark, resp.Remark)
		_, ok := resp.Ext("msgId")
		assert.False(t, ok, "no msgId")
	}

	refused(recall("TM", handle), remoting.NoPermission, "recall failed, operation is forbidden")
	resp := invoke(t, cl, b.Addr(), remoting.NewRequest(remoting.RecallMessage, map[string]string{"recallHandle": handle}))
	refused(resp, remoting.SystemError, "the custom field <topic> is null")
	resp = invoke(t, cl, b.Addr(), remoting.NewRequest(remoting.RecallMessage, map[string]string{"topic": "TM"}))
	refused(resp, remoting.SystemError, "the custom field <recallHandle> is null")

	updateBrokerConfig(t, cl, b, "recallMessageEnable=true\nstartAcceptSendRequestTimeStamp="+
		strconv.FormatInt(time.Now().Add(time.Hour).UnixMilli(), 10)+"\n")
	refused(recall("TM", handle), remoting.ServiceNotAvailable, "recall failed, broker service not available")
	updateBrokerConfig(t, cl, b, "startAcceptSendRequestTimeStamp=0\nbrokerPermission=4\nallowRecallWhenBrokerNotWriteable=false\n")
	refused(recall("TM", handle), remoting.ServiceNotAvailable, "recall failed, broker service not available")
	updateBrokerConfig(t, cl, b, "allowRecallWhenBrokerNotWriteable=true\n")

	refused(recall("NoSuchTopic", handle), remoting.TopicNotExist, "recall failed, the topic[NoSuchTopic] not exist")
	for _, bad := range []string{"", "not base64!", "YQ==", handleByHand("TM", "broker-t", at, "")} {
		refused(recall("TM", bad), remoting.IllegalOperation, "recall handle is invalid")
	}
	send := func(topic string) {
		resp := invoke(t, cl, b.Addr(), withBody(sendRequest(topic, 0, nil, map[string]string{"UNIQ_KEY": "X"}), []byte("x")))
		require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	}
	send("TM2")
	refused(recall("TM2", handle), remoting.IllegalOperation, "recall failed, topic not match")
	refused(recall("TM", handleByHand("TM", "broker-x", at, "U1")), remoting.IllegalOperation,
		"recall failed, broker service not available")
	now := time.Now().UnixMilli()
	for _, ts := range []string{strconv.FormatInt(now-1, 10), strconv.FormatInt(now+3*24*3600*1000+60_000, 10), "soon"} {
		h := protocol.RecallHandle{Topic: "TM", BrokerName: "broker-t", Timestamp: ts, MessageID: "U1"}.Encode()
		refused(recall("TM", h), remoting.IllegalOperation, "recall failed, timestamp invalid")
	}

	resp = recall("TM", handle)
	require.Equal(t, int32(remoting.Success), resp.Code, "the broker not writeable: allowed by default")
	assert.Equal(t, "U1", resp.ExtString("msgId"))

	// a slave refuses before reading the request further
	slave := *b.handlers.recall
	c := b.settings.load().BrokerConfigs.Snapshot()
	c.Store.BrokerRole = conf.Slave
	slave.settings = newLiveSettings(c)
	_, f := slave.checkRecall("TM", handle, slave.settings.load())
	require.NotNil(t, f)
	assert.Equal(t, failure{remoting.SlaveNotAvailable, "recall failed, broker service not available"}, *f)
}

// With timerWheelEnable=false the recall message cannot be put:
// SYSTEM_ERROR "recall failed, execute error". A 4.x broker does not
// know the code.
func TestRecallThatCannotBePutAndOnLine4(t *testing.T) {
	c := testConfigs(t.TempDir(), "")
	c.Store.TimerWheelEnable = false
	c.Broker.RecallMessageEnable = true
	b := startLine5Broker(t, c)
	cl := newClient(t, nil)
	resp := invoke(t, cl, b.Addr(), withBody(sendRequest("TM", 0, nil, map[string]string{"UNIQ_KEY": "X"}), []byte("x")))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	handle := handleByHand("TM", "broker-t", time.Now().Add(10*time.Second).UnixMilli(), "U1")
	resp = invoke(t, cl, b.Addr(), recallRequest("TM", handle))
	assert.Equal(t, int32(remoting.SystemError), resp.Code)
	assert.Equal(t, "recall failed, execute error", resp.Remark)

	b4 := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	resp = invoke(t, cl, b4.Addr(), recallRequest("TM", handle))
	assert.Equal(t, int32(remoting.RequestCodeNotSupported), resp.Code)
}

// A recalled timer message is never delivered: two messages due in the
// same second, one recalled; the other is delivered, and by then the
// recalled one would have been (the slot is delivered in the order its
// messages came, the recalled one first). The recall message waits in
// the timer topic as Java stores it and is not delivered either.
func TestRecalledTimerMessageIsNeverDelivered(t *testing.T) {
	c := testConfigs(t.TempDir(), "")
	c.Broker.RecallMessageEnable = true
	b := startLine5Broker(t, c)
	cl := newClient(t, nil)
	at := time.Now().Add(3 * time.Second).UnixMilli()
	handle := sendTimerHandle(t, cl, b, "RECALLED", at)
	sendTimerHandle(t, cl, b, "KEPT", at)

	resp := invoke(t, cl, b.Addr(), recallRequest("TM", handle))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	assert.Equal(t, "RECALLED", resp.ExtString("msgId"))

	dispatched(t, b)
	held := queueRecords(t, b, timerTopic, 0)
	require.Len(t, held, 3)
	del := store.ParseProperties(string(held[2].Properties))
	out := store.ParseProperties(string(held[0].Properties))[propTimerOutMs]
	assert.Equal(t, "TM+RECALLED", del[propTimerDelUniq])
	assert.Equal(t, "RECALLED", del[propUniqKey])
	assert.Equal(t, recallTag, del[propTags])
	assert.Equal(t, "PG", del[propProducerGroup])
	assert.Equal(t, out, del[propTimerOutMs], "the recall's slot is the recalled message's")
	assert.Equal(t, "TM", del[propRealTopic])
	assert.Equal(t, "0", string(held[2].Body))
	// the order of a java.util.HashMap with these keys put in
	// RecallMessageProcessor.buildMessage's order, then the timer's three
	// (the properties string a 5.3.3 broker stores)
	var javaOrder string
	for _, k := range []string{propTimerDelUniq, propRealTopic, propBornTimestamp, propTraceContext, propTimerDeliverMs,
		propUniqKey, propProducerGroup, propTags, propTimerOutMs, propRealQueueID} {
		javaOrder += k + "\x01" + del[k] + "\x02"
	}
	assert.Equal(t, javaOrder, string(held[2].Properties))

	eventually(t, func() bool { return b.store.MaxOffset("TM", 0) >= 1 }, "KEPT delivered")
	dispatched(t, b)
	got := deliveredTM(t, b)
	assert.Len(t, got["KEPT"], 1)
	assert.Len(t, got, 1, "RECALLED and the recall message never delivered: %v", got)
}
