package store

import (
	"encoding/binary"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
)

// commitLog is the append-only sequence of message records. One writer
// at a time appends under putMu; records are encoded before the lock is
// taken and only their offsets and store time are patched inside it.
type commitLog struct {
	files *fileQueue
	log   *zap.Logger

	putMu sync.Mutex
	// queueOffsets is Java's topicQueueTable: the next queue offset of
	// every "topic-queueId", guarded by putMu.
	queueOffsets map[queueRef]int64
	// lastStoreTimestamp is the newest record's store time; store times
	// never decrease (written under putMu).
	lastStoreTimestamp atomic.Int64
	// lockedSince is when the current holder took putMu (ms), 0 when free.
	lockedSince atomic.Int64

	// appended is signalled after every append, for the dispatcher.
	appended chan struct{}
	// grew is fired after every append, for any number of waiters (the
	// HA master's transfers).
	grew pulse
	// now stamps store times.
	now func() time.Time
	// warm maps pages ahead of the writer (nil: none, a read-only store).
	warm *pageWarmer
}

func newCommitLog(dir string, fileSize int64, log *zap.Logger, readOnly bool, now func() time.Time) *commitLog {
	files := newFileQueue(dir, fileSize, log, readOnly)
	files.preallocate = true
	if now == nil {
		now = time.Now
	}
	c := &commitLog{
		files:        files,
		log:          log,
		queueOffsets: make(map[queueRef]int64),
		appended:     make(chan struct{}, 1),
		now:          now,
	}
	if !readOnly {
		c.warm = newPageWarmer(log)
	}
	return c
}

// appendResult is where a put landed.
type appendResult struct {
	wroteOffset    int64 // commitlog offset of the first record
	wroteBytes     int   // bytes of the records (without any blank)
	queueOffset    int64 // queue offset of the first record
	storeTimestamp int64
	sizes          []int // for batches: each record's length
}

// encodedBatch is one or more encoded records of one topic and queue,
// back to back, ready to be patched and copied.
type encodedBatch struct {
	buf     []byte
	sizes   []int
	topic   string
	queueID int32
	txType  int32
}

// queueRef names one queue: the key of Java's topicQueueTable ("topic-id"
// there; a struct here, so that a put builds no string to look it up).
type queueRef struct {
	topic   string
	queueID int32
}

// append writes the batch at the end of the commitlog, starting a new
// file when the batch and a blank record do not fit in the current one
// (a batch never spans files).
func (c *commitLog) append(b *encodedBatch) (appendResult, error) {
	c.putMu.Lock()
	now := c.now().UnixMilli()
	c.lockedSince.Store(now)
	defer func() {
		c.lockedSince.Store(0)
		c.putMu.Unlock()
	}()
	f, err := c.fileWithRoom(int64(len(b.buf)))
	if err != nil {
		return appendResult{}, err
	}
	storeTs := max(now, c.lastStoreTimestamp.Load())
	key := queueRef{b.topic, b.queueID}
	counts := b.txType == SysFlagTxNotType || b.txType == SysFlagTxCommit
	base := int64(0)
	if counts {
		base = c.queueOffsets[key]
	}
	pos := f.wrotePosition()
	res := appendResult{wroteOffset: f.start + pos, wroteBytes: len(b.buf), queueOffset: base, storeTimestamp: storeTs, sizes: b.sizes}
	at := 0
	for i, n := range b.sizes {
		qo := int64(0)
		if counts {
			qo = base + int64(i)
		}
		patchRecord(b.buf[at:at+n], qo, res.wroteOffset+int64(at), storeTs)
		at += n
	}
	// The first record's size and magic go in last: a process killed in
	// the middle of the copy leaves zeros where the batch starts, which
	// recovery reads as the end of the log, never a torn record.
	copy(f.data[pos+8:], b.buf[8:])
	copy(f.data[pos:pos+8], b.buf[:8])
	f.wrote.Store(pos + int64(len(b.buf)))
	c.warm.wrote(f, pos+int64(len(b.buf)))
	// After the write position: a flusher that reads this time and then
	// the end knows the end covers the record (flushCommitLog).
	c.lastStoreTimestamp.Store(storeTs)
	if counts {
		c.queueOffsets[key] = base + int64(len(b.sizes))
	}
	c.signalAppended()
	return res, nil
}

// fileWithRoom returns the file to append n bytes to, closing the current
// one with a blank record when they would not leave room for one.
func (c *commitLog) fileWithRoom(n int64) (*mappedFile, error) {
	f, _, err := c.files.lastWritable(0)
	if err != nil {
		return nil, err
	}
	pos := f.wrotePosition()
	if n+blankRecordMinLength <= f.size-pos {
		return f, nil
	}
	putBlank(f.data[pos:f.size])
	f.wrote.Store(f.size)
	f, _, err = c.files.lastWritable(0)
	return f, err
}

// signalAppended wakes the HA transfers first (a SYNC_MASTER's put waits
// for them), then the dispatcher.
func (c *commitLog) signalAppended() {
	c.grew.fire()
	select {
	case c.appended <- struct{}{}:
	default:
	}
}

// busyFor is how long the put lock has been held, on the clock that
// stamped lockedSince; 0 when free (then without reading the clock).
func (c *commitLog) busyFor() time.Duration {
	since := c.lockedSince.Load()
	if since == 0 {
		return 0
	}
	return time.Duration(c.now().UnixMilli()-since) * time.Millisecond
}

// read returns size bytes at offset, held until release is called, or
// ok=false when they are not (or no longer) in the commitlog.
func (c *commitLog) read(offset int64, size int) (data []byte, release func(), ok bool) {
	f := c.files.find(offset)
	if f == nil || size <= 0 || !f.hold() {
		return nil, nil, false
	}
	pos := offset - f.start
	if pos+int64(size) > f.wrotePosition() {
		f.release()
		return nil, nil, false
	}
	return f.data[pos : pos+int64(size) : pos+int64(size)], f.release, true
}

// recordAt returns the whole record at offset.
func (c *commitLog) recordAt(offset int64) (data []byte, release func(), ok bool) {
	head, release, ok := c.read(offset, 4)
	if !ok {
		return nil, nil, false
	}
	size := int(int32(binary.BigEndian.Uint32(head)))
	release()
	return c.read(offset, size)
}

// storeTimestampAt reads a record's store time (pickupStoreTimestamp),
// -1 if it is not there.
func (c *commitLog) storeTimestampAt(offset int64, size int) int64 {
	data, release, ok := c.read(offset, size)
	if !ok || size < posSysFlag+4 {
		return -1
	}
	defer release()
	sysFlag := int32(binary.BigEndian.Uint32(data[posSysFlag:]))
	p := storeTimestampPos(sysFlag)
	if p+8 > len(data) {
		return -1
	}
	return int64(binary.BigEndian.Uint64(data[p:]))
}

// setQueueOffsets replaces the next-offset table (after recovery).
func (c *commitLog) setQueueOffsets(t map[queueRef]int64) {
	c.putMu.Lock()
	c.queueOffsets = t
	c.putMu.Unlock()
}

// removeQueueOffsets forgets the queues of a deleted topic.
func (c *commitLog) removeQueueOffsets(topic string, queueIDs []int32) {
	c.putMu.Lock()
	defer c.putMu.Unlock()
	for _, q := range queueIDs {
		delete(c.queueOffsets, queueRef{topic, q})
	}
}
