package broker

// SET_MESSAGE_REQUEST_MODE (401) and GET_ALL_MESSAGE_REQUEST_MODE (402),
// 5.x: whether a group consumes a topic by PULL or by POP, as
// QueryAssignmentProcessor and MessageRequestModeManager keep it
// (docs/reference/pop.md §12), in config/messageRequestMode.json.
//
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
// Difference from Java: QUERY_ASSIGNMENT (400), the server-side
// rebalance that reads these modes, is not served yet (issue 30).

import (
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/configfile"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// requestModeTable is MessageRequestModeManager: topic -> group -> mode.
type requestModeTable struct {
	dir configfile.Dir
	log *zap.Logger

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

// appendJSON writes the table as 402 carries it.
func (t *requestModeTable) appendJSON(dst []byte) []byte {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return (&protocol.MessageRequestModeWrapper{Modes: t.modes}).AppendJSON(dst, protocol.Line5)
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

// persist writes messageRequestMode.json; a failure is logged (Java's
// ConfigManager.persist logs and goes on).
func (t *requestModeTable) persist() {
	t.mu.RLock()
	content, err := t.dir.Encode((&protocol.MessageRequestModeWrapper{Modes: t.modes}).AppendJSON)
	t.mu.RUnlock()
	if err == nil {
		err = configfile.Persist(t.dir.File(configfile.MessageRequestModeFile), content)
	}
	if err != nil {
		t.log.Error("persist messageRequestMode.json failed", zap.Error(err))
	}
}

// requestModes serves the request-mode codes.
type requestModes struct {
	replier
	modes  *requestModeTable
	topics *topicTable
	groups *groupTable
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
	return m.replyBody(req.Cmd, m.modes.appendJSON(nil))
}
