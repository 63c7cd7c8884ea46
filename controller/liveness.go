package controller

// What the controller does when brokers stop (docs/reference/controller.md
// §6.2-§6.4):
//
//   - a broker's connection closes, or its heartbeats stop for its
//     timeout (the scan every scanNotActiveBrokerInterval): it leaves the
//     heartbeat table, and if it was its set's master the leader elects
//     another (followers only log it);
//   - every scanInactiveMasterInterval the leader looks for sets whose
//     master is not alive while another registered replica is, and elects;
//   - an election the controller starts is tried electMasterMaxRetryCount
//     times, stopping at the first SUCCESS (or CONTROLLER_MASTER_STILL_EXIST:
//     another election got there first; Java tries again, which changes
//     nothing); each failure still commits (the set is left without a
//     master, its master epoch one higher);
//   - after every successful election (the controller's, a broker's or
//     mqadmin's) the set's live replicas are sent NOTIFY_BROKER_ROLE_CHANGED
//     (1008, oneway): header masterAddress, masterEpoch, syncStateSetEpoch,
//     masterBrokerId; body the SyncStateSet [master].

import (
	"net"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// onClose runs on the event loop: it queues the connection for
// housekeeping.
func (c *Controller) onClose(ch *remoting.Channel) {
	select {
	case <-c.stop:
	case c.closedChans <- ch:
	default:
		go c.brokersInactive("its connection closed", c.heartbeats.closed(ch))
	}
}

func (c *Controller) housekeeping() {
	defer c.wg.Done()
	first := time.NewTimer(2 * time.Second)
	defer first.Stop()
	tick := time.NewTicker(c.opts.ScanNotActiveBrokerInterval)
	defer tick.Stop()
	for {
		select {
		case <-c.stop:
			return
		case ch := <-c.closedChans:
			c.brokersInactive("its connection closed", c.heartbeats.closed(ch))
		case <-first.C:
			c.expireBrokers()
		case <-tick.C:
			c.expireBrokers()
		}
	}
}

func (c *Controller) expireBrokers() {
	keys, chans := c.heartbeats.expire()
	for _, ch := range chans {
		_ = ch.Close()
	}
	c.brokersInactive("its heartbeats stopped", keys)
}

// brokersInactive is onBrokerInactive for each key.
func (c *Controller) brokersInactive(why string, keys []brokerKey) {
	for _, k := range keys {
		c.log.Info("a broker has been inactive: "+why, zap.String("cluster", k.cluster),
			zap.String("brokerName", k.name), zap.Int64("brokerId", k.id))
		if !c.IsLeader() {
			continue
		}
		c.tables.mu.RLock()
		_, s, ok := c.tables.set(k.name)
		wasMaster := ok && s.master == k.id
		c.tables.mu.RUnlock()
		if wasMaster {
			c.log.Info("the master of a broker set is inactive: electing", zap.String("brokerName", k.name), zap.Int64("brokerId", k.id))
			c.electFor(k.name)
		}
	}
}

func (c *Controller) scanInactiveMasters() {
	defer c.wg.Done()
	tick := time.NewTicker(c.opts.ScanInactiveMasterInterval)
	defer tick.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-tick.C:
			if c.IsLeader() {
				for _, name := range c.setsWithInactiveMaster() {
					c.electFor(name)
				}
			}
		}
	}
}

// setsWithInactiveMaster lists the sets whose recorded master is not
// alive while a registered replica is.
func (c *Controller) setsWithInactiveMaster() []string {
	c.tables.mu.RLock()
	defer c.tables.mu.RUnlock()
	var names []string
	for name, s := range c.tables.syncs {
		r, ok := c.tables.replicas[name]
		if !ok || s.master == 0 || c.heartbeats.alive(s.cluster, name, s.master) {
			continue
		}
		for id := range r.ids {
			if c.heartbeats.alive(s.cluster, name, id) {
				names = append(names, name)
				break
			}
		}
	}
	return names
}

// electFor is the controller-triggered election of a set.
func (c *Controller) electFor(name string) {
	cmd := remoting.NewRequest(remoting.ControllerElectMaster, map[string]string{"brokerName": name})
	tries := max(int(c.settings.electRetries.Load()), 1)
	for range tries {
		a := c.leaderAnswer(func() answer { return c.m.electMaster(header{cmd}) })
		if a.code == remoting.Success {
			c.log.Info("elected a new master", zap.String("brokerName", name), zap.String("remark", a.remark))
			c.notifyRoleChanged(name)
			return
		}
		if a.code == remoting.ControllerMasterStillExist {
			return // another election (the scan's, a broker's) got there first
		}
		c.log.Warn("election failed", zap.String("brokerName", name), zap.Int32("code", int32(a.code)), zap.String("remark", a.remark))
		if a.code == remoting.ControllerNotLeader {
			return
		}
	}
}

// notifyRoleChanged tells the set's live replicas who the master is now.
func (c *Controller) notifyRoleChanged(name string) {
	if !c.settings.notify.Load() {
		return
	}
	c.tables.mu.RLock()
	r, s, ok := c.tables.set(name)
	if !ok || s.master == 0 {
		c.tables.mu.RUnlock()
		return
	}
	ext := map[string]string{
		"masterAddress":     r.ids[s.master].addr,
		"masterEpoch":       itoa(int64(s.masterEpoch)),
		"syncStateSetEpoch": itoa(int64(s.sssEpoch)),
		"masterBrokerId":    itoa(s.master),
	}
	body := (&protocol.SyncStateSet{Members: []int64{s.master}, Epoch: s.sssEpoch}).AppendJSON(nil)
	targets := map[int64]string{}
	for id, rep := range r.ids {
		if c.heartbeats.alive(s.cluster, name, id) {
			targets[id] = rep.addr
		}
	}
	c.tables.mu.RUnlock()
	for id, addr := range targets {
		cmd := remoting.NewRequest(remoting.NotifyBrokerRoleChanged, ext)
		cmd.Body = body
		if err := c.client.InvokeOneway(addr, cmd); err != nil {
			c.log.Warn("could not notify a broker of its set's new master", zap.String("broker", addr),
				zap.Int64("brokerId", id), zap.Error(err))
		}
	}
}

func splitHostPort(addr string) (string, string, error) { return net.SplitHostPort(addr) }
