package namesrv

// GET_BROKER_CLUSTER_INFO (106) and 5.x GET_BROKER_MEMBER_GROUP (901),
// DefaultRequestProcessor.getBrokerClusterInfo / getBrokerMemberGroup.
//
// 106: no header. Response SUCCESS, body ClusterInfo in the default
// fastjson style (bare brokerId keys), always.
// 901: header clusterName, brokerName (req). Response SUCCESS, body
// GetBrokerMemberGroupResponseBody {"brokerMemberGroup":{...}}, with no
// addresses when the broker name is unknown, and (as in Java) the remark
// "not set any response code".
//
// Difference from Java: map entries are sorted by key (Java: hash order).

import "github.com/rmqgo/rmqgo/remoting"

func (ns *NameServer) getBrokerClusterInfo(req *remoting.Request) *remoting.Command {
	resp := success(req.Cmd)
	resp.Body = ns.routes.clusterInfo().AppendJSON(make([]byte, 0, 512))
	return resp
}

func (ns *NameServer) getBrokerMemberGroup(req *remoting.Request) *remoting.Command {
	h := readHeader(req.Cmd)
	cluster, name := h.str("clusterName"), h.str("brokerName")
	if resp := h.reject(); resp != nil {
		return resp
	}
	// Java leaves createResponseCommand's remark "not set any response
	// code" on this SUCCESS; so does this.
	resp := remoting.NewResponse(req.Cmd, remoting.Success, "not set any response code")
	resp.Body = ns.routes.memberGroup(cluster, name).AppendMemberGroupResponse(nil)
	return resp
}
