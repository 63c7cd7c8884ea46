package conf

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
)

// ControllerConfigs are the four configs ControllerStartup binds a -c file
// to, in its order: ControllerConfig, JraftConfig, NettyServerConfig
// (listenPort 19876) and NettyClientConfig.
type ControllerConfigs struct {
	Controller  *ControllerConfig
	Jraft       *JraftConfig
	NettyServer *NettyServerConfig
	NettyClient *NettyClientConfig
	// File is the -c file as read; nil without -c.
	File *Properties
	// TLS is TlsSystemConfig, read from the system properties and
	// tls.config.file.
	TLS TLSConfig
}

// DefaultControllerConfigs returns the class defaults with listenPort 19876.
func DefaultControllerConfigs(env Env) *ControllerConfigs {
	c := &ControllerConfigs{
		Controller: DefaultControllerConfig(env), Jraft: DefaultJraftConfig(),
		NettyServer: DefaultNettyServerConfig(env), NettyClient: DefaultNettyClientConfig(env),
	}
	c.NettyServer.ListenPort = 19876
	return c
}

// Objects lists the configs in Java's order.
func (c *ControllerConfigs) Objects() []Object {
	return []Object{c.Controller, c.Jraft, c.NettyServer, c.NettyClient}
}

// Validate runs the configs' Validate.
func (c *ControllerConfigs) Validate() error {
	return errors.Join(c.Controller.Validate(), c.NettyServer.Validate(), c.NettyClient.Validate())
}

// ParseControllerArgs parses mqcontroller's arguments: -c/--configFile,
// -h/--help, -n/--namesrvAddr (accepted, unused) and -p/--printConfigItem.
func ParseControllerArgs(args []string) (*CommandLine, error) {
	return parseArgs("mqcontroller", controllerOptions(), args)
}

func controllerOptions() []option {
	return []option{
		{"c", "configFile", true, "Controller config properties file"},
		{"h", "help", false, "Print help"},
		{"n", "namesrvAddr", true, "Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'"},
		{"p", "printConfigItem", false, "Print all config items"},
	}
}

// LoadController does what ControllerStartup.createControllerManager does:
// the defaults; the -c file bound to the four configs; the command-line
// values bound to ControllerConfig; then rocketmqHome must be set
// (ErrNoRocketmqHome). Callers then print (-p) and Validate.
func LoadController(cl *CommandLine, env Env) (*ControllerConfigs, []Warning, error) {
	c := DefaultControllerConfigs(env)
	var ws []Warning
	if path := cl.ConfigFile(); path != "" {
		file, err := LoadPropertiesFile(path)
		if err != nil {
			return nil, nil, err
		}
		c.File = file
		ws = Bind(file, c.Objects()...)
	}
	bindCommandLine(cl, c.Controller)
	if c.Controller.RocketmqHome == "" && !cl.PrintConfigItem() {
		return c, ws, ErrNoRocketmqHome
	}
	var err error
	c.TLS, err = LoadTLS(env, false)
	return c, ws, err
}

// ControllerMember is one controller of a group: its id, the address its
// Raft peers reach it at and the address brokers and mqadmin send the
// controller codes to. With controllerType DLedger the id is the text
// before the first '-' of its controllerDLegerPeers entry and both
// addresses are the rest (one port serves both, as DLedger's does); with
// jRaft the id is its jRaftInitConf endpoint, which is also its Raft
// address, and the controller address is the jRaftControllerRPCAddr entry
// in the same position.
type ControllerMember struct {
	ID, RaftAddr, ControllerAddr string
}

// ControllerMembers reads the group from the keys of c's controllerType and
// returns it with the index of this controller in it. Its errors are
// Java's start-up refusals ("Attribute value controllerDLegerPeers of
// ControllerConfig is null or empty") and the lists that cannot work.
func ControllerMembers(c *ControllerConfig, j *JraftConfig) ([]ControllerMember, int, error) {
	switch c.ControllerType {
	case ControllerTypeDLedger:
		return dledgerMembers(c)
	case ControllerTypeJRaft:
		return jraftMembers(c, j)
	}
	return nil, -1, settingErr(c, "controllerType", c.ControllerType, "must be DLedger or jRaft")
}

func dledgerMembers(c *ControllerConfig) ([]ControllerMember, int, error) {
	if strings.TrimSpace(c.ControllerDLegerPeers) == "" {
		return nil, -1, settingErr(c, "controllerDLegerPeers", "", "Attribute value controllerDLegerPeers of ControllerConfig is null or empty")
	}
	if strings.TrimSpace(c.ControllerDLegerSelfId) == "" {
		return nil, -1, settingErr(c, "controllerDLegerSelfId", "", "Attribute value controllerDLegerSelfId of ControllerConfig is null or empty")
	}
	var members []ControllerMember
	self := -1
	for _, entry := range strings.Split(c.ControllerDLegerPeers, ";") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		id, addr, ok := strings.Cut(entry, "-")
		if !ok || id == "" || !validHostPort(addr) {
			return nil, -1, settingErr(c, "controllerDLegerPeers", c.ControllerDLegerPeers,
				fmt.Sprintf("entry %q is not id-host:port", entry))
		}
		if id == c.ControllerDLegerSelfId {
			self = len(members)
		}
		members = append(members, ControllerMember{ID: id, RaftAddr: addr, ControllerAddr: addr})
	}
	if self < 0 {
		return nil, -1, settingErr(c, "controllerDLegerSelfId", c.ControllerDLegerSelfId, "is not one of controllerDLegerPeers' ids")
	}
	return members, self, nil
}

func jraftMembers(c *ControllerConfig, j *JraftConfig) ([]ControllerMember, int, error) {
	if strings.TrimSpace(j.JRaftInitConf) == "" {
		return nil, -1, settingErr(j, "jRaftInitConf", "", "Attribute value jRaftInitConf of ControllerConfig is null or empty")
	}
	if strings.TrimSpace(j.JRaftServerId) == "" {
		return nil, -1, settingErr(j, "jRaftServerId", "", "Attribute value jRaftServerId of ControllerConfig is null or empty")
	}
	raft, rpc := splitList(j.JRaftInitConf, ","), splitList(j.JRaftControllerRPCAddr, ",")
	if len(raft) != len(rpc) {
		return nil, -1, settingErr(j, "jRaftControllerRPCAddr", j.JRaftControllerRPCAddr, "must name as many addresses as jRaftInitConf")
	}
	members := make([]ControllerMember, len(raft))
	self := -1
	for i := range raft {
		if !validHostPort(raft[i]) || !validHostPort(rpc[i]) {
			return nil, -1, settingErr(j, "jRaftInitConf", j.JRaftInitConf, "every entry must be host:port")
		}
		members[i] = ControllerMember{ID: raft[i], RaftAddr: raft[i], ControllerAddr: rpc[i]}
		if raft[i] == strings.TrimSpace(j.JRaftServerId) {
			self = i
		}
	}
	if self < 0 {
		return nil, -1, settingErr(j, "jRaftServerId", j.JRaftServerId, "is not one of jRaftInitConf's endpoints")
	}
	return members, self, nil
}

func splitList(s, sep string) []string {
	var out []string
	for _, e := range strings.Split(s, sep) {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	return out
}

func validHostPort(s string) bool {
	host, port, err := net.SplitHostPort(s)
	if err != nil || host == "" {
		return false
	}
	n, err := strconv.Atoi(port)
	return err == nil && n > 0 && n < 65536
}

// Validate reports a controllerType that is neither DLedger nor jRaft and
// pool sizes that are not positive; the member lists are ControllerMembers'.
func (c *ControllerConfig) Validate() error {
	ck := &checker{obj: c}
	ck.require(c.ControllerType == ControllerTypeDLedger || c.ControllerType == ControllerTypeJRaft,
		"controllerType", c.ControllerType, "must be DLedger or jRaft")
	ck.positive("controllerThreadPoolNums", int64(c.ControllerThreadPoolNums))
	ck.positive("controllerRequestThreadPoolQueueCapacity", int64(c.ControllerRequestThreadPoolQueueCapacity))
	ck.positive("scanNotActiveBrokerInterval", c.ScanNotActiveBrokerInterval)
	ck.positive("scanInactiveMasterInterval", c.ScanInactiveMasterInterval)
	return ck.err()
}
