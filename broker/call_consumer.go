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
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// callConsumerTimeout is Broker2Client.callClient's 10 s.
const callConsumerTimeout = 10 * time.Second

// consumerCalls serves the admin codes a consumer answers: the broker
// asks the consumer's connection and relays its answer (these, and
// INVOKE_BROKER_TO_GET_CONSUMER_STATUS in consumer_status.go).
type consumerCalls struct {
	replier
	log      *zap.Logger
	settings *liveSettings
	clients  *clientTable
	records  recordReader
}

// recordReader reads a stored record's bytes at a commitlog offset.
type recordReader interface {
	ReadRecord(offset int64) (data []byte, release func(), ok bool)
}

// getConsumerRunningInfo serves GET_CONSUMER_RUNNING_INFO.
func (c *consumerCalls) getConsumerRunningInfo(req *remoting.Request) *remoting.Command {
	return c.callConsumer(req, remoting.GetConsumerRunningInfo, req.Cmd.Body)
}

// consumeMessageDirectly serves CONSUME_MESSAGE_DIRECTLY.
func (c *consumerCalls) consumeMessageDirectly(req *remoting.Request) *remoting.Command {
	req.Cmd.SetExt("brokerName", c.settings.load().Broker.BrokerName)
	var body []byte
	if _, off, err := store.DecodeMessageID(req.Cmd.ExtString("msgId")); err == nil {
		if data, release, ok := c.records.ReadRecord(off); ok {
			body = append([]byte(nil), data...)
			release()
		}
	}
	return c.callConsumer(req, remoting.ConsumeMessageDirectly, body)
}

// callConsumer forwards a request to a consumer and returns its answer.
func (c *consumerCalls) callConsumer(req *remoting.Request, code remoting.RequestCode, body []byte) *remoting.Command {
	group, clientID := req.Cmd.ExtString("consumerGroup"), req.Cmd.ExtString("clientId")
	ch := c.clients.consumerChannel(group, clientID)
	if ch == nil {
		return c.reply(req.Cmd, remoting.SystemError, fmt.Sprintf("The Consumer <%s> <%s> not online", group, clientID))
	}
	fwd := remoting.NewRequest(code, nil)
	fwd.ExtFields = req.Cmd.ExtFields.Clone()
	fwd.Body = body
	answer, err := ch.InvokeTimeout(fwd, callConsumerTimeout)
	switch {
	case errors.Is(err, remoting.ErrCallTimeout):
		return c.reply(req.Cmd, remoting.ConsumeMsgTimeout, fmt.Sprintf("consumer <%s> <%s> Timeout: %v", group, clientID, err))
	case err != nil:
		return c.reply(req.Cmd, remoting.SystemError, fmt.Sprintf("invoke consumer <%s> <%s> Exception: %v", group, clientID, err))
	}
	answer.Opaque = req.Cmd.Opaque
	return answer
}
