package broker

// The codes a controller-mode broker serves for the controller and
// mqadmin (docs/reference/controller.md §7.8):
//
//	NOTIFY_BROKER_ROLE_CHANGED (1008), from the controller, oneway:
//	  header masterAddress, masterEpoch, syncStateSetEpoch, masterBrokerId;
//	  body SyncStateSet. A newer master epoch changes the role at once.
//	  SUCCESS (sent only when not oneway).
//	GET_BROKER_EPOCH_CACHE (1007), from mqadmin getBrokerEpoch:
//	  SUCCESS with EpochEntryCache (cluster, name, the role id, the epoch
//	  entries, the commitlog's max offset); SYSTEM_ERROR "this request only
//	  for controllerMode " (with the space) outside controller mode.

import (
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// controllerAdmin serves them; replicas is nil outside controller mode.
type controllerAdmin struct {
	replier
	settings *liveSettings
	replicas *replicasManager
	store    interface{ CommitLogMaxOffset() int64 }
}

func (a *controllerAdmin) notifyBrokerRoleChanged(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	if a.replicas != nil {
		sss, _ := protocol.ReadSyncStateSet(cmd.Body)
		masterID := cmd.ExtInt64Or("masterBrokerId", 0)
		a.replicas.changeBrokerRole(masterID, cmd.ExtString("masterAddress"), cmd.ExtInt32Or("masterEpoch", 0),
			cmd.ExtInt32Or("syncStateSetEpoch", 0), sss.Members)
	}
	if cmd.IsOneway() {
		return nil
	}
	return a.reply(cmd, remoting.Success, "")
}

func (a *controllerAdmin) getBrokerEpochCache(req *remoting.Request) *remoting.Command {
	if a.replicas == nil {
		return a.reply(req.Cmd, remoting.SystemError, "this request only for controllerMode ")
	}
	c := a.settings.load().Broker
	var entries []protocol.EpochEntry
	for _, e := range a.replicas.ha.EpochEntries() {
		entries = append(entries, protocol.EpochEntry{Epoch: e.Epoch, StartOffset: e.StartOffset, EndOffset: e.EndOffset})
	}
	resp := a.reply(req.Cmd, remoting.Success, "")
	resp.Body = protocol.AppendEpochEntryCache(nil, c.BrokerClusterName, c.BrokerName, c.BrokerId, entries, a.store.CommitLogMaxOffset())
	return resp
}
