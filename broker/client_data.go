package broker

import (
	jsoniter "github.com/json-iterator/go"
)

// jsonAPI decodes request bodies (fastjson output is plain JSON for these)
// and encodes the small response bodies whose field order Java does not
// depend on.
var jsonAPI = jsoniter.ConfigCompatibleWithStandardLibrary

// Message models, consume types and where a new consumer starts: the
// enum names Java sends (wire values: do not change).
const (
	modelClustering     = "CLUSTERING"
	modelBroadcasting   = "BROADCASTING"
	consumePassively    = "CONSUME_PASSIVELY"
	expressionTypeTag   = "TAG"
	expressionTypeSQL92 = "SQL92"
	subAll              = "*"
)

// heartbeatData is HeartbeatData, the HEART_BEAT body:
//
//	{"clientID":"ip@pid","consumerDataSet":[{ConsumerData}],"producerDataSet":[{"groupName":"p"}]}
type heartbeatData struct {
	ClientID        string         `json:"clientID"`
	ProducerDataSet []producerData `json:"producerDataSet"`
	ConsumerDataSet []consumerData `json:"consumerDataSet"`
}

type producerData struct {
	GroupName string `json:"groupName"`
}

// consumerData is ConsumerData:
//
//	{"consumeFromWhere":"CONSUME_FROM_LAST_OFFSET","consumeType":"CONSUME_PASSIVELY","groupName":"g",
//	 "messageModel":"CLUSTERING","subscriptionDataSet":[{SubscriptionData}],"unitMode":false}
type consumerData struct {
	GroupName           string             `json:"groupName"`
	ConsumeType         string             `json:"consumeType"`
	MessageModel        string             `json:"messageModel"`
	ConsumeFromWhere    string             `json:"consumeFromWhere"`
	SubscriptionDataSet []subscriptionData `json:"subscriptionDataSet"`
	UnitMode            bool               `json:"unitMode"`
}

// subscriptionData is SubscriptionData, one topic a consumer subscribes:
//
//	{"classFilterMode":false,"codeSet":[2598919],"expressionType":"TAG","subString":"TagA || TagB",
//	 "subVersion":1700000000000,"tagsSet":["TagA","TagB"],"topic":"T"}
type subscriptionData struct {
	ClassFilterMode bool     `json:"classFilterMode"`
	CodeSet         []int32  `json:"codeSet"`
	ExpressionType  string   `json:"expressionType"`
	SubString       string   `json:"subString"`
	SubVersion      int64    `json:"subVersion"`
	TagsSet         []string `json:"tagsSet"`
	Topic           string   `json:"topic"`
}

// queueRef is MessageQueue: {"brokerName":"b","queueId":0,"topic":"T"}.
type queueRef struct {
	BrokerName string `json:"brokerName"`
	QueueID    int32  `json:"queueId"`
	Topic      string `json:"topic"`
}

// lockBatchBody is LockBatchRequestBody and UnlockBatchRequestBody.
type lockBatchBody struct {
	ConsumerGroup  string     `json:"consumerGroup"`
	ClientID       string     `json:"clientId"`
	OnlyThisBroker bool       `json:"onlyThisBroker"`
	MQSet          []queueRef `json:"mqSet"`
}
