package store

import (
	"fmt"
	"time"
)

// GetStatus is Java's GetMessageStatus.
type GetStatus uint8

// Get statuses.
const (
	GetFound GetStatus = iota
	GetNoMatchedMessage
	GetMessageWasRemoving
	GetOffsetFoundNull
	GetOffsetOverflowBadly
	GetOffsetOverflowOne
	GetOffsetTooSmall
	GetNoMatchedLogicQueue
	GetNoMessageInQueue
)

var getStatusNames = [...]string{
	"FOUND", "NO_MATCHED_MESSAGE", "MESSAGE_WAS_REMOVING", "OFFSET_FOUND_NULL",
	"OFFSET_OVERFLOW_BADLY", "OFFSET_OVERFLOW_ONE", "OFFSET_TOO_SMALL",
	"NO_MATCHED_LOGIC_QUEUE", "NO_MESSAGE_IN_QUEUE",
}

// String is the Java enum name.
func (g GetStatus) String() string {
	if int(g) < len(getStatusNames) {
		return getStatusNames[g]
	}
	return fmt.Sprintf("GetStatus(%d)", g)
}

// StoredMessage is one record returned by a read: a slice of the mapped
// commitlog, valid until the result holding it is released.
type StoredMessage struct {
	Data            []byte
	CommitLogOffset int64
	QueueOffset     int64
	TagsCode        int64
}

// GetResult is the outcome of GetMessages. Release must be called once
// the messages have been written out.
type GetResult struct {
	Status          GetStatus
	NextBeginOffset int64
	MinOffset       int64
	MaxOffset       int64
	Messages        []StoredMessage
	// TotalBytes is the sum of the records' lengths.
	TotalBytes int
	// SuggestPullingFromSlave is set when the reader is so far behind that
	// its data is unlikely to be in memory.
	SuggestPullingFromSlave bool

	releases []func()
}

// Release lets the mapped files go. It is safe to call more than once.
func (r *GetResult) Release() {
	for _, fn := range r.releases {
		fn()
	}
	r.releases = nil
	r.Messages = nil
}

func (r *GetResult) add(m StoredMessage, release func()) {
	r.Messages = append(r.Messages, m)
	r.releases = append(r.releases, release)
	r.TotalBytes += len(m.Data)
}

// TagFilter decides from a consume-queue tagsCode whether a message is
// wanted; nil wants all.
type TagFilter func(tagsCode int64) bool

// GetMessages reads up to maxMsgs messages of a queue from offset, as
// Java's DefaultMessageStore.getMessage: the status says why nothing was
// found, NextBeginOffset where to continue, and the batch stops at the
// transfer limits for data in memory or on disk.
func (s *Store) GetMessages(topic string, queueID int32, offset int64, maxMsgs int, filter TagFilter) *GetResult {
	return s.GetMessagesMatching(topic, queueID, offset, maxMsgs, filter, nil)
}

// PropertyFilter reports whether a message is wanted, given its encoded
// properties (isMatchedByCommitLog: the SQL92 filters).
type PropertyFilter func(properties []byte) bool

// GetMessagesMatching is GetMessages with a second filter, on the
// properties of each record the tag filter let through; a record it
// refuses is skipped as one of another tag is.
func (s *Store) GetMessagesMatching(topic string, queueID int32, offset int64, maxMsgs int, filter TagFilter, props PropertyFilter) *GetResult {
	began := time.Now()
	res := s.getMessages(topic, queueID, offset, maxMsgs, filter, props)
	s.stats.recordGet(res.Status == GetFound, len(res.Messages), time.Since(began))
	return res
}

func (s *Store) getMessages(topic string, queueID int32, offset int64, maxMsgs int, filter TagFilter, props PropertyFilter) *GetResult {
	res := &GetResult{Status: GetNoMessageInQueue, NextBeginOffset: offset}
	cq := s.cqs.find(topic, queueID)
	if cq == nil {
		res.NextBeginOffset = s.correctOffset(offset, 0)
		return res
	}
	res.MinOffset, res.MaxOffset = cq.minOffset(), cq.maxOffset()
	switch {
	case res.MaxOffset == 0:
		res.Status, res.NextBeginOffset = GetNoMessageInQueue, s.correctOffset(offset, 0)
	case offset < res.MinOffset:
		res.Status, res.NextBeginOffset = GetOffsetTooSmall, s.correctOffset(offset, res.MinOffset)
	case offset == res.MaxOffset:
		res.Status = GetOffsetOverflowOne
	case offset > res.MaxOffset:
		res.Status, res.NextBeginOffset = GetOffsetOverflowBadly, s.correctOffset(offset, res.MaxOffset)
	default:
		s.readUnits(cq, offset, maxMsgs, filter, props, res)
	}
	return res
}

// correctOffset is nextOffsetCorrection: the corrected next offset, except
// on a slave without OffsetCheckInSlave, which keeps the one asked for.
func (s *Store) correctOffset(asked, corrected int64) int64 {
	if s.IsSlave() && !s.opts.OffsetCheckInSlave {
		return asked
	}
	return corrected
}

// readUnits walks the consume queue from offset and collects the records.
func (s *Store) readUnits(cq *consumeQueue, offset int64, maxMsgs int, filter TagFilter, props PropertyFilter, res *GetResult) {
	units, release, ok := cq.units(offset)
	if !ok {
		res.Status = GetOffsetFoundNull
		res.NextBeginOffset = s.correctOffset(offset, s.nextFileOffset(cq, offset))
		return
	}
	defer release()
	res.Status = GetNoMatchedMessage
	if n := min(maxMsgs, len(units)/cqUnitSize); n > 0 {
		res.Messages, res.releases = make([]StoredMessage, 0, n), make([]func(), 0, n)
	}
	maxPhy := s.cl.files.maxOffset()
	memory := s.memoryBudget
	maxScan := max(16000, maxMsgs*cqUnitSize)
	skipBelow := int64(-1)
	var lastPhy int64
	i := 0
	for ; i+cqUnitSize <= len(units) && i < maxScan; i += cqUnitSize {
		u := readUnit(units[i:])
		lastPhy = u.offset
		if u.blank() || u.offset < skipBelow {
			continue
		}
		inDisk := maxPhy-u.offset > memory
		if s.batchFull(int(u.size), maxMsgs, res, inDisk) {
			break
		}
		if filter != nil && !filter(u.tagsCode) {
			continue
		}
		data, rel, ok := s.cl.read(u.offset, int(u.size))
		if !ok {
			if res.TotalBytes == 0 {
				res.Status = GetMessageWasRemoving
			}
			skipBelow = s.nextCommitLogFile(u.offset)
			continue
		}
		if props != nil && !matchesProperties(data, props) {
			rel()
			continue
		}
		res.add(StoredMessage{Data: data, CommitLogOffset: u.offset, QueueOffset: offset + int64(i/cqUnitSize), TagsCode: u.tagsCode}, rel)
		res.Status = GetFound
		skipBelow = -1
	}
	res.NextBeginOffset = offset + int64(i/cqUnitSize)
	res.SuggestPullingFromSlave = maxPhy-lastPhy > memory
}

// matchesProperties runs a property filter on a record; a record that
// does not decode is not wanted.
func matchesProperties(data []byte, props PropertyFilter) bool {
	r, check, _ := decodeRecord(data, false)
	return check == recordOK && props(r.Properties)
}

// batchFull is isTheBatchFull: the count limit, then the byte and count
// limits for data in memory or on disk.
func (s *Store) batchFull(size, maxMsgs int, res *GetResult, inDisk bool) bool {
	n := len(res.Messages)
	if res.TotalBytes == 0 || n == 0 {
		return false
	}
	if maxMsgs <= n {
		return true
	}
	if inDisk {
		return res.TotalBytes+size > s.opts.MaxTransferBytesOnMessageInDisk || n > s.opts.MaxTransferCountOnMessageInDisk-1
	}
	return res.TotalBytes+size > s.opts.MaxTransferBytesOnMessageInMemory || n > s.opts.MaxTransferCountOnMessageInMemory-1
}

// nextCommitLogFile is the start of the commitlog file after the one
// holding offset (rollNextFile).
func (s *Store) nextCommitLogFile(offset int64) int64 {
	size := s.cl.files.fileSize
	return offset + size - offset%size
}

// nextFileOffset is the first logical offset of the consume-queue file
// after the one holding offset.
func (s *Store) nextFileOffset(cq *consumeQueue, offset int64) int64 {
	per := cq.files.fileSize / cqUnitSize
	return offset + per - offset%per
}

// ReadRecord returns the whole record at a commitlog offset; release must
// be called when done with data.
func (s *Store) ReadRecord(offset int64) (data []byte, release func(), ok bool) {
	return s.cl.recordAt(offset)
}

// LookMessage decodes the record at a commitlog offset into a copy that
// does not hold the file.
func (s *Store) LookMessage(offset int64) (Record, error) {
	data, release, ok := s.cl.recordAt(offset)
	if !ok {
		return Record{}, fmt.Errorf("store: no message at commitlog offset %d", offset)
	}
	defer release()
	r, err := DecodeRecord(data)
	if err != nil {
		return Record{}, err
	}
	r.Body = append([]byte(nil), r.Body...)
	r.Properties = append([]byte(nil), r.Properties...)
	return r, nil
}

// MinOffset is the first offset of a queue (0 when it has none).
func (s *Store) MinOffset(topic string, queueID int32) int64 {
	if cq := s.cqs.find(topic, queueID); cq != nil {
		return cq.minOffset()
	}
	return 0
}

// MaxOffset is one past the last offset of a queue.
func (s *Store) MaxOffset(topic string, queueID int32) int64 {
	if cq := s.cqs.find(topic, queueID); cq != nil {
		return cq.maxOffset()
	}
	return 0
}

// InMemoryAt tells whether a queue has a message at offset and whether
// that message is "in memory" as Java reckons it for reads: no further
// behind the commitlog's end than accessMessageInMemoryMaxRatio of the
// machine's memory (checkInDiskByConsumeOffset is its negation).
func (s *Store) InMemoryAt(topic string, queueID int32, offset int64) (found, inMemory bool) {
	cq := s.cqs.find(topic, queueID)
	if cq == nil {
		return false, false
	}
	u, ok := cq.unitAt(offset)
	if !ok || u.blank() {
		return false, false
	}
	return true, s.cl.files.maxOffset()-u.offset <= s.memoryBudget
}

// StoreTimeAt is the store time of the message at a queue offset, -1 when
// there is none.
func (s *Store) StoreTimeAt(topic string, queueID int32, offset int64) int64 {
	cq := s.cqs.find(topic, queueID)
	if cq == nil {
		return -1
	}
	u, ok := cq.unitAt(offset)
	if !ok || u.blank() {
		return -1
	}
	return s.cl.storeTimestampAt(u.offset, int(u.size))
}

// EarliestMessageTime is the store time of a queue's first message, -1
// when it has none.
func (s *Store) EarliestMessageTime(topic string, queueID int32) int64 {
	return s.StoreTimeAt(topic, queueID, s.MinOffset(topic, queueID))
}
