package protocol

import (
	"slices"
	"strings"
)

// systemTopicsFour is TopicValidator's SYSTEM_TOPIC_SET of 4.x, before a
// broker adds the topics it makes at start.
var systemTopicsFour = []string{"TBW102", "SCHEDULE_TOPIC_XXXX", "BenchmarkTest", "RMQ_SYS_TRANS_HALF_TOPIC",
	"RMQ_SYS_TRACE_TOPIC", "RMQ_SYS_TRANS_OP_HALF_TOPIC", "TRANS_CHECK_MAX_TIME_TOPIC", "SELF_TEST_TOPIC",
	"OFFSET_MOVED_EVENT"}

// systemTopicsFive is 5.x's: 4.x's and the RocksDB consume queue's
// checkpoint topic.
var systemTopicsFive = append(slices.Clone(systemTopicsFour), "CHECKPOINT_TOPIC")

// SystemTopicPrefix starts the 5.x system topics (rmq_sys_), which
// TopicValidator.isSystemTopic counts too.
const SystemTopicPrefix = "rmq_sys_"

// SystemTopics is the line's fixed system topic set (do not modify).
func (l Line) SystemTopics() []string {
	if l.v5() {
		return systemTopicsFive
	}
	return systemTopicsFour
}

// IsSystemTopic is TopicValidator.isSystemTopic: the line's fixed set and
// the rmq_sys_ topics.
func (l Line) IsSystemTopic(topic string) bool {
	return slices.Contains(l.SystemTopics(), topic) || strings.HasPrefix(topic, SystemTopicPrefix)
}
