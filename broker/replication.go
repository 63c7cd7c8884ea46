package broker

// Replication roles (brokerRole), as Java's BrokerController and
// DefaultHAService start them:
//
//   - every broker listens on haListenPort (Java's HAService accepts on
//     every role); a master streams its commitlog to the slaves there.
//   - a SLAVE replicates from haMasterAddress when it is set (6 characters
//     or more, as Java checks), else from the HA address the name server
//     returns in REGISTER_BROKER's answer (haServerAddr), updated at every
//     registration. Its store refuses puts: SEND_MESSAGE is answered
//     SERVICE_NOT_AVAILABLE, as Java's checkStoreStatus does.
//
//   - a SYNC_MASTER's put (with WAIT true, the default) waits up to
//     syncFlushTimeout for a slave's ack: SLAVE_NOT_AVAILABLE without a
//     slave within haSlaveFallbehindMax, FLUSH_SLAVE_TIMEOUT without the
//     ack in time; the message is stored either way (Java's handleHA).
//
//   - a SLAVE copies its master's topics, offsets, delay offsets and
//     groups (slave_sync.go) from the masterAddr of REGISTER_BROKER's
//     answer, and does not run the master-only services (delayed-message
//     and timer delivery, transaction check-back: line.runsMasterServices).
//   - pulls: suggestWhichBrokerId and a slave's answers (pull.go,
//     pull_slave.go).

import (
	"net"
	"strconv"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/store"
)

// replication holds the broker's HA master and, on a slave, its client;
// in controller mode the AutoSwitchHA service instead, which is both.
type replication struct {
	log    *zap.Logger
	master *store.HAMaster
	client *store.HAClient // nil unless brokerRole=SLAVE
	auto   *store.AutoSwitchHA
	// fixedMaster is set when haMasterAddress names the master, so the
	// name server's answer does not replace it.
	fixedMaster bool
}

// newReplication builds the HA services of st for c, listening on host.
func newReplication(log *zap.Logger, st *store.Store, c *conf.BrokerConfigs, host string) *replication {
	if host == "" {
		host = "0.0.0.0"
	}
	r := &replication{log: log,
		master: store.NewHAMaster(st, net.JoinHostPort(host, strconv.Itoa(int(c.Store.HaListenPort))))}
	if c.Store.BrokerRole == conf.Slave {
		addr := c.Store.HaMasterAddress
		r.fixedMaster = len(addr) >= 6
		if !r.fixedMaster {
			addr = ""
		}
		r.client = store.NewHAClient(st, addr)
	}
	return r
}

// newAutoSwitchReplication builds controller mode's HA service on
// haListenPort; onPropose is told the SyncStateSets it proposes.
func newAutoSwitchReplication(log *zap.Logger, st *store.Store, c *conf.BrokerConfigs, host string,
	onPropose func([]int64)) *replication {
	if host == "" {
		host = "0.0.0.0"
	}
	return &replication{log: log,
		auto: store.NewAutoSwitchHA(st, net.JoinHostPort(host, strconv.Itoa(int(c.Store.HaListenPort))), onPropose)}
}

// addr is the HA port's bound address.
func (r *replication) addr() string {
	if r.auto != nil {
		return r.auto.Addr()
	}
	return r.master.Addr()
}

// start listens on the HA port and, on a slave, starts replicating.
func (r *replication) start() error {
	if r.auto != nil {
		return r.auto.Start()
	}
	if err := r.master.Start(); err != nil {
		return err
	}
	if r.client != nil {
		r.client.Start()
	}
	return nil
}

// close stops both sides.
func (r *replication) close() error {
	if r.auto != nil {
		return r.auto.Close()
	}
	if r.client != nil {
		r.client.Close()
	}
	return r.master.Close()
}

// learnMaster takes the master's HA address from a REGISTER_BROKER
// answer (Java's updateHaMasterAddress when updateMasterHAServerAddrPeriodically).
func (r *replication) learnMaster(haServerAddr, _ string) {
	if r.auto != nil {
		if haServerAddr != "" {
			r.auto.SetMasterHAAddress(haServerAddr)
		}
		return
	}
	if r.client == nil || r.fixedMaster || haServerAddr == "" {
		return
	}
	r.client.SetMasterAddress(haServerAddr)
}
