package broker

// QUERY_ASSIGNMENT (400), SET_MESSAGE_REQUEST_MODE (401) and
// GET_ALL_MESSAGE_REQUEST_MODE (402), 5.x: the server-side rebalance, and
// whether a group consumes a topic by PULL or by POP, as
// QueryAssignmentProcessor and MessageRequestModeManager keep it
// (docs/reference/pop.md §12), in config/messageRequestMode.json.
//
//   - 400: no header; body QueryAssignmentRequestBody. The mode is the
//     group's (401), else PULL (defaultMessageRequestMode, an enum no
//     broker.conf can set). BROADCASTING: every readable queue of the
//     topic's route (topic_routes.go). CLUSTERING:
//     an LMQ topic's one queue (topic, this broker, 0), else the route's
//     queues, all of them with serverLoadBalancerEnable off, else this
//     client's share among the group's registered clients by the named
//     strategy (allocate.go; POP shares as allocate4Pop). Each queue is
//     answered with the mode. No route, no registered client, an unknown
//     strategy or a failed allocation: no assignment ({}), as Java's null.
//     A missing body or message model is SYSTEM_ERROR (Java's
//     NullPointerException).
//   - 401: no header; body SetMessageRequestModeRequestBody. A retry topic
//     is NO_PERMISSION "retry topic is not allowed to set mode"; a topic
//     the broker lacks TOPIC_NOT_EXIST "topic[<t>] not exist"; a group it
//     lacks (and does not create, as findSubscriptionGroupConfig creates
//     one with autoCreateSubscriptionGroup) SUBSCRIPTION_GROUP_NOT_EXIST
//     "subscription group does not exist". Otherwise the body is kept as
//     given under [topic][group], the file written, SUCCESS. A body that
//     is missing or null is SYSTEM_ERROR (Java's NullPointerException).
//   - 402: the whole table, {"messageRequestModeMap":{...}}, which a 5.x
//     slave copies every minute (slave_sync.go).
//
// Difference from Java: the assignments are written in queue order (Java
// writes its HashSet's order; clients read a set).

import (
	"maps"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/configfile"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// requestModeTable is MessageRequestModeManager: topic -> group -> mode.
type requestModeTable struct {
	dir       configfile.Dir
	log       *zap.Logger
	persistMu sync.Mutex // one write of the file at a time

	mu    sync.RWMutex
	modes map[string]map[string]protocol.SetMessageRequestModeRequestBody
}

// newRequestModeTable loads messageRequestMode.json (from its .bak when
// the file does not read, as ConfigManager does).
func newRequestModeTable(dir configfile.Dir, log *zap.Logger) (*requestModeTable, error) {
	w, res, err := dir.LoadMessageRequestModes()
	if err != nil {
		return nil, err
	}
	if res.Fallback != nil {
		log.Warn("load messageRequestMode.json failed, and try to load backup file", zap.Error(res.Fallback))
	}
	return &requestModeTable{dir: dir, log: log, modes: w.Modes}, nil
}

// set keeps a group's mode of a topic and writes the file.
func (t *requestModeTable) set(b protocol.SetMessageRequestModeRequestBody) {
	t.mu.Lock()
	groups := t.modes[b.Topic]
	if groups == nil {
		groups = map[string]protocol.SetMessageRequestModeRequestBody{}
		t.modes[b.Topic] = groups
	}
	groups[b.ConsumerGroup] = b
	t.mu.Unlock()
	t.persist()
}

// snapshot is a copy of the table, as the file and 402 carry it.
func (t *requestModeTable) snapshot() *protocol.MessageRequestModeWrapper {
	t.mu.RLock()
	defer t.mu.RUnlock()
	modes := make(map[string]map[string]protocol.SetMessageRequestModeRequestBody, len(t.modes))
	for topic, groups := range t.modes {
		modes[topic] = maps.Clone(groups)
	}
	return &protocol.MessageRequestModeWrapper{Modes: modes}
}

// takeFromMaster is a 5.x slave's syncMessageRequestMode: its topics the
// master's table lacks go, the master's entries replace its own, and the
// file is written.
func (t *requestModeTable) takeFromMaster(w *protocol.MessageRequestModeWrapper) {
	t.mu.Lock()
	for topic := range t.modes {
		if _, ok := w.Modes[topic]; !ok {
			delete(t.modes, topic)
		}
	}
	for topic, groups := range w.Modes {
		t.modes[topic] = groups
	}
	t.mu.Unlock()
	t.persist()
}

// persist writes messageRequestMode.json, one write at a time; a failure
// is logged (Java's ConfigManager.persist logs and goes on).
func (t *requestModeTable) persist() {
	t.persistMu.Lock()
	defer t.persistMu.Unlock()
	if err := t.dir.PersistMessageRequestModes(t.snapshot()); err != nil {
		t.log.Error("persist messageRequestMode.json failed", zap.Error(err))
	}
}

// get is a group's mode of a topic, if it set one.
func (t *requestModeTable) get(topic, group string) (protocol.SetMessageRequestModeRequestBody, bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	b, ok := t.modes[topic][group]
	return b, ok
}

// requestModes serves the request-mode codes.
type requestModes struct {
	replier
	log      *zap.Logger
	settings *liveSettings
	modes    *requestModeTable
	topics   *topicTable
	groups   *groupTable
	clients  *clientTable
	routes   *topicRoutes
}

// queryAssignment serves QUERY_ASSIGNMENT.
func (m *requestModes) queryAssignment(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	if len(cmd.Body) == 0 || string(cmd.Body) == "null" {
		return m.reply(cmd, remoting.SystemError, nullPointerRemark)
	}
	b, err := protocol.DecodeQueryAssignmentRequestBody(cmd.Body)
	if err != nil {
		return m.reply(cmd, remoting.SystemError, err.Error())
	}
	if b.MessageModel == "" {
		return m.reply(cmd, remoting.SystemError, nullPointerRemark)
	}
	mode := m.modeOf(b.Topic, b.ConsumerGroup)
	queues := m.loadBalance(b, mode)
	var assignments []protocol.MessageQueueAssignment
	if queues != nil {
		assignments = make([]protocol.MessageQueueAssignment, 0, len(queues))
		for _, q := range queueSet(queues) {
			assignments = append(assignments, protocol.MessageQueueAssignment{Queue: q, Mode: mode.Mode})
		}
	}
	return m.replyBody(cmd, protocol.AppendQueryAssignmentResponse(nil, assignments))
}

// modeOf is the group's mode of the topic, or the default one: PULL
// (BrokerConfig.defaultMessageRequestMode, which no broker.conf changes:
// properties2Object sets no enum; so defaultPopShareQueueNum, which only
// a POP default would use, has no use either).
func (m *requestModes) modeOf(topic, group string) protocol.SetMessageRequestModeRequestBody {
	if b, ok := m.modes.get(topic, group); ok {
		return b
	}
	return protocol.SetMessageRequestModeRequestBody{Topic: topic, ConsumerGroup: group, Mode: protocol.RequestModePull}
}

// loadBalance is doLoadBalance: the client's queues, nil for none.
func (m *requestModes) loadBalance(b *protocol.QueryAssignmentRequestBody,
	mode protocol.SetMessageRequestModeRequestBody) []protocol.MessageQueue {
	set := m.settings.load()
	if b.MessageModel == protocol.MessageModelBroadcasting {
		mqs := m.routes.subscribeInfo(b.Topic)
		if mqs == nil {
			m.log.Warn("QueryLoad: no assignment, the topic does not exist",
				zap.String("group", b.ConsumerGroup), zap.String("topic", b.Topic))
		}
		return mqs
	}
	var mqAll []protocol.MessageQueue
	if strings.HasPrefix(b.Topic, lmqTopicPrefix) {
		mqAll = []protocol.MessageQueue{{Topic: b.Topic, BrokerName: set.Broker.BrokerName, QueueID: 0}}
	} else if mqAll = m.routes.subscribeInfo(b.Topic); mqAll == nil {
		if !strings.HasPrefix(b.Topic, RetryGroupTopicPrefix) {
			m.log.Warn("QueryLoad: no assignment, the topic does not exist",
				zap.String("group", b.ConsumerGroup), zap.String("topic", b.Topic))
		}
		return nil
	}
	if !set.Broker.ServerLoadBalancerEnable {
		return mqAll
	}
	cidAll := m.clients.consumerIDs(b.ConsumerGroup)
	if cidAll == nil {
		m.log.Warn("QueryLoad: no assignment, get consumer id list failed",
			zap.String("group", b.ConsumerGroup), zap.String("topic", b.Topic))
		return nil
	}
	strategy, ok := allocateStrategies[b.StrategyName]
	if !ok {
		m.log.Warn("QueryLoad: unsupported strategy", zap.String("strategy", b.StrategyName))
		return nil
	}
	var got []protocol.MessageQueue
	var err error
	if mode.Mode == protocol.RequestModePop {
		got, err = allocateForPop(strategy, b.ClientID, mqAll, cidAll, mode.PopShareQueueNum)
	} else {
		got, err = strategy(b.ClientID, mqAll, cidAll)
	}
	if err != nil {
		m.log.Error("QueryLoad: no assignment, allocate message queue exception",
			zap.String("group", b.ConsumerGroup), zap.String("topic", b.Topic), zap.Error(err))
		return nil
	}
	return got
}

// setMessageRequestMode serves SET_MESSAGE_REQUEST_MODE.
func (m *requestModes) setMessageRequestMode(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	if len(cmd.Body) == 0 || string(cmd.Body) == "null" {
		return m.reply(cmd, remoting.SystemError, nullPointerRemark)
	}
	b, err := protocol.DecodeSetMessageRequestModeRequestBody(cmd.Body)
	if err != nil {
		return m.reply(cmd, remoting.SystemError, err.Error())
	}
	if strings.HasPrefix(b.Topic, RetryGroupTopicPrefix) {
		return m.reply(cmd, remoting.NoPermission, "retry topic is not allowed to set mode")
	}
	if _, ok := m.topics.get(b.Topic); !ok {
		return m.reply(cmd, remoting.TopicNotExist, "topic["+b.Topic+"] not exist")
	}
	if _, ok := m.groups.find(b.ConsumerGroup); !ok {
		return m.reply(cmd, remoting.SubscriptionGroupNotExist, "subscription group does not exist")
	}
	m.modes.set(*b)
	return m.replyOK(cmd)
}

// getAllMessageRequestMode serves GET_ALL_MESSAGE_REQUEST_MODE.
func (m *requestModes) getAllMessageRequestMode(req *remoting.Request) *remoting.Command {
	return m.replyBody(req.Cmd, m.modes.snapshot().AppendJSON(nil, protocol.Line5))
}
