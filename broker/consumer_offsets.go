package broker

// QUERY_CONSUMER_OFFSET (14), UPDATE_CONSUMER_OFFSET (15),
// GET_MAX_OFFSET (30), GET_MIN_OFFSET (31), GET_EARLIEST_MSG_STORETIME (32)
// and SEARCH_OFFSET_BY_TIMESTAMP (29): ConsumerManageProcessor and
// AdminBrokerProcessor.
//
// Headers: consumerGroup, topic, queueId (+ commitOffset for an update,
// timestamp for a search). Responses carry "offset" or "timestamp".
// QUERY_CONSUMER_OFFSET with nothing committed answers offset 0 while the
// queue still starts at 0 and its first message is not far behind
// (startsFromZero), else QUERY_NOT_FOUND, as Java does.

import (
	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/remoting"
)

// offsetStore is what the offset codes need of the store: a queue's
// bounds and times, and whether its first message is still in memory.
type offsetStore interface {
	queueBounds
	queueTimes
	InMemoryAt(topic string, queueID int32, offset int64) (found, inMemory bool)
}

// offsetService serves the committed offsets of consumer groups and the
// queue offsets around them: these codes, offset resets
// (reset_offset.go) and CLONE_GROUP_OFFSET (admin_clone_offset.go).
type offsetService struct {
	replier
	line     line
	log      *zap.Logger
	settings *liveSettings
	store    offsetStore
	offsets  *offsetTable
	topics   *topicTable
	groups   *groupTable
	clients  *clientTable
}

// queueHeader reads the topic and queueId fields.
func queueHeader(cmd *remoting.Command) (string, int32, error) {
	if _, ok := cmd.Ext("topic"); !ok {
		return "", 0, remoting.ErrMissingField
	}
	q, err := cmd.ExtInt32("queueId")
	return cmd.ExtString("topic"), q, err
}

// queryConsumerOffset serves QUERY_CONSUMER_OFFSET.
func (s *offsetService) queryConsumerOffset(req *remoting.Request) *remoting.Command {
	topic, q, err := queueHeader(req.Cmd)
	if err != nil {
		return s.replyHeaderError(req.Cmd, err)
	}
	off := s.offsets.query(req.Cmd.ExtString("consumerGroup"), topic, q)
	if off < 0 {
		if v, ok := req.Cmd.Ext("setZeroIfNotFound"); ok && v == "false" {
			// 5.x clients ask for the plain answer.
			return s.reply(req.Cmd, remoting.QueryNotFound, "Not found, do not set to zero, maybe this group boot first")
		}
		if !s.startsFromZero(topic, q) {
			return s.reply(req.Cmd, remoting.QueryNotFound, "Not found, V3_0_6_SNAPSHOT maybe this group consumer boot first")
		}
		off = 0
	}
	resp := s.replyOK(req.Cmd)
	resp.SetExt("offset", itoa(off))
	return resp
}

// startsFromZero tells whether a group without an offset in a queue is
// answered 0 (rather than QUERY_NOT_FOUND, on which a client consuming
// from the last offset starts at the queue's end): the queue still has
// its message 0, and that message is not "in disk" (4.x:
// checkInDiskByConsumeOffset), or, on 5.x, the queue has a message 0 and
// it is "in memory" (checkInMemByConsumeOffset, which asks the page cache;
// here the same distance from the commitlog's end as 4.x). So a new group
// on a 4.x broker starts an empty queue at 0, a 5.x broker leaves it
// unanswered, and both start a long queue at its end.
func (s *offsetService) startsFromZero(topic string, q int32) bool {
	if s.store.MinOffset(topic, q) > 0 {
		return false
	}
	return s.line.startsFromZero(s.store.InMemoryAt(topic, q, 0))
}

// updateConsumerOffset serves UPDATE_CONSUMER_OFFSET.
func (s *offsetService) updateConsumerOffset(req *remoting.Request) *remoting.Command {
	topic, q, err := queueHeader(req.Cmd)
	if err != nil {
		return s.replyHeaderError(req.Cmd, err)
	}
	off, err := req.Cmd.ExtInt64("commitOffset")
	if err != nil {
		return s.replyHeaderError(req.Cmd, err)
	}
	group := req.Cmd.ExtString("consumerGroup")
	if s.offsets.hasReset(group, topic, q) {
		// 5.x: the client's offset is older than the reset it has not seen yet
		return s.reply(req.Cmd, remoting.Success, "Offset has been previously reset")
	}
	s.offsets.commit(group, topic, q, off)
	return s.replyOK(req.Cmd)
}

// queueOffsetAnswer serves a code that answers one number about a queue.
func (s *offsetService) queueOffsetAnswer(field string, fn func(string, int32) int64) remoting.Handler {
	return func(req *remoting.Request) *remoting.Command {
		topic, q, err := queueHeader(req.Cmd)
		if err != nil {
			return s.replyHeaderError(req.Cmd, err)
		}
		resp := s.replyOK(req.Cmd)
		resp.SetExt(field, itoa(fn(topic, q)))
		return resp
	}
}

// searchOffsetByTimestamp serves SEARCH_OFFSET_BY_TIMESTAMP as the line's
// store answers it (line.timeSearch: 4.x the nearest message, 5.x its
// boundaryType).
func (s *offsetService) searchOffsetByTimestamp(req *remoting.Request) *remoting.Command {
	topic, q, err := queueHeader(req.Cmd)
	if err != nil {
		return s.replyHeaderError(req.Cmd, err)
	}
	ts, err := req.Cmd.ExtInt64("timestamp")
	if err != nil {
		return s.replyHeaderError(req.Cmd, err)
	}
	rule := s.line.timeSearch(req.Cmd.ExtString("boundaryType"))
	resp := s.replyOK(req.Cmd)
	resp.SetExt("offset", itoa(s.store.OffsetByTime(topic, q, ts, rule)))
	return resp
}
