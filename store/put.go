package store

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// PutStatus is Java's PutMessageStatus (names kept for the broker's
// response mapping).
type PutStatus uint8

// Put statuses.
const (
	PutOK PutStatus = iota
	PutFlushDiskTimeout
	PutFlushSlaveTimeout
	PutSlaveNotAvailable
	PutServiceNotAvailable
	PutCreateMappedFileFailed
	PutMessageIllegal
	PutPropertiesSizeExceeded
	PutOSPageCacheBusy
	PutUnknownError
	// PutInSyncReplicasNotEnough is IN_SYNC_REPLICAS_NOT_ENOUGH: a
	// controller-mode master whose SyncStateSet is smaller than
	// minInSyncReplicas refuses the put before writing it.
	PutInSyncReplicasNotEnough
)

var putStatusNames = [...]string{
	"PUT_OK", "FLUSH_DISK_TIMEOUT", "FLUSH_SLAVE_TIMEOUT", "SLAVE_NOT_AVAILABLE",
	"SERVICE_NOT_AVAILABLE", "CREATE_MAPEDFILE_FAILED", "MESSAGE_ILLEGAL",
	"PROPERTIES_SIZE_EXCEEDED", "OS_PAGECACHE_BUSY", "UNKNOWN_ERROR", "IN_SYNC_REPLICAS_NOT_ENOUGH",
}

// String is the Java enum name.
func (p PutStatus) String() string {
	if int(p) < len(putStatusNames) {
		return putStatusNames[p]
	}
	return fmt.Sprintf("PutStatus(%d)", p)
}

// PutResult is the outcome of a put (Java's PutMessageResult with its
// AppendMessageResult).
type PutResult struct {
	Status PutStatus
	// Reason explains a status other than PutOK.
	Reason string
	// WroteOffset is the commitlog offset of the first record.
	WroteOffset int64
	// WroteBytes is the length of the records.
	WroteBytes int
	// MsgID is the offset message id; for a batch, every record's id
	// joined by commas, as Java's batch append returns it.
	MsgID string
	// QueueOffset is the queue offset of the first record (0 for
	// prepared and rolled-back transaction records).
	QueueOffset    int64
	MsgNum         int
	StoreTimestamp int64
}

var errFlushTimeout = errors.New("store: sync flush timed out")

// encodeBufs recycles encoding buffers between puts.
var encodeBufs = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// PutMessage appends one message.
func (s *Store) PutMessage(m *Message) PutResult {
	return s.PutMessages([]Message{*m})
}

// PutMessages appends messages of one topic and queue as consecutive
// records with consecutive queue offsets, in one file (Java's batch put:
// each message its own record). Every message must have the batch's
// topic, queue, transaction type, hosts and born time. On a master whose
// puts wait for replicas it blocks until they have the messages or the
// wait times out.
func (s *Store) PutMessages(msgs []Message) PutResult {
	began := time.Now()
	res, rw := s.putMessages(msgs)
	if rw.waits() {
		res = rw.outcome(res, rw.waiters.wait(rw.end, rw.timeout))
	}
	s.recordPut(res, began)
	return res
}

// PutMessagesLater is PutMessages for a caller that can take the result
// later. When the put has to wait for replicas (a SYNC_MASTER's slave, a
// controller-mode master's acks), it returns ok false at once and calls
// done with the result from the goroutine that ends the wait: the one
// that read the covering ack, or the timer of the wait's timeout. Else it
// returns the result and ok true, and done is never called.
func (s *Store) PutMessagesLater(msgs []Message, done func(PutResult)) (PutResult, bool) {
	began := time.Now()
	res, rw := s.putMessages(msgs)
	if rw.waits() {
		stored := res
		now, replicated := rw.waiters.then(rw.end, rw.timeout, func(replicated bool) {
			res := rw.outcome(stored, replicated)
			s.recordPut(res, began)
			done(res)
		})
		if !now {
			return PutResult{}, false
		}
		res = rw.outcome(res, replicated)
	}
	s.recordPut(res, began)
	return res, true
}

// recordPut counts a put that began then and ended with res.
func (s *Store) recordPut(res PutResult, began time.Time) {
	s.stats.recordPut(res.MsgNum, res.WroteBytes, res.WroteBytes > 0, time.Since(began))
}

// replicaWait is what a stored put still waits for: the replicas to have
// end, on waiters, for at most timeout (FLUSH_SLAVE_TIMEOUT with reason
// after it). No waiters: it waits for nothing.
type replicaWait struct {
	waiters *ackWaiters
	end     int64
	timeout time.Duration
	reason  string
}

func (rw replicaWait) waits() bool { return rw.waiters != nil }

// outcome is res once the wait ended, replicated or not.
func (rw replicaWait) outcome(res PutResult, replicated bool) PutResult {
	if !replicated {
		res.Status, res.Reason = PutFlushSlaveTimeout, rw.reason
	}
	return res
}

// putMessages appends and, with SYNC_FLUSH, waits for the disk; it tells
// what the put still waits for.
func (s *Store) putMessages(msgs []Message) (PutResult, replicaWait) {
	if res, ok := s.refusePut(msgs); !ok {
		return res, replicaWait{}
	}
	if !s.enoughInSyncReplicas(&msgs[0]) {
		return PutResult{Status: PutInSyncReplicasNotEnough, Reason: "in-sync replicas not enough"}, replicaWait{}
	}
	bufp := encodeBufs.Get().(*[]byte)
	defer func() { *bufp = (*bufp)[:0]; encodeBufs.Put(bufp) }()
	batch, res, ok := s.encode(msgs, (*bufp)[:0])
	*bufp = batch.buf
	if !ok {
		return res, replicaWait{}
	}
	ar, err := s.cl.append(&batch)
	if err != nil {
		status := PutUnknownError
		if errors.Is(err, ErrCreateFile) {
			status = PutCreateMappedFileFailed
		}
		return PutResult{Status: status, Reason: err.Error()}, replicaWait{}
	}
	res = PutResult{Status: PutOK, WroteOffset: ar.wroteOffset, WroteBytes: ar.wroteBytes,
		QueueOffset: ar.queueOffset, MsgNum: len(msgs), StoreTimestamp: ar.storeTimestamp,
		MsgID: batchMsgIDs(msgs[0], ar)}
	if s.opts.Flush == SyncFlush {
		if err := s.group.wait(ar.wroteOffset + int64(ar.wroteBytes)); err != nil {
			res.Status, res.Reason = PutFlushDiskTimeout, err.Error()
		}
	}
	switch end := ar.wroteOffset + int64(ar.wroteBytes); {
	case s.opts.ControllerMode:
		return res, s.autoSwitchReplicaWait(&msgs[0], end)
	case s.opts.SyncMaster && waitStoreMsgOK(&msgs[0]):
		rw, st := s.classicReplicaWait(end)
		if st != PutOK {
			res.Status, res.Reason = st, rw.reason
		}
		return res, rw
	}
	return res, replicaWait{}
}

// waitStoreMsgOK is the message's WAIT property: true unless it says
// otherwise (Java's isWaitStoreMsgOK, Boolean.parseBoolean).
func waitStoreMsgOK(m *Message) bool {
	v, ok := propertyValue([]byte(m.Properties), PropertyWaitStore)
	return !ok || strings.EqualFold(v, "true")
}

// refusePut checks the store's state and the batch's shape.
func (s *Store) refusePut(msgs []Message) (PutResult, bool) {
	switch {
	case s.opts.ReadOnly:
		return PutResult{Status: PutServiceNotAvailable, Reason: ErrReadOnly.Error()}, false
	case s.closed.Load():
		return PutResult{Status: PutServiceNotAvailable, Reason: ErrClosed.Error()}, false
	case s.IsSlave():
		// Java: "broke role is slave, so putMessage is forbidden".
		return PutResult{Status: PutServiceNotAvailable, Reason: "the broker's role is slave"}, false
	case s.Fenced() || s.switching.Load():
		return PutResult{Status: PutServiceNotAvailable, Reason: "the store is fenced"}, false
	case s.diskFull.Load():
		return PutResult{Status: PutServiceNotAvailable, Reason: "the disk is full (" + s.diskFullReason() + ")"}, false
	case len(msgs) == 0:
		return PutResult{Status: PutMessageIllegal, Reason: "no message"}, false
	case s.IsOSPageCacheBusy():
		return PutResult{Status: PutOSPageCacheBusy, Reason: "the commitlog lock is held too long"}, false
	}
	first := &msgs[0]
	for i := range msgs[1:] {
		m := &msgs[i+1]
		if m.Topic != first.Topic || m.QueueID != first.QueueID ||
			m.SysFlag&SysFlagTransactionMsk != first.SysFlag&SysFlagTransactionMsk {
			return PutResult{Status: PutMessageIllegal, Reason: "a batch must have one topic, queue and transaction type"}, false
		}
	}
	return PutResult{}, true
}

// encode validates and encodes every message into one buffer.
func (s *Store) encode(msgs []Message, buf []byte) (encodedBatch, PutResult, bool) {
	b := encodedBatch{topic: msgs[0].Topic, queueID: msgs[0].QueueID,
		txType: msgs[0].SysFlag & SysFlagTransactionMsk, sizes: make([]int, 0, len(msgs))}
	for i := range msgs {
		m := &msgs[i]
		v2, problem := validateMessage(m, s.opts.MaxMessageSize, s.opts.AllowMessageV2)
		if problem != "" {
			status := PutMessageIllegal
			if strings.HasPrefix(problem, "properties") {
				status = PutPropertiesSizeExceeded
			}
			b.buf = buf
			return b, PutResult{Status: status, Reason: problem}, false
		}
		before := len(buf)
		buf = appendRecord(buf, m, v2)
		b.sizes = append(b.sizes, len(buf)-before)
	}
	b.buf = buf
	if int64(len(buf))+blankRecordMinLength > s.cl.files.fileSize {
		return b, PutResult{Status: PutMessageIllegal, Reason: "the batch is larger than a commitlog file"}, false
	}
	return b, PutResult{}, true
}

// batchMsgIDs is the offset message id of each record, comma-joined.
func batchMsgIDs(first Message, ar appendResult) string {
	if len(ar.sizes) == 1 {
		return MessageID(first.StoreHost, ar.wroteOffset)
	}
	ids := make([]string, len(ar.sizes))
	at := ar.wroteOffset
	for i, n := range ar.sizes {
		ids[i] = MessageID(first.StoreHost, at)
		at += int64(n)
	}
	return strings.Join(ids, ",")
}

// IsOSPageCacheBusy reports that the put lock has been held longer than
// osPageCacheBusyTimeOutMills (the broker then answers SYSTEM_BUSY).
func (s *Store) IsOSPageCacheBusy() bool {
	return s.cl.busyFor() > s.opts.OSPageCacheBusyTimeout
}
