package store

import (
	"context"
	"encoding/binary"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
)

// dispatchRequest is what the dispatcher takes from one record (Java's
// DispatchRequest).
type dispatchRequest struct {
	topic          string
	queueID        int32
	offset         int64
	size           int32
	tagsCode       int64
	storeTimestamp int64
	queueOffset    int64
	keys           string
	uniqKey        string
	txType         int32
	properties     []byte
}

// Arrival describes a message that has just been made visible in its
// consume queue; long polling wakes the pulls parked on its queue.
type Arrival struct {
	Topic          string
	QueueID        int32
	NextOffset     int64 // the queue's max offset after this message
	TagsCode       int64
	StoreTimestamp int64
	// Properties point into the commitlog and are valid only during the
	// callback.
	Properties []byte
}

// dispatchRequestOf builds the dispatch request of a decoded record, as
// checkMessageAndReturnSize does: tagsCode is the TAGS hash, or for the
// schedule topic the delivery time.
func dispatchRequestOf(r *Record, delays []time.Duration) dispatchRequest {
	d := dispatchRequest{
		topic: r.Topic, queueID: r.QueueID, offset: r.PhysicalOffset, size: r.Size,
		storeTimestamp: r.StoreTimestamp, queueOffset: r.QueueOffset,
		txType: r.TransactionType(), properties: r.Properties,
	}
	forEachProperty(r.Properties, func(k, v []byte) {
		switch string(k) {
		case PropertyTags:
			d.tagsCode = TagsCode(string(v))
		case PropertyKeys:
			d.keys = string(v)
		case PropertyUniqKey:
			d.uniqKey = string(v)
		}
	})
	if r.Topic == ScheduleTopic {
		if lv, ok := propertyValue(r.Properties, PropertyDelayLevel); ok {
			d.tagsCode = deliverTimestamp(d.tagsCode, lv, r.StoreTimestamp, delays)
		}
	}
	return d
}

// deliverTimestamp is computeDeliverTimestamp: store time plus the
// level's delay, the level clamped to the highest; a level that is not
// positive keeps the tag hash.
func deliverTimestamp(tagsCode int64, level string, storeTs int64, delays []time.Duration) int64 {
	n, err := strconv.Atoi(level)
	if err != nil || n <= 0 {
		return tagsCode
	}
	n = min(n, len(delays))
	if n == 0 {
		return storeTs + 1000
	}
	return storeTs + delays[n-1].Milliseconds()
}

// dispatcher builds consume queues and the index from the commitlog
// (Java's ReputMessageService). It runs from the commitlog offset where
// the queues end to the commitlog's end, woken by every append.
type dispatcher struct {
	s    *Store
	from atomic.Int64 // next commitlog offset to dispatch
	// lastStoreTimestamp is the store time of the last record put into a
	// consume queue (the checkpoint's logics time once flushed).
	lastStoreTimestamp atomic.Int64
	caughtUp           chan struct{} // signalled after each pass
	// mu is held while records are dispatched; truncation (truncate.go)
	// takes it to stop the dispatcher.
	mu sync.Mutex
}

func newDispatcher(s *Store, from int64) *dispatcher {
	d := &dispatcher{s: s, caughtUp: make(chan struct{}, 1)}
	d.from.Store(from)
	return d
}

// run dispatches until ctx is done, then drains what is left.
func (d *dispatcher) run(ctx context.Context) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		d.pass()
		if d.s.IsSlave() {
			// A slave's appends come a frame at a time; gathering a
			// millisecond of them makes one wake-up of many (Java's
			// ReputMessageService passes once a millisecond on any role).
			time.Sleep(slaveDispatchGather)
		}
		select {
		case <-ctx.Done():
			d.pass()
			return
		case <-d.s.cl.appended:
		case <-tick.C:
		}
	}
}

// slaveDispatchGather is how long a slave's dispatcher lets appends gather
// after a pass.
const slaveDispatchGather = time.Millisecond

// pass dispatches every record up to the commitlog's current end (in
// controller mode, its confirm offset).
func (d *dispatcher) pass() {
	for d.from.Load() < d.s.dispatchEnd() {
		if !d.dispatchFile() {
			break
		}
	}
	select {
	case d.caughtUp <- struct{}{}:
	default:
	}
}

// dispatchFile dispatches the records of the file holding the current
// offset; false when nothing could be done.
func (d *dispatcher) dispatchFile() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	limit := d.s.dispatchEnd()
	from := d.from.Load()
	f := d.s.cl.files.find(from)
	if f == nil {
		// The offset's file was deleted: continue at the oldest one left.
		if min := d.s.cl.files.minOffset(); min > from {
			d.s.log.Warn("dispatch offset below the commitlog, moving on", zap.Int64("from", from), zap.Int64("to", min))
			d.from.Store(min)
			return true
		}
		return false
	}
	if !f.hold() {
		return false
	}
	defer f.release()
	pos, end := from-f.start, f.wrotePosition()
	for pos < end {
		if incomplete(f.data[pos:end], f.size-pos) {
			// A slave receives records in pieces: wait for the rest.
			return false
		}
		r, check, why := decodeRecord(f.data[pos:end], false)
		if check != recordInvalid && recordEnd(f, pos, r, check) > limit {
			return false // not confirmed yet
		}
		switch check {
		case recordBlank:
			d.from.Store(f.end())
			return true
		case recordInvalid:
			d.s.log.Error("[BUG] dispatch stopped at an invalid record, skipping the rest of the file's written part",
				zap.Int64("offset", f.start+pos), zap.String("reason", why))
			d.from.Store(f.start + end)
			return true
		}
		req := dispatchRequestOf(&r, d.s.delays)
		if err := d.s.dispatch(&req); err != nil {
			d.s.log.Error("dispatch failed", zap.Int64("offset", req.offset), zap.Error(err))
			return false
		}
		if d.s.IsSlave() {
			d.s.stats.recordReplicated(int(r.Size))
		}
		pos += int64(r.Size)
		d.from.Store(f.start + pos)
	}
	return true
}

// incomplete reports that buf, the written bytes from a record's start,
// holds only the beginning of a record that fits in the room left in its
// file: the rest is still to come (Java's reput stops there and retries).
func incomplete(buf []byte, room int64) bool {
	if len(buf) < 8 {
		return true
	}
	size := int64(int32(binary.BigEndian.Uint32(buf)))
	magic := int32(binary.BigEndian.Uint32(buf[posMagic:]))
	return (magic == MagicV1 || magic == MagicV2) && size > int64(len(buf)) && size <= room
}

// recordEnd is where the record (or the blank) at pos ends.
func recordEnd(f *mappedFile, pos int64, r Record, check recordCheck) int64 {
	if check == recordBlank {
		return f.end()
	}
	return f.start + pos + int64(r.Size)
}

// waitCaughtUp blocks until the dispatcher has reached the commitlog's
// end (in controller mode, its confirm offset) as it was when called, or
// ctx ends.
func (d *dispatcher) waitCaughtUp(ctx context.Context) error {
	target := d.s.dispatchEnd()
	for d.from.Load() < target {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-d.caughtUp:
		}
	}
	return nil
}
