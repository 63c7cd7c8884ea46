package controller

import (
	"crypto/tls"
	"errors"
	"strings"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/remoting"
)

// Options configure a controller; cmd maps ControllerConfig onto them.
type Options struct {
	// ListenAddr is where the controller port listens (host:port); its
	// port is this member's ControllerAddr's.
	ListenAddr string
	// Group is controllerDLegerGroup (jRaftGroupId with jRaft keys).
	Group string
	// Members are the group, Self this controller's index in it.
	Members []Member
	Self    int
	// JRaft: the members came from the jRaft keys, so Raft listens on
	// RaftAddr, a port of its own, and GET_METADATA_INFO answers as Java's
	// JRaftController does. Otherwise Raft shares the controller port.
	JRaft bool
	// StoreDir is controllerStorePath.
	StoreDir string

	ScanNotActiveBrokerInterval time.Duration
	ScanInactiveMasterInterval  time.Duration
	ElectMasterMaxRetryCount    int
	EnableElectUncleanMaster    bool
	ProcessReadEvent            bool
	NotifyBrokerRoleChanged     bool
	// ConfigBlackList is configBlackList, ';'-separated.
	ConfigBlackList string
	// Config serves GET/UPDATE_CONTROLLER_CONFIG; nil refuses updates.
	Config ConfigSource

	ThreadPoolNums, QueueCapacity int
	// TLSMode and TLSConfig are the controller port's (tlsconf.ForServer).
	TLSMode   remoting.TLSMode
	TLSConfig *tls.Config
	// ClientTLSConfig, when set, makes this member dial its Raft peers and
	// the brokers it notifies over TLS (tlsconf.ForClient; Launch sets it
	// by tls.enable's rule, as the broker's client). With JRaft the Raft
	// dials use it only when TLSMode is enforcing, the one mode whose own
	// Raft listener serves TLS.
	ClientTLSConfig *tls.Config
	Logger          *zap.Logger
	Now             func() time.Time
}

// ConfigSource is the controller's configuration as Java's Configuration
// object holds it: the properties text and the update that persists it.
type ConfigSource interface {
	PropertiesText() string
	Update(props map[string]string) error
}

// DefaultOptions are ControllerConfig's defaults.
func DefaultOptions() Options {
	return Options{
		ScanNotActiveBrokerInterval: 5 * time.Second,
		ScanInactiveMasterInterval:  5 * time.Second,
		ElectMasterMaxRetryCount:    3,
		NotifyBrokerRoleChanged:     true,
		ConfigBlackList:             "configBlackList;configStorePath",
		ThreadPoolNums:              16,
		QueueCapacity:               50000,
	}
}

// Validate reports options that cannot work.
func (o *Options) Validate() error {
	switch {
	case len(o.Members) == 0 || o.Self < 0 || o.Self >= len(o.Members):
		return errors.New("controller: no members, or Self is not one of them")
	case o.StoreDir == "":
		return errors.New("controller: no store directory")
	case o.ListenAddr == "":
		return errors.New("controller: no listen address")
	}
	return nil
}

func (o Options) withDefaults() Options {
	d := DefaultOptions()
	if o.ScanNotActiveBrokerInterval <= 0 {
		o.ScanNotActiveBrokerInterval = d.ScanNotActiveBrokerInterval
	}
	if o.ScanInactiveMasterInterval <= 0 {
		o.ScanInactiveMasterInterval = d.ScanInactiveMasterInterval
	}
	if o.ThreadPoolNums <= 0 {
		o.ThreadPoolNums = d.ThreadPoolNums
	}
	if o.QueueCapacity <= 0 {
		o.QueueCapacity = d.QueueCapacity
	}
	if o.Logger == nil {
		o.Logger = zap.NewNop()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// blackList is the keys UPDATE_CONTROLLER_CONFIG refuses: the configured
// ones and, always, configBlackList, configStorePath and rocketmqHome.
func (o *Options) blackList() map[string]bool {
	black := map[string]bool{"configBlackList": true, "configStorePath": true, "rocketmqHome": true}
	for _, k := range strings.Split(o.ConfigBlackList, ";") {
		if k = strings.TrimSpace(k); k != "" {
			black[k] = true
		}
	}
	return black
}

// settings are the ControllerConfig values read at use, so that an
// UPDATE_CONTROLLER_CONFIG changes them at once.
type settings struct {
	unclean, processRead, notify atomic.Bool
	electRetries                 atomic.Int64
}

func newSettings(o *Options) *settings {
	s := &settings{}
	s.unclean.Store(o.EnableElectUncleanMaster)
	s.processRead.Store(o.ProcessReadEvent)
	s.notify.Store(o.NotifyBrokerRoleChanged)
	s.electRetries.Store(int64(o.ElectMasterMaxRetryCount))
	return s
}
