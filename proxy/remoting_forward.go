package proxy

// The remoting port's messaging codes (cluster mode): each request is
// forwarded as the client sent it (code, header, body; only the opaque is
// the proxy's) to the master of the broker it names, and the broker's
// answer goes back with the client's opaque, MSG_REGION and TRACE_ON
// stamped as Java's proxy stamps them (docs/reference/proxy-remoting.md
// §2.4, §6). The broker is named by ext field `n` for SEND_MESSAGE_V2
// and SEND_BATCH_MESSAGE, `bname` for the other codes (Java clients set
// them since 4.9.5), the first queue of the body for LOCK_BATCH_MQ and
// UNLOCK_BATCH_MQ; its master's address comes from the route of the topic
// named after the broker. What is checked or changed on the way:
//
//	SEND_*            the topic's message.type must take the message's type (13 MESSAGE_ILLEGAL)
//	PULL, LITE_PULL   without the SUBSCRIPTION sysFlag bit: the group's registered subscription
//	                  filled in (25 / 24 when the group or topic is not registered); timeout suspend + 10 s
//	END_TRANSACTION   to the broker of the check-back it answers, else by bname (remoting_port.go)
//	RECALL_MESSAGE    the topic must be DELAY or MIXED
//
// A oneway request is forwarded oneway and answered nothing.

import (
	"strconv"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// Timeouts of the forwarded calls (Java's).
const (
	forwardTimeout     = 3 * time.Second
	pullTimeoutReserve = 10 * time.Second
	defaultSuspendPull = 20 * time.Second
)

// Remarks Java's proxy answers with.
const (
	remarkNoBrokerName   = "Request doesn't have field bname"
	remarkLocalForward   = "request is not implemented in LocalMessageService"
	remarkSubNotLatest   = "the consumer's subscription not latest"
	remarkSubNotExist    = "the consumer's subscription not exist"
	remarkEmptyLockBatch = "MessageQueue set is empty"
)

// brokerNameOf is the broker a request names.
func brokerNameOf(cmd *remoting.Command) string {
	if remoting.RequestCode(cmd.Code) == remoting.SendMessageV2 || remoting.RequestCode(cmd.Code) == remoting.SendBatchMessage {
		return cmd.ExtString("n")
	}
	return cmd.ExtString("bname")
}

// forwardByBrokerName forwards a request to the broker it names.
func (p *remotingPort) forwardByBrokerName(req *remoting.Request) *remoting.Command {
	return p.forwardNamed(req, brokerNameOf(req.Cmd), forwardTimeout)
}

// forwardNamed forwards a request to brokerName's master.
func (p *remotingPort) forwardNamed(req *remoting.Request, brokerName string, timeout time.Duration) *remoting.Command {
	if brokerName == "" {
		return p.refuse(req, remoting.VersionNotSupported, remarkNoBrokerName)
	}
	if p.local {
		return p.refuse(req, remoting.SystemError, remarkLocalForward)
	}
	addr, err := p.brokers.masterOf(brokerName, brokerName)
	if err != nil {
		return p.refuse(req, remoting.SystemError, err.Error())
	}
	fwd := req.Cmd.Clone()
	if req.Cmd.IsOneway() {
		if err := p.forward.InvokeOneway(addr, fwd); err != nil {
			p.log.Debug("oneway request not forwarded", zap.String("broker", addr), zap.Error(err))
		}
		return nil
	}
	p.forward.InvokeAsync(addr, fwd, timeout, func(resp *remoting.Command, err error) {
		if err != nil {
			resp = answer(req, remoting.SystemError, "forward to broker "+brokerName+" ("+addr+"): "+err.Error())
		} else {
			resp.Opaque = req.Cmd.Opaque
			stampResponse(resp)
		}
		_ = req.Ch.Send(resp)
	})
	return nil
}

// refuse answers a request the proxy does not forward, nothing when it
// is oneway.
func (p *remotingPort) refuse(req *remoting.Request, code remoting.ResponseCode, remark string) *remoting.Command {
	if req.Cmd.IsOneway() {
		return nil
	}
	return answer(req, code, remark)
}

// send is SEND_MESSAGE, SEND_MESSAGE_V2 and SEND_BATCH_MESSAGE: the
// topic's type checked, a transactional producer group noted for the
// heartbeats that bring its check-backs here.
func (p *remotingPort) send(req *remoting.Request) *remoting.Command {
	v2 := remoting.RequestCode(req.Cmd.Code) != remoting.SendMessage
	field := func(v1, short string) string {
		if v2 {
			return req.Cmd.ExtString(short)
		}
		return req.Cmd.ExtString(v1)
	}
	topic, group := field("topic", "b"), field("producerGroup", "a")
	props := store.ParseProperties(field("properties", "i"))
	mt := remotingMessageType(props)
	retryOrDLQ := protocol.IsRetryOrDLQTopic(topic)
	if p.cfg.EnableTopicMessageTypeCheck && props["TRANSFER_FLAG"] == "" && !retryOrDLQ {
		if tt := p.topicType(topic); mt != tt && tt != typeMixed {
			return p.refuse(req, remoting.MessageIllegal,
				"TopicMessageType validate failed, the expected type is "+tt+", but actual type is "+mt)
		}
	}
	if mt == typeTransaction && !retryOrDLQ {
		p.clients.noteTransaction(group, topic)
		p.kickHeartbeat()
	}
	return p.forwardNamed(req, brokerNameOf(req.Cmd), forwardTimeout)
}

// remotingMessageType is TopicMessageType.parseFromMessageProperty.
func remotingMessageType(props map[string]string) string {
	switch {
	case props["TRAN_MSG"] == "true":
		return typeTransaction
	case props["DELAY"] != "" || props["TIMER_DELIVER_MS"] != "" || props["TIMER_DELAY_SEC"] != "" || props["TIMER_DELAY_MS"] != "":
		return typeDelay
	case props["__SHARDINGKEY"] != "":
		return typeFIFO
	}
	return typeNormal
}

// recall is RECALL_MESSAGE: only a delay (or mixed) topic's messages.
func (p *remotingPort) recall(req *remoting.Request) *remoting.Command {
	if p.cfg.EnableTopicMessageTypeCheck {
		if tt := p.topicType(req.Cmd.ExtString("topic")); tt != typeDelay && tt != typeMixed {
			return p.refuse(req, remoting.MessageIllegal,
				"TopicMessageType validate failed, the expected type is "+tt+", but actual type is "+typeDelay)
		}
	}
	return p.forwardNamed(req, req.Cmd.ExtString("bname"), recallTimeout)
}

// pull is PULL_MESSAGE and LITE_PULL_MESSAGE: a push consumer's pull
// carries no subscription (the broker would have it from the heartbeat
// the proxy keeps), so the proxy puts the registered one in.
func (p *remotingPort) pull(req *remoting.Request) *remoting.Command {
	flag := req.Cmd.ExtInt32Or("sysFlag", 0)
	suspend := time.Duration(req.Cmd.ExtInt64Or("suspendTimeoutMillis", int64(defaultSuspendPull/time.Millisecond))) * time.Millisecond
	if flag&protocol.PullFlagSubscription == 0 {
		s, registered, found := p.clients.subscription(req.Cmd.ExtString("consumerGroup"), req.Cmd.ExtString("topic"))
		switch {
		case !registered:
			return p.refuse(req, remoting.SubscriptionNotLatest, remarkSubNotLatest)
		case !found:
			return p.refuse(req, remoting.SubscriptionNotExist, remarkSubNotExist)
		}
		cmd := req.Cmd.Clone()
		cmd.SetExt("sysFlag", strconv.Itoa(int(flag|protocol.PullFlagSubscription)))
		cmd.SetExt("subscription", s.SubString)
		expr := s.ExpressionType
		if expr == "" {
			expr = "TAG"
		}
		cmd.SetExt("expressionType", expr)
		req.Cmd = cmd
	}
	return p.forwardNamed(req, req.Cmd.ExtString("bname"), suspend+pullTimeoutReserve)
}

// lockBatch is LOCK_BATCH_MQ and UNLOCK_BATCH_MQ, to the broker of the
// body's first queue (a client sends one request per broker).
func (p *remotingPort) lockBatch(req *remoting.Request) *remoting.Command {
	body, err := protocol.DecodeLockBatchRequestBody(req.Cmd.Body)
	if err != nil {
		return p.refuse(req, remoting.SystemError, "lock batch body: "+err.Error())
	}
	if len(body.MQSet) == 0 {
		resp := p.refuse(req, remoting.SystemError, remarkEmptyLockBatch)
		if resp != nil {
			resp.Body = req.Cmd.Body
		}
		return resp
	}
	return p.forwardNamed(req, body.MQSet[0].BrokerName, forwardTimeout)
}

// endTransaction is END_TRANSACTION: to the broker whose check-back it
// answers, else to the one it names; a two-way request is answered
// SUCCESS as Java's proxy answers it.
func (p *remotingPort) endTransaction(req *remoting.Request) *remoting.Command {
	name := req.Cmd.ExtString("bname")
	if d, ok := p.txBrokers.take(req.Cmd.ExtString("producerGroup"), req.Cmd.ExtString("transactionId")); ok {
		name = d.brokerName
	}
	switch {
	case p.local:
	case name == "":
		p.log.Warn("END_TRANSACTION names no broker and answers no check-back: dropped",
			zap.String("group", req.Cmd.ExtString("producerGroup")), zap.String("transactionId", req.Cmd.ExtString("transactionId")))
	default:
		if addr, err := p.brokers.masterOf(name, name); err == nil {
			if err := p.forward.InvokeOneway(addr, req.Cmd.Clone()); err != nil {
				p.log.Warn("END_TRANSACTION not forwarded", zap.String("broker", addr), zap.Error(err))
			}
		}
	}
	if req.Cmd.IsOneway() {
		return nil
	}
	return answer(req, remoting.Success, "")
}

// relayCheck hands a broker's CHECK_TRANSACTION_STATE to a producer of
// the group connected here; it reports whether there was one.
func (p *remotingPort) relayCheck(group, brokerName string, check *remoting.Command) bool {
	ch := p.clients.producerOf(group)
	if ch == nil {
		return false
	}
	p.txBrokers.put(group, check.ExtString("transactionId"), txData{brokerName: brokerName})
	if err := ch.InvokeOneway(check.Clone()); err != nil {
		p.log.Warn("check transaction: not relayed to the producer", zap.String("remote", ch.RemoteAddr()), zap.Error(err))
		return false
	}
	return true
}
