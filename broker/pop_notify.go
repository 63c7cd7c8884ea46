package broker

// NOTIFICATION (200054), POLLING_INFO (200055) and PEEK_MESSAGE (200052),
// 5.x: NotificationProcessor, PollingInfoProcessor, PeekMessageProcessor
// (docs/reference/pop.md §2.6, §11). They share POP's checks of the
// topic, the queue and the group.
//
// NOTIFICATION asks "is there something to pop?" (consumerGroup, topic,
// queueId, pollTime, bornTime, order, attemptId): SUCCESS with hasMsg and
// pollingFull; with nothing it is held as a pop is (its own table, woken
// latest first) and asked again when woken.
// POLLING_INFO (consumerGroup, topic, queueId): pollingNum, the pops held
// on that key.
// PEEK_MESSAGE (topic, queueId, maxMsgNums, consumerGroup): the messages
// a pop would take, as stored, committing and writing nothing: SUCCESS or
// PULL_NOT_FOUND, restNum in the header; never held.

import (
	"strconv"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// notification serves NOTIFICATION, and a held one again when woken.
func (s *popService) notification(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	if v, ok := cmd.Ext("bornTime"); !ok || v == "0" {
		cmd.SetExt("bornTime", strconv.FormatInt(s.now().UnixMilli(), 10))
	}
	if r := s.requireFields(cmd, "consumerGroup", "topic", "queueId", "pollTime"); r != nil {
		return r
	}
	spec := pollSpec{topic: cmd.ExtString("topic"), group: cmd.ExtString("consumerGroup")}
	var errs [3]error
	spec.queueID, errs[0] = cmd.ExtInt32("queueId")
	spec.pollTime, errs[1] = cmd.ExtInt64("pollTime")
	spec.bornTime, errs[2] = cmd.ExtInt64("bornTime")
	for _, err := range errs {
		if err != nil {
			return s.replyHeaderError(cmd, err)
		}
	}
	resp := s.replyOK(cmd)
	setNotificationHeader(resp, false, false)
	if f := s.checkPeek(req, spec.topic, spec.group, spec.queueID); f != nil {
		return fail(resp, f)
	}
	seq := s.notifies.arrivals(spec.topic, spec.group)
	order, attempt := cmd.ExtBool("order"), cmd.ExtString("attemptId")
	if s.hasMessages(spec, order, attempt) {
		setNotificationHeader(resp, true, false)
		return resp
	}
	switch s.notifies.hold(req, spec, seq, s.now().UnixMilli()) {
	case pollHeld:
		return nil
	case pollFull:
		setNotificationHeader(resp, false, true)
	}
	return resp
}

// checkPeek is the broker's permission and the shared topic, queue and
// group checks (NOTIFICATION, PEEK, POLLING_INFO).
func (s *popService) checkPeek(req *remoting.Request, topic, group string, queueID int32) *failure {
	c := s.settings.load().Broker
	if c.BrokerPermission&protocol.PermRead == 0 {
		return &failure{remoting.NoPermission, "the broker[" + c.BrokerIP1 + "] peeking message is forbidden"}
	}
	return s.checkTopicAndGroup(req, topic, group, queueID, "peeking")
}

// hasMessages tells whether a pop would find something: the retry
// topics first for a fifth of the requests, the topic, then the retry
// topics; a queue has messages when its max offset is past the group's.
func (s *popService) hasMessages(spec pollSpec, order bool, attempt string) bool {
	c := s.settings.load().Broker
	randomQ := s.dice()
	retries := []string{protocol.PopRetryTopicV1(spec.group, spec.topic)}
	if c.EnableRetryTopicV2 {
		retries = []string{protocol.PopRetryTopicV2(spec.group, spec.topic)}
		if c.RetrieveMessageFromPopRetryTopicV1 {
			retries = append(retries, protocol.PopRetryTopicV1(spec.group, spec.topic))
		}
	}
	inRetry := func() bool {
		for _, t := range retries {
			if s.topicHasMessages(t, spec, order, attempt, randomQ) {
				return true
			}
		}
		return false
	}
	needRetry := randomQ%5 == 0
	if needRetry && inRetry() {
		return true
	}
	has := false
	if spec.queueID < 0 {
		has = s.topicHasMessages(spec.topic, spec, order, attempt, randomQ)
	} else {
		has = s.queueHasMessages(spec.topic, spec, order, attempt, spec.queueID)
	}
	return has || !needRetry && inRetry()
}

// topicHasMessages asks every queue of a topic, from a random one.
func (s *popService) topicHasMessages(topic string, spec pollSpec, order bool, attempt string, randomQ int) bool {
	tc, ok := s.topics.get(topic)
	if !ok {
		return false
	}
	n := int(tc.ReadQueueNums)
	for i := range n {
		if s.queueHasMessages(topic, spec, order, attempt, int32((randomQ+i)%n)) {
			return true
		}
	}
	return false
}

// queueHasMessages is hasMsgFromQueue: an orderly request's blocked queue
// has none.
func (s *popService) queueHasMessages(topic string, spec pollSpec, order bool, attempt string, queueID int32) bool {
	if order && s.orders != nil && s.orders.checkBlock(attempt, spec.topic, spec.group, queueID, 0, s.now().UnixMilli()) {
		return false
	}
	return s.store.MaxOffset(topic, queueID)-s.peekOffset(topic, spec.group, queueID) > 0
}

// peekOffset is where a pop of the queue would start, committing
// nothing: the group's offset, else the queue's first.
func (s *popService) peekOffset(topic, group string, queueID int32) int64 {
	if off := s.offsets.query(group, topic, queueID); off >= 0 {
		return off
	}
	return s.store.MinOffset(topic, queueID)
}

// pollingInfo serves POLLING_INFO.
func (s *popService) pollingInfo(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	if r := s.requireFields(cmd, "consumerGroup", "topic", "queueId"); r != nil {
		return r
	}
	queueID, err := cmd.ExtInt32("queueId")
	if err != nil {
		return s.replyHeaderError(cmd, err)
	}
	topic, group := cmd.ExtString("topic"), cmd.ExtString("consumerGroup")
	resp := s.replyOK(cmd)
	resp.SetExt("pollingNum", "0")
	if f := s.checkPeek(req, topic, group, queueID); f != nil {
		return fail(resp, f)
	}
	resp.SetExt("pollingNum", strconv.Itoa(s.polling.heldOn(topic, group, queueID)))
	return resp
}

// peekMessage serves PEEK_MESSAGE.
func (s *popService) peekMessage(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	if r := s.requireFields(cmd, "topic", "queueId", "maxMsgNums", "consumerGroup"); r != nil {
		return r
	}
	queueID, err := cmd.ExtInt32("queueId")
	if err != nil {
		return s.replyHeaderError(cmd, err)
	}
	maxNums, err := cmd.ExtInt32("maxMsgNums")
	if err != nil {
		return s.replyHeaderError(cmd, err)
	}
	topic, group := cmd.ExtString("topic"), cmd.ExtString("consumerGroup")
	if f := s.checkPeek(req, topic, group, queueID); f != nil {
		return s.popFailure(req, f)
	}
	pk := &peekRound{group: group, max: int(maxNums)}
	retry := protocol.PopRetryTopicV1(group, topic)
	if s.settings.load().Broker.EnableRetryTopicV2 {
		retry = protocol.PopRetryTopicV2(group, topic)
	}
	randomQ := s.dice()
	needRetry := randomQ%5 == 0
	if needRetry {
		s.peekTopic(pk, retry, randomQ)
	}
	if queueID < 0 {
		s.peekTopic(pk, topic, randomQ)
	} else {
		s.peekQueue(pk, topic, queueID)
	}
	if !needRetry && pk.found < pk.max {
		s.peekTopic(pk, retry, randomQ)
	}
	return s.answerPeek(req, pk)
}

// peekRound is one PEEK_MESSAGE's reading.
type peekRound struct {
	group    string
	max      int
	found    int
	restNum  int64
	parts    [][]byte
	releases []func()
}

func (s *popService) peekTopic(pk *peekRound, topic string, randomQ int) {
	tc, ok := s.topics.get(topic)
	if !ok {
		return
	}
	n := int(tc.ReadQueueNums)
	for i := range n {
		s.peekQueue(pk, topic, int32((randomQ+i)%n))
	}
}

// peekQueue is peekMsgFromQueue.
func (s *popService) peekQueue(pk *peekRound, topic string, queueID int32) {
	offset := s.peekOffset(topic, pk.group, queueID)
	pk.restNum += s.store.MaxOffset(topic, queueID) - offset
	if pk.found >= pk.max {
		return
	}
	res := s.store.GetMessagesMatching(topic, queueID, offset, pk.max-pk.found, nil, nil)
	if res.Status == store.GetOffsetTooSmall || res.Status == store.GetOffsetOverflowBadly {
		offset = res.NextBeginOffset
		res.Release()
		res = s.store.GetMessagesMatching(topic, queueID, offset, pk.max-pk.found, nil, nil)
	}
	for _, m := range res.Messages {
		pk.parts = append(pk.parts, m.Data)
	}
	pk.found += len(res.Messages)
	pk.releases = append(pk.releases, res.Release)
}

// answerPeek writes PEEK_MESSAGE's answer.
func (s *popService) answerPeek(req *remoting.Request, pk *peekRound) *remoting.Command {
	done := func() {
		for _, fn := range pk.releases {
			fn()
		}
	}
	if pk.found == 0 {
		done()
		resp := s.reply(req.Cmd, remoting.PullNotFound, store.GetNoMessageInQueue.String())
		setPeekHeader(resp, pk.restNum)
		return resp
	}
	resp := s.replyOK(req.Cmd)
	resp.SetRemark(store.GetFound.String())
	setPeekHeader(resp, pk.restNum)
	resp.Opaque = req.Cmd.Opaque
	if err := req.SendParts(resp, pk.parts, done); err != nil {
		s.log.Debug("peeked messages not sent")
	}
	return nil
}

// setPeekHeader writes PopMessageResponseHeader as PEEK fills it.
func setPeekHeader(resp *remoting.Command, restNum int64) {
	resp.SetExt("popTime", "0")
	resp.SetExt("invisibleTime", "0")
	resp.SetExt("reviveQid", "0")
	resp.SetExt("restNum", strconv.FormatInt(restNum, 10))
}

// setNotificationHeader writes NotificationResponseHeader.
func setNotificationHeader(resp *remoting.Command, hasMsg, pollingFull bool) {
	resp.SetExt("hasMsg", strconv.FormatBool(hasMsg))
	resp.SetExt("pollingFull", strconv.FormatBool(pollingFull))
}
