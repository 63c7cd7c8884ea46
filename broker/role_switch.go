package broker

// roleSwitch is the roleChanger of a controller-mode broker: what a role
// change does to the broker's own parts (replicas_roles.go says when).

import (
	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/store"
)

// roleStore is what a role change sets on the store.
type roleStore interface {
	SetRole(store.Role)
}

type roleSwitch struct {
	settings  *liveSettings
	store     roleStore
	ha        autoSwitch
	master    *masterServices
	slaveSync *slaveSync
	topics    *topicTable
	reg       *registrar
	// configRole shows the role in GET_BROKER_CONFIG (configAdmin.setRole).
	configRole func(brokerID int64, role conf.BrokerRole)
}

func (s *roleSwitch) becomeMaster(epoch int32) {
	s.slaveSync.setMaster("")
	s.ha.ChangeToMaster(epoch)
	s.settings.setRole(protocol.MasterID, conf.SyncMaster)
	s.configRole(protocol.MasterID, conf.SyncMaster)
	s.store.SetRole(store.RoleMaster)
	s.master.on()
}

func (s *roleSwitch) becomeSlave(masterAddr string, epoch int32, controllerID int64) {
	s.store.SetRole(store.RoleSlave)
	s.settings.setRole(controllerID, conf.Slave)
	s.configRole(controllerID, conf.Slave)
	s.master.off()
	s.slaveSync.setMaster(masterAddr)
	s.ha.ChangeToSlave(epoch, controllerID)
}

func (s *roleSwitch) setStateVersion(epoch int32) { s.topics.nextStateVersion(epoch) }

func (s *roleSwitch) reregister() { s.reg.roleChangedNow() }
