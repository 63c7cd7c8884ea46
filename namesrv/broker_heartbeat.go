package namesrv

// BROKER_HEARTBEAT (904, 5.x), DefaultRequestProcessor.brokerHeartbeat.
//
// Request header: clusterName, brokerAddr, brokerName (req); brokerId,
// epoch, maxOffset, confirmOffset, heartbeatTimeoutMills, electionPriority
// (opt, controller mode; ignored here as in the name server).
// Response: SUCCESS, no header, no body. The broker's last-update time is
// refreshed so it does not expire between full registrations.

import "github.com/rmqgo/rmqgo/remoting"

func (ns *NameServer) brokerHeartbeat(req *remoting.Request) *remoting.Command {
	h := readHeader(req.Cmd)
	cluster, addr := h.str("clusterName"), h.str("brokerAddr")
	if resp := h.reject(); resp != nil {
		return resp
	}
	ns.routes.touch(cluster, addr)
	return success(req.Cmd)
}
