package controller

import (
	"net"
	"strconv"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/tlsconf"
)

// OptionsFromConfig maps Java's controller configuration onto Options, as
// ControllerManager builds its parts: the members from the keys of
// controllerType, the controller port at this member's address (DLedger
// overwrites listenPort with it; jRaft takes jRaftControllerRPCAddr's),
// bound to bindAddress (all interfaces when empty), the store at
// getControllerStorePath. The caller adds Logger, Config and TLS.
func OptionsFromConfig(cc *conf.ControllerConfig, jc *conf.JraftConfig, bindAddress string, env conf.Env) (Options, error) {
	members, self, err := conf.ControllerMembers(cc, jc)
	if err != nil {
		return Options{}, err
	}
	o := DefaultOptions()
	for _, m := range members {
		o.Members = append(o.Members, Member(m))
	}
	o.Self = self
	o.JRaft = cc.ControllerType == conf.ControllerTypeJRaft
	o.Group = cc.ControllerDLegerGroup
	if o.JRaft {
		o.Group = jc.JRaftGroupId
	}
	_, port, _ := net.SplitHostPort(members[self].ControllerAddr)
	if bindAddress == "" {
		bindAddress = "0.0.0.0"
	}
	o.ListenAddr = net.JoinHostPort(bindAddress, port)
	o.StoreDir = cc.StorePath(env)
	o.ScanNotActiveBrokerInterval = time.Duration(cc.ScanNotActiveBrokerInterval) * time.Millisecond
	o.ScanInactiveMasterInterval = time.Duration(cc.ScanInactiveMasterInterval) * time.Millisecond
	o.ElectMasterMaxRetryCount = int(cc.ElectMasterMaxRetryCount)
	o.EnableElectUncleanMaster = cc.EnableElectUncleanMaster
	o.ProcessReadEvent = cc.IsProcessReadEvent
	o.NotifyBrokerRoleChanged = cc.NotifyBrokerRoleChanged
	o.ConfigBlackList = cc.ConfigBlackList
	o.ThreadPoolNums = int(cc.ControllerThreadPoolNums)
	o.QueueCapacity = int(cc.ControllerRequestThreadPoolQueueCapacity)
	return o, nil
}

// ListenPort is the port of the controller's own address, the value Java's
// NettyServerConfig.listenPort takes in DLedger mode.
func (o *Options) ListenPort() int32 {
	_, port, _ := net.SplitHostPort(o.Members[o.Self].ControllerAddr)
	n, _ := strconv.Atoi(port)
	return int32(n)
}

// Configuration serves GET/UPDATE_CONTROLLER_CONFIG from Java's
// configuration objects.
func Configuration(c *conf.Configuration) ConfigSource { return configSource{c} }

type configSource struct{ c *conf.Configuration }

func (s configSource) PropertiesText() string { return s.c.PropertiesString() }

func (s configSource) Update(props map[string]string) error {
	_, err := s.c.Update(props)
	return err
}

// Launch builds and starts the controller Java's configuration describes,
// as ControllerStartup and NamesrvStartup (enableControllerInNamesrv) do:
// the Options of OptionsFromConfig, netty's listenPort set to the member's
// port as DLedger sets it, GET/UPDATE_CONTROLLER_CONFIG over cc and netty
// (and file's other keys) persisted to configStorePath, TLS as the
// server's, and the Raft peers and the brokers notified dialled over TLS
// when tls.enable (unset: tls.server.mode=enforcing) says a client should
// be.
func Launch(cc *conf.ControllerConfig, jc *conf.JraftConfig, netty *conf.NettyServerConfig, file *conf.Properties,
	tlsCfg conf.TLSConfig, env conf.Env, log *zap.Logger) (*Controller, error) {
	o, err := OptionsFromConfig(cc, jc, netty.BindAddress, env)
	if err != nil {
		return nil, err
	}
	netty.ListenPort = o.ListenPort()
	o.Config = Configuration(conf.NewSortedConfiguration(cc.ConfigStorePath, file, cc, netty))
	o.Logger = log
	if o.TLSMode, o.TLSConfig, err = tlsconf.ForServer(tlsCfg, log); err != nil {
		return nil, err
	}
	if o.ClientTLSConfig, err = tlsconf.ForClient(tlsCfg, env.TLSEnabled(), log); err != nil {
		return nil, err
	}
	c, err := New(o)
	if err == nil {
		err = c.Start()
	}
	return c, err
}
