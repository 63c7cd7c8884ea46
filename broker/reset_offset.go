package broker

// INVOKE_BROKER_TO_RESET_OFFSET (222): rewind (or forward) a consumer
// group on a topic to a time: mqadmin resetOffsetByTime, the dashboard's
// "reset offset".
//
// Header: topic, group, timestamp (ms; -1 = the end of each queue),
// isForce; 5.x also queueId (-1 = every queue) and offset (a queue's
// exact offset).
//
// 4.x (Broker2Client.resetOffset): for each write queue the offset at the
// time (never later than the group's committed offset unless isForce);
// the group must have committed offsets ("THe consumer group <g> not
// exist") and be online (CONSUMER_NOT_ONLINE "Consumer not online, so can
// not reset offset, ..."; mqadmin then falls back to committing offsets
// itself). Every connection of the group gets RESET_CONSUMER_CLIENT_OFFSET
// (oneway, header topic/group/timestamp, body ResetOffsetBody) and the
// clients move and commit. The answer's body is the ResetOffsetBody.
//
// 5.x (useServerSideResetOffset, on by default): the broker commits the
// offsets itself and holds them for the group's next pull of each queue,
// which is answered PULL_OFFSET_MOVED to the new offset; commits of the
// older offsets are ignored until then. TOPIC_NOT_EXIST /
// SUBSCRIPTION_GROUP_NOT_EXIST when either is unknown; the clients need
// not be online.

import (
	"fmt"
	"strconv"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// resetHeader is ResetOffsetRequestHeader.
type resetHeader struct {
	topic, group string
	timestamp    int64
	force        bool
	queueID      int32
	offset       int64 // -1 when absent
}

func parseResetHeader(cmd *remoting.Command) (resetHeader, error) {
	h := resetHeader{topic: cmd.ExtString("topic"), group: cmd.ExtString("group"), force: cmd.ExtBool("isForce"),
		queueID: cmd.ExtInt32Or("queueId", -1), offset: cmd.ExtInt64Or("offset", -1)}
	var err error
	h.timestamp, err = cmd.ExtInt64("timestamp")
	return h, err
}

// resetOffset serves INVOKE_BROKER_TO_RESET_OFFSET.
func (s *offsetService) resetOffset(req *remoting.Request) *remoting.Command {
	h, err := parseResetHeader(req.Cmd)
	if err != nil {
		return s.replyHeaderError(req.Cmd, err)
	}
	s.log.Info("[reset-offset] reset offset started", zap.String("by", req.Ch.RemoteAddr()), zap.String("topic", h.topic),
		zap.String("group", h.group), zap.Int64("timestamp", h.timestamp), zap.Bool("isForce", h.force))
	if s.line.resetsOffsetsOnServer() {
		return s.resetOffsetOnServer(req, h)
	}
	return s.resetOffsetByClients(req, h)
}

// resetOffsetByClients is 4.x's Broker2Client.resetOffset.
func (s *offsetService) resetOffsetByClients(req *remoting.Request, h resetHeader) *remoting.Command {
	tc, ok := s.topics.get(h.topic)
	if !ok {
		return s.reply(req.Cmd, remoting.SystemError, "[reset-offset] reset offset failed, no topic in this broker. topic="+h.topic)
	}
	body := protocol.ResetOffsetBody{OffsetTable: map[protocol.MessageQueue]int64{}}
	for q := range tc.WriteQueueNums {
		committed := s.offsets.query(h.group, h.topic, q)
		if committed == -1 {
			return s.reply(req.Cmd, remoting.SystemError, fmt.Sprintf("THe consumer group <%s> not exist", h.group))
		}
		at := s.offsetAtTime(h.topic, q, h.timestamp)
		if !h.force && at >= committed {
			at = committed
		}
		body.OffsetTable[s.queueRef(h.topic, q)] = at
	}
	_, chans, online := s.clients.group(h.group)
	if !online || len(chans) == 0 {
		return s.reply(req.Cmd, remoting.ConsumerNotOnline, fmt.Sprintf(
			"Consumer not online, so can not reset offset, Group: %s Topic: %s Timestamp: %d", h.group, h.topic, h.timestamp))
	}
	encoded := body.AppendJSON(nil)
	for _, c := range chans {
		notice := remoting.NewRequest(remoting.ResetConsumerClientOffset, map[string]string{
			"topic": h.topic, "group": h.group, "timestamp": strconv.FormatInt(h.timestamp, 10), "isForce": strconv.FormatBool(h.force)})
		notice.Body = encoded
		if err := c.ch.InvokeOneway(notice); err != nil {
			s.log.Error("[reset-offset] reset offset exception", zap.String("clientId", c.clientID), zap.Error(err))
		}
	}
	resp := s.replyOK(req.Cmd)
	resp.Body = encoded
	return resp
}

// resetOffsetOnServer is 5.x's AdminBrokerProcessor.resetOffsetInner.
func (s *offsetService) resetOffsetOnServer(req *remoting.Request, h resetHeader) *remoting.Command {
	tc, ok := s.topics.get(h.topic)
	if !ok {
		return s.reply(req.Cmd, remoting.TopicNotExist, "Topic "+h.topic+" does not exist")
	}
	if _, ok := s.groups.get(h.group); !ok {
		return s.reply(req.Cmd, remoting.SubscriptionGroupNotExist, "Group "+h.group+" does not exist")
	}
	offsets := map[int32]int64{}
	switch {
	case h.queueID >= 0 && h.offset != -1:
		lo, hi := s.store.MinOffset(h.topic, h.queueID), s.store.MaxOffset(h.topic, h.queueID)
		if lo >= 0 && h.offset < lo || h.offset > hi+1 {
			return s.reply(req.Cmd, remoting.SystemError, fmt.Sprintf("Target offset %d not in consume queue range [%d-%d]", h.offset, lo, hi))
		}
		offsets[h.queueID] = h.offset
	case h.queueID >= 0:
		offsets[h.queueID] = s.offsetAtTime(h.topic, h.queueID, h.timestamp)
	default:
		for q := range tc.ReadQueueNums {
			offsets[q] = s.offsetAtTime(h.topic, q, h.timestamp)
		}
	}
	if len(offsets) == 0 {
		return s.reply(req.Cmd, remoting.SystemError, "No queues to reset.")
	}
	body := protocol.ResetOffsetBody{OffsetTable: map[protocol.MessageQueue]int64{}}
	for q, off := range offsets {
		s.offsets.assignReset(h.group, h.topic, q, off)
		body.OffsetTable[s.queueRef(h.topic, q)] = off
	}
	resp := s.replyOK(req.Cmd)
	resp.Body = body.AppendJSON(nil)
	return resp
}

// offsetAtTime is the queue offset of a time (the end for -1), as the
// line's getOffsetInQueueByTime finds it (5.x: LOWER), 0 for below.
func (s *offsetService) offsetAtTime(topic string, q int32, ts int64) int64 {
	if ts == -1 {
		return s.store.MaxOffset(topic, q)
	}
	return max(s.store.OffsetByTime(topic, q, ts, s.line.timeSearch("")), 0)
}

// queueRef is a queue of this broker.
func (s *offsetService) queueRef(topic string, q int32) protocol.MessageQueue {
	return protocol.MessageQueue{Topic: topic, BrokerName: s.settings.load().Broker.BrokerName, QueueID: q}
}
