package namesrv

// The topic list codes, DefaultRequestProcessor:
//
//	GET_ALL_TOPIC_LIST_FROM_NAMESERVER (206)  no header; every topic with a route.
//	GET_TOPICS_BY_CLUSTER (224)               header cluster (req); topics on the cluster's brokers.
//	GET_SYSTEM_TOPIC_LIST_FROM_NS (304)       no header; cluster and broker names, plus brokerAddr.
//	GET_UNIT_TOPIC_LIST (311)                 no header; topics with the unit flag.
//	GET_HAS_UNIT_SUB_TOPIC_LIST (312)         no header; topics with the unit-sub flag.
//	GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST (313)  no header; unit-sub but not unit.
//
// Response: SUCCESS with a TopicList body {"topicList":[...]} (304 adds
// "brokerAddr", the address of one broker, which the Java client asks for
// GET_SYSTEM_TOPIC_LIST_FROM_BROKER next). 5.x answers SYSTEM_ERROR
// "disable" to 206 when enableAllTopicList is off and to 224 and 311-313
// when enableTopicList is off.
//
// Difference from Java: the lists are sorted (Java: hash order).

import (
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

func topicListResponse(cmd *remoting.Command, list *protocol.TopicList) *remoting.Command {
	resp := success(cmd)
	resp.Body = list.AppendJSON(nil)
	return resp
}

func (ns *NameServer) getAllTopicList(req *remoting.Request) *remoting.Command {
	if !ns.cfg.enableAllTopicList.Load() {
		return systemError(req.Cmd, "disable")
	}
	return topicListResponse(req.Cmd, &protocol.TopicList{TopicList: ns.routes.allTopics()})
}

func (ns *NameServer) getTopicsByCluster(req *remoting.Request) *remoting.Command {
	if !ns.cfg.enableTopicList.Load() {
		return systemError(req.Cmd, "disable")
	}
	h := readHeader(req.Cmd)
	cluster := h.str("cluster")
	if resp := h.reject(); resp != nil {
		return resp
	}
	return topicListResponse(req.Cmd, &protocol.TopicList{TopicList: ns.routes.topicsByCluster(cluster)})
}

func (ns *NameServer) getSystemTopicList(req *remoting.Request) *remoting.Command {
	return topicListResponse(req.Cmd, ns.routes.systemTopics())
}

func (ns *NameServer) unitTopicList(req *remoting.Request, pick func(int32) bool) *remoting.Command {
	if !ns.cfg.enableTopicList.Load() {
		return systemError(req.Cmd, "disable")
	}
	return topicListResponse(req.Cmd, &protocol.TopicList{TopicList: ns.routes.topicsWhere(pick)})
}

func hasUnit(flag int32) bool    { return flag&protocol.TopicSysFlagUnit != 0 }
func hasUnitSub(flag int32) bool { return flag&protocol.TopicSysFlagUnitSub != 0 }

func (ns *NameServer) getUnitTopicList(req *remoting.Request) *remoting.Command {
	return ns.unitTopicList(req, hasUnit)
}

func (ns *NameServer) getHasUnitSubTopicList(req *remoting.Request) *remoting.Command {
	return ns.unitTopicList(req, hasUnitSub)
}

func (ns *NameServer) getHasUnitSubUnUnitTopicList(req *remoting.Request) *remoting.Command {
	return ns.unitTopicList(req, func(f int32) bool { return !hasUnit(f) && hasUnitSub(f) })
}
