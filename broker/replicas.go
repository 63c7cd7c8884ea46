package broker

// Controller mode (enableControllerMode=true, 5.x): the broker's side,
// Java's ReplicasManager (docs/reference/controller.md §7). The
// controller, not broker.conf, decides the broker's id and role:
//
//   - the broker starts fenced: its store refuses puts, it neither
//     registers with the name servers nor heartbeats the controllers;
//   - one start attempt: find the controllers' leader
//     (CONTROLLER_GET_METADATA_INFO, 1005), get a controller id
//     (CONTROLLER_GET_NEXT_BROKER_ID 1012, CONTROLLER_APPLY_BROKER_ID 1013,
//     with the brokerIdentity files of controller_identity.go), register it
//     (CONTROLLER_REGISTER_BROKER 1003), heartbeat every controller
//     (BROKER_HEARTBEAT 904, oneway) and, when the set has no master, ask
//     to be elected (CONTROLLER_ELECT_MASTER 1002). It ends as master or
//     slave (replicas_roles.go) and unfenced; a failed attempt is retried
//     every 5 s;
//   - then, every syncBrokerMetadataPeriod, CONTROLLER_GET_REPLICA_INFO
//     (1004) catches up with elections this broker was not told of; a
//     master keeps its SyncStateSet with CONTROLLER_ALTER_SYNC_STATE_SET
//     (1001, replicas_sync.go); NOTIFY_BROKER_ROLE_CHANGED (1008) from the
//     controller changes the role at once (admin_controller.go).
//
// Controller requests are synchronous with Java's 3 s timeout; a refusal
// is logged. The leader is looked up again every
// syncControllerMetadataPeriod.
//
// Differences from Java: the controllers listed in controllerAddr are all
// heartbeated (Java heartbeats those a background probe found reachable,
// which is the same set once they are up); fetchControllerAddrByDnsLookup
// resolves the name at every look-up instead of every 2 minutes; a request
// that finds no leader (an error, CONTROLLER_NOT_LEADER) looks the leader
// up again at once instead of at the next period; a slave whose
// registration after a role change is answered without its new master's
// HA address (the master has not registered yet) registers again each
// second until it is (register.go, masterRegisterRetries) instead of at
// the next period, 30 s later.

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// controllerTimeout is the timeout of every controller request.
const controllerTimeout = 3 * time.Second

// retryStartEvery is how often a failed start attempt is tried again.
const retryStartEvery = 5 * time.Second

// replicaState is ReplicasManager.State.
type replicaState int

const (
	replicaInitial replicaState = iota
	replicaControllerKnown
	replicaRegistered
	replicaRunning
)

// registerState is ReplicasManager.RegisterState.
type registerState int

const (
	registerInitial registerState = iota
	registerTempFileDone
	registerFileDone
	registerDone
)

// autoSwitch is what the replicas manager uses of the store's
// controller-mode HA service (store.AutoSwitchHA).
type autoSwitch interface {
	ChangeToMaster(epoch int32) bool
	ChangeToMasterWhenLastRoleIsMaster(epoch int32) bool
	ChangeToSlave(epoch int32, localID int64) bool
	ChangeToSlaveWhenMasterNotChange(epoch int32) bool
	SetLocalID(id int64)
	SetMasterHAAddress(addr string)
	SetSyncStateSet(ids []int64)
	CheckSyncStateSet() ([]int64, bool)
	EpochEntries() []store.EpochEntry
}

// replicaStore is what it uses of the store.
type replicaStore interface {
	SetFenced(bool)
	CommitLogMaxOffset() int64
	ConfirmOffset() int64
}

// replicasManager is ReplicasManager. Its role and replica state change
// under mu, one change at a time, as Java's synchronized methods do.
type replicasManager struct {
	log      *zap.Logger
	settings *liveSettings
	id       *identity
	client   *remoting.Client
	ha       autoSwitch
	store    replicaStore
	files    identityFiles
	roles    roleChanger

	isolated atomic.Bool
	leader   atomic.Pointer[string]

	mu           sync.Mutex
	state        replicaState
	regState     registerState
	temp         brokerIdentity
	controllerID int64
	masterID     int64
	masterAddr   string
	masterEpoch  int32
	sss          []int64
	sssEpoch     int32
	// proposals carries the HA service's SyncStateSet proposals to the
	// goroutine that sends them.
	proposals chan []int64
}

func newReplicasManager(log *zap.Logger, live *liveSettings, id *identity, client *remoting.Client,
	ha autoSwitch, st replicaStore, files identityFiles, roles roleChanger) *replicasManager {
	r := &replicasManager{log: log.Named("replicas"), settings: live, id: id, client: client, ha: ha, store: st,
		files: files, roles: roles, proposals: make(chan []int64, 16)}
	r.isolated.Store(true)
	st.SetFenced(true)
	return r
}

// isIsolated tells whether the broker is still fenced off: no
// registration with the name servers, no scheduled heartbeats.
func (r *replicasManager) isIsolated() bool { return r.isolated.Load() }

// start runs the first attempt, and the services of a started manager
// until stop; failed attempts are retried every 5 s.
func (r *replicasManager) start(stop <-chan struct{}, goService func(func(<-chan struct{}))) {
	r.lookUpLeader()
	started := r.startAttempt()
	goService(func(stop <-chan struct{}) {
		for !started {
			select {
			case <-stop:
				return
			case <-time.After(retryStartEvery):
			}
			started = r.startAttempt()
		}
		r.runServices(stop, goService)
	})
}

// runServices are the schedules of a started manager.
func (r *replicasManager) runServices(stop <-chan struct{}, goService func(func(<-chan struct{}))) {
	set := r.settings.load().Broker
	goService(func(stop <-chan struct{}) {
		runEvery(stop, positiveOr(ms(set.SyncControllerMetadataPeriod), 10*time.Second), func() { r.lookUpLeader() })
	})
	goService(func(stop <-chan struct{}) {
		runEvery(stop, positiveOr(ms(set.BrokerHeartbeatInterval), time.Second), func() {
			if !r.isIsolated() {
				r.heartbeat()
			}
		})
	})
	goService(func(stop <-chan struct{}) {
		runEvery(stop, positiveOr(ms(set.SyncBrokerMetadataPeriod), 5*time.Second), r.pollReplicaInfo)
	})
	goService(func(stop <-chan struct{}) {
		runEvery(stop, positiveOr(ms(set.CheckSyncStateSetPeriod), 5*time.Second), r.checkSyncStateSet)
	})
	goService(r.sendProposals)
}

// startAttempt is startBasicService: it reports whether the broker now
// runs as master or slave.
func (r *replicasManager) startAttempt() bool {
	if r.stateIs(replicaInitial) {
		if !r.waitForLeader() {
			r.log.Warn("no controller leader found; the broker stays fenced and tries again")
			return false
		}
		r.setState(replicaControllerKnown)
	}
	if r.stateIs(replicaControllerKnown) {
		if !r.registerWithRetries() {
			return false
		}
		r.setState(replicaRegistered)
	}
	if r.stateIs(replicaRegistered) {
		r.heartbeat()
		r.mu.Lock()
		known := r.masterID != 0
		r.mu.Unlock()
		if !known && !r.brokerElect() {
			return false
		}
		r.setState(replicaRunning)
		r.isolated.Store(false)
		r.store.SetFenced(false)
		r.log.Info("controller mode: the broker runs", zap.Int64("controllerId", r.controllerIDNow()))
	}
	return true
}

func (r *replicasManager) stateIs(s replicaState) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.state == s
}

func (r *replicasManager) setState(s replicaState) {
	r.mu.Lock()
	r.state = s
	r.mu.Unlock()
}

func (r *replicasManager) controllerIDNow() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.controllerID
}

// waitForLeader tries the leader look-up 3 times, a second apart.
func (r *replicasManager) waitForLeader() bool {
	for i := range 3 {
		if i > 0 {
			time.Sleep(time.Second)
		}
		if r.lookUpLeader() != "" {
			return true
		}
	}
	return false
}

// registerWithRetries runs register up to 5 times, a random pause under a
// second between tries.
func (r *replicasManager) registerWithRetries() bool {
	for i := range 5 {
		if i > 0 {
			time.Sleep(time.Duration(rand.IntN(1000)) * time.Millisecond)
		}
		err := r.register()
		if err == nil {
			return true
		}
		r.log.Warn("register to the controller failed", zap.Int("try", i+1), zap.Error(err))
	}
	r.log.Error("Register to broker failed 5 times")
	return false
}

// controllerAddrs is controllerAddr split on ';', or, with
// fetchControllerAddrByDnsLookup, every address the name resolves to.
func (r *replicasManager) controllerAddrs() []string {
	c := r.settings.load().Broker
	var out []string
	for _, a := range strings.Split(c.ControllerAddr, ";") {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	if !c.FetchControllerAddrByDnsLookup || len(out) != 1 {
		return out
	}
	host, port, err := net.SplitHostPort(out[0])
	if err != nil {
		return out
	}
	ips, err := net.LookupHost(host)
	if err != nil || len(ips) == 0 {
		return out
	}
	out = out[:0]
	for _, ip := range ips {
		out = append(out, net.JoinHostPort(ip, port))
	}
	return out
}

// lookUpLeader asks the controllers who leads; it returns the leader's
// address ("" when none answered one) and remembers it.
func (r *replicasManager) lookUpLeader() string {
	for _, addr := range r.controllerAddrs() {
		resp, err := r.client.InvokeTimeout(addr, remoting.NewRequest(remoting.ControllerGetMetadataInfo, nil), controllerTimeout)
		if err != nil || resp.Code != int32(remoting.Success) {
			continue
		}
		if leader := resp.ExtString("controllerLeaderAddress"); leader != "" {
			r.leader.Store(&leader)
			return leader
		}
	}
	return ""
}

func (r *replicasManager) leaderAddr() string {
	if p := r.leader.Load(); p != nil {
		return *p
	}
	return ""
}

// errRefused is a controller's refusal: its code and remark.
type errRefused struct {
	code   int32
	remark string
}

func (e errRefused) Error() string {
	return fmt.Sprintf("the controller answered %d: %s", e.code, e.remark)
}

// callLeader sends a request to the leader and returns a SUCCESS answer;
// accept lists other codes taken as answers.
func (r *replicasManager) callLeader(code remoting.RequestCode, ext map[string]string, body []byte,
	accept ...remoting.ResponseCode) (*remoting.Command, error) {
	leader := r.leaderAddr()
	if leader == "" {
		return nil, errors.New("no controller leader known")
	}
	req := remoting.NewRequest(code, ext)
	req.Body = body
	ctx, cancel := context.WithTimeout(context.Background(), controllerTimeout)
	defer cancel()
	resp, err := r.client.Invoke(ctx, leader, req)
	if err != nil || resp.Code == int32(remoting.ControllerNotLeader) {
		// the leader moved or went: look again now rather than at the
		// next syncControllerMetadataPeriod (Java waits for it)
		go r.lookUpLeader()
	}
	if err != nil {
		return nil, err
	}
	if resp.Code == int32(remoting.Success) {
		return resp, nil
	}
	for _, c := range accept {
		if resp.Code == int32(c) {
			return resp, nil
		}
	}
	return resp, errRefused{resp.Code, resp.Remark}
}

// setExt names this broker set in a request header.
func (r *replicasManager) setExt(more map[string]string) map[string]string {
	c := r.settings.load().Broker
	ext := map[string]string{"clusterName": c.BrokerClusterName, "brokerName": c.BrokerName}
	for k, v := range more {
		ext[k] = v
	}
	return ext
}

// register is ReplicasManager.register: a controller id confirmed by the
// controller, and the role it names, if any.
func (r *replicasManager) register() error {
	c := r.settings.load().Broker
	if err := r.confirmFromDisk(c.BrokerClusterName, c.BrokerName); err != nil {
		return err
	}
	r.mu.Lock()
	state := r.regState
	r.mu.Unlock()
	if state == registerInitial {
		if err := r.takeNextID(); err != nil {
			return err
		}
	}
	r.mu.Lock()
	state = r.regState
	r.mu.Unlock()
	if state == registerTempFileDone {
		if err := r.applyID(); err != nil {
			return err
		}
	}
	return r.registerID()
}

// confirmFromDisk takes the identity files' state; a file naming another
// cluster or broker set stops the registration.
func (r *replicasManager) confirmFromDisk(cluster, name string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if bi, ok := r.files.load(); ok {
		if bi.cluster != cluster || bi.name != name {
			return fmt.Errorf("check and find that metadata/tempMetadata invalid, %s#%s is not %s#%s", bi.cluster, bi.name, cluster, name)
		}
		r.regState, r.controllerID = registerFileDone, bi.id
		r.ha.SetLocalID(bi.id)
		return nil
	}
	if bi, ok := r.files.loadTemp(); ok {
		if bi.cluster != cluster || bi.name != name {
			return fmt.Errorf("check and find that metadata/tempMetadata invalid, %s#%s is not %s#%s", bi.cluster, bi.name, cluster, name)
		}
		r.regState, r.temp = registerTempFileDone, bi
	}
	return nil
}

// takeNextID asks for the next free id and writes it to the temp file.
func (r *replicasManager) takeNextID() error {
	resp, err := r.callLeader(remoting.ControllerGetNextBrokerId, r.setExt(nil), nil)
	if err != nil {
		return err
	}
	next, err := strconv.ParseInt(resp.ExtString("nextBrokerId"), 10, 64)
	if err != nil {
		return fmt.Errorf("nextBrokerId %q: %w", resp.ExtString("nextBrokerId"), err)
	}
	c := r.settings.load().Broker
	temp := brokerIdentity{cluster: c.BrokerClusterName, name: c.BrokerName, id: next,
		checkCode: r.id.brokerAddr() + ";" + strconv.FormatInt(time.Now().UnixMilli(), 10)}
	if err := r.files.storeTemp(temp); err != nil {
		return err
	}
	r.mu.Lock()
	r.regState, r.temp = registerTempFileDone, temp
	r.mu.Unlock()
	return nil
}

// applyID claims the temp file's id; any refusal starts over.
func (r *replicasManager) applyID() error {
	r.mu.Lock()
	temp := r.temp
	r.mu.Unlock()
	_, err := r.callLeader(remoting.ControllerApplyBrokerId, r.setExt(map[string]string{
		"appliedBrokerId": strconv.FormatInt(temp.id, 10), "registerCheckCode": temp.checkCode,
	}), nil)
	if err != nil {
		_ = r.files.removeTemp()
		r.mu.Lock()
		r.regState = registerInitial
		r.mu.Unlock()
		return fmt.Errorf("apply broker id %d: %w", temp.id, err)
	}
	if err := r.files.store(brokerIdentity{cluster: temp.cluster, name: temp.name, id: temp.id}); err != nil {
		return err
	}
	r.mu.Lock()
	r.regState, r.controllerID = registerFileDone, temp.id
	r.mu.Unlock()
	r.ha.SetLocalID(temp.id)
	return nil
}

// registerID is CONTROLLER_REGISTER_BROKER; a master it names is taken.
func (r *replicasManager) registerID() error {
	resp, err := r.callLeader(remoting.ControllerRegisterBroker, r.setExt(map[string]string{
		"brokerId": strconv.FormatInt(r.controllerIDNow(), 10), "brokerAddress": r.id.brokerAddr(),
		"invokeTime": strconv.FormatInt(time.Now().UnixMilli(), 10),
	}), nil)
	if err != nil {
		return err
	}
	r.mu.Lock()
	r.regState = registerDone
	r.mu.Unlock()
	r.takeMaster(resp, resp.Body)
	return nil
}

// takeMaster changes the role to what an answer names (a master id and
// address, its epochs); an answer naming no master changes nothing.
func (r *replicasManager) takeMaster(resp *remoting.Command, body []byte) bool {
	masterID, err1 := resp.ExtInt64("masterBrokerId")
	addr := resp.ExtString("masterAddress")
	epoch, err2 := resp.ExtInt32("masterEpoch")
	if err1 != nil || err2 != nil || addr == "" {
		return false
	}
	if masterID == r.controllerIDNow() {
		sss, _ := protocol.ReadSyncStateSet(body)
		sssEpoch := resp.ExtInt32Or("syncStateSetEpoch", sss.Epoch)
		r.changeToMaster(epoch, sssEpoch, sss.Members)
	} else {
		r.changeToSlave(addr, epoch, masterID)
	}
	return true
}

// brokerElect asks to be elected (or learns who was).
func (r *replicasManager) brokerElect() bool {
	resp, err := r.callLeader(remoting.ControllerElectMaster, r.setExt(map[string]string{
		"brokerId": strconv.FormatInt(r.controllerIDNow(), 10), "designateElect": "false",
		"invokeTime": strconv.FormatInt(time.Now().UnixMilli(), 10),
	}), nil, remoting.ControllerMasterStillExist)
	if err != nil {
		r.log.Warn("elect master failed", zap.Error(err))
		return false
	}
	if !r.takeMaster(resp, resp.Body) {
		r.log.Warn("Now no master in broker set")
		return false
	}
	return true
}

// heartbeat sends BROKER_HEARTBEAT, oneway, to every controller.
func (r *replicasManager) heartbeat() {
	c := r.settings.load().Broker
	ext := r.setExt(map[string]string{
		"brokerAddr":            r.id.brokerAddr(),
		"epoch":                 strconv.Itoa(int(r.lastEpoch())),
		"maxOffset":             strconv.FormatInt(r.store.CommitLogMaxOffset(), 10),
		"confirmOffset":         strconv.FormatInt(r.store.ConfirmOffset(), 10),
		"heartbeatTimeoutMills": strconv.FormatInt(c.ControllerHeartBeatTimeoutMills, 10),
		"electionPriority":      strconv.Itoa(int(c.BrokerElectionPriority)),
	})
	if id := r.controllerIDNow(); id != 0 {
		ext["brokerId"] = strconv.FormatInt(id, 10)
	}
	for _, addr := range r.controllerAddrs() {
		req := remoting.NewRequest(remoting.BrokerHeartbeat, ext)
		req.Flag |= remoting.FlagOneway
		if err := r.client.InvokeOneway(addr, req); err != nil {
			r.log.Debug("heartbeat to a controller failed", zap.String("controller", addr), zap.Error(err))
		}
	}
}

// lastEpoch is the epoch file's last epoch, -1 when it is empty.
func (r *replicasManager) lastEpoch() int32 {
	entries := r.ha.EpochEntries()
	if len(entries) == 0 {
		return -1
	}
	return entries[len(entries)-1].Epoch
}
