package broker

// END_TRANSACTION (37): the producer's verdict on a half message,
// EndTransactionProcessor. Always oneway from the Java producer, so the
// codes below are never seen by it; they are answered when the request
// asks for an answer.
//
// Header: producerGroup, tranStateTableOffset (the half message's queue
// offset), commitLogOffset (its commitlog offset), commitOrRollback (0
// unknown, 8 commit, 12 rollback), fromTransactionCheck, msgId,
// transactionId, bname, 5.x topic. Remark: the producer's exception text.
//
// Unknown: nothing happens (the check service asks later). Commit: the
// half message is read back by commitLogOffset and checked against the
// header (producer group, queue offset, commitlog offset; SYSTEM_ERROR
// "The producer group wrong" ... "Find prepared transaction message
// failed"); the real message is written to REAL_TOPIC / REAL_QID with the
// commit type in sysFlag and preparedTransactionOffset = the half's
// offset, its properties those of the half message (Java encodes them
// before it drops REAL_TOPIC, REAL_QID and TRAN_MSG from the map, so they
// stay in the stored string; DELAY still delays it); then the half message
// is marked done. Rollback: only marked done. A slave answers
// SLAVE_NOT_AVAILABLE.
//
// Marking done writes an op message to RMQ_SYS_TRANS_OP_HALF_TOPIC, queue =
// the half's queue (0), tag "d", body the half's queue offset as decimal
// text: "5" (4.x) or "5," (5.x, whose op messages may list several
// offsets; this broker writes one per verdict, at once).

import (
	"strconv"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// Transaction types of commitOrRollback (MessageSysFlag), wire values.
const (
	txUnknown  int32 = 0
	txCommit   int32 = 8
	txRollback int32 = 12
)

// opRemoveTag is TransactionalMessageUtil.REMOVETAG, the tag of an op
// message that marks a half message done.
const opRemoveTag = "d"

// endTxHeader is EndTransactionRequestHeader.
type endTxHeader struct {
	producerGroup        string
	tranStateTableOffset int64
	commitLogOffset      int64
	commitOrRollback     int32
	fromTransactionCheck bool
	msgID                string
}

func parseEndTxHeader(cmd *remoting.Command) (endTxHeader, error) {
	h := endTxHeader{producerGroup: cmd.ExtString("producerGroup"), fromTransactionCheck: cmd.ExtBool("fromTransactionCheck"), msgID: cmd.ExtString("msgId")}
	var err error
	if h.tranStateTableOffset, err = cmd.ExtInt64("tranStateTableOffset"); err != nil {
		return h, err
	}
	if h.commitLogOffset, err = cmd.ExtInt64("commitLogOffset"); err != nil {
		return h, err
	}
	h.commitOrRollback, err = cmd.ExtInt32("commitOrRollback")
	return h, err
}

// endTransaction serves END_TRANSACTION.
func (t *transactionService) endTransaction(req *remoting.Request) *remoting.Command {
	h, err := parseEndTxHeader(req.Cmd)
	if err != nil {
		return t.replyHeaderError(req.Cmd, err)
	}
	if t.settings.load().Store.BrokerRole == conf.Slave {
		return t.reply(req.Cmd, remoting.SlaveNotAvailable, "")
	}
	switch h.commitOrRollback {
	case txCommit, txRollback:
	case txUnknown:
		t.log.Warn("Check producer transaction state, the producer reported UNKNOWN; waiting for the check",
			zap.String("remote", req.Ch.RemoteAddr()), zap.String("msgId", h.msgID), zap.Bool("fromCheck", h.fromTransactionCheck), zap.String("remark", req.Cmd.Remark))
		return nil
	default:
		return nil
	}
	if h.fromTransactionCheck || h.commitOrRollback == txRollback {
		t.log.Info("end transaction", zap.Int32("commitOrRollback", h.commitOrRollback), zap.Bool("fromCheck", h.fromTransactionCheck),
			zap.String("msgId", h.msgID), zap.String("remote", req.Ch.RemoteAddr()))
	}
	code, remark := t.end(h)
	return t.reply(req.Cmd, code, remark)
}

// end commits or rolls back the half message the header names.
func (t *transactionService) end(h endTxHeader) (remoting.ResponseCode, string) {
	half, err := t.store.LookMessage(h.commitLogOffset)
	if err != nil {
		return remoting.SystemError, "Find prepared transaction message failed"
	}
	if code, remark := checkPrepared(&half, h); code != remoting.Success {
		return code, remark
	}
	if h.commitOrRollback == txCommit {
		m, ok := t.committed(&half)
		if !ok {
			return remoting.SystemError, "Find prepared transaction message failed"
		}
		res := t.store.PutMessage(m)
		if code, remark := finalPutResponse(res, t.settings.load().Store.MaxMessageSize); code != remoting.Success {
			return code, remark
		}
		t.metrics.committed(m.Topic, half.BornTimestamp)
	} else {
		realTopic, _ := half.Property(propRealTopic)
		t.metrics.rolledBack(realTopic)
	}
	t.markDone(&half)
	return remoting.Success, ""
}

// checkPrepared is checkPrepareMessage: the half message must be the one
// the producer names.
func checkPrepared(half *store.Record, h endTxHeader) (remoting.ResponseCode, string) {
	if group, _ := half.Property(propProducerGroup); group != h.producerGroup {
		return remoting.SystemError, "The producer group wrong"
	}
	if half.QueueOffset != h.tranStateTableOffset {
		return remoting.SystemError, "The transaction state table offset wrong"
	}
	if half.PhysicalOffset != h.commitLogOffset {
		return remoting.SystemError, "The commit log offset wrong"
	}
	return remoting.Success, ""
}

// committed is endMessageTransaction: the half message as the real one.
func (t *transactionService) committed(half *store.Record) (*store.Message, bool) {
	props := parseProps(string(half.Properties), t.line)
	topic, _ := props.get(propRealTopic)
	qidText, _ := props.get(propRealQueueID)
	qid, err := strconv.ParseInt(qidText, 10, 32)
	if topic == "" || err != nil {
		return nil, false
	}
	m := &store.Message{
		Topic: topic, QueueID: int32(qid), Flag: half.Flag,
		SysFlag: half.SysFlag&^store.SysFlagTransactionMsk | store.SysFlagTxCommit,
		Body:    half.Body, Properties: props.encode(t.line),
		BornTimestamp: half.BornTimestamp, BornHost: half.BornHost, StoreHost: half.StoreHost,
		ReconsumeTimes: half.ReconsumeTimes, PreparedTransactionOffset: half.PhysicalOffset,
	}
	props.del(propRealTopic)
	props.del(propRealQueueID)
	props.del(propTransactionPrepared)
	if f := t.redirects.toTimerTopic(m, props); f != nil {
		t.log.Warn("the committed message asks for an illegal timer; delivered at once", zap.String("remark", f.remark))
	}
	t.redirects.toScheduleTopic(m, props)
	return m, true
}

// finalPutResponse is sendFinalMessage's mapping of a put status.
func finalPutResponse(res store.PutResult, maxMessageSize int32) (remoting.ResponseCode, string) {
	switch res.Status {
	case store.PutOK, store.PutFlushDiskTimeout, store.PutFlushSlaveTimeout, store.PutSlaveNotAvailable:
		return remoting.Success, ""
	case store.PutCreateMappedFileFailed:
		return remoting.SystemError, "Create mapped file failed."
	case store.PutServiceNotAvailable:
		return remoting.ServiceNotAvailable, "Service not available now."
	case store.PutOSPageCacheBusy:
		return remoting.SystemError, "OS page cache busy, please try another machine"
	}
	return putStatusResponse(res, maxMessageSize)
}

// markDone writes the op message that marks a half message done.
func (t *transactionService) markDone(half *store.Record) {
	t.ensureTopic(TopicTransOp)
	props := newMsgProps(16)
	props.set(propTags, opRemoveTag)
	props.set(propWait, "true")
	host := t.id.storeHost()
	m := &store.Message{
		Topic: TopicTransOp, QueueID: half.QueueID, Body: []byte(t.line.opBody(half.QueueOffset)), Properties: props.encode(t.line),
		BornTimestamp: t.now().UnixMilli(), BornHost: host, StoreHost: host,
	}
	if res := t.store.PutMessage(m); res.Status != store.PutOK {
		t.log.Error("Transaction op message write failed", zap.String("msgId", half.MsgID()), zap.Int64("queueOffset", half.QueueOffset), zap.Stringer("status", res.Status))
	}
}

// ensureTopic creates a transaction system topic (one queue, read-write)
// on first use, as selectTopicConfig does.
func (t *transactionService) ensureTopic(topic string) {
	t.topics.createForRetry(topic, 1, protocol.PermWrite|protocol.PermRead, 0)
}
