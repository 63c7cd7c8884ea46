package proxy

// Transactions through the proxy (EndTransactionActivity,
// TransactionService, the relay of CHECK_TRANSACTION_STATE): a half
// message's send result is kept (its broker, its queue offset in the
// half topic, its commitlog offset) under producer group (the topic) and
// transaction id, for the EndTransaction that names them; the broker's
// check-back arrives on the proxy's connection, which heartbeats the
// producer groups of its clients, and goes to one of the group's clients
// as a RecoverOrphanedTransactionCommand on its Telemetry stream; in
// local mode it arrives on the connection of the client the broker chose
// (registration.go) and goes to that client.

import (
	"context"
	"strconv"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/proxy/apiv2"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// END_TRANSACTION's commitOrRollback values (MessageSysFlag).
const (
	txCommit   = "8"
	txRollback = "12"
)

// txData is TransactionData: where a half message is.
type txData struct {
	brokerName           string
	tranStateTableOffset int64
	commitLogOffset      int64
	at                   time.Time
}

// txTable keeps the half messages by producer group and transaction id,
// for transactionDataExpireMillis (30 s) after the send, longer after a
// check-back.
type txTable struct {
	mu sync.Mutex
	m  map[string]txData
}

func txKey(group, id string) string { return group + "@" + id }

func (t *txTable) put(group, id string, d txData) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m == nil {
		t.m = map[string]txData{}
	}
	d.at = time.Now()
	t.m[txKey(group, id)] = d
	for k, v := range t.m {
		if time.Since(v.at) > time.Hour {
			delete(t.m, k)
		}
	}
}

func (t *txTable) take(group, id string) (txData, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	d, ok := t.m[txKey(group, id)]
	delete(t.m, txKey(group, id))
	return d, ok
}

// keepHalf records a sent half message (fillTransactionData).
func (m *messaging) keepHalf(group, brokerName string, r *remoting.Command) {
	id := r.ExtString("transactionId")
	if id == "" {
		return
	}
	off, _ := strconv.ParseInt(r.ExtString("queueOffset"), 10, 64)
	m.txs.put(group, id, txData{brokerName: brokerName, tranStateTableOffset: off, commitLogOffset: offsetOfMsgID(r.ExtString("msgId"))})
}

// offsetOfMsgID is the commitlog offset in an offset message id.
func offsetOfMsgID(id string) int64 {
	_, off, err := store.DecodeMessageID(id)
	if err != nil {
		return 0
	}
	return off
}

// EndTransaction commits or rolls back a half message.
func (m *messaging) EndTransaction(ctx context.Context, req *apiv2.EndTransactionRequest) (*apiv2.EndTransactionResponse, error) {
	if err := validateTopic(req.GetTopic()); err != nil {
		return &apiv2.EndTransactionResponse{Status: statusOf(err)}, nil
	}
	topic := req.GetTopic().GetName()
	var commit string
	switch req.GetResolution() {
	case apiv2.TransactionResolution_COMMIT:
		commit = txCommit
	case apiv2.TransactionResolution_ROLLBACK:
		commit = txRollback
	default:
		return &apiv2.EndTransactionResponse{Status: status(apiv2.Code_BAD_REQUEST, "unknown transaction resolution")}, nil
	}
	d, ok := m.txs.take(topic, req.GetTransactionId())
	if !ok {
		return &apiv2.EndTransactionResponse{Status: status(apiv2.Code_INVALID_TRANSACTION_ID, "cannot found transaction data")}, nil
	}
	addr, err := m.brokers.masterOf(topic, d.brokerName)
	if err != nil {
		return &apiv2.EndTransactionResponse{Status: statusOf(err)}, nil
	}
	h := map[string]string{"topic": topic, "producerGroup": topic, "tranStateTableOffset": strconv.FormatInt(d.tranStateTableOffset, 10),
		"commitLogOffset": strconv.FormatInt(d.commitLogOffset, 10), "commitOrRollback": commit,
		"fromTransactionCheck": strconv.FormatBool(req.GetSource() == apiv2.TransactionSource_SOURCE_SERVER_CHECK),
		"msgId":                req.GetMessageId(), "transactionId": req.GetTransactionId(), "bname": d.brokerName}
	if err := m.brokers.oneway(addr, remoting.NewRequest(remoting.EndTransaction, h)); err != nil {
		return &apiv2.EndTransactionResponse{Status: statusOf(err)}, nil
	}
	return &apiv2.EndTransactionResponse{Status: statusOK()}, nil
}

// checkTransactionState serves a broker's CHECK_TRANSACTION_STATE: the
// half message goes to a client of its producer group.
func (m *messaging) checkTransactionState(req *remoting.Request) *remoting.Command {
	rec, err := store.DecodeRecord(req.Cmd.Body)
	if err != nil {
		m.log.Warn("check transaction: the message is not readable", zap.Error(err))
		return nil
	}
	props := store.ParseProperties(string(rec.Properties))
	group := props[propProducerGroup]
	id := req.Cmd.ExtString("transactionId")
	tso, _ := strconv.ParseInt(req.Cmd.ExtString("tranStateTableOffset"), 10, 64)
	clo, _ := strconv.ParseInt(req.Cmd.ExtString("commitLogOffset"), 10, 64)
	brokerName := req.Cmd.ExtString("bname")
	if brokerName == "" {
		brokerName = m.local.Name
	}
	m.txs.put(group, id, txData{brokerName: brokerName, tranStateTableOffset: tso, commitLogOffset: clo})
	cmd := &apiv2.TelemetryCommand{Command: &apiv2.TelemetryCommand_RecoverOrphanedTransactionCommand{
		RecoverOrphanedTransactionCommand: &apiv2.RecoverOrphanedTransactionCommand{Message: toMessage(&rec, props), TransactionId: id}}}
	if cs := m.streams.get(clientOfChannel(req.Ch)); cs != nil && cs.send(cmd) == nil {
		return nil // the client the broker chose, on its own connection
	}
	if !m.streams.sendToGroup(group, cmd) && (m.remotingCheck == nil || !m.remotingCheck(group, brokerName, req.Cmd)) {
		m.log.Warn("check transaction: no client of the producer group", zap.String("group", group))
	}
	return nil
}
