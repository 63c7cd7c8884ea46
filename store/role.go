package store

// The store's role at run time. Java keeps it in
// MessageStoreConfig.brokerRole, which the broker's ReplicasManager
// rewrites on every role change in controller mode, and the FENCED bit of
// RunningFlags, set while a controller-mode broker does not know its role
// yet. Here both are atomics on the Store: Options.Slave only gives the
// role the store opens with, and everything that asked "is this a slave?"
// reads Role. A slave and a fenced store refuse every put with
// SERVICE_NOT_AVAILABLE.

import "go.uber.org/zap"

// Role is brokerRole as the store sees it.
type Role int32

// Roles.
const (
	// RoleMaster is ASYNC_MASTER or SYNC_MASTER (Options.SyncMaster tells
	// which outside controller mode; a controller-mode master is always
	// SYNC_MASTER).
	RoleMaster Role = iota
	// RoleSlave is SLAVE.
	RoleSlave
)

// String is the role's name.
func (r Role) String() string {
	if r == RoleSlave {
		return "SLAVE"
	}
	return "MASTER"
}

// initRole sets the role Options give.
func (s *Store) initRole() {
	if s.opts.Slave {
		s.role.Store(int32(RoleSlave))
	}
}

// Role is the store's current role.
func (s *Store) Role() Role { return Role(s.role.Load()) }

// IsSlave reports whether the store is a slave now.
func (s *Store) IsSlave() bool { return s.Role() == RoleSlave }

// SetRole changes the role at run time: a slave refuses puts and its
// commitlog grows only by what its master sends. AutoSwitchHA's role
// changes call it; a broker switching roles itself may too.
func (s *Store) SetRole(r Role) {
	if old := Role(s.role.Swap(int32(r))); old != r {
		s.log.Info("store role changed", zap.Stringer("from", old), zap.Stringer("to", r))
		s.wakeDispatcher() // the confirm offset may read differently now
	}
}

// SetFenced sets or clears the fence (Java's RunningFlags FENCED): a
// fenced store refuses every put, and in controller mode its confirm
// offset is the stored one whatever its role.
func (s *Store) SetFenced(fenced bool) {
	if s.fenced.Swap(fenced) != fenced {
		s.log.Info("store fence changed", zap.Bool("fenced", fenced))
		s.wakeDispatcher()
	}
}

// Fenced reports whether the store is fenced.
func (s *Store) Fenced() bool { return s.fenced.Load() }
