package broker

// GET_BROKER_HA_STATUS (907, 5.x; mqadmin haStatus): the broker's
// HARuntimeInfo, as DefaultHAService.getRuntimeInfo builds it. A master
// lists each connected slave: its address, acknowledged offset, the
// difference to the master's commitlog end, whether it is in sync
// (behind by less than haMaxGapNotInSync) and the next offset to send; a
// slave reports its master's HA address, its commitlog end and when it
// last read a frame and wrote a report. No header, body protocol.HARuntimeInfo.
//
// A slave's masterFlushOffset is 0, as Java's outside controller mode. In
// controller mode the answer is AutoSwitchHAService's: a connection is in
// sync when its slave is in the SyncStateSet the controller confirmed, and
// inSyncSlaveNums is that set's size less one.

import (
	"net"
	"slices"

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
	// auto is controller mode's HA service (master and client nil then).
	auto *store.AutoSwitchHA
}

// getBrokerHaStatus serves GET_BROKER_HA_STATUS.
func (h *haStatus) getBrokerHaStatus(req *remoting.Request) *remoting.Command {
	set := h.settings.load()
	end := h.store.CommitLogMaxOffset()
	if h.auto != nil {
		return h.replyBody(req.Cmd, h.autoSwitchInfo(set, end).AppendJSON(nil))
	}
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

// autoSwitchInfo is AutoSwitchHAService.getRuntimeInfo: a slave's client,
// or a master's connections, each in sync when its slave is in the
// SyncStateSet the controller confirmed, and that set's size less one as
// inSyncSlaveNums.
func (h *haStatus) autoSwitchInfo(set *settings, end int64) *protocol.HARuntimeInfo {
	info := &protocol.HARuntimeInfo{}
	if set.Store.BrokerRole == conf.Slave {
		st, _ := h.auto.ClientStatus()
		info.Client = protocol.HAClientRuntimeInfo{MasterAddr: st.MasterAddr, MaxOffset: end,
			LastReadTimestamp: st.LastReadMs, LastWriteTimestamp: st.LastWriteMs,
			TransferredByteInSecond: st.BytesPerSecond}
		return info
	}
	info.Master, info.MasterCommitLogMaxOffset = true, end
	local := h.auto.LocalSyncStateSet()
	for _, c := range h.auto.Connections() {
		info.Connections = append(info.Connections, protocol.HAConnectionRuntimeInfo{Addr: hostPort(c.Addr),
			SlaveAckOffset: c.AckOffset, Diff: end - c.AckOffset, InSync: slices.Contains(local, c.SlaveID),
			TransferFromWhere: c.TransferFrom, TransferredByteInSecond: c.BytesPerSecond})
	}
	info.InSyncSlaveNums = int32(len(local) - 1)
	return info
}

// hostPort is addr as Java's getClientAddress().substring(1) gives it.
func hostPort(addr string) string {
	if host, port, err := net.SplitHostPort(addr); err == nil {
		return host + ":" + port
	}
	return addr
}
