package proxy

// GrpcValidator: names, tags, keys, invisible times, as 5.3.3's proxy
// checks them, with its messages (Validators.checkTopic / checkGroup).

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/proxy/apiv2"
)

const (
	topicMaxLength = 127
	groupMaxLength = 255
)

func validateTopic(r *apiv2.Resource) error {
	name := r.GetName()
	switch {
	case strings.TrimSpace(name) == "":
		return refuse(apiv2.Code_ILLEGAL_TOPIC, "The specified topic is blank.")
	case len(name) > topicMaxLength:
		return refuse(apiv2.Code_ILLEGAL_TOPIC, "The specified topic is longer than topic max length.")
	case !protocol.ValidTopicOrGroup(name):
		return refuse(apiv2.Code_ILLEGAL_TOPIC, "The specified topic["+name+"] contains illegal characters, allowing only ^[%|a-zA-Z0-9_-]+$")
	case protocol.Line5.IsSystemTopic(name):
		return refuse(apiv2.Code_ILLEGAL_TOPIC, "cannot access system topic")
	}
	return nil
}

func validateGroup(r *apiv2.Resource) error {
	name := r.GetName()
	switch {
	case strings.TrimSpace(name) == "":
		return refuse(apiv2.Code_ILLEGAL_CONSUMER_GROUP, "the specified group is blank")
	case len(name) > groupMaxLength:
		return refuse(apiv2.Code_ILLEGAL_CONSUMER_GROUP, "the specified group is longer than group max length 255.")
	case !protocol.ValidTopicOrGroup(name):
		return refuse(apiv2.Code_ILLEGAL_CONSUMER_GROUP, "the specified group["+name+"] contains illegal characters, allowing only ^[%|a-zA-Z0-9_-]+$")
	case strings.HasPrefix(strings.ToUpper(name), "CID_RMQ_SYS_"):
		return refuse(apiv2.Code_ILLEGAL_CONSUMER_GROUP, "cannot use system consumer group")
	}
	return nil
}

func validateTopicAndGroup(topic, group *apiv2.Resource) error {
	if err := validateTopic(topic); err != nil {
		return err
	}
	return validateGroup(group)
}

// validateInvisibleTime checks an invisible duration against [min, max].
func (m *messaging) validateInvisibleTime(ms, minMs int64) error {
	if ms < minMs {
		return refuse(apiv2.Code_ILLEGAL_INVISIBLE_TIME, "the invisibleTime is too small. min is "+strconv.FormatInt(minMs, 10))
	}
	if maxMs := m.cfg.MaxInvisibleTimeMills; maxMs > 0 && ms > maxMs {
		return refuse(apiv2.Code_ILLEGAL_INVISIBLE_TIME, "the invisibleTime is too large. max is "+strconv.FormatInt(maxMs, 10))
	}
	return nil
}

func validateTag(tag string) error {
	if tag == "" {
		return nil
	}
	switch {
	case strings.TrimSpace(tag) == "":
		return refuse(apiv2.Code_ILLEGAL_MESSAGE_TAG, "tag cannot be the char sequence of whitespace")
	case strings.Contains(tag, "|"):
		return refuse(apiv2.Code_ILLEGAL_MESSAGE_TAG, "tag cannot contain '|'")
	case hasControl(tag):
		return refuse(apiv2.Code_ILLEGAL_MESSAGE_TAG, "tag cannot contain control character")
	}
	return nil
}

// hasControl is CharMatcher.javaIsoControl over the string.
func hasControl(s string) bool {
	return strings.ContainsFunc(s, unicode.IsControl)
}
