package broker

// The revive topic's records (docs/reference/pop.md §4): the checkpoint a
// pop writes for each queue it took messages from (ck), the ack of one
// message (ack) and of several (bAck). Each is a message of the revive
// topic rmq_sys_REVIVE_LOG_<cluster>, queue reviveQid, as
// PopMessageProcessor.buildCkMsg and AckMessageProcessor build them:
//
//	topic            rmq_sys_REVIVE_LOG_<cluster>   queue  reviveQid (0..reviveQueueNum-1)
//	body             the record's JSON, as fastjson writes it (protocol.PopCheckPoint, AckMsg, BatchAckMsg)
//	TAGS             ck | ack | bAck
//	UNIQ_KEY         <t>@<q>@<so|ao>@<c>@<pt>@<bn>@ck|ack  (protocol.*.UniqKey)
//	TIMER_DELIVER_MS ck: pt + it - 1000; ack, bAck: pt + it of the checkpoint acked
//	born/store host  the broker's store host; born time now; flag, sysFlag, reconsumeTimes 0
//
// A record due in the future goes through the timer (timer.go) as any
// timer message: it lands in the revive queue at its due time, so the
// revive service (pop_revive.go) reads checkpoints about when they fall
// due, each one a second before its acks.

import (
	"strconv"
	"time"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/store"
)

// reviveWriter puts the revive topic's records.
type reviveWriter struct {
	line      line
	now       func() time.Time
	id        *identity
	store     messageWriter
	redirects redirects
	topic     string // rmq_sys_REVIVE_LOG_<cluster>
}

// putCheckPoint writes ck to revive queue qid; it reports whether the
// store took it (putStored: Java counts the flush and slave timeouts as
// stored).
func (w *reviveWriter) putCheckPoint(ck *protocol.PopCheckPoint, qid int32) bool {
	due := ck.ReviveTime() - protocol.AckTimeInterval
	return w.put(qid, protocol.CheckPointTag, ck.UniqKey(), due, ck.AppendJSON(nil))
}

// putAck writes the ack of one message of the checkpoint popped at
// ack.PopTime with invisibleTime, to revive queue qid.
func (w *reviveWriter) putAck(ack *protocol.AckMsg, qid int32, invisibleTime int64) bool {
	return w.put(qid, protocol.AckTag, ack.UniqKey(), ack.PopTime+invisibleTime, ack.AppendJSON(nil))
}

// putBatchAck writes a BATCH_ACK_MESSAGE's bAck record (its UNIQ_KEY is
// the single ack's with ao -1, as Java leaves it).
func (w *reviveWriter) putBatchAck(ack *protocol.BatchAckMsg, qid int32, invisibleTime int64) bool {
	return w.put(qid, protocol.BatchAckTag, ack.UniqKey(), ack.PopTime+invisibleTime, ack.AppendJSON(nil))
}

// put builds and stores one record.
func (w *reviveWriter) put(qid int32, tag, uniqKey string, deliverMs int64, body []byte) bool {
	props := newMsgProps(16)
	props.set(propTags, tag)
	props.set(propTimerDeliverMs, strconv.FormatInt(deliverMs, 10))
	props.set(propUniqKey, uniqKey)
	host := w.id.storeHost()
	m := &store.Message{Topic: w.topic, QueueID: qid, Body: body, Properties: props.encode(w.line),
		BornTimestamp: w.now().UnixMilli(), BornHost: host, StoreHost: host}
	if f := w.redirects.toTimerTopic(m, props); f != nil {
		return false
	}
	return putStored(w.store.PutMessage(m))
}
