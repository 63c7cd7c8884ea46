package protocol

import "strings"

// PullSysFlag bits of PULL_MESSAGE's sysFlag (wire values: do not change).
const (
	PullFlagCommitOffset = 1 << 0 // the request carries the offset to commit
	PullFlagSuspend      = 1 << 1 // the broker may hold the request (long polling)
	PullFlagSubscription = 1 << 2 // the request carries its subscription
)

// DLQGroupTopicPrefix starts every dead letter topic (MixAll.DLQ_GROUP_TOPIC_PREFIX).
const DLQGroupTopicPrefix = "%DLQ%"

// IsRetryOrDLQTopic tells a group's retry or dead letter topic.
func IsRetryOrDLQTopic(topic string) bool {
	return strings.HasPrefix(topic, RetryGroupTopicPrefix) || strings.HasPrefix(topic, DLQGroupTopicPrefix)
}
