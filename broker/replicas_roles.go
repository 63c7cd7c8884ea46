package broker

// Role changes in controller mode (docs/reference/controller.md §7.9).
// Each takes effect only for a master epoch higher than the broker's:
//
//   - to master: the HA service truncates what was never confirmed and
//     starts a new epoch (or only records the epoch, when this broker was
//     master already); brokerId 0, brokerRole SYNC_MASTER; the
//     master-only services start; the slave copy of the master's tables
//     stops; the SyncStateSet is checked once;
//   - to slave: brokerId = the controller id, brokerRole SLAVE; the
//     master-only services stop; the HA service follows the new master,
//     whose HA address the next name-server registration brings;
//   - either way the tables' DataVersion takes the epoch as its
//     stateVersion (the name server keeps the registration with the
//     higher one), and the broker registers with the name servers at once.
//
// roleChanger is what the broker does for it (wire.go builds it).

import "go.uber.org/zap"

// roleChanger switches the broker's own parts.
type roleChanger interface {
	// becomeMaster makes the broker a master of the given epoch.
	becomeMaster(epoch int32)
	// becomeSlave makes it a slave of masterAddr with controllerID as its
	// brokerId.
	becomeSlave(masterAddr string, epoch int32, controllerID int64)
	// setStateVersion is the DataVersion stateVersion from now on.
	setStateVersion(epoch int32)
	// reregister registers with the name servers now, in the background.
	reregister()
}

// changeToMaster is ReplicasManager.changeToMaster.
func (r *replicasManager) changeToMaster(epoch, sssEpoch int32, sss []int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if epoch <= r.masterEpoch {
		return
	}
	wasMaster := r.masterID == r.controllerID && r.settings.load().Broker.BrokerId == 0
	r.log.Info("changing to master", zap.Int32("epoch", epoch), zap.Bool("wasMaster", wasMaster))
	r.masterEpoch = epoch
	r.adoptSyncStateSet(sss, sssEpoch)
	if wasMaster {
		r.ha.ChangeToMasterWhenLastRoleIsMaster(epoch)
	} else {
		r.roles.becomeMaster(epoch)
		r.masterID, r.masterAddr = r.controllerID, r.id.brokerAddr()
	}
	r.roles.setStateVersion(epoch)
	go r.checkSyncStateSet()
	r.roles.reregister()
}

// changeToSlave is ReplicasManager.changeToSlave.
func (r *replicasManager) changeToSlave(masterAddr string, epoch int32, masterID int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if epoch <= r.masterEpoch {
		return
	}
	r.log.Info("changing to slave", zap.Int32("epoch", epoch), zap.String("master", masterAddr), zap.Int64("masterId", masterID))
	r.masterEpoch = epoch
	if masterID == r.masterID {
		r.ha.ChangeToSlaveWhenMasterNotChange(epoch)
	} else {
		r.roles.becomeSlave(masterAddr, epoch, r.controllerID)
		r.masterID, r.masterAddr = masterID, masterAddr
	}
	r.roles.setStateVersion(epoch)
	r.roles.reregister()
}

// changeBrokerRole serves NOTIFY_BROKER_ROLE_CHANGED.
func (r *replicasManager) changeBrokerRole(masterID int64, masterAddr string, epoch, sssEpoch int32, sss []int64) {
	if masterID == 0 {
		return
	}
	r.mu.Lock()
	newer, ours := epoch > r.masterEpoch, masterID == r.controllerID
	r.mu.Unlock()
	if !newer {
		return
	}
	if ours {
		r.changeToMaster(epoch, sssEpoch, sss)
	} else {
		r.changeToSlave(masterAddr, epoch, masterID)
	}
}
