package broker

import (
	jsoniter "github.com/json-iterator/go"

	"github.com/rmqgo/rmqgo/internal/protocol"
)

// jsonAPI encodes the small response bodies whose field order Java does
// not depend on. Request bodies are read with protocol's decoders (the
// fastjson-compatible reader), never with this.
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

// The heartbeat body types (protocol.HeartbeatData and its parts).
type (
	heartbeatData    = protocol.HeartbeatData
	consumerData     = protocol.ConsumerData
	subscriptionData = protocol.SubscriptionData
)

// queueRef is MessageQueue: {"brokerName":"b","queueId":0,"topic":"T"}.
type queueRef = protocol.MessageQueue
