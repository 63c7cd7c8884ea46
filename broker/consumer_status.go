package broker

// INVOKE_BROKER_TO_GET_CONSUMER_STATUS (223): AdminBrokerProcessor.
// getConsumerStatus with Broker2Client.getConsumeStatus (mqadmin
// getConsumerStatus, DefaultMQAdminExt.getConsumeStatus).
//
// Header: topic, group, clientAddr (a client id; empty = every client).
// The broker sends GET_CONSUMER_STATUS_FROM_CLIENT (221, header topic and
// group) to each connection of the group (only the named client's when
// clientAddr is set), waiting up to 5 s for each, and collects each
// client's answer (protocol.GetConsumerStatusBody, its offsets of the
// topic's queues) under its client id. Clients that fail or time out are
// left out. The answer's body is a GetConsumerStatusBody with
// consumerTable set.
//
// Errors: SYSTEM_ERROR "No Any Consumer online in the consumer group:
// [g]" when the group has no connection (Java throws a
// NullPointerException for a group it never saw; the remark differs),
// SYSTEM_ERROR "the client does not support this feature. version=..."
// for a client older than V3_0_7_SNAPSHOT. Same in 4.9.x and 5.x.

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// consumerStatusTimeout is Broker2Client's 5 s per client.
const consumerStatusTimeout = 5 * time.Second

// versionV3_0_7Snapshot is MQVersion.Version.V3_0_7_SNAPSHOT's ordinal.
const versionV3_0_7Snapshot int32 = 28

// getConsumerStatus serves INVOKE_BROKER_TO_GET_CONSUMER_STATUS.
func (c *consumerCalls) getConsumerStatus(req *remoting.Request) *remoting.Command {
	topic, group, only := req.Cmd.ExtString("topic"), req.Cmd.ExtString("group"), req.Cmd.ExtString("clientAddr")
	c.log.Info("[get-consumer-status] get consumer status", zap.String("by", req.Ch.RemoteAddr()),
		zap.String("topic", topic), zap.String("group", group))
	_, chans, _ := c.clients.group(group)
	if len(chans) == 0 {
		return c.reply(req.Cmd, remoting.SystemError, fmt.Sprintf("No Any Consumer online in the consumer group: [%s]", group))
	}
	slices.SortFunc(chans, func(x, y clientChannel) int { return strings.Compare(x.clientID, y.clientID) })
	body := protocol.GetConsumerStatusBody{MessageQueueTable: map[protocol.MessageQueue]int64{},
		ConsumerTable: map[string]map[protocol.MessageQueue]int64{}}
	for _, cl := range chans {
		if cl.version < versionV3_0_7Snapshot {
			return c.reply(req.Cmd, remoting.SystemError, fmt.Sprintf("the client does not support this feature. version=%d", cl.version))
		}
		if strings.TrimSpace(only) != "" && only != cl.clientID {
			continue
		}
		if offsets, ok := c.askConsumerStatus(cl, topic, group); ok {
			body.ConsumerTable[cl.clientID] = offsets
		}
		if only == cl.clientID {
			break
		}
	}
	resp := c.replyOK(req.Cmd)
	resp.Body = body.AppendJSON(nil)
	return resp
}

// askConsumerStatus sends one client GET_CONSUMER_STATUS_FROM_CLIENT and
// returns its offsets.
func (c *consumerCalls) askConsumerStatus(cl clientChannel, topic, group string) (map[protocol.MessageQueue]int64, bool) {
	ask := remoting.NewRequest(remoting.GetConsumerStatusFromClient, map[string]string{"topic": topic, "group": group})
	answer, err := cl.ch.InvokeTimeout(ask, consumerStatusTimeout)
	if err != nil {
		c.log.Error("[get-consumer-status] get consumer status exception", zap.String("topic", topic),
			zap.String("group", group), zap.Error(err))
		return nil, false
	}
	if answer.Code != int32(remoting.Success) || answer.Body == nil {
		return nil, false
	}
	body, err := protocol.DecodeGetConsumerStatusBody(answer.Body)
	if err != nil {
		c.log.Error("[get-consumer-status] bad answer", zap.String("client", cl.clientID), zap.Error(err))
		return nil, false
	}
	return body.MessageQueueTable, true
}
