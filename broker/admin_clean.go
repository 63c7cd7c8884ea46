package broker

// CLEAN_EXPIRED_CONSUMEQUEUE (306) and CLEAN_UNUSED_TOPIC (316):
// AdminBrokerProcessor.cleanExpiredConsumeQueue / cleanUnusedTopic (mqadmin
// cleanExpiredCQ, cleanUnusedTopic). No header, no body; SUCCESS.
//
//	306: every consume queue (but the delay levels') whose last message
//	     lies below the commitlog's first byte is destroyed.
//	316: the consume queues of every topic without a topic config are
//	     destroyed, except SCHEDULE_TOPIC_XXXX, RMQ_SYS_TRANS_OP_HALF_TOPIC
//	     and LMQ queues; with autoDeleteUnusedStats their statistics go
//	     too.
//
// 5.x answers SYSTEM_ERROR with the failure's text when 306 fails; 4.9.x
// (and 316 on both lines) log it and answer SUCCESS. Both codes exist in
// 4.9.x and 5.x.

import (
	"strings"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// lmqTopicPrefix is MixAll.LMQ_PREFIX.
const lmqTopicPrefix = "%LMQ%"

// cleanExpiredConsumeQueue serves CLEAN_EXPIRED_CONSUMEQUEUE.
func (b *Broker) cleanExpiredConsumeQueue(req *remoting.Request) *remoting.Command {
	b.log.Warn("invoke cleanExpiredConsumeQueue start.")
	err := b.store.CleanExpiredConsumeQueues()
	b.log.Warn("invoke cleanExpiredConsumeQueue end.")
	if err != nil {
		b.log.Error("cleanExpiredConsumeQueue failed", zap.Error(err))
		if b.opts.Line >= protocol.Line5 {
			return b.response(req.Cmd, remoting.SystemError, err.Error())
		}
	}
	return b.response(req.Cmd, remoting.Success, "")
}

// cleanUnusedTopic serves CLEAN_UNUSED_TOPIC.
func (b *Broker) cleanUnusedTopic(req *remoting.Request) *remoting.Command {
	b.log.Warn("invoke cleanUnusedTopic start.")
	removed, err := b.store.CleanUnusedTopics(b.keepTopicQueues)
	if err != nil {
		b.log.Error("cleanUnusedTopic failed", zap.Error(err))
	}
	if b.opts.Configs.Broker.AutoDeleteUnusedStats {
		for _, topic := range removed {
			b.brokerStats.topicDeleted(topic)
		}
	}
	b.log.Warn("invoke cleanUnusedTopic end.")
	return b.response(req.Cmd, remoting.Success, "")
}

// keepTopicQueues reports whether cleanUnusedTopic keeps a topic's queues.
func (b *Broker) keepTopicQueues(topic string) bool {
	if topic == store.ScheduleTopic || topic == TopicTransOp || strings.HasPrefix(topic, lmqTopicPrefix) {
		return true
	}
	_, ok := b.topics.get(topic)
	return ok
}
