package broker

import (
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

// halfRequest is the half message of a transaction as
// TransactionMQProducer sends it.
func halfRequest(topic, uniq string, body []byte) *remoting.Command {
	req := withBody(sendRequest(topic, 0, nil, map[string]string{
		"TAGS": "TagT", "UNIQ_KEY": uniq, "TRAN_MSG": "true", "PGROUP": "PG", "WAIT": "true",
	}), body)
	req.SetExt("f", "4") // TRANSACTION_PREPARED_TYPE
	return req
}

// endTxRequest is an END_TRANSACTION naming a half message.
func endTxRequest(group string, queueOffset, commitLogOffset int64, verdict int32, fromCheck bool, uniq string) *remoting.Command {
	return remoting.NewRequest(remoting.EndTransaction, map[string]string{
		"producerGroup": group, "tranStateTableOffset": itoa(queueOffset), "commitLogOffset": itoa(commitLogOffset),
		"commitOrRollback": itoa(verdict), "fromTransactionCheck": strconv.FormatBool(fromCheck), "msgId": uniq, "transactionId": uniq,
	})
}

// sendHalf sends a half message and returns its queue and commitlog
// offsets.
func sendHalf(t *testing.T, cl *remoting.Client, b *Broker, topic, uniq, body string) (int64, int64) {
	t.Helper()
	resp := invoke(t, cl, b.Addr(), halfRequest(topic, uniq, []byte(body)))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	_, off, err := store.DecodeMessageID(resp.ExtString("msgId"))
	require.NoError(t, err)
	qo, err := resp.ExtInt64("queueOffset")
	require.NoError(t, err)
	return qo, off
}

// A committed half message is written to its topic, a rolled-back one is
// not, and both are marked done in the op topic; a verdict naming the
// wrong group or offsets changes nothing.
func TestEndTransactionCommitsAndRollsBack(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	cl := newClient(t, nil)
	qo, off := sendHalf(t, cl, b, "TT", "U1", "debit A")
	dispatched(t, b)
	assert.Zero(t, b.store.MaxOffset("TT", 0), "a half message is not in its topic")

	resp := invoke(t, cl, b.Addr(), endTxRequest("OTHER", qo, off, txCommit, false, "U1"))
	assert.Equal(t, int32(remoting.SystemError), resp.Code)
	assert.Equal(t, "The producer group wrong", resp.Remark)
	resp = invoke(t, cl, b.Addr(), endTxRequest("PG", qo+1, off, txCommit, false, "U1"))
	assert.Equal(t, "The transaction state table offset wrong", resp.Remark)

	resp = invoke(t, cl, b.Addr(), endTxRequest("PG", qo, off, txCommit, false, "U1"))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	qo2, off2 := sendHalf(t, cl, b, "TT", "U2", "debit B")
	resp = invoke(t, cl, b.Addr(), endTxRequest("PG", qo2, off2, txRollback, false, "U2"))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	dispatched(t, b)

	got := queueRecords(t, b, "TT", 0)
	require.Len(t, got, 1, "only the committed one")
	assert.Equal(t, "debit A", string(got[0].Body))
	assert.Equal(t, store.SysFlagTxCommit, got[0].TransactionType())
	assert.Equal(t, off, got[0].PreparedTransactionOffset)
	p := store.ParseProperties(string(got[0].Properties))
	assert.Equal(t, "U1", p["UNIQ_KEY"])
	assert.Equal(t, "TT", p["REAL_TOPIC"], "Java keeps the half message's properties string")
	ops := queueRecords(t, b, TopicTransOp, 0)
	require.Len(t, ops, 2)
	assert.Equal(t, "0", string(ops[0].Body))
	assert.Equal(t, "1", string(ops[1].Body))
	assert.Equal(t, "d", store.ParseProperties(string(ops[0].Properties))["TAGS"])
}

// checkRecorder answers nothing and records the CHECK_TRANSACTION_STATE
// requests a producer receives.
func checkRecorder(checks chan<- *remoting.Command) *remoting.Router {
	r := remoting.NewRouter(nil)
	p := r.NewPool(remoting.PoolOptions{Name: "check", Workers: 1, Queue: 100})
	r.Handle(remoting.CheckTransactionState, p, func(req *remoting.Request) *remoting.Command {
		checks <- req.Cmd
		return nil
	})
	return r
}

// producerHeartbeat registers group as a producer on the connection.
func producerHeartbeat(t *testing.T, group string) *remoting.Command {
	body, err := jsonAPI.Marshal(heartbeatData{ClientID: "p1", ProducerDataSet: []protocol.ProducerData{{GroupName: group}}})
	require.NoError(t, err)
	return withBody(remoting.NewRequest(remoting.HeartBeat, nil), body)
}

// A half message left without a verdict is checked with the producer,
// whose answer from the check is honoured; one never answered is checked
// transactionCheckMax times and then discarded; the progress is kept in
// consumerOffset.json under CID_RMQ_SYS_TRANS.
func TestUnansweredHalfMessageIsCheckedThenDiscarded(t *testing.T) {
	c := testConfigs(t.TempDir(), "")
	c.Broker.TransactionTimeOut = 0
	c.Broker.TransactionCheckInterval = 100
	c.Broker.TransactionCheckMax = 2
	b := startBroker(t, c, nil)
	checks := make(chan *remoting.Command, 100)
	cl := newClient(t, checkRecorder(checks))
	require.Equal(t, int32(remoting.Success), invoke(t, cl, b.Addr(), producerHeartbeat(t, "PG")).Code)
	sendHalf(t, cl, b, "TC", "U1", "credit B")

	check := <-checks
	assert.Equal(t, "U1", check.ExtString("msgId"))
	assert.Equal(t, "U1", check.ExtString("transactionId"))
	msg, err := store.DecodeRecord(check.Body)
	require.NoError(t, err)
	assert.Equal(t, "TC", msg.Topic, "the body is the message as in its real topic")
	assert.Equal(t, "credit B", string(msg.Body))
	assert.Equal(t, "1", store.ParseProperties(string(msg.Properties))["TRANSACTION_CHECK_TIMES"])
	qo, err := check.ExtInt64("tranStateTableOffset")
	require.NoError(t, err)
	off, err := check.ExtInt64("commitLogOffset")
	require.NoError(t, err)
	assert.Equal(t, qo, msg.QueueOffset)
	require.NoError(t, cl.InvokeOneway(b.Addr(), endTxRequest("PG", qo, off, txCommit, true, "U1")))
	eventually(t, func() bool { return b.store.MaxOffset("TC", 0) == 1 }, "committed from the check")

	sendHalf(t, cl, b, "TC", "U2", "never answered")
	var times []string
	for len(times) < 2 {
		select {
		case ch := <-checks:
			if ch.ExtString("msgId") != "U2" {
				continue // a check of U1 sent before its verdict landed
			}
			m, err := store.DecodeRecord(ch.Body)
			require.NoError(t, err)
			times = append(times, store.ParseProperties(string(m.Properties))["TRANSACTION_CHECK_TIMES"])
		case <-time.After(testWait):
			t.Fatal("no check of U2")
		}
	}
	assert.Equal(t, []string{"1", "2"}, times)
	eventually(t, func() bool {
		return b.offsets.query(txCheckGroup, TopicTransHalf, 0) == b.store.MaxOffset(TopicTransHalf, 0)
	}, "discarded after transactionCheckMax checks: the check passes the end of the half queue")
	assert.Equal(t, int64(1), b.store.MaxOffset("TC", 0), "the discarded one is never committed")
}

// A slave refuses END_TRANSACTION: only the master decides transactions.
func TestSlaveRefusesEndTransaction(t *testing.T) {
	c := testConfigs(t.TempDir(), "")
	c.Store.BrokerRole = conf.Slave
	c.Broker.BrokerId = 1
	b := startBroker(t, c, nil)
	cl := newClient(t, nil)
	resp := invoke(t, cl, b.Addr(), endTxRequest("PG", 0, 0, txCommit, false, "U1"))
	assert.Equal(t, int32(remoting.SlaveNotAvailable), resp.Code)
}

// Java's check round asks for the half topic's queues, which creates
// RMQ_SYS_TRANS_HALF_TOPIC and registers it with the name servers, so a
// Java broker lists it (mqadmin topicList) from its first check on, even
// with no transaction ever sent.
func TestCheckRoundCreatesAndRegistersHalfTopic(t *testing.T) {
	ns := startFakeNamesrv(t)
	c := testConfigs(t.TempDir(), ns.addr)
	c.Broker.TransactionCheckInterval = 100
	b := startBroker(t, c, nil)
	eventually(t, func() bool {
		_, ok := b.topics.get(TopicTransHalf)
		_, registered := ns.lastTopics()[TopicTransHalf]
		return ok && registered
	}, "half topic created and registered")
	tc, _ := b.topics.get(TopicTransHalf)
	assert.Equal(t, int32(1), tc.ReadQueueNums)
	assert.Equal(t, int32(protocol.PermWrite|protocol.PermRead), tc.Perm)
}
