package conf

import (
	"errors"
	"fmt"
)

// Errors for the conditions on which the Java startups exit.
var (
	// ErrNoRocketmqHome: rocketmqHome is unset ("Please set the
	// ROCKETMQ_HOME variable in your environment ..."; Java exits -2).
	ErrNoRocketmqHome = errors.New("conf: rocketmqHome is not set: set ROCKETMQ_HOME to the RocketMQ installation")
	// ErrSlaveBrokerID: brokerRole SLAVE with brokerId <= 0 ("Slave's
	// brokerId must be > 0"; Java exits -3).
	ErrSlaveBrokerID = errors.New("conf: a SLAVE's brokerId must be > 0")
)

// ExitCode is the status the Java startup exits with for err: 0 for nil, 1
// for ErrUsage, -2 for ErrNoRocketmqHome, -3 for ErrBadNamesrvAddr and
// ErrSlaveBrokerID (and for invalid settings, which make Java's initialize
// fail), -1 for anything else (Java prints the exception).
func ExitCode(err error) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, ErrUsage):
		return 1
	case errors.Is(err, ErrNoRocketmqHome):
		return -2
	case errors.Is(err, ErrBadNamesrvAddr), errors.Is(err, ErrSlaveBrokerID), errors.Is(err, ErrInvalid):
		return -3
	}
	return -1
}

// BrokerConfigs are the four configs BrokerStartup binds a broker.conf to,
// in Java's order (which is also the order of -p and GET_BROKER_CONFIG).
type BrokerConfigs struct {
	Broker      *BrokerConfig
	NettyServer *NettyServerConfig
	NettyClient *NettyClientConfig
	Store       *MessageStoreConfig
	// File is the -c file as read; nil without -c.
	File *Properties
	// ConfigPath is BrokerPathConfigHelper's broker config path, which
	// UPDATE_BROKER_CONFIG rewrites: the -c file, else
	// ${user.home}/store/config/broker.properties.
	ConfigPath string
	// AclPlainFile is where ACL 1.0's accounts are kept (aclEnable):
	// -Drocketmq.acl.plain.file (default conf/plain_acl.yml) under
	// rocketmqHome, as PlainPermissionManager finds it; the directory
	// conf/acl beside it holds more account files.
	AclPlainFile string
	// TLS is TlsSystemConfig, read from the system properties and
	// tls.config.file.
	TLS TLSConfig
}

// DefaultBrokerConfigs returns the configs as BrokerStartup has them before
// reading a file: the class defaults, listenPort 10911, useTLS from
// -Dtls.enable (else -Dtls.server.mode=enforcing), haListenPort
// listenPort+1; with RMQGO_LINE=5 the defaults 5.3.3 changed.
func DefaultBrokerConfigs(env Env) *BrokerConfigs {
	b := &BrokerConfigs{
		Broker:      DefaultBrokerConfig(env),
		NettyServer: DefaultNettyServerConfig(env),
		NettyClient: DefaultNettyClientConfig(env),
		Store:       DefaultMessageStoreConfig(env),
		ConfigPath:  env.UserHome() + "/store/config/broker.properties",
	}
	if env.Line5() {
		b.Broker.applyJavaFiveDefaults()
	}
	b.NettyServer.ListenPort = 10911
	b.NettyClient.UseTLS = env.TLSEnabled()
	b.Store.HaListenPort = b.NettyServer.ListenPort + 1
	return b
}

// Objects lists the configs in Java's order.
func (b *BrokerConfigs) Objects() []Object {
	return []Object{b.Broker, b.NettyServer, b.NettyClient, b.Store}
}

// NewConfiguration registers the configs and the file's extra keys, with
// ConfigPath as the file updates rewrite. It lists and writes back the key
// set of a 4.9.8 broker, or with line5 of a 5.3.3 broker.
func (b *BrokerConfigs) NewConfiguration(line5 bool) *Configuration {
	l := listJava4
	if line5 {
		l = listJava5
	}
	return newConfiguration(l, b.ConfigPath, b.File, b.Objects()...)
}

// Validate runs every config's Validate and the checks that span two of
// them: a SLAVE needs brokerId > 0, and the fast (VIP) port listenPort-2
// must be a port.
func (b *BrokerConfigs) Validate() error {
	errs := []error{b.Broker.Validate(), b.NettyServer.Validate(), b.NettyClient.Validate(), b.Store.Validate()}
	if b.Store.BrokerRole == Slave && b.Broker.BrokerId <= 0 && !b.Broker.EnableControllerMode {
		errs = append(errs, settingErr(b.Broker, "brokerId", b.Broker.BrokerId, "a SLAVE needs brokerId > 0"))
	}
	if p := b.NettyServer.ListenPort; p != 0 && p < 2 {
		errs = append(errs, settingErr(b.NettyServer, "listenPort", p, "the fast port listenPort-2 would be negative"))
	}
	return errors.Join(errs...)
}

func settingErr(obj Object, key string, value any, reason string) error {
	ck := &checker{obj: obj}
	ck.require(false, key, value, "%s", reason)
	return ck.err()
}

// LoadBroker does what BrokerStartup.createBrokerController does before it
// builds the controller: the defaults; the -c file bound to the four
// configs; the command-line values (-n) bound to BrokerConfig on top; then
// the start-up rules, returning ErrNoRocketmqHome, ErrBadNamesrvAddr or
// ErrSlaveBrokerID where Java exits:
//
//   - rocketmqHome must be set;
//   - namesrvAddr must be a valid list (ValidateNamesrvAddr);
//   - masters get brokerId 0; a SLAVE must have brokerId > 0 (neither in
//     controller mode, where the controller decides);
//   - enableDLegerCommitLog sets brokerId -1;
//   - haListenPort is listenPort+1 unless the file sets it to a positive
//     value (5.x; 4.9.8 always overwrote it).
//
// Java 4.9.8 also meant to lower accessMessageInMemoryMaxRatio by 10 on
// slaves but tests the role before reading the file, so it never does;
// neither does LoadBroker (5.x does). The warnings are Bind's. Callers then
// print (-p/-m) and Validate.
func LoadBroker(cl *CommandLine, env Env) (*BrokerConfigs, []Warning, error) {
	b := DefaultBrokerConfigs(env)
	var ws []Warning
	if path := cl.ConfigFile(); path != "" {
		file, err := LoadPropertiesFile(path)
		if err != nil {
			return nil, nil, err
		}
		b.File, b.ConfigPath = file, path
		ws = Bind(file, b.Objects()...)
	}
	bindCommandLine(cl, b.Broker)
	if b.Broker.RocketmqHome == "" {
		return b, ws, ErrNoRocketmqHome
	}
	aclFile, ok := env.SysProp(sysPropAclPlainFile)
	if !ok {
		aclFile = "conf/plain_acl.yml"
	}
	b.AclPlainFile = b.Broker.RocketmqHome + "/" + aclFile
	if err := ValidateNamesrvAddr(b.Broker.NamesrvAddr); err != nil {
		return b, ws, err
	}
	switch {
	case b.Broker.EnableControllerMode:
		// the controller decides the id and the role (5.x BrokerStartup)
	case b.Store.BrokerRole.IsMaster():
		b.Broker.BrokerId = 0
	case b.Broker.BrokerId <= 0:
		return b, ws, fmt.Errorf("%w (brokerId=%d)", ErrSlaveBrokerID, b.Broker.BrokerId)
	}
	if b.Store.EnableDLegerCommitLog {
		b.Broker.BrokerId = -1
	}
	if _, set := OriginOf(b.Store, "haListenPort"); !set || b.Store.HaListenPort <= 0 {
		b.Store.HaListenPort = b.NettyServer.ListenPort + 1
	}
	var err error
	b.TLS, err = LoadTLS(env, b.NettyClient.UseTLS)
	return b, ws, err
}

// bindCommandLine binds the option values to obj as the startups do; the
// options that are no config key (configFile) are ignored without warning.
func bindCommandLine(cl *CommandLine, obj Object) {
	Bind(cl.Properties(), obj)
}

// NamesrvConfigs are the two configs NamesrvStartup binds a -c file to.
type NamesrvConfigs struct {
	Namesrv     *NamesrvConfig
	NettyServer *NettyServerConfig
	// Controller and Jraft are the embedded controller's, bound from the
	// same file (NamesrvStartup reads them only with
	// enableControllerInNamesrv=true).
	Controller *ControllerConfig
	Jraft      *JraftConfig
	// File is the -c file as read; nil without -c.
	File *Properties
	// TLS is TlsSystemConfig, read from the system properties and
	// tls.config.file.
	TLS TLSConfig
}

// DefaultNamesrvConfigs returns the class defaults with listenPort 9876.
func DefaultNamesrvConfigs(env Env) *NamesrvConfigs {
	n := &NamesrvConfigs{Namesrv: DefaultNamesrvConfig(env), NettyServer: DefaultNettyServerConfig(env),
		Controller: DefaultControllerConfig(env), Jraft: DefaultJraftConfig()}
	n.NettyServer.ListenPort = 9876
	return n
}

// Objects lists the configs in Java's order.
func (n *NamesrvConfigs) Objects() []Object {
	return []Object{n.Namesrv, n.NettyServer}
}

// NewConfiguration registers the configs and the file's extra keys; updates
// rewrite configStorePath (Java's setStorePathFromConfig).
func (n *NamesrvConfigs) NewConfiguration() *Configuration {
	return NewConfiguration(n.Namesrv.ConfigStorePath, n.File, n.Objects()...)
}

// Validate runs both configs' Validate, and the controller's when the
// name server embeds one.
func (n *NamesrvConfigs) Validate() error {
	errs := []error{n.Namesrv.Validate(), n.NettyServer.Validate()}
	if n.Namesrv.EnableControllerInNamesrv {
		errs = append(errs, n.Controller.Validate())
		if _, _, err := ControllerMembers(n.Controller, n.Jraft); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// LoadNamesrv does what NamesrvStartup.createNamesrvController does: the
// defaults (listenPort 9876); the -c file bound to NamesrvConfig and
// NettyServerConfig, with configStorePath set to the file; the command-line
// values bound to NamesrvConfig (which has no key for them, so -n does
// nothing); then ErrNoRocketmqHome when rocketmqHome is unset. Java prints
// -p before that check, so with -p the check is skipped.
func LoadNamesrv(cl *CommandLine, env Env) (*NamesrvConfigs, []Warning, error) {
	n := DefaultNamesrvConfigs(env)
	var ws []Warning
	if path := cl.ConfigFile(); path != "" {
		file, err := LoadPropertiesFile(path)
		if err != nil {
			return nil, nil, err
		}
		n.File = file
		ws = Bind(file, n.Namesrv, n.NettyServer, n.Controller, n.Jraft)
		n.Namesrv.ConfigStorePath = path
	}
	bindCommandLine(cl, n.Namesrv)
	if n.Namesrv.RocketmqHome == "" && !cl.PrintConfigItem() {
		return n, ws, ErrNoRocketmqHome
	}
	var err error
	n.TLS, err = LoadTLS(env, false)
	return n, ws, err
}

// Snapshot returns a copy of the configs that no later Bind or Update
// changes: the four structs copied without their record of where each
// value came from (which Update keeps writing), and no file. A running
// broker reads its settings from such a copy, swapped whole on update.
func (b *BrokerConfigs) Snapshot() *BrokerConfigs {
	br, ns, nc, st := *b.Broker, *b.NettyServer, *b.NettyClient, *b.Store
	br.src, ns.src, nc.src, st.src = origins{}, origins{}, origins{}, origins{}
	return &BrokerConfigs{Broker: &br, NettyServer: &ns, NettyClient: &nc, Store: &st, ConfigPath: b.ConfigPath,
		AclPlainFile: b.AclPlainFile, TLS: b.TLS}
}
