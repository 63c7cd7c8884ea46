package broker

// 5.x topic and subscription-group attributes (AttributeParser,
// AttributeUtil, TopicAttributes, SubscriptionGroupAttributes).
//
// A topic's attributes arrive in UPDATE_AND_CREATE_TOPIC's header field
// "attributes" as a modification string, a group's as the "+"/"-" keys of
// its config's attributes map:
//
//	+message.type=FIFO,+reserve.time=72,-queue.type
//	 add or change      add or change   delete (no value)
//
// The stored attributes are plain "name": "value". Creating allows only
// "+"; each name must be one of the kind's attributes, an unchangeable one
// may only be set at creation, and each value must pass its check. 5.3.3
// knows these topic attributes and no group attribute:
//
//	queue.type      enum SimpleCQ, BatchCQ          unchangeable
//	cleanup.policy  enum DELETE, COMPACTION         unchangeable
//	message.type    enum UNSPECIFIED, NORMAL, FIFO, DELAY, TRANSACTION, MIXED
//	reserve.time    long -1..Long.MAX_VALUE (tiered storage; no effect here,
//	                nor in Java without a tiered store)
//
// rmqgo refuses the two values whose store formats it does not write:
// queue.type=BatchCQ (batch consume queues) and cleanup.policy=COMPACTION
// (compacted topics).

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/rmqgo/rmqgo/internal/protocol"
)

// attributeError is the message of the RuntimeException AttributeParser
// and AttributeUtil throw.
type attributeError string

func (e attributeError) Error() string { return string(e) }

// attribute is one known attribute: whether it may change after creation
// and its value check.
type attribute struct {
	changeable bool
	verify     func(value string) error
}

// enumAttribute is EnumAttribute; universe is the text 5.3.3 prints for
// its set of allowed values (a HashSet, in the order the 5.3.3 broker
// printed it).
func enumAttribute(changeable bool, universe string) attribute {
	allowed := strings.Split(strings.Trim(universe, "[]"), ", ")
	return attribute{changeable: changeable, verify: func(v string) error {
		if !slices.Contains(allowed, v) {
			return attributeError("value is not in set: " + universe)
		}
		return nil
	}}
}

// longRangeAttribute is LongRangeAttribute.
func longRangeAttribute(changeable bool, lo, hi int64) attribute {
	return attribute{changeable: changeable, verify: func(v string) error {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return attributeError(`For input string: "` + v + `"`)
		}
		if n < lo || n > hi {
			return attributeError(fmt.Sprintf("value is not in range(%d, %d)", lo, hi))
		}
		return nil
	}}
}

// Topic attribute names (TopicAttributes).
const (
	attrQueueType     = "queue.type"
	attrCleanupPolicy = "cleanup.policy"
	attrMessageType   = "message.type"
	attrReserveTime   = "reserve.time"
)

// topicAttributes is 5.3.3's TopicAttributes.ALL.
var topicAttributes = map[string]attribute{
	attrQueueType:     enumAttribute(false, "[SimpleCQ, BatchCQ]"),
	attrCleanupPolicy: enumAttribute(false, "[DELETE, COMPACTION]"),
	attrMessageType:   enumAttribute(true, "[UNSPECIFIED, TRANSACTION, FIFO, MIXED, DELAY, NORMAL]"),
	attrReserveTime:   longRangeAttribute(true, -1, math.MaxInt64),
}

// groupAttributes is 5.3.3's SubscriptionGroupAttributes.ALL: empty.
var groupAttributes = map[string]attribute{}

// parseAttributeModification is AttributeParser.parseToMap: the
// modification string as "+name" → value and "-name" → "".
func parseAttributeModification(s string) (map[string]string, error) {
	out := map[string]string{}
	if s == "" {
		return out, nil
	}
	for _, kv := range protocol.JavaSplit(s, ",") {
		var key, value string
		if strings.Contains(kv, "=") {
			parts := protocol.JavaSplit(kv, "=")
			if len(parts) < 2 {
				// Java's splits[0] / splits[1] on a short array.
				return nil, attributeError(fmt.Sprintf("Index %d out of bounds for length %d", len(parts), len(parts)))
			}
			key, value = parts[0], parts[1]
			if !strings.Contains(key, "+") {
				return nil, attributeError("add/alter attribute format is wrong: " + key)
			}
		} else {
			key = kv
			if !strings.Contains(key, "-") {
				return nil, attributeError("delete attribute format is wrong: " + key)
			}
		}
		if _, dup := out[key]; dup {
			return nil, attributeError("key duplication: " + key)
		}
		out[key] = value
	}
	return out, nil
}

// alterAttributes is AttributeUtil.alterCurrentAttributes: current with
// the requested modification applied, checked against all (the kind's
// attributes). create is true when the topic or group is new. With
// nothing requested the result is a copy of current.
func alterAttributes(create bool, all map[string]attribute, current, requested map[string]string) (map[string]string, error) {
	// Java walks a HashMap; the keys are taken sorted here, which only
	// matters for which of several bad keys is named.
	var set, deleted []string
	seen := map[string]bool{}
	for _, key := range slices.Sorted(maps.Keys(requested)) {
		if key == "" {
			return nil, attributeError("kv string format wrong.")
		}
		real := key[1:]
		if real == "" || strings.ContainsAny(real, "+-") {
			return nil, attributeError("kv string format wrong.")
		}
		if seen[real] {
			return nil, attributeError("alter duplication key. key: " + real)
		}
		seen[real] = true
		switch {
		case create && key[0] != '+':
			return nil, attributeError("only add attribute is supported while creating topic. key: " + real)
		case key[0] == '+':
			set = append(set, real)
		case key[0] == '-':
			if _, ok := current[real]; !ok {
				return nil, attributeError("attempt to delete a nonexistent key: " + real)
			}
			deleted = append(deleted, real)
		default:
			return nil, attributeError("wrong format key: " + real)
		}
	}
	for _, name := range set {
		if err := checkAlter(all, name, requested["+"+name], create, false); err != nil {
			return nil, err
		}
	}
	for _, name := range deleted {
		if err := checkAlter(all, name, "", false, true); err != nil {
			return nil, err
		}
	}
	out := maps.Clone(current)
	if out == nil {
		out = map[string]string{}
	}
	for _, name := range set {
		out[name] = requested["+"+name]
	}
	for _, name := range deleted {
		delete(out, name)
	}
	return out, nil
}

// checkAlter is AttributeUtil.validateAlter for one attribute.
func checkAlter(all map[string]attribute, name, value string, init, deleting bool) error {
	a, ok := all[name]
	if !ok {
		return attributeError("unsupported key: " + name)
	}
	if !init && !a.changeable {
		return attributeError("attempt to update an unchangeable attribute. key: " + name)
	}
	if !deleting {
		return a.verify(value)
	}
	return nil
}

// unsupportedTopicAttributes names an attribute value rmqgo refuses
// although Java takes it, or "" when there is none.
func unsupportedTopicAttributes(attrs map[string]string) string {
	switch {
	case attrs[attrQueueType] == "BatchCQ":
		return "queue.type=BatchCQ is not supported by this broker: it writes simple consume queues only"
	case attrs[attrCleanupPolicy] == "COMPACTION":
		return "cleanup.policy=COMPACTION is not supported by this broker: it keeps no compacted topics"
	}
	return ""
}
