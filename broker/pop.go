package broker

// POP_MESSAGE (200050, 5.x): PopMessageProcessor (docs/reference/pop.md
// §2.2 and §5). A POP consumer asks for up to 32 messages of a topic (one
// queue, or every queue with queueId -1); the broker moves the group's
// offset past what it hands out at once, and writes a checkpoint (ck) per
// queue to the revive topic (pop_records.go), due when the messages'
// invisible time ends. ACK_MESSAGE writes their acks (pop_ack.go); the
// revive service (pop_revive.go) puts what was not acked in time into the
// group's POP retry topic, which pops read too. An orderly pop writes no
// checkpoint: it blocks the queue until its messages are acked
// (pop_order.go).
//
// Request header: consumerGroup, topic, queueId (-1 all), maxMsgNums (at
// most 32), invisibleTime, pollTime, bornTime (now when absent or 0),
// initMode (0 MIN, 1 MAX), expType, exp, order, attemptId.
// Response header: popTime, invisibleTime, reviveQid (999 orderly),
// restNum, startOffsetInfo, msgOffsetInfo (and orderCountInfo when
// orderly); body: the messages one after another, those of the topic as
// stored, those of a retry topic re-encoded under the topic's name with
// their handle in POP_CK. Nothing found: held (pop_polling.go) while
// pollTime lasts, else POLLING_TIMEOUT (210) or POLLING_FULL (209).
//
// Differences from Java: the consumer offset moves as soon as the
// checkpoint is stored, in the request (Java's PopBufferMergeService does
// it within 5 ms after, from its own thread; with its default
// enablePopBufferMerge=false the outcome is the same). The in-flight
// counters of enablePopMessageThreshold are not kept (off by default).

import (
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// POP's limits and the initial modes (ConsumeInitMode).
const (
	popMaxMsgNums    = 32
	popInitModeMin   = 0
	popTimeoutSlack  = 500 // ms a request may arrive after its poll time
	popRetryQueueNum = 1   // PopAckConstants.retryQueueNum
)

// popHeader is PopMessageRequestHeader.
type popHeader struct {
	group, topic  string
	queueID       int32 // -1: every queue
	maxMsgNums    int32
	invisibleTime int64
	pollTime      int64
	bornTime      int64
	initMode      int32
	expType, exp  string
	order         bool
	attemptID     string
}

// parsePopHeader reads the header; bornTime is set to now first when the
// client left it out or sent 0, as Java does.
func (s *popService) parsePopHeader(req *remoting.Request) (*popHeader, *remoting.Command) {
	cmd := req.Cmd
	if v, ok := cmd.Ext("bornTime"); !ok || v == "0" {
		cmd.SetExt("bornTime", strconv.FormatInt(s.now().UnixMilli(), 10))
	}
	if r := s.requireFields(cmd, "consumerGroup", "topic", "queueId", "maxMsgNums", "invisibleTime", "pollTime", "initMode"); r != nil {
		return nil, r
	}
	h := &popHeader{group: cmd.ExtString("consumerGroup"), topic: cmd.ExtString("topic"), expType: cmd.ExtString("expType"),
		exp: cmd.ExtString("exp"), order: cmd.ExtBool("order"), attemptID: cmd.ExtString("attemptId")}
	var errs [6]error
	h.queueID, errs[0] = cmd.ExtInt32("queueId")
	h.maxMsgNums, errs[1] = cmd.ExtInt32("maxMsgNums")
	h.invisibleTime, errs[2] = cmd.ExtInt64("invisibleTime")
	h.pollTime, errs[3] = cmd.ExtInt64("pollTime")
	h.bornTime, errs[4] = cmd.ExtInt64("bornTime")
	h.initMode, errs[5] = cmd.ExtInt32("initMode")
	for _, err := range errs {
		if err != nil {
			return nil, s.replyHeaderError(cmd, err)
		}
	}
	h.queueID = max(h.queueID, -1) // the getter maps every negative to -1
	return h, nil
}

// popStore is what pops read and write: a queue's messages and bounds,
// whether its first message is in memory (the initial offset), and puts
// (the checkpoints).
type popStore interface {
	messageWriter
	queueBounds
	GetMessagesMatching(topic string, queueID int32, offset int64, maxMsgs int, filter store.TagFilter, props store.PropertyFilter) *store.GetResult
	InMemoryAt(topic string, queueID int32, offset int64) (found, inMemory bool)
}

// popService serves POP_MESSAGE.
type popService struct {
	replier
	line     line
	log      *zap.Logger
	now      func() time.Time
	settings *liveSettings
	id       *identity
	store    popStore
	topics   *topicTable
	groups   *groupTable
	filters  *filterTable
	offsets  *offsetTable
	records  *reviveWriter
	polling  *popPolling
	notifies *popPolling // NOTIFICATION's held requests
	locks    *popLocks
	orders   popOrderInfo // nil: orderly pops are served as normal ones
	// ckCount picks the revive queue of each request in turn
	// (ckMessageNumber).
	ckCount atomic.Uint64
}

// popOrderInfo is what an orderly pop keeps per queue
// (ConsumerOrderInfoManager, pop_order.go).
type popOrderInfo interface {
	checkBlock(attemptID, topic, group string, queueID int32, invisibleTime, now int64) bool
	update(attemptID string, isRetry bool, topic, group string, queueID int32, popTime, invisibleTime int64,
		offsets []int64, countInfo *protocol.PopInfo)
	clearBlock(topic, group string, queueID int32)
}

// popMessage serves POP_MESSAGE, and a held one again when woken.
func (s *popService) popMessage(req *remoting.Request) *remoting.Command {
	set := s.settings.load()
	h, resp := s.parsePopHeader(req)
	if resp != nil {
		return resp
	}
	sub, f := s.checkPop(req, h, set)
	if f != nil {
		return s.popFailure(req, f)
	}
	seq := s.polling.arrivals(h.topic, h.group)
	r := s.newRound(h, sub, set)
	if f := s.filterOf(r, sub); f != nil {
		return s.popFailure(req, f)
	}
	r.remote = req.Ch.RemoteAddr()
	s.popRound(r, set)
	if len(r.parts) > 0 {
		s.answerFound(req, r)
		if r.restNum > 0 {
			s.polling.wakeOne(h.topic, h.group, h.queueID)
		}
		return nil
	}
	spec := pollSpec{topic: h.topic, group: h.group, queueID: h.queueID, bornTime: h.bornTime, pollTime: h.pollTime,
		tags: r.tags, props: r.props}
	switch s.polling.hold(req, spec, seq, s.now().UnixMilli()) {
	case pollHeld:
		return nil
	case pollFull:
		return s.notFound(req, r, remoting.PollingFull)
	}
	return s.notFound(req, r, remoting.PollingTimeout)
}

// checkPop checks the request as processRequest does, in its order, and
// builds its subscription.
func (s *popService) checkPop(req *remoting.Request, h *popHeader, set *settings) (subscriptionData, *failure) {
	c := set.Broker
	ip := c.BrokerIP1
	switch {
	case s.now().UnixMilli()-h.bornTime-h.pollTime > popTimeoutSlack:
		return subscriptionData{}, &failure{remoting.PollingTimeout, "the broker[" + ip + "] pop message is timeout too much"}
	case c.BrokerPermission&protocol.PermRead == 0:
		return subscriptionData{}, &failure{remoting.NoPermission, "the broker[" + ip + "] pop message is forbidden"}
	case h.maxMsgNums > popMaxMsgNums:
		return subscriptionData{}, &failure{remoting.InvalidParameter, "the broker[" + ip + "] pop message's num is greater than 32"}
	case !set.Store.TimerWheelEnable:
		return subscriptionData{}, &failure{remoting.SystemError, "the broker[" + ip + "] pop message is forbidden because timerWheelEnable is false"}
	}
	if f := s.checkTopicAndGroup(req, h.topic, h.group, h.queueID, "peeking"); f != nil {
		return subscriptionData{}, f
	}
	sub, err := buildSubscription(h.topic, h.exp, h.expType)
	if err != nil {
		return sub, &failure{remoting.SubscriptionParseFailed, "parse the consumer's subscription failed"}
	}
	return sub, nil
}

// checkTopicAndGroup is the topic, queue and group checks POP,
// NOTIFICATION and PEEK share (the verb is in the topic's remark).
func (s *popService) checkTopicAndGroup(req *remoting.Request, topic, group string, queueID int32, verb string) *failure {
	tc, ok := s.topics.get(topic)
	if !ok {
		s.log.Error("The topic not exist", zap.String("topic", topic), zap.String("consumer", req.Ch.RemoteAddr()))
		return &failure{remoting.TopicNotExist, "topic[" + topic + "] not exist, apply first please! " + s.line.faq()}
	}
	if tc.Perm&protocol.PermRead == 0 {
		return &failure{remoting.NoPermission, "the topic[" + topic + "] " + verb + " message is forbidden"}
	}
	if queueID >= tc.ReadQueueNums {
		return &failure{remoting.InvalidParameter, "queueId[" + itoa(queueID) + "] is illegal, topic:[" + topic +
			"] topicConfig.readQueueNums:[" + itoa(tc.ReadQueueNums) + "] consumer:[" + req.Ch.RemoteAddr() + "]"}
	}
	gc, ok := s.groups.find(group)
	if !ok {
		return &failure{remoting.SubscriptionGroupNotExist, "subscription group [" + group + "] does not exist, " + s.line.faq()}
	}
	if !gc.ConsumeEnable {
		return &failure{remoting.NoPermission, "subscription group no permission, " + group}
	}
	return nil
}

// popRound is one request's pop: what it asked, what it found so far.
type popRound struct {
	h         *popHeader
	popTime   int64
	reviveQid int32
	randomQ   int
	retry     string // the POP retry topic this request reads
	needRetry bool   // the retry topic first
	tags      store.TagFilter
	props     store.PropertyFilter
	remote    string

	found     int
	parts     [][]byte
	releases  []func()
	restNum   int64
	startInfo protocol.PopInfo
	msgInfo   protocol.PopInfo
	orderInfo protocol.PopInfo
}

// newRound draws the request's values (§5.1): its pop time, revive queue
// and the dice that decide whether it reads the retry topic first, and
// which retry topic.
func (s *popService) newRound(h *popHeader, sub subscriptionData, set *settings) *popRound {
	c := set.Broker
	r := &popRound{h: h, popTime: s.now().UnixMilli(), randomQ: s.dice(), tags: tagFilter(sub)}
	r.reviveQid = protocol.OrderReviveQueue
	if !h.order {
		r.reviveQid = int32(s.ckCount.Add(1)-1) % max(c.ReviveQueueNum, 1)
	}
	r.needRetry = r.randomQ < int(c.PopFromRetryProbability)
	needRetryV1 := c.EnableRetryTopicV2 && c.RetrieveMessageFromPopRetryTopicV1 && r.randomQ%2 == 0
	r.retry = protocol.PopRetryTopicV1(h.group, h.topic)
	if c.EnableRetryTopicV2 && !needRetryV1 {
		r.retry = protocol.PopRetryTopicV2(h.group, h.topic)
	}
	return r
}

// dice is a request's random number in [0, 100): which queue it reads
// first, and whether it reads the retry topic first.
func (s *popService) dice() int { return rand.IntN(100) }

// filterOf sets the SQL92 filter of a request whose expression type asks
// for one.
func (s *popService) filterOf(r *popRound, sub subscriptionData) *failure {
	if sub.ExpressionType == "" || sub.ExpressionType == expressionTypeTag {
		return nil
	}
	expr, err := s.filters.compile(sub.SubString)
	if err != nil {
		return &failure{remoting.SubscriptionParseFailed, "parse the consumer's subscription failed"}
	}
	r.props = propertyFilter(expr)
	return nil
}

// popRound reads the queues in the order of §5.2: the retry topic first
// for a share of the requests, then the topic, then the retry topic when
// the batch is not full. An orderly pop never reads the retry topic.
func (s *popService) popRound(r *popRound, set *settings) {
	h := r.h
	if r.needRetry && !h.order {
		s.popTopic(r, r.retry, true)
	}
	if h.queueID < 0 {
		s.popTopic(r, h.topic, false)
	} else {
		s.popQueue(r, h.topic, false, h.queueID)
	}
	if !r.needRetry && !h.order && r.found < int(h.maxMsgNums) {
		s.popTopic(r, r.retry, true)
	}
}

// popTopic reads every queue of a topic, starting at a random one.
func (s *popService) popTopic(r *popRound, topic string, isRetry bool) {
	tc, ok := s.topics.get(topic)
	if !ok {
		return
	}
	n := int(tc.ReadQueueNums)
	for i := range n {
		s.popQueue(r, topic, isRetry, int32((r.randomQ+i)%n))
	}
}

// answerFound writes the messages, with the response header.
func (s *popService) answerFound(req *remoting.Request, r *popRound) {
	resp := s.replyOK(req.Cmd)
	resp.SetRemark(store.GetFound.String())
	s.setPopHeader(resp, r)
	resp.Opaque = req.Cmd.Opaque
	releases := r.releases
	done := func() {
		for _, fn := range releases {
			fn()
		}
	}
	if err := req.SendParts(resp, r.parts, done); err != nil {
		s.log.Debug("popped messages not sent", zap.String("remote", req.Ch.RemoteAddr()), zap.Error(err))
	}
}

// notFound answers a pop that found nothing and is not held.
func (s *popService) notFound(req *remoting.Request, r *popRound, code remoting.ResponseCode) *remoting.Command {
	resp := s.reply(req.Cmd, code, store.GetNoMessageInQueue.String())
	s.setPopHeader(resp, r)
	return resp
}

// popFailure answers a refused pop: the header's numbers are written
// (as 0), its strings are not.
func (s *popService) popFailure(req *remoting.Request, f *failure) *remoting.Command {
	resp := s.replyFailure(req.Cmd, f)
	for _, k := range []string{"popTime", "invisibleTime", "reviveQid", "restNum"} {
		resp.SetExt(k, "0")
	}
	return resp
}

// setPopHeader writes PopMessageResponseHeader.
func (s *popService) setPopHeader(resp *remoting.Command, r *popRound) {
	resp.SetExt("popTime", strconv.FormatInt(r.popTime, 10))
	resp.SetExt("invisibleTime", strconv.FormatInt(r.h.invisibleTime, 10))
	resp.SetExt("reviveQid", itoa(r.reviveQid))
	resp.SetExt("restNum", strconv.FormatInt(r.restNum, 10))
	resp.SetExt("startOffsetInfo", r.startInfo.String())
	resp.SetExt("msgOffsetInfo", r.msgInfo.String())
	if r.h.order {
		resp.SetExt("orderCountInfo", r.orderInfo.String())
	}
}

// popLocks are QueueLockManager's locks: one per topic@group@queueId,
// taken without waiting by a pop, which skips a busy queue.
type popLocks struct {
	locks sync.Map // string -> *sync.Mutex
}

// tryLock takes the lock of key if it is free.
func (l *popLocks) tryLock(key string) bool {
	m, _ := l.locks.LoadOrStore(key, &sync.Mutex{})
	return m.(*sync.Mutex).TryLock()
}

// lock waits for the lock of key (orderly acks).
func (l *popLocks) lock(key string) {
	m, _ := l.locks.LoadOrStore(key, &sync.Mutex{})
	m.(*sync.Mutex).Lock()
}

func (l *popLocks) unlock(key string) {
	if m, ok := l.locks.Load(key); ok {
		m.(*sync.Mutex).Unlock()
	}
}

// popLockKey is topic@group@queueId.
func popLockKey(topic, group string, queueID int32) string {
	return topic + "@" + group + "@" + itoa(queueID)
}
