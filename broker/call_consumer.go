package broker

// Requests the admin tools send a consumer through the broker
// (AdminBrokerProcessor.callConsumer): the broker finds the consumer's
// connection in its group by client id, sends it the request with the
// same header fields and body, waits up to 10 s, and returns the
// consumer's answer as its own.
//
//	GET_CONSUMER_RUNNING_INFO (307): consumerGroup, clientId, jstackEnable.
//	  The answer's body is ConsumerRunningInfo (mqadmin consumerStatus).
//	CONSUME_MESSAGE_DIRECTLY (309): consumerGroup, clientId, msgId (an
//	  offset message id), topic, brokerName. The broker adds brokerName
//	  and puts the stored message (the record as in the commitlog) in the
//	  body; the consumer runs its listener on it and answers with a
//	  ConsumeMessageDirectlyResult (mqadmin consumeMessage, the
//	  dashboard's "resend" of a message or a dead letter).
//
// Errors: SYSTEM_ERROR "The Consumer <group> <clientId> not online",
// CONSUME_MSG_TIMEOUT "consumer <group> <clientId> Timeout: ...",
// SYSTEM_ERROR "invoke consumer <group> <clientId> Exception: ...".

import (
	"errors"
	"fmt"
	"maps"
	"time"

	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// callConsumerTimeout is Broker2Client.callClient's 10 s.
const callConsumerTimeout = 10 * time.Second

// callConsumerHandlers are the admin codes answered by a consumer.
func (b *Broker) callConsumerHandlers() map[remoting.RequestCode]remoting.Handler {
	return map[remoting.RequestCode]remoting.Handler{
		remoting.GetConsumerRunningInfo: func(req *remoting.Request) *remoting.Command {
			return b.callConsumer(req, remoting.GetConsumerRunningInfo, req.Cmd.Body)
		},
		remoting.ConsumeMessageDirectly: b.consumeMessageDirectly,
	}
}

// consumeMessageDirectly serves CONSUME_MESSAGE_DIRECTLY.
func (b *Broker) consumeMessageDirectly(req *remoting.Request) *remoting.Command {
	req.Cmd.SetExt("brokerName", b.opts.Configs.Broker.BrokerName)
	var body []byte
	if _, off, err := store.DecodeMessageID(req.Cmd.ExtString("msgId")); err == nil {
		if data, release, ok := b.store.ReadRecord(off); ok {
			body = append([]byte(nil), data...)
			release()
		}
	}
	return b.callConsumer(req, remoting.ConsumeMessageDirectly, body)
}

// callConsumer forwards a request to a consumer and returns its answer.
func (b *Broker) callConsumer(req *remoting.Request, code remoting.RequestCode, body []byte) *remoting.Command {
	group, clientID := req.Cmd.ExtString("consumerGroup"), req.Cmd.ExtString("clientId")
	ch := b.clients.consumerChannel(group, clientID)
	if ch == nil {
		return b.response(req.Cmd, remoting.SystemError, fmt.Sprintf("The Consumer <%s> <%s> not online", group, clientID))
	}
	fwd := remoting.NewRequest(code, maps.Clone(req.Cmd.ExtFields))
	fwd.Body = body
	answer, err := ch.InvokeTimeout(fwd, callConsumerTimeout)
	switch {
	case errors.Is(err, remoting.ErrCallTimeout):
		return b.response(req.Cmd, remoting.ConsumeMsgTimeout, fmt.Sprintf("consumer <%s> <%s> Timeout: %v", group, clientID, err))
	case err != nil:
		return b.response(req.Cmd, remoting.SystemError, fmt.Sprintf("invoke consumer <%s> <%s> Exception: %v", group, clientID, err))
	}
	answer.Opaque = req.Cmd.Opaque
	return answer
}
