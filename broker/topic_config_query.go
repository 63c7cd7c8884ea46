package broker

// GET_TOPIC_CONFIG (351, 5.x): AdminBrokerProcessor.getTopicConfig.
//
// Header: topic (lo, the static-topic flag, is ignored: this broker keeps
// no queue mappings). Body: TopicConfigAndQueueMapping, which is the 5.x
// TopicConfig JSON (its mappingDetail is null, which fastjson leaves out);
// an unknown topic is TOPIC_NOT_EXIST "No topic in this broker. topic: T".

import (
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// getTopicConfig serves GET_TOPIC_CONFIG.
func (a *topicAdmin) getTopicConfig(req *remoting.Request) *remoting.Command {
	topic := req.Cmd.ExtString("topic")
	tc, ok := a.topics.get(topic)
	if !ok {
		return a.reply(req.Cmd, remoting.TopicNotExist, "No topic in this broker. topic: "+topic)
	}
	return a.replyBody(req.Cmd, tc.AppendJSONLine(nil, protocol.Line5))
}
