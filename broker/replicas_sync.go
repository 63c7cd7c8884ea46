package broker

// A controller-mode broker keeping up with its controller
// (docs/reference/controller.md §7.6, §7.7):
//
//   - CONTROLLER_GET_REPLICA_INFO (1004) every syncBrokerMetadataPeriod:
//     a higher master epoch than ours means an election we were not told
//     of (take its master, or ask to be elected when it names none); the
//     same epoch on a master brings a newer SyncStateSet;
//     CONTROLLER_BROKER_METADATA_NOT_EXIST registers again;
//   - a master's SyncStateSet: the HA service proposes a member that
//     caught up or a slave that left, and every checkSyncStateSetPeriod
//     the slaves that fell behind for haMaxTimeSlaveNotCatchup go;
//     CONTROLLER_ALTER_SYNC_STATE_SET (1001) proposes, and only a set the
//     controller accepted, with a higher epoch, is adopted.

import (
	"slices"
	"strconv"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// pollReplicaInfo is schedulingSyncBrokerMetadata's round.
func (r *replicasManager) pollReplicaInfo() {
	resp, err := r.callLeader(remoting.ControllerGetReplicaInfo, map[string]string{
		"brokerName": r.settings.load().Broker.BrokerName}, nil, remoting.ControllerBrokerMetadataNotExist)
	if err != nil {
		r.log.Debug("get replica info failed", zap.Error(err))
		return
	}
	if resp.Code == int32(remoting.ControllerBrokerMetadataNotExist) {
		if err := r.registerID(); err != nil {
			r.log.Warn("register again after the controller lost the broker set", zap.Error(err))
		}
		time.Sleep(2 * time.Second)
		return
	}
	epoch := resp.ExtInt32Or("masterEpoch", 0)
	r.mu.Lock()
	local, isMaster := r.masterEpoch, r.masterID != 0 && r.masterID == r.controllerID
	r.mu.Unlock()
	switch {
	case epoch > local:
		if !r.takeMaster(resp, resp.Body) {
			r.brokerElect()
		}
	case epoch == local && isMaster:
		sss, err := protocol.ReadSyncStateSet(resp.Body)
		if err == nil {
			r.changeSyncStateSet(sss.Members, sss.Epoch)
		}
	}
}

// changeSyncStateSet adopts a controller-confirmed set newer than ours.
func (r *replicasManager) changeSyncStateSet(ids []int64, epoch int32) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.adoptSyncStateSet(ids, epoch)
}

// adoptSyncStateSet is changeSyncStateSet with mu held.
func (r *replicasManager) adoptSyncStateSet(ids []int64, epoch int32) {
	if epoch <= r.sssEpoch {
		return
	}
	r.sss, r.sssEpoch = slices.Clone(ids), epoch
	r.ha.SetSyncStateSet(ids)
	r.log.Info("SyncStateSet changed", zap.Int64s("set", ids), zap.Int32("epoch", epoch))
}

// checkSyncStateSet is checkSyncStateSetAndDoReport: on a master, drop
// the slaves that fell behind.
func (r *replicasManager) checkSyncStateSet() {
	r.mu.Lock()
	isMaster := r.masterID != 0 && r.masterID == r.controllerID
	current := slices.Clone(r.sss)
	r.mu.Unlock()
	if !isMaster || r.isIsolated() {
		return
	}
	newSet, _ := r.ha.CheckSyncStateSet()
	slices.Sort(newSet)
	slices.Sort(current)
	if !slices.Equal(newSet, current) {
		r.propose(newSet)
	}
}

// proposeFromHA is the HA service's listener: it queues a proposal of a
// master (a broker turning slave drops its connections, which proposes
// too: that is ignored, as the controller would refuse it).
func (r *replicasManager) proposeFromHA(newSet []int64) {
	r.mu.Lock()
	isMaster := r.masterID != 0 && r.masterID == r.controllerID
	r.mu.Unlock()
	if !isMaster {
		return
	}
	select {
	case r.proposals <- slices.Clone(newSet):
	default:
		r.log.Warn("SyncStateSet proposals are queued up; this one is dropped", zap.Int64s("set", newSet))
	}
}

// sendProposals sends the queued proposals one at a time.
func (r *replicasManager) sendProposals(stop <-chan struct{}) {
	for {
		select {
		case <-stop:
			return
		case set := <-r.proposals:
			r.propose(set)
		}
	}
}

// propose is doReportSyncStateSetChanged.
func (r *replicasManager) propose(newSet []int64) {
	r.mu.Lock()
	id, epoch, sssEpoch := r.controllerID, r.masterEpoch, r.sssEpoch
	r.mu.Unlock()
	body := (&protocol.SyncStateSet{Members: newSet, Epoch: sssEpoch}).AppendJSON(nil)
	resp, err := r.callLeader(remoting.ControllerAlterSyncStateSet, map[string]string{
		"brokerName": r.settings.load().Broker.BrokerName, "masterBrokerId": strconv.FormatInt(id, 10),
		"masterEpoch": strconv.Itoa(int(epoch)), "invokeTime": strconv.FormatInt(time.Now().UnixMilli(), 10),
	}, body)
	if err != nil {
		r.log.Info("the controller did not take the proposed SyncStateSet", zap.Int64s("set", newSet), zap.Error(err))
		return
	}
	sss, err := protocol.ReadSyncStateSet(resp.Body)
	if err != nil {
		r.log.Warn("unreadable SyncStateSet from the controller", zap.Error(err))
		return
	}
	r.changeSyncStateSet(sss.Members, sss.Epoch)
}
