package broker

import (
	"maps"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/configfile"
	"github.com/rmqgo/rmqgo/internal/protocol"
)

// Built-in topic names (TopicValidator, MixAll), wire values: do not change.
const (
	TopicAutoCreate       = "TBW102"
	TopicSelfTest         = "SELF_TEST_TOPIC"
	TopicBenchmark        = "BenchmarkTest"
	TopicOffsetMovedEvent = "OFFSET_MOVED_EVENT"
	TopicSchedule         = "SCHEDULE_TOPIC_XXXX"
	TopicTransHalf        = "RMQ_SYS_TRANS_HALF_TOPIC"
	TopicTransOp          = "RMQ_SYS_TRANS_OP_HALF_TOPIC"
	TopicTransCheckMax    = "TRANS_CHECK_MAX_TIME_TOPIC"
	// RetryGroupTopicPrefix and DLQGroupTopicPrefix start a group's retry
	// and dead-letter topics.
	RetryGroupTopicPrefix = protocol.RetryGroupTopicPrefix
	DLQGroupTopicPrefix   = protocol.DLQGroupTopicPrefix
	replyTopicPostfix     = "REPLY_TOPIC"
	// scheduleTopicQueueNum is SCHEDULE_TOPIC_QUEUE_NUM.
	scheduleTopicQueueNum = 18
	// sysTopicPrefix starts the 5.x system topics (rmq_sys_).
	sysTopicPrefix = protocol.SystemTopicPrefix
	// 5.x built-in topics: PopAckConstants.REVIVE_TOPIC + cluster,
	// SYNC_BROKER_MEMBER_GROUP_PREFIX + broker, TimerMessageStore.TIMER_TOPIC.
	reviveTopicPrefix      = protocol.ReviveTopicPrefix
	syncBrokerMemberPrefix = sysTopicPrefix + "SYNC_BROKER_MEMBER_"
	timerTopic             = sysTopicPrefix + "wheel_timer"
)

// topicTable is TopicConfigManager: the broker's topics with their data
// version, persisted to topics.json on every change.
type topicTable struct {
	dir      configfile.Dir
	log      *zap.Logger
	now      func() time.Time
	settings *liveSettings
	// announce asks for a registration with the name servers soon: a
	// topic was created on the way (send, retry) or deleted.
	announce func()

	// stateVersion is the DataVersion's stateVersion: the master epoch in
	// controller mode, 0 otherwise.
	stateVersion atomic.Int64

	mu      sync.RWMutex
	topics  map[string]protocol.TopicConfig
	version protocol.DataVersion
	system  map[string]bool // topics the broker made itself

	// persistMu serialises writers of topics.json; it is taken without mu
	// held, so that readers never wait for a file to be synced.
	persistMu sync.Mutex
}

// newTopicTable builds the built-in topics a fresh Java broker has and
// loads topics.json over them, as TopicConfigManager's constructor and
// load do.
func newTopicTable(dir configfile.Dir, live *liveSettings, log *zap.Logger, now func() time.Time) (*topicTable, error) {
	t := &topicTable{dir: dir, log: log, now: now, settings: live, announce: func() {},
		topics: map[string]protocol.TopicConfig{}, system: map[string]bool{}}
	t.version = protocol.NewDataVersion(now())
	for _, tc := range builtinTopics(live.load().Broker, newLine(dir.Line)) {
		t.topics[tc.TopicName] = tc
		t.system[tc.TopicName] = true
	}
	w, res, err := dir.LoadTopics()
	if err != nil {
		return nil, err
	}
	if res.Fallback != nil {
		log.Warn("load topics.json failed, and try to load backup file", zap.Error(res.Fallback))
	}
	if res.Source != configfile.SourceNone {
		maps.Copy(t.topics, w.TopicConfigTable)
		t.version = w.DataVersion
	}
	if newLine(dir.Line).hasAttributes() {
		for name, tc := range t.topics {
			if tc.Attributes == nil {
				tc.Attributes = map[string]string{}
				t.topics[name] = tc
			}
		}
	}
	return t, nil
}

// builtinTopics are the topics TopicConfigManager's constructor makes
// (5.x's init adds the pop revive, broker-member sync, transaction and
// timer topics).
func builtinTopics(c *conf.BrokerConfig, l line) []protocol.TopicConfig {
	queues := func(name string, n int32, perm int32) protocol.TopicConfig {
		tc := protocol.NewTopicConfig(name)
		if n > 0 {
			tc.ReadQueueNums, tc.WriteQueueNums = n, n
		}
		if perm >= 0 {
			tc.Perm = perm
		}
		return tc
	}
	rw := protocol.PermRead | protocol.PermWrite
	out := []protocol.TopicConfig{queues(TopicSelfTest, 1, -1)}
	if c.AutoCreateTopicEnable {
		out = append(out, queues(TopicAutoCreate, c.DefaultTopicQueueNums, protocol.PermInherit|rw))
	}
	out = append(out, queues(TopicBenchmark, 1024, -1))
	clusterPerm, brokerPerm := protocol.PermInherit, protocol.PermInherit
	if c.ClusterTopicEnable {
		clusterPerm |= rw
	}
	if c.BrokerTopicEnable {
		brokerPerm |= rw
	}
	out = append(out, queues(c.BrokerClusterName, 0, clusterPerm), queues(c.BrokerName, 1, brokerPerm),
		queues(TopicOffsetMovedEvent, 1, -1), queues(TopicSchedule, scheduleTopicQueueNum, -1))
	if c.TraceTopicEnable {
		out = append(out, queues(c.MsgTraceTopicName, 1, -1))
	}
	out = append(out, queues(c.BrokerClusterName+"_"+replyTopicPostfix, 1, -1))
	if l.makesFiveSystemTopics() {
		out = append(out, queues(reviveTopicPrefix+c.BrokerClusterName, c.ReviveQueueNum, -1),
			queues(syncBrokerMemberPrefix+c.BrokerName, 1, protocol.PermInherit),
			queues(TopicTransHalf, 1, -1), queues(TopicTransOp, 1, -1), queues(timerTopic, 1, -1))
	}
	return out
}

// get returns a topic's config.
func (t *topicTable) get(topic string) (protocol.TopicConfig, bool) {
	t.mu.RLock()
	tc, ok := t.topics[topic]
	t.mu.RUnlock()
	return tc, ok
}

// snapshot returns a copy of the table and its version, for registration
// and GET_ALL_TOPIC_CONFIG.
func (t *topicTable) snapshot() (map[string]protocol.TopicConfig, protocol.DataVersion) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return maps.Clone(t.topics), t.version
}

// wrapper is the table as TopicConfigSerializeWrapper (GET_ALL_TOPIC_CONFIG
// and the REGISTER_BROKER body), with 5.x's mapping data version.
func (t *topicTable) wrapper(l line) protocol.TopicConfigSerializeWrapper {
	topics, version := t.snapshot()
	w := protocol.TopicConfigSerializeWrapper{DataVersion: version, TopicConfigTable: topics}
	if l.hasMappingDataVersion() {
		mv := version
		w.MappingDataVersion = &mv
	}
	return w
}

// isSystem tells whether the broker made topic itself.
func (t *topicTable) isSystem(topic string) bool {
	t.mu.RLock()
	defer t.mu.RUnlock()
	return t.system[topic]
}

// put adds or replaces a topic, bumps the version and persists. It
// reports whether the table changed.
//
// As TopicConfigManager.updateTopicConfig it logs "create new topic" or
// "update topic config" with the old and new config (also when nothing
// changed, which 4.x logs the same way).
func (t *topicTable) put(tc protocol.TopicConfig) bool {
	t.mu.Lock()
	old, ok := t.topics[tc.TopicName]
	if ok {
		t.log.Info("update topic config", zap.String("topic", tc.TopicName),
			zap.ByteString("old", old.AppendJSON(nil)), zap.ByteString("new", tc.AppendJSON(nil)))
	} else {
		t.log.Info("create new topic", zap.ByteString("config", tc.AppendJSON(nil)))
	}
	if ok && topicConfigEqual(old, tc) {
		t.mu.Unlock()
		return false
	}
	if newLine(t.dir.Line).hasAttributes() && tc.Attributes == nil {
		tc.Attributes = map[string]string{}
	}
	t.topics[tc.TopicName] = tc
	t.version.Next(t.now(), t.stateVersion.Load())
	t.mu.Unlock()
	t.persist()
	return true
}

// nextStateVersion is DataVersion.nextVersion(stateVersion) of a
// controller-mode role change: the epoch is the stateVersion from now on.
func (t *topicTable) nextStateVersion(epoch int32) {
	t.stateVersion.Store(int64(epoch))
	t.mu.Lock()
	t.version.Next(t.now(), int64(epoch))
	t.mu.Unlock()
	t.persist()
}

// remove deletes a topic and announces it; it reports whether it
// existed.
//
// As TopicConfigManager.deleteTopicConfig it logs "delete topic config
// OK" with the config, or warns that the topic does not exist.
func (t *topicTable) remove(topic string) bool {
	t.mu.Lock()
	old, ok := t.topics[topic]
	if !ok {
		t.mu.Unlock()
		t.log.Warn("delete topic config failed, topic not exists", zap.String("topic", topic))
		return false
	}
	t.log.Info("delete topic config OK", zap.ByteString("config", old.AppendJSON(nil)))
	delete(t.topics, topic)
	t.version.Next(t.now(), t.stateVersion.Load())
	t.mu.Unlock()
	t.persist()
	t.announce()
	return true
}

// createForSend is createTopicInSendMessageMethod: a topic created from
// the template topic (TBW102) when that one may be inherited, and
// announced. It returns the new config and whether it was created now.
func (t *topicTable) createForSend(topic, template string, clientQueueNums int32, sysFlag int32) (protocol.TopicConfig, bool) {
	t.mu.Lock()
	tc, created := t.createForSendLocked(topic, template, clientQueueNums, sysFlag)
	t.mu.Unlock()
	if created {
		t.persist()
		t.announce()
	}
	return tc, created
}

func (t *topicTable) createForSendLocked(topic, template string, clientQueueNums int32, sysFlag int32) (protocol.TopicConfig, bool) {
	if tc, ok := t.topics[topic]; ok {
		return tc, false
	}
	def, ok := t.topics[template]
	if !ok {
		t.log.Warn("Create new topic failed, because the default topic not exist", zap.String("defaultTopic", template), zap.String("topic", topic))
		return protocol.TopicConfig{}, false
	}
	perm := def.Perm
	if template == TopicAutoCreate && !t.settings.load().Broker.AutoCreateTopicEnable {
		perm = protocol.PermRead | protocol.PermWrite
	}
	if perm&protocol.PermInherit == 0 {
		t.log.Warn("Create new topic failed, because the default topic has no perm", zap.String("defaultTopic", template), zap.Int32("perm", perm), zap.String("topic", topic))
		return protocol.TopicConfig{}, false
	}
	tc := protocol.NewTopicConfig(topic)
	n := min(clientQueueNums, def.WriteQueueNums)
	if n < 0 {
		n = 0
	}
	tc.ReadQueueNums, tc.WriteQueueNums = n, n
	tc.Perm = perm &^ protocol.PermInherit
	tc.TopicSysFlag = sysFlag
	tc.TopicFilterType = def.TopicFilterType
	return t.addLocked(tc, "send"), true
}

// createForRetry is createTopicInSendMessageBackMethod: a retry or DLQ
// topic with the given queues and perm, created (and announced) when
// missing.
func (t *topicTable) createForRetry(topic string, queueNums, perm, sysFlag int32) (protocol.TopicConfig, bool) {
	if tc, ok := t.get(topic); ok {
		return tc, false
	}
	t.mu.Lock()
	if tc, ok := t.topics[topic]; ok {
		t.mu.Unlock()
		return tc, false
	}
	tc := protocol.NewTopicConfig(topic)
	tc.ReadQueueNums, tc.WriteQueueNums = queueNums, queueNums
	tc.Perm, tc.TopicSysFlag = perm, sysFlag
	tc = t.addLocked(tc, "retry")
	t.mu.Unlock()
	t.persist()
	t.announce()
	return tc, true
}

// addLocked inserts a new topic and bumps the version; the caller
// persists once it has let go of the lock.
func (t *topicTable) addLocked(tc protocol.TopicConfig, why string) protocol.TopicConfig {
	if newLine(t.dir.Line).hasAttributes() && tc.Attributes == nil {
		tc.Attributes = map[string]string{}
	}
	t.topics[tc.TopicName] = tc
	t.version.Next(t.now(), t.stateVersion.Load())
	t.log.Info("Create new topic", zap.String("topic", tc.TopicName), zap.String("by", why),
		zap.Int32("queues", tc.WriteQueueNums), zap.Int32("perm", tc.Perm))
	return tc
}

// persist writes topics.json from a snapshot; a failure is logged, as
// Java logs it.
func (t *topicTable) persist() {
	t.persistMu.Lock()
	defer t.persistMu.Unlock()
	topics, version := t.snapshot()
	w := &protocol.TopicConfigSerializeWrapper{DataVersion: version, TopicConfigTable: topics}
	if err := t.dir.PersistTopics(w); err != nil {
		t.log.Error("persist topics.json failed", zap.Error(err))
	}
}

// topicConfigEqual compares two configs field by field.
func topicConfigEqual(a, b protocol.TopicConfig) bool {
	return a.TopicName == b.TopicName && a.ReadQueueNums == b.ReadQueueNums && a.WriteQueueNums == b.WriteQueueNums &&
		a.Perm == b.Perm && a.TopicFilterType == b.TopicFilterType && a.TopicSysFlag == b.TopicSysFlag &&
		a.Order == b.Order && maps.Equal(a.Attributes, b.Attributes)
}

// isRetryTopic tells a %RETRY% topic.
func isRetryTopic(topic string) bool { return strings.HasPrefix(topic, RetryGroupTopicPrefix) }

// retryTopic is a group's retry topic.
func retryTopic(group string) string { return RetryGroupTopicPrefix + group }

// dlqTopic is a group's dead-letter topic.
func dlqTopic(group string) string { return DLQGroupTopicPrefix + group }

// nextVersion bumps the table's version without a change of topics, as
// UPDATE_BROKER_CONFIG does when brokerPermission changes, so that the
// name servers take the next registration.
func (t *topicTable) nextVersion() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.version.Next(t.now(), t.stateVersion.Load())
}
