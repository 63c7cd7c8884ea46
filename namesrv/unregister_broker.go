package namesrv

// UNREGISTER_BROKER (104), DefaultRequestProcessor.unregisterBroker.
//
// Request header: brokerName, brokerAddr, clusterName, brokerId (all req).
// Response: SUCCESS, no header, no body.
//
// The broker's address is removed from its group (the group, its cluster
// entry and its topics' queues when it was the last address). 5.x queues
// the request for a batch thread (BatchUnregistrationService) and answers
// SYSTEM_ERROR when that queue is full; here the removal is done before
// answering, so the route is already gone when the broker hears SUCCESS.

import "github.com/rmqgo/rmqgo/remoting"

func (ns *NameServer) unregisterBroker(req *remoting.Request) *remoting.Command {
	h := readHeader(req.Cmd)
	u := unregistration{name: h.str("brokerName"), addr: h.str("brokerAddr"), cluster: h.str("clusterName"), id: h.long("brokerId")}
	if resp := h.reject(); resp != nil {
		return resp
	}
	ns.routes.unregisterBrokers(u)
	return success(req.Cmd)
}
