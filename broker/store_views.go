package broker

// The store as the broker's services see it: each service takes the
// smallest view that covers what it does, so its dependencies say what it
// does to the store. *store.Store is every one of them.

import "github.com/rmqgo/rmqgo/store"

// messageWriter appends one message to the commitlog.
type messageWriter interface {
	PutMessage(m *store.Message) store.PutResult
}

// messageReader reads a stored message back by its commitlog offset.
type messageReader interface {
	LookMessage(offset int64) (store.Record, error)
}

// queueBounds tells where a consume queue starts and ends.
type queueBounds interface {
	MinOffset(topic string, queueID int32) int64
	MaxOffset(topic string, queueID int32) int64
}

// queueWalker walks a consume queue from an offset.
type queueWalker interface {
	WalkQueueFrom(topic string, queueID int32, from int64, fn func(queueOffset int64, u store.QueueUnit) error) error
}

// queueTimes reads the store times of a queue's messages.
type queueTimes interface {
	StoreTimeAt(topic string, queueID int32, offset int64) int64
	EarliestMessageTime(topic string, queueID int32) int64
	OffsetByTime(topic string, queueID int32, ts int64, rule store.TimeSearch) int64
}

// sendStore is what the send path needs: puts, one or a batch, the
// page-cache check of the fast-failure rule, and reading back a message
// a consumer sends back.
type sendStore interface {
	messageWriter
	messageReader
	PutMessages(msgs []store.Message) store.PutResult
	PutMessagesLater(msgs []store.Message, done func(store.PutResult)) (store.PutResult, bool)
	IsOSPageCacheBusy() bool
}

// pullStore is what pulls need: the messages of a queue and its bounds,
// and a put for the OFFSET_MOVED_EVENT a moved offset writes.
type pullStore interface {
	messageWriter
	queueBounds
	GetMessagesMatching(topic string, queueID int32, offset int64, maxMsgs int, filter store.TagFilter, props store.PropertyFilter) *store.GetResult
}

// relayStore is what the services that move messages between topics need
// (delays, timers, transactions): read a queue, read a message, put one.
type relayStore interface {
	messageWriter
	messageReader
	queueBounds
	queueWalker
}

// timerStore is what the timer service needs: a relay's view, and where
// the commitlog starts (a timer log file goes once the commitlog no longer
// has its messages).
type timerStore interface {
	relayStore
	CommitLogMinOffset() int64
}
