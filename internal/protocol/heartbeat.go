package protocol

// HeartbeatData is the HEART_BEAT body a client sends every 30 s
// (wire format: do not change; fastjson writes these as plain JSON, so
// the json tags are enough to read and write them):
//
//	{"clientID":"ip@pid","consumerDataSet":[{ConsumerData}],"producerDataSet":[{"groupName":"p"}]}
type HeartbeatData struct {
	ClientID        string         `json:"clientID"`
	ConsumerDataSet []ConsumerData `json:"consumerDataSet"`
	ProducerDataSet []ProducerData `json:"producerDataSet"`
}

// ProducerData names a producer group of a heartbeat.
type ProducerData struct {
	GroupName string `json:"groupName"`
}

// ConsumerData is one consumer group of a heartbeat:
//
//	{"consumeFromWhere":"CONSUME_FROM_LAST_OFFSET","consumeType":"CONSUME_PASSIVELY","groupName":"g",
//	 "messageModel":"CLUSTERING","subscriptionDataSet":[{SubscriptionData}],"unitMode":false}
type ConsumerData struct {
	ConsumeFromWhere    string             `json:"consumeFromWhere"`
	ConsumeType         string             `json:"consumeType"`
	GroupName           string             `json:"groupName"`
	MessageModel        string             `json:"messageModel"`
	SubscriptionDataSet []SubscriptionData `json:"subscriptionDataSet"`
	UnitMode            bool               `json:"unitMode"`
}

// SubscriptionData is one topic a consumer subscribes, with its tag
// expression split into tags and their String.hashCode values:
//
//	{"classFilterMode":false,"codeSet":[2598919],"expressionType":"TAG","subString":"TagA || TagB",
//	 "subVersion":1700000000000,"tagsSet":["TagA","TagB"],"topic":"T"}
type SubscriptionData struct {
	ClassFilterMode bool     `json:"classFilterMode"`
	CodeSet         []int32  `json:"codeSet"`
	ExpressionType  string   `json:"expressionType"`
	SubString       string   `json:"subString"`
	SubVersion      int64    `json:"subVersion"`
	TagsSet         []string `json:"tagsSet"`
	Topic           string   `json:"topic"`
}
