package protocol

import (
	"slices"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// GroupList is the body of QUERY_TOPIC_CONSUME_BY_WHO: the consumer groups
// of a topic on one broker.
//
// JSON (wire format: do not change); names sorted (Java writes its
// HashSet in hash order):
//
//	{"groupList":["g1","g2"]}
type GroupList struct {
	GroupList []string
}

// AppendJSON appends the fastjson form (both lines); nil is written as [].
func (l *GroupList) AppendJSON(dst []byte) []byte {
	groups := slices.Clone(l.GroupList)
	if groups == nil {
		groups = []string{}
	}
	slices.Sort(groups)
	dst = fastjson.AppendStringArray(fastjson.AppendField(append(dst, '{'), "groupList"), groups, fastjson.Fastjson)
	return append(dst, '}')
}

// QuerySubscriptionResponseBody is the body of the 5.x
// QUERY_SUBSCRIPTION_BY_CONSUMER: a group's subscription of a topic.
//
// JSON (wire format: do not change); subscriptionData is left out when
// nil (the group does not subscribe the topic), as are empty names:
//
//	{"group":"g","subscriptionData":{SubscriptionData},"topic":"T"}
type QuerySubscriptionResponseBody struct {
	Group            string
	Topic            string
	SubscriptionData *SubscriptionData
}

// AppendJSON appends the fastjson form.
func (b *QuerySubscriptionResponseBody) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	dst = fastjson.AppendOptionalStringField(dst, "group", b.Group, fastjson.Fastjson)
	if b.SubscriptionData != nil {
		dst = b.SubscriptionData.AppendJSON(fastjson.AppendField(dst, "subscriptionData"))
	}
	dst = fastjson.AppendOptionalStringField(dst, "topic", b.Topic, fastjson.Fastjson)
	return append(dst, '}')
}
