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

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// adminHandlers are the codes of the admin pool.
func (b *Broker) adminHandlers() map[remoting.RequestCode]remoting.Handler {
	m := map[remoting.RequestCode]remoting.Handler{
		remoting.UpdateAndCreateTopic: b.updateAndCreateTopic,
		remoting.DeleteTopicInBroker:  b.deleteTopicInBroker,
		remoting.GetAllTopicConfig:    b.getAllTopicConfig,
		remoting.LockBatchMq:          b.lockBatchMQ,
		remoting.UnlockBatchMq:        b.unlockBatchMQ,

		remoting.GetSystemTopicListFromBroker: b.getSystemTopicList,
		remoting.GetConsumeStats:              b.getConsumeStats,
		remoting.GetTopicConfig:               b.getTopicConfig,
	}
	for code, h := range b.offsetHandlers() {
		m[code] = h
	}
	for code, h := range b.callConsumerHandlers() {
		m[code] = h
	}
	for code, h := range b.opsHandlers() {
		m[code] = h
	}
	return m
}

// updateAndCreateTopic serves UPDATE_AND_CREATE_TOPIC.
func (b *Broker) updateAndCreateTopic(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	topic := cmd.ExtString("topic")
	if f := b.refuseTopicChange(topic, false); f != nil {
		return b.response(cmd, f.code, f.remark)
	}
	tc := protocol.NewTopicConfig(topic)
	var err error
	if tc.ReadQueueNums, err = cmd.ExtInt32("readQueueNums"); err != nil {
		return b.headerError(req, err)
	}
	if tc.WriteQueueNums, err = cmd.ExtInt32("writeQueueNums"); err != nil {
		return b.headerError(req, err)
	}
	if tc.Perm, err = cmd.ExtInt32("perm"); err != nil {
		return b.headerError(req, err)
	}
	if ft := cmd.ExtString("topicFilterType"); ft != "" {
		tc.TopicFilterType = protocol.TopicFilterType(ft)
	}
	tc.TopicSysFlag = cmd.ExtInt32Or("topicSysFlag", 0)
	tc.Order = cmd.ExtBool("order")
	old, exists := b.topics.get(topic)
	if b.opts.Line >= protocol.Line5 {
		if f := b.alterTopicAttributes(&tc, old, exists, cmd.ExtString("attributes")); f != nil {
			return b.response(cmd, f.code, f.remark)
		}
	} else if exists {
		tc.Attributes = old.Attributes
	}
	if b.topics.put(tc) {
		// As registerIncrementBrokerData: the name servers know the topic
		// before the answer goes out.
		b.reg.registerAll(false)
	}
	return b.response(cmd, remoting.Success, "")
}

// alterTopicAttributes sets tc's 5.x attributes from the request's
// modification string over the existing topic's, as updateAndCreateTopic
// and TopicConfigManager.updateSingleTopicConfigWithoutPersist do: a
// malformed or refused modification is SYSTEM_ERROR with the
// RuntimeException's message, MIXED without enableMixedMessageType
// INVALID_PARAMETER.
func (b *Broker) alterTopicAttributes(tc *protocol.TopicConfig, old protocol.TopicConfig, exists bool, modification string) *sendFailure {
	requested, err := parseAttributeModification(modification)
	if err != nil {
		return &sendFailure{remoting.SystemError, err.Error()}
	}
	if !b.opts.Configs.Broker.EnableMixedMessageType && requested["+"+attrMessageType] == "MIXED" {
		return &sendFailure{remoting.InvalidParameter, "MIXED message type is not supported."}
	}
	if tc.Attributes, err = alterAttributes(!exists, topicAttributes, old.Attributes, requested); err != nil {
		return &sendFailure{remoting.SystemError, err.Error()}
	}
	if why := unsupportedTopicAttributes(tc.Attributes); why != "" {
		return &sendFailure{remoting.SystemError, why}
	}
	return nil
}

// systemTopicNames is TopicValidator's SYSTEM_TOPIC_SET before the
// broker adds its own; 5.x adds the RocksDB consume queue's checkpoint
// topic (RMQ_SYS_ROCKSDB_OFFSET_TOPIC).
var systemTopicNames = []string{TopicAutoCreate, TopicSchedule, TopicBenchmark, TopicTransHalf, "RMQ_SYS_TRACE_TOPIC",
	TopicTransOp, TopicTransCheckMax, TopicSelfTest, TopicOffsetMovedEvent}

// systemTopicNamesFive is 5.x's set: systemTopicNames and
// RMQ_SYS_ROCKSDB_OFFSET_TOPIC.
var systemTopicNamesFive = append(slices.Clone(systemTopicNames), "CHECKPOINT_TOPIC")

// systemTopicsOf is the fixed system topic set of line.
func systemTopicsOf(line protocol.Line) []string {
	if line >= protocol.Line5 {
		return systemTopicNamesFive
	}
	return systemTopicNames
}

// getSystemTopicList serves GET_SYSTEM_TOPIC_LIST_FROM_BROKER: the system
// topic set, with the topics the broker made at start-up.
func (b *Broker) getSystemTopicList(req *remoting.Request) *remoting.Command {
	set := map[string]bool{}
	for _, t := range systemTopicsOf(b.opts.Line) {
		set[t] = true
	}
	for _, t := range builtinTopics(b.opts.Configs.Broker, b.opts.Line) {
		set[t.TopicName] = true
	}
	list := protocol.TopicList{TopicList: slices.Sorted(maps.Keys(set))}
	resp := b.response(req.Cmd, remoting.Success, "")
	resp.Body = list.AppendJSON(nil)
	return resp
}

// isSystemTopicName is TopicValidator.isSystemTopic over line's fixed
// set; the broker adds the topics it made at start (topicTable.isSystem),
// as TopicConfigManager's addSystemTopic calls do.
func isSystemTopicName(line protocol.Line, topic string) bool {
	return slices.Contains(systemTopicsOf(line), topic) || strings.HasPrefix(topic, sysTopicPrefix)
}

// refuseTopicChange is what creating, updating or deleting a topic checks
// of its name first: TopicValidator.validateTopic (5.x's delete only asks
// for a name that is not blank), then that it is not a system topic, the
// built-in ones or one this broker made at start. 4.x answers
// SYSTEM_ERROR, 5.x INVALID_PARAMETER.
func (b *Broker) refuseTopicChange(topic string, deleting bool) *sendFailure {
	line5 := b.opts.Line >= protocol.Line5
	code := remoting.SystemError
	if line5 {
		code = remoting.InvalidParameter
	}
	if deleting && line5 {
		if strings.TrimSpace(topic) == "" {
			return &sendFailure{code, "The specified topic is blank."}
		}
	} else if f := validateTopic(topic); f != nil {
		return &sendFailure{code, f.remark}
	}
	if isSystemTopicName(b.opts.Line, topic) || b.topics.isSystem(topic) {
		return &sendFailure{code, "The topic[" + topic + "] is conflict with system topic."}
	}
	return nil
}

// deleteTopicInBroker serves DELETE_TOPIC_IN_BROKER.
func (b *Broker) deleteTopicInBroker(req *remoting.Request) *remoting.Command {
	topic := req.Cmd.ExtString("topic")
	if f := b.refuseTopicChange(topic, true); f != nil {
		return b.response(req.Cmd, f.code, f.remark)
	}
	if b.topics.remove(topic) {
		b.reg.topicChanged()
	}
	for key := range b.offsets.snapshot() {
		if t, g, ok := strings.Cut(key, protocol.TopicGroupSeparator); ok && t == topic {
			b.offsets.removeGroup(g, topic)
		}
	}
	return b.response(req.Cmd, remoting.Success, "")
}

// getAllTopicConfig serves GET_ALL_TOPIC_CONFIG.
func (b *Broker) getAllTopicConfig(req *remoting.Request) *remoting.Command {
	topics, version := b.topics.snapshot()
	w := protocol.TopicConfigSerializeWrapper{DataVersion: version, TopicConfigTable: topics}
	if b.opts.Line >= protocol.Line5 {
		mv := version
		w.MappingDataVersion = &mv
	}
	resp := b.response(req.Cmd, remoting.Success, "")
	resp.Body = w.AppendJSON(nil)
	return resp
}

// viewMessageByID serves VIEW_MESSAGE_BY_ID: the record at a commitlog
// offset.
func (b *Broker) viewMessageByID(req *remoting.Request) *remoting.Command {
	off, err := req.Cmd.ExtInt64("offset")
	if err != nil {
		return b.headerError(req, err)
	}
	data, release, ok := b.store.ReadRecord(off)
	if !ok {
		return b.response(req.Cmd, remoting.SystemError, "can not find message by the offset, "+itoa(off))
	}
	resp := b.response(req.Cmd, remoting.Success, "")
	resp.Body = append([]byte(nil), data...)
	release()
	return resp
}
