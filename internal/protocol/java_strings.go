package protocol

// The toString of Java's TopicConfig and SubscriptionGroupConfig, which the
// broker puts in remarks and mqadmin prints after updateTopic and
// updateSubGroup, and PermName.perm2String.

import (
	"fmt"
	"sort"
	"strings"
)

// PermString is PermName.perm2String: "RWX" with '-' for each missing
// permission (read, write, inherit).
func PermString(perm int32) string {
	s := []byte("---")
	if perm&PermRead != 0 {
		s[0] = 'R'
	}
	if perm&PermWrite != 0 {
		s[1] = 'W'
	}
	if perm&PermInherit != 0 {
		s[2] = 'X'
	}
	return string(s)
}

// JavaString is TopicConfig.toString of line: 5.x appends the attributes.
//
//	TopicConfig [topicName=T, readQueueNums=4, writeQueueNums=4, perm=RW-, topicFilterType=SINGLE_TAG, topicSysFlag=0, order=false]
//	TopicConfig [topicName=T, ..., order=false, attributes={}]   (5.x)
func (c *TopicConfig) JavaString(line Line) string {
	s := fmt.Sprintf("TopicConfig [topicName=%s, readQueueNums=%d, writeQueueNums=%d, perm=%s, topicFilterType=%s, topicSysFlag=%d, order=%t",
		c.TopicName, c.ReadQueueNums, c.WriteQueueNums, PermString(c.Perm), c.TopicFilterType, c.TopicSysFlag, c.Order)
	if line.v5() {
		s += ", attributes=" + javaMapString(c.Attributes)
	}
	return s + "]"
}

// JavaString is SubscriptionGroupConfig.toString of line (4.x's bracket
// form or 5.x's brace form with the 5.x fields).
func (c *SubscriptionGroupConfig) JavaString(line Line) string {
	if !line.v5() {
		return fmt.Sprintf("SubscriptionGroupConfig [groupName=%s, consumeEnable=%t, consumeFromMinEnable=%t, consumeBroadcastEnable=%t, retryQueueNums=%d, retryMaxTimes=%d, brokerId=%d, whichBrokerWhenConsumeSlowly=%d, notifyConsumerIdsChangedEnable=%t]",
			c.GroupName, c.ConsumeEnable, c.ConsumeFromMinEnable, c.ConsumeBroadcastEnable, c.RetryQueueNums, c.RetryMaxTimes,
			c.BrokerID, c.WhichBrokerWhenConsumeSlowly, c.NotifyConsumerIDsChangedEnable)
	}
	subs := "null"
	if c.SubscriptionDataSet != nil {
		parts := make([]string, len(c.SubscriptionDataSet))
		for i, s := range c.SubscriptionDataSet {
			parts[i] = fmt.Sprintf("SimpleSubscriptionData{topic='%s', expressionType='%s', expression='%s', version=%d}", s.Topic, s.ExpressionType, s.Expression, s.Version)
		}
		subs = "[" + strings.Join(parts, ", ") + "]"
	}
	return fmt.Sprintf("SubscriptionGroupConfig{groupName=%s, consumeEnable=%t, consumeFromMinEnable=%t, consumeBroadcastEnable=%t, consumeMessageOrderly=%t, retryQueueNums=%d, retryMaxTimes=%d, groupRetryPolicy=%s, brokerId=%d, whichBrokerWhenConsumeSlowly=%d, notifyConsumerIdsChangedEnable=%t, groupSysFlag=%d, consumeTimeoutMinute=%d, subscriptionDataSet=%s, attributes=%s}",
		c.GroupName, c.ConsumeEnable, c.ConsumeFromMinEnable, c.ConsumeBroadcastEnable, c.ConsumeMessageOrderly, c.RetryQueueNums, c.RetryMaxTimes,
		c.GroupRetryPolicy.javaString(), c.BrokerID, c.WhichBrokerWhenConsumeSlowly, c.NotifyConsumerIDsChangedEnable,
		c.GroupSysFlag, c.ConsumeTimeoutMinute, subs, javaMapString(c.Attributes))
}

// javaString is GroupRetryPolicy.toString; the policies' own toString is
// not reproduced (mqadmin builds configs without them).
func (p *GroupRetryPolicy) javaString() string {
	exp, cust := "null", "null"
	if p.ExponentialRetryPolicy != nil {
		exp = "ExponentialRetryPolicy{...}"
	}
	if p.CustomizedRetryPolicy != nil {
		cust = "CustomizedRetryPolicy{...}"
	}
	return fmt.Sprintf("GroupRetryPolicy{type=%s, exponentialRetryPolicy=%s, customizedRetryPolicy=%s}", p.Type, exp, cust)
}

// javaMapString is AbstractMap.toString of a string map, keys sorted
// (Java prints hash order): {a=b, c=d}.
func javaMapString(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + m[k]
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
