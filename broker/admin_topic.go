package broker

// Topic administration and message lookup by offset (AdminBrokerProcessor):
//
//   - UPDATE_AND_CREATE_TOPIC (17), header topic, defaultTopic,
//     readQueueNums, writeQueueNums, perm, topicFilterType, topicSysFlag,
//     order, 5.x attributes (attributes.go): creates or replaces a topic
//     and registers it at once.
//   - DELETE_TOPIC_IN_BROKER (215), header topic: removes the topic and its
//     consumer offsets (its consume queues stay on disk until retention).
//   - GET_ALL_TOPIC_CONFIG (21): body TopicConfigSerializeWrapper.
//   - VIEW_MESSAGE_BY_ID (33), header offset: body the stored record.

import (
	"maps"
	"slices"
	"strings"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// topicStore is what topic administration needs of the store: its
// cleaning of consume queues.
type topicStore interface {
	CleanExpiredConsumeQueues() error
	CleanUnusedTopics(keep func(topic string) bool) ([]string, error)
}

// topicAdmin serves the topic codes of AdminBrokerProcessor: these, and
// the cleaning codes of admin_clean.go.
type topicAdmin struct {
	replier
	line     line
	log      *zap.Logger
	settings *liveSettings
	store    topicStore
	topics   *topicTable
	offsets  *offsetTable
	stats    *brokerStats
	// registerNow registers with the name servers and returns once they
	// answered (registerIncrementBrokerData).
	registerNow func()
}

// updateAndCreateTopic serves UPDATE_AND_CREATE_TOPIC.
func (a *topicAdmin) updateAndCreateTopic(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	topic := cmd.ExtString("topic")
	a.log.Info("updateAndCreateTopic called", zap.String("topic", topic), zap.String("client", req.Ch.RemoteAddr()))
	if refusesOnSlave(a.line, a.settings) {
		return a.reply(cmd, remoting.SystemError, slaveModifyRemark)
	}
	if f := a.refuseTopicChange(topic, false); f != nil {
		return a.replyFailure(cmd, f)
	}
	tc := protocol.NewTopicConfig(topic)
	var err error
	if tc.ReadQueueNums, err = cmd.ExtInt32("readQueueNums"); err != nil {
		return a.replyHeaderError(cmd, err)
	}
	if tc.WriteQueueNums, err = cmd.ExtInt32("writeQueueNums"); err != nil {
		return a.replyHeaderError(cmd, err)
	}
	if tc.Perm, err = cmd.ExtInt32("perm"); err != nil {
		return a.replyHeaderError(cmd, err)
	}
	if ft := cmd.ExtString("topicFilterType"); ft != "" {
		tc.TopicFilterType = protocol.TopicFilterType(ft)
	}
	tc.TopicSysFlag = cmd.ExtInt32Or("topicSysFlag", 0)
	tc.Order = cmd.ExtBool("order")
	old, exists := a.topics.get(topic)
	if a.line.hasAttributes() {
		if f := a.alterTopicAttributes(&tc, old, exists, cmd.ExtString("attributes")); f != nil {
			return a.replyFailure(cmd, f)
		}
	} else if exists {
		tc.Attributes = old.Attributes
	}
	if a.topics.put(tc) {
		// As registerIncrementBrokerData: the name servers know the topic
		// before the answer goes out.
		a.registerNow()
	}
	return a.replyOK(cmd)
}

// alterTopicAttributes sets tc's 5.x attributes from the request's
// modification string over the existing topic's, as updateAndCreateTopic
// and TopicConfigManager.updateSingleTopicConfigWithoutPersist do: a
// malformed or refused modification is SYSTEM_ERROR with the
// RuntimeException's message, MIXED without enableMixedMessageType
// INVALID_PARAMETER.
func (a *topicAdmin) alterTopicAttributes(tc *protocol.TopicConfig, old protocol.TopicConfig, exists bool, modification string) *failure {
	requested, err := parseAttributeModification(modification)
	if err != nil {
		return &failure{remoting.SystemError, err.Error()}
	}
	if !a.settings.load().Broker.EnableMixedMessageType && requested["+"+attrMessageType] == "MIXED" {
		return &failure{remoting.InvalidParameter, "MIXED message type is not supported."}
	}
	if tc.Attributes, err = alterAttributes(!exists, topicAttributes, old.Attributes, requested); err != nil {
		return &failure{remoting.SystemError, err.Error()}
	}
	if why := unsupportedTopicAttributes(tc.Attributes); why != "" {
		return &failure{remoting.SystemError, why}
	}
	return nil
}

// getSystemTopicList serves GET_SYSTEM_TOPIC_LIST_FROM_BROKER: the system
// topic set, with the topics the broker made at start-up.
func (a *topicAdmin) getSystemTopicList(req *remoting.Request) *remoting.Command {
	set := map[string]bool{}
	for _, t := range a.line.SystemTopics() {
		set[t] = true
	}
	for _, t := range builtinTopics(a.settings.load().Broker, a.line) {
		set[t.TopicName] = true
	}
	list := protocol.TopicList{TopicList: slices.Sorted(maps.Keys(set))}
	return a.replyBody(req.Cmd, list.AppendJSON(nil))
}

// refuseTopicChange is what creating, updating or deleting a topic checks
// of its name first: TopicValidator.validateTopic (5.x's delete only asks
// for a name that is not blank), then that it is not a system topic, the
// built-in ones or one this broker made at start. 4.x answers
// SYSTEM_ERROR, 5.x INVALID_PARAMETER.
func (a *topicAdmin) refuseTopicChange(topic string, deleting bool) *failure {
	code := a.line.topicChangeRefusal()
	if deleting && !a.line.validatesDeletedTopicName() {
		if strings.TrimSpace(topic) == "" {
			return &failure{code, "The specified topic is blank."}
		}
	} else if f := validateTopic(topic); f != nil {
		return &failure{code, f.remark}
	}
	if a.line.IsSystemTopic(topic) || a.topics.isSystem(topic) {
		return &failure{code, "The topic[" + topic + "] is conflict with system topic."}
	}
	return nil
}

// deleteTopicInBroker serves DELETE_TOPIC_IN_BROKER.
func (a *topicAdmin) deleteTopicInBroker(req *remoting.Request) *remoting.Command {
	topic := req.Cmd.ExtString("topic")
	a.log.Info("deleteTopic called", zap.String("topic", topic), zap.String("client", req.Ch.RemoteAddr()))
	if refusesOnSlave(a.line, a.settings) {
		return a.reply(req.Cmd, remoting.SystemError, slaveModifyRemark)
	}
	if f := a.refuseTopicChange(topic, true); f != nil {
		return a.replyFailure(req.Cmd, f)
	}
	a.topics.remove(topic)
	for key := range a.offsets.snapshot() {
		if t, g, ok := strings.Cut(key, protocol.TopicGroupSeparator); ok && t == topic {
			a.offsets.removeGroup(g, topic)
		}
	}
	return a.replyOK(req.Cmd)
}

// getAllTopicConfig serves GET_ALL_TOPIC_CONFIG.
func (a *topicAdmin) getAllTopicConfig(req *remoting.Request) *remoting.Command {
	w := a.topics.wrapper(a.line)
	return a.replyBody(req.Cmd, w.AppendJSON(nil))
}
