package broker

// GET_BROKER_HA_STATUS (907, 5.x; mqadmin haStatus): the broker's
// HARuntimeInfo, as DefaultHAService.getRuntimeInfo builds it. A master
// lists each connected slave: its address, acknowledged offset, the
// difference to the master's commitlog end, whether it is in sync
// (behind by less than haMaxGapNotInSync) and the next offset to send; a
// slave reports its master's HA address, its commitlog end and when it
// last read a frame and wrote a report. No header, body protocol.HARuntimeInfo.
//
// A slave's masterFlushOffset is 0, as Java's outside controller mode.

import (
	"net"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// haStatus serves GET_BROKER_HA_STATUS.
type haStatus struct {
	replier
	settings *liveSettings
	store    interface{ CommitLogMaxOffset() int64 }
	master   *store.HAMaster
	client   *store.HAClient // nil unless brokerRole=SLAVE
}

// getBrokerHaStatus serves GET_BROKER_HA_STATUS.
func (h *haStatus) getBrokerHaStatus(req *remoting.Request) *remoting.Command {
	set := h.settings.load()
	end := h.store.CommitLogMaxOffset()
	var info protocol.HARuntimeInfo
	if set.Store.BrokerRole == conf.Slave && h.client != nil {
		st := h.client.Status()
		info.Client = protocol.HAClientRuntimeInfo{MasterAddr: st.MasterAddr, MaxOffset: end,
			LastReadTimestamp: st.LastReadMs, LastWriteTimestamp: st.LastWriteMs,
			TransferredByteInSecond: st.BytesPerSecond}
		return h.replyBody(req.Cmd, info.AppendJSON(nil))
	}
	info.Master, info.MasterCommitLogMaxOffset = true, end
	for _, c := range h.master.Connections() {
		inSync := end-c.AckOffset < int64(set.Store.HaMaxGapNotInSync)
		if inSync {
			info.InSyncSlaveNums++
		}
		info.Connections = append(info.Connections, protocol.HAConnectionRuntimeInfo{Addr: hostPort(c.Addr),
			SlaveAckOffset: c.AckOffset, Diff: end - c.AckOffset, InSync: inSync, TransferFromWhere: c.TransferFrom,
			TransferredByteInSecond: c.BytesPerSecond})
	}
	return h.replyBody(req.Cmd, info.AppendJSON(nil))
}

// hostPort is addr as Java's getClientAddress().substring(1) gives it.
func hostPort(addr string) string {
	if host, port, err := net.SplitHostPort(addr); err == nil {
		return host + ":" + port
	}
	return addr
}
