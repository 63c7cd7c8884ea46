package protocol

import "github.com/rmqgo/rmqgo/internal/fastjson"

// The bodies a consumer sends besides its heartbeat, read as fastjson
// reads them into Java's classes (wire format: do not change):
//
//	LOCK_BATCH_MQ, UNLOCK_BATCH_MQ (LockBatchRequestBody, UnlockBatchRequestBody):
//	  {"clientId":"c","consumerGroup":"g","mqSet":[{MessageQueue}],"onlyThisBroker":false}
//	CHECK_CLIENT_CONFIG (CheckClientRequestBody):
//	  {"clientId":"c","group":"g","subscriptionData":{SubscriptionData}}
//
// onlyThisBroker is 5.x's (a lock that is not forwarded to the other
// brokers of the group); 4.x clients leave it out.

// LockBatchRequestBody is LockBatchRequestBody and UnlockBatchRequestBody.
type LockBatchRequestBody struct {
	ConsumerGroup  string
	ClientID       string
	OnlyThisBroker bool
	MQSet          []MessageQueue
}

// DecodeLockBatchRequestBody reads a LOCK_BATCH_MQ or UNLOCK_BATCH_MQ body.
func DecodeLockBatchRequestBody(data []byte) (*LockBatchRequestBody, error) {
	b := &LockBatchRequestBody{}
	err := decodeBean(data, func(r *fastjson.Reader, prop string) (err error) {
		switch prop {
		case "consumergroup":
			b.ConsumerGroup, err = r.Str()
		case "clientid":
			b.ClientID, err = r.Str()
		case "onlythisbroker":
			b.OnlyThisBroker, err = r.BoolOr(b.OnlyThisBroker)
		case "mqset":
			b.MQSet, err = readArray(r, readMessageQueue)
		default:
			err = r.Skip()
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return b, nil
}

// CheckClientRequestBody is CHECK_CLIENT_CONFIG's body: the subscription
// a consumer is about to use, checked before it starts.
type CheckClientRequestBody struct {
	ClientID string
	Group    string
	// SubscriptionData is nil when the body has none (or null).
	SubscriptionData *SubscriptionData
}

// DecodeCheckClientRequestBody reads a CHECK_CLIENT_CONFIG body.
func DecodeCheckClientRequestBody(data []byte) (*CheckClientRequestBody, error) {
	b := &CheckClientRequestBody{}
	err := decodeBean(data, func(r *fastjson.Reader, prop string) (err error) {
		switch prop {
		case "clientid":
			b.ClientID, err = r.Str()
		case "group":
			b.Group, err = r.Str()
		case "subscriptiondata":
			if r.Null() {
				b.SubscriptionData = nil
				return nil
			}
			var s SubscriptionData
			s, err = readSubscriptionData(r)
			b.SubscriptionData = &s
		default:
			err = r.Skip()
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return b, nil
}

// readMessageQueue reads a MessageQueue object; null gives the zero value.
func readMessageQueue(r *fastjson.Reader) (MessageQueue, error) {
	var q MessageQueue
	if r.Null() {
		return q, nil
	}
	err := r.Object(func(key string) (err error) {
		switch key {
		case "topic":
			q.Topic, err = r.Str()
		case "brokername":
			q.BrokerName, err = r.Str()
		case "queueid":
			q.QueueID, err = r.IntOr(q.QueueID)
		default:
			err = r.Skip()
		}
		return err
	})
	return q, err
}
