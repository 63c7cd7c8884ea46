package broker

// The transaction check: TransactionalMessageCheckService,
// TransactionalMessageServiceImpl.check and the check listener.
//
// Every transactionCheckInterval ms each queue of RMQ_SYS_TRANS_HALF_TOPIC
// is read from its progress offset, and RMQ_SYS_TRANS_OP_HALF_TOPIC (the
// "done" marks written by END_TRANSACTION) from its own. Both offsets are
// the consumer offsets of group CID_RMQ_SYS_TRANS in consumerOffset.json,
// as Java keeps them, so checking resumes where it stopped after a restart
// and either broker can take over the other's store. For each half
// message in queue order:
//
//   - marked done: passed;
//   - checked transactionCheckMax times already (property
//     TRANSACTION_CHECK_TIMES), or older than fileReservedTime: discarded
//     (4.x logs it; 5.x also writes it to TRANS_CHECK_MAX_TIME_TOPIC);
//   - stored after this round began, or younger than transactionTimeOut
//     (without CHECK_IMMUNITY_TIME_IN_SECONDS): the round ends here;
//   - younger than its own CHECK_IMMUNITY_TIME_IN_SECONDS: written again
//     at the end of the queue with TRAN_PREPARED_QUEUE_OFFSET, so the
//     queue can move on;
//   - otherwise: written again at the end of the queue with
//     TRANSACTION_CHECK_TIMES + 1, and CHECK_TRANSACTION_STATE (oneway) sent
//     for that copy to a live connection of its producer group (PGROUP);
//     the producer answers with END_TRANSACTION naming the copy.
//
// The half offset then moves past everything passed, and the op offset
// past every op message whose half messages all lie behind it.

import (
	"strconv"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// txCheckGroup is MixAll.CID_SYS_RMQ_TRANS, the group whose offsets record
// how far the half and op queues were checked.
const txCheckGroup = "CID_RMQ_SYS_TRANS"

// txCheckRoundLimit is MAX_PROCESS_TIME_LIMIT: how long one queue is
// checked in a round.
const txCheckRoundLimit = 60 * time.Second

// transactionStore is what transactions need of the store: read and
// walk the half and op queues, read a half message back, put the
// committed and the renewed ones, and list the half topic's queues.
type transactionStore interface {
	relayStore
	Topics() map[string][]int32
}

// transactionService commits, rolls back (END_TRANSACTION, transaction.go)
// and checks half messages.
type transactionService struct {
	replier
	line      line
	log       *zap.Logger
	now       func() time.Time
	settings  *liveSettings
	id        *identity
	store     transactionStore
	topics    *topicTable
	clients   *clientTable
	offsets   *offsetTable
	metrics   *brokerMetrics
	redirects redirects
}

// checkLoop runs a check round every transactionCheckInterval until stop.
func (t *transactionService) checkLoop(stop <-chan struct{}) {
	runEvery(stop, t.settings.load().TransactionCheckInterval, func() {
		if t.settings.load().Store.BrokerRole == conf.Slave {
			return
		}
		// check's fetchMessageQueues creates the half topic when it is
		// missing (and registers it), so it exists from the first round
		// on, transactions or not.
		t.ensureTopic(TopicTransHalf)
		for _, q := range t.store.Topics()[TopicTransHalf] {
			t.checkQueue(q, stop)
		}
	})
}

// opEntry is one op message: its queue offset and the half-message queue
// offsets it marks done.
type opEntry struct {
	offset int64
	halves []int64
}

// checkQueue is one round of check on one half queue.
func (t *transactionService) checkQueue(q int32, stop <-chan struct{}) {
	start := t.now()
	halfFrom := t.progress(TopicTransHalf, q)
	opFrom := t.progress(TopicTransOp, q)
	ops, removed := t.readOps(q, opFrom, halfFrom)
	next := halfFrom
	err := t.store.WalkQueueFrom(TopicTransHalf, q, halfFrom, func(at int64, u store.QueueUnit) error {
		select {
		case <-stop:
			return store.ErrStopWalk
		default:
		}
		if t.now().Sub(start) > txCheckRoundLimit {
			return store.ErrStopWalk
		}
		if !u.Blank && !removed[at] {
			if !t.checkHalf(u.CommitLogOffset, start, removed) {
				return store.ErrStopWalk
			}
		}
		next = at + 1
		return nil
	})
	if err != nil {
		t.log.Error("Check error", zap.Int32("queueId", q), zap.Error(err))
	}
	if next != halfFrom {
		t.offsets.commit(txCheckGroup, TopicTransHalf, q, next)
	}
	if opNext := doneOps(ops, opFrom, next); opNext != opFrom {
		t.offsets.commit(txCheckGroup, TopicTransOp, q, opNext)
	}
}

// progress is fetchConsumeOffset: the check group's offset on a queue,
// or the queue's first offset.
func (t *transactionService) progress(topic string, q int32) int64 {
	if off := t.offsets.query(txCheckGroup, topic, q); off >= 0 {
		return off
	}
	return t.store.MinOffset(topic, q)
}

// readOps reads the op queue from an offset to its end: the op messages
// in order, and the half offsets at or after halfFrom they mark done.
func (t *transactionService) readOps(q int32, from, halfFrom int64) ([]opEntry, map[int64]bool) {
	var ops []opEntry
	removed := map[int64]bool{}
	err := t.store.WalkQueueFrom(TopicTransOp, q, from, func(at int64, u store.QueueUnit) error {
		e := opEntry{offset: at}
		if !u.Blank {
			if rec, err := t.store.LookMessage(u.CommitLogOffset); err == nil {
				if tag, _ := rec.Property(propTags); tag == opRemoveTag {
					e.halves = parseOpBody(string(rec.Body))
				} else {
					t.log.Error("Found a illegal tag in opMessageExt", zap.String("tag", tag), zap.Int64("queueOffset", at))
				}
			}
		}
		for _, h := range e.halves {
			if h >= halfFrom {
				removed[h] = true
			}
		}
		ops = append(ops, e)
		return nil
	})
	if err != nil {
		t.log.Error("read transaction op messages", zap.Int32("queueId", q), zap.Error(err))
	}
	return ops, removed
}

// parseOpBody reads the half offsets of an op message: "5" (4.x) or
// "5,6," (5.x).
func parseOpBody(body string) []int64 {
	var out []int64
	for _, f := range strings.Split(body, ",") {
		if n, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64); err == nil {
			out = append(out, n)
		}
	}
	return out
}

// doneOps is calculateOpOffset: the op offset moves past each op message,
// in order, whose half messages all lie before halfNext.
func doneOps(ops []opEntry, from, halfNext int64) int64 {
	next := from
	for _, e := range ops {
		for _, h := range e.halves {
			if h >= halfNext {
				return next
			}
		}
		next = e.offset + 1
	}
	return next
}

// checkHalf handles one half message that has no op. It reports false
// when the round must stop at it.
func (t *transactionService) checkHalf(commitLogOffset int64, start time.Time, removed map[int64]bool) bool {
	rec, err := t.store.LookMessage(commitLogOffset)
	if err != nil {
		t.log.Warn("the half message to check is gone", zap.Int64("offset", commitLogOffset), zap.Error(err))
		return true
	}
	set := t.settings.load()
	props := parseProps(string(rec.Properties), t.line)
	now := t.now().UnixMilli()
	if t.countCheck(props, set) || now-rec.BornTimestamp > set.FileReserved.Milliseconds() {
		t.discard(&rec, props)
		return true
	}
	if rec.StoreTimestamp >= start.UnixMilli() {
		return false // written during this round (a copy of ours, or new)
	}
	age := now - rec.BornTimestamp
	immunity := set.TransactionTimeout.Milliseconds()
	if v, ok := props.get(propCheckImmunityTime); ok {
		immunity = immunityMillis(v, immunity)
		if age < immunity {
			return t.keepImmune(&rec, props, removed)
		}
	} else if age >= 0 && age < immunity {
		return false
	}
	copyRes := t.store.PutMessage(t.renewHalf(&rec, props))
	if copyRes.Status != store.PutOK {
		t.log.Error("PutBackToHalfQueueReturnResult write failed", zap.String("msgId", rec.MsgID()), zap.Stringer("status", copyRes.Status))
		return false
	}
	t.sendCheck(&rec, props, copyRes)
	return true
}

// countCheck is needDiscard: true when the message was checked
// transactionCheckMax times; otherwise it counts this check in props.
func (t *transactionService) countCheck(props *msgProps, set *settings) bool {
	times := int64(1)
	if v, ok := props.get(propCheckTimes); ok {
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil {
			n = -1
		}
		if n >= int64(set.Broker.TransactionCheckMax) {
			return true
		}
		times = n + 1
	}
	props.set(propCheckTimes, strconv.FormatInt(times, 10))
	return false
}

// immunityMillis is getImmunityTime: the property in seconds, or the
// transaction timeout when it is -1 or not a number.
func immunityMillis(v string, timeout int64) int64 {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n == -1 {
		return timeout
	}
	return n * 1000
}

// keepImmune is checkPrepareQueueOffset: a message still inside its own
// immunity time is passed, as done when its first copy was, or else by
// writing it again with TRAN_PREPARED_QUEUE_OFFSET.
func (t *transactionService) keepImmune(rec *store.Record, props *msgProps, removed map[int64]bool) bool {
	first, ok := props.get(propPreparedQueueOffset)
	if ok {
		n, err := strconv.ParseInt(first, 10, 64)
		if err != nil {
			return false
		}
		if removed[n] {
			delete(removed, n)
			return true
		}
	} else {
		first = strconv.FormatInt(rec.QueueOffset, 10)
	}
	m := t.renewHalf(rec, props)
	props.set(propPreparedQueueOffset, first)
	m.Properties = props.encode(t.line)
	return t.store.PutMessage(m).Status == store.PutOK
}

// renewHalf is renewHalfMessageInner: the half message to write again at
// the end of its queue (flag and reconsume times are not kept, as in
// Java).
func (t *transactionService) renewHalf(rec *store.Record, props *msgProps) *store.Message {
	return &store.Message{
		Topic: rec.Topic, QueueID: rec.QueueID, SysFlag: rec.SysFlag, Body: rec.Body,
		Properties: props.encode(t.line), BornTimestamp: rec.BornTimestamp,
		BornHost: rec.BornHost, StoreHost: rec.StoreHost,
	}
}

// sendCheck is sendCheckMessage: CHECK_TRANSACTION_STATE for the copy just
// written, to a live connection of the producer group, with the message
// (as it is in its real topic and queue) in the store layout as the body.
func (t *transactionService) sendCheck(rec *store.Record, props *msgProps, copyRes store.PutResult) {
	group, _ := props.get(propProducerGroup)
	ch := t.clients.producerChannel(group)
	if ch == nil {
		t.log.Warn("Check transaction failed, channel is null", zap.String("groupId", group))
		return
	}
	uniq, _ := props.get(propUniqKey)
	header := map[string]string{
		"tranStateTableOffset": itoa(copyRes.QueueOffset), "commitLogOffset": itoa(copyRes.WroteOffset),
		"msgId": uniq, "transactionId": uniq, "offsetMsgId": copyRes.MsgID,
	}
	if t.line.checkNamesHalfTopic() {
		header["topic"] = rec.Topic
		header["bname"] = t.settings.load().Broker.BrokerName
	}
	msg := *rec
	msg.Topic, _ = props.get(propRealTopic)
	qid, _ := props.get(propRealQueueID)
	q, _ := strconv.ParseInt(qid, 10, 32)
	msg.QueueID = int32(q)
	msg.QueueOffset, msg.PhysicalOffset = copyRes.QueueOffset, copyRes.WroteOffset
	msg.Properties = []byte(props.encode(t.line))
	req := remoting.NewRequest(remoting.CheckTransactionState, header)
	req.Body = store.EncodeRecord(&msg)
	if err := ch.InvokeOneway(req); err != nil {
		t.log.Warn("Check transaction failed", zap.String("groupId", group), zap.Error(err))
	}
}

// discard is resolveDiscardMsg: 4.x logs the message; 5.x also writes it
// to TRANS_CHECK_MAX_TIME_TOPIC.
func (t *transactionService) discard(rec *store.Record, props *msgProps) {
	t.log.Error("MsgExt has been checked too many times, so discard it",
		zap.String("msgId", rec.MsgID()), zap.Int64("queueOffset", rec.QueueOffset), zap.ByteString("properties", rec.Properties))
	if !t.line.keepsDiscardedHalves() {
		return
	}
	t.ensureTopic(TopicTransCheckMax)
	m := &store.Message{
		Topic: TopicTransCheckMax, Flag: rec.Flag, SysFlag: rec.SysFlag, Body: rec.Body,
		Properties: props.encode(t.line), BornTimestamp: rec.BornTimestamp, BornHost: rec.BornHost,
		StoreHost: rec.StoreHost, ReconsumeTimes: rec.ReconsumeTimes,
	}
	if res := t.store.PutMessage(m); res.Status != store.PutOK {
		t.log.Error("Put checked-too-many-time half message to TRANS_CHECK_MAXTIME_TOPIC failed", zap.String("msgId", rec.MsgID()), zap.Stringer("status", res.Status))
	}
}
