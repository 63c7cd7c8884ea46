package namesrv

// QUERY_DATA_VERSION (322), DefaultRequestProcessor.queryBrokerTopicConfig.
//
// Request header: brokerName, brokerAddr, clusterName, brokerId (all req).
// Body: the broker's DataVersion JSON (no body reads as null: changed).
// Response: SUCCESS, header changed=true|false (Boolean, always sent),
// body the DataVersion the name server holds for the broker, when it
// knows the broker. A broker with forceRegister=false asks this before
// each registration and skips it when nothing changed.
//
// As in 5.x the broker's last-update time is refreshed whether or not its
// version changed (4.9.8 refreshes it only when unchanged).

import (
	"strconv"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

func (ns *NameServer) queryDataVersion(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	h := readHeader(cmd)
	h.str("brokerName")
	cluster, addr := h.str("clusterName"), h.str("brokerAddr")
	h.long("brokerId")
	if resp := h.reject(); resp != nil {
		return resp
	}
	var sent *protocol.DataVersion
	if len(cmd.Body) > 0 {
		v, err := protocol.DecodeDataVersion(cmd.Body)
		if err != nil {
			return systemError(cmd, "bad DataVersion body: "+err.Error())
		}
		sent = &v
	}
	changed, known := ns.routes.queryDataVersion(cluster, addr, sent)
	resp := success(cmd)
	resp.SetExt("changed", strconv.FormatBool(changed))
	if known != nil {
		resp.Body = known.AppendJSON(nil)
	}
	return resp
}
