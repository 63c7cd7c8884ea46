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

	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// lmqTopicPrefix is MixAll.LMQ_PREFIX.
const lmqTopicPrefix = "%LMQ%"

// cleanExpiredConsumeQueue serves CLEAN_EXPIRED_CONSUMEQUEUE.
func (a *topicAdmin) cleanExpiredConsumeQueue(req *remoting.Request) *remoting.Command {
	a.log.Warn("invoke cleanExpiredConsumeQueue start.")
	err := a.store.CleanExpiredConsumeQueues()
	a.log.Warn("invoke cleanExpiredConsumeQueue end.")
	if err != nil {
		a.log.Error("cleanExpiredConsumeQueue failed", zap.Error(err))
		if a.line.reportsCleanFailure() {
			return a.reply(req.Cmd, remoting.SystemError, err.Error())
		}
	}
	return a.replyOK(req.Cmd)
}

// cleanUnusedTopic serves CLEAN_UNUSED_TOPIC.
func (a *topicAdmin) cleanUnusedTopic(req *remoting.Request) *remoting.Command {
	a.log.Warn("invoke cleanUnusedTopic start.")
	removed, err := a.store.CleanUnusedTopics(a.keepTopicQueues)
	if err != nil {
		a.log.Error("cleanUnusedTopic failed", zap.Error(err))
	}
	if a.settings.load().Broker.AutoDeleteUnusedStats {
		for _, topic := range removed {
			a.stats.topicDeleted(topic)
		}
	}
	a.log.Warn("invoke cleanUnusedTopic end.")
	return a.replyOK(req.Cmd)
}

// keepTopicQueues reports whether cleanUnusedTopic keeps a topic's queues.
func (a *topicAdmin) keepTopicQueues(topic string) bool {
	if topic == store.ScheduleTopic || topic == TopicTransOp || strings.HasPrefix(topic, lmqTopicPrefix) {
		return true
	}
	_, ok := a.topics.get(topic)
	return ok
}
