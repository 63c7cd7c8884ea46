package namesrv

// DELETE_TOPIC_IN_NAMESRV (216) and 5.x REGISTER_TOPIC_IN_NAMESRV (217),
// DefaultRequestProcessor.deleteTopicInNamesrv / registerTopicToNamesrv.
//
// 216: header topic (req), clusterName (opt). The topic's route is removed;
// with clusterName only the queues on that cluster's brokers (the topic
// goes when none is left). SUCCESS.
// 217: header topic (req); body TopicRouteData whose queueDatas are put for
// the topic (all-or-nothing for a new topic when a queue data names an
// unknown broker; for a known topic Java keeps the entries before it).
// SUCCESS, also when nothing was registered.

import (
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

func (ns *NameServer) deleteTopicInNamesrv(req *remoting.Request) *remoting.Command {
	h := readHeader(req.Cmd)
	topic := h.str("topic")
	if resp := h.reject(); resp != nil {
		return resp
	}
	ns.routes.deleteTopic(topic, req.Cmd.ExtString("clusterName"))
	return success(req.Cmd)
}

func (ns *NameServer) registerTopicInNamesrv(req *remoting.Request) *remoting.Command {
	h := readHeader(req.Cmd)
	topic := h.str("topic")
	if resp := h.reject(); resp != nil {
		return resp
	}
	if len(req.Cmd.Body) > 0 {
		route, err := protocol.DecodeTopicRouteData(req.Cmd.Body)
		if err != nil {
			return systemError(req.Cmd, "bad TopicRouteData body: "+err.Error())
		}
		ns.routes.registerTopic(topic, route.QueueDatas)
	}
	return success(req.Cmd)
}
