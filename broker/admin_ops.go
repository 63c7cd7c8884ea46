package broker

// The operations surface of AdminBrokerProcessor that mqadmin and the
// dashboard use to look after a broker: subscription groups
// (admin_group.go), client connections and who consumes what
// (admin_connections.go), topic stats and the offset documents
// (admin_offsets.go) and the broker's configuration
// (admin_broker_config.go).
//
// Codes only 5.x brokers answer (UPDATE_AND_CREATE_SUBSCRIPTIONGROUP_LIST,
// GET_SUBSCRIPTIONGROUP_CONFIG, QUERY_TOPICS_BY_CONSUMER,
// QUERY_SUBSCRIPTION_BY_CONSUMER) are served on
// Line5 only; a 4.9.x broker answers them REQUEST_CODE_NOT_SUPPORTED.

import (
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// opsHandlers are the operations codes of the admin pool.
func (b *Broker) opsHandlers() map[remoting.RequestCode]remoting.Handler {
	m := map[remoting.RequestCode]remoting.Handler{
		remoting.UpdateAndCreateSubscriptiongroup: b.updateAndCreateSubscriptionGroup,
		remoting.GetAllSubscriptiongroupConfig:    b.getAllSubscriptionGroup,
		remoting.DeleteSubscriptiongroup:          b.deleteSubscriptionGroup,
		remoting.GetConsumerConnectionList:        b.getConsumerConnectionList,
		remoting.GetProducerConnectionList:        b.getProducerConnectionList,
		remoting.QueryTopicConsumeByWho:           b.queryTopicConsumeByWho,
		remoting.GetTopicStatsInfo:                b.getTopicStatsInfo,
		remoting.GetAllConsumerOffset:             b.getAllConsumerOffset,
		remoting.GetAllDelayOffset:                b.getAllDelayOffset,
		remoting.GetBrokerConfig:                  b.getBrokerConfig,
		remoting.UpdateBrokerConfig:               b.updateBrokerConfig,
	}
	if b.opts.Line >= protocol.Line5 {
		m[remoting.UpdateAndCreateSubscriptiongroupList] = b.updateAndCreateSubscriptionGroupList
		m[remoting.GetSubscriptiongroupConfig] = b.getSubscriptionGroup
		m[remoting.QueryTopicsByConsumer] = b.queryTopicsByConsumer
		m[remoting.QuerySubscriptionByConsumer] = b.querySubscriptionByConsumer
	}
	return m
}

// requiredFields checks the header fields Java marks @CFNotNull: the
// answer for the first one missing (SYSTEM_ERROR, the text of Java's
// RemotingCommandException), nil when all are there.
func (b *Broker) requiredFields(cmd *remoting.Command, keys ...string) *remoting.Command {
	for _, k := range keys {
		if _, ok := cmd.Ext(k); !ok {
			return b.response(cmd, remoting.SystemError, "the custom field <"+k+"> is null")
		}
	}
	return nil
}

// jsonResponse is SUCCESS with body.
func (b *Broker) jsonResponse(cmd *remoting.Command, body []byte) *remoting.Command {
	resp := b.response(cmd, remoting.Success, "")
	resp.Body = body
	return resp
}
