package conf

import (
	"fmt"
	"hash/crc32"
	"path/filepath"
)

// Controller types, ControllerConfig.DLEDGER_CONTROLLER and JRAFT_CONTROLLER.
const (
	ControllerTypeDLedger = "DLedger"
	ControllerTypeJRaft   = "jRaft"
)

// ControllerConfig mirrors 5.3.3's org.apache.rocketmq.common.ControllerConfig:
// the keys of controller.conf (bin/mqcontroller -c) and, with
// enableControllerInNamesrv=true, of the name server's own file. Keys are
// the setter names, as MixAll.properties2Object binds them, so the flag
// whose field is isProcessReadEvent is set with processReadEvent.
//
// rmqgo's controllers agree through a Raft library of their own
// (controller/doc.go): controllerDLegerPeers (or, with controllerType
// jRaft, jRaftInitConf and jRaftControllerRPCAddr) names the members either
// way, and the log lives under controllerStorePath.
type ControllerConfig struct {
	// RocketmqHome is the installation root; the stand-alone startup
	// refuses to run without it.
	RocketmqHome string `prop:"rocketmqHome,nullable"`
	// ConfigStorePath is the file UPDATE_CONTROLLER_CONFIG rewrites.
	ConfigStorePath string `prop:"configStorePath"`
	// ControllerType is DLedger or jRaft: which keys name the members.
	ControllerType string `prop:"controllerType"`
	// ScanNotActiveBrokerInterval is the period of the heartbeat expiry
	// scan, in ms (the first runs after 2 s).
	ScanNotActiveBrokerInterval int64 `prop:"scanNotActiveBrokerInterval"`
	// ControllerThreadPoolNums sizes the request pool.
	ControllerThreadPoolNums int32 `prop:"controllerThreadPoolNums"`
	// ControllerRequestThreadPoolQueueCapacity bounds the request queue.
	ControllerRequestThreadPoolQueueCapacity int32 `prop:"controllerRequestThreadPoolQueueCapacity"`
	// ControllerDLegerGroup is the group name every member must share.
	ControllerDLegerGroup string `prop:"controllerDLegerGroup,nullable"`
	// ControllerDLegerPeers lists the members, id-host:port;id-host:port.
	ControllerDLegerPeers string `prop:"controllerDLegerPeers,nullable"`
	// ControllerDLegerSelfId is this member's id, one of the peers'.
	ControllerDLegerSelfId string `prop:"controllerDLegerSelfId,nullable"`
	// MappedFileSize is DLedger's data file size; kept, not used here.
	MappedFileSize int32 `prop:"mappedFileSize"`
	// ControllerStorePath holds the Raft log and snapshots; empty means
	// ${user.home}/<controllerType>Controller.
	ControllerStorePath string `prop:"controllerStorePath"`
	// ElectMasterMaxRetryCount bounds a controller-triggered election's
	// attempts.
	ElectMasterMaxRetryCount int32 `prop:"electMasterMaxRetryCount"`
	// EnableElectUncleanMaster lets an election pick a replica outside the
	// SyncStateSet.
	EnableElectUncleanMaster bool `prop:"enableElectUncleanMaster"`
	// IsProcessReadEvent passes every read through the Raft log. Set as
	// processReadEvent, listed by its field name as Java lists it.
	IsProcessReadEvent bool `prop:"processReadEvent,print=isProcessReadEvent"`
	// NotifyBrokerRoleChanged pushes NOTIFY_BROKER_ROLE_CHANGED after an
	// election.
	NotifyBrokerRoleChanged bool `prop:"notifyBrokerRoleChanged"`
	// ScanInactiveMasterInterval is the period of the leader's scan for
	// sets whose master stopped heartbeating, in ms.
	ScanInactiveMasterInterval int64 `prop:"scanInactiveMasterInterval"`
	// ConfigBlackList lists the keys UPDATE_CONTROLLER_CONFIG refuses.
	ConfigBlackList string `prop:"configBlackList"`
	// The metrics keys, listed with Java's defaults; the controller
	// exports no metrics here.
	MetricsExporterType                  string `prop:"metricsExporterType"`
	MetricsGrpcExporterTarget            string `prop:"metricsGrpcExporterTarget"`
	MetricsGrpcExporterHeader            string `prop:"metricsGrpcExporterHeader"`
	MetricGrpcExporterTimeOutInMills     int64  `prop:"metricGrpcExporterTimeOutInMills"`
	MetricGrpcExporterIntervalInMills    int64  `prop:"metricGrpcExporterIntervalInMills"`
	MetricLoggingExporterIntervalInMills int64  `prop:"metricLoggingExporterIntervalInMills"`
	MetricsPromExporterPort              int32  `prop:"metricsPromExporterPort"`
	MetricsPromExporterHost              string `prop:"metricsPromExporterHost"`
	MetricsLabel                         string `prop:"metricsLabel"`
	MetricsInDelta                       bool   `prop:"metricsInDelta"`
	// JraftConfigRef is the listing's jraftConfig line: Java prints the
	// nested JraftConfig object's Object.toString (its keys are
	// JraftConfig's, below). Not a key.
	JraftConfigRef string `prop:"jraftConfig,noset"`

	src origins
}

// JavaClass returns "ControllerConfig".
func (c *ControllerConfig) JavaClass() string { return "ControllerConfig" }

func (c *ControllerConfig) sources() *origins { return &c.src }

// DefaultControllerConfig returns 5.3.3's defaults: rocketmqHome from
// -Drocketmq.home.dir or ROCKETMQ_HOME, configStorePath
// ${user.home}/controller/controller.properties.
func DefaultControllerConfig(env Env) *ControllerConfig {
	return &ControllerConfig{
		RocketmqHome:                             env.propOrVar(sysPropRocketmqHome, envRocketmqHome),
		ConfigStorePath:                          filepath.Join(env.UserHome(), "controller", "controller.properties"),
		ControllerType:                           ControllerTypeDLedger,
		ScanNotActiveBrokerInterval:              5000,
		ControllerThreadPoolNums:                 16,
		ControllerRequestThreadPoolQueueCapacity: 50000,
		MappedFileSize:                           1024 * 1024 * 1024,
		ControllerStorePath:                      "",
		ElectMasterMaxRetryCount:                 3,
		EnableElectUncleanMaster:                 false,
		IsProcessReadEvent:                       false,
		NotifyBrokerRoleChanged:                  true,
		ScanInactiveMasterInterval:               5000,
		ConfigBlackList:                          "configBlackList;configStorePath",
		MetricsExporterType:                      "DISABLE",
		MetricGrpcExporterTimeOutInMills:         3000,
		MetricGrpcExporterIntervalInMills:        60000,
		MetricLoggingExporterIntervalInMills:     10000,
		MetricsPromExporterPort:                  5557,
		JraftConfigRef:                           "org.apache.rocketmq.common.JraftConfig@" + jraftIdentity(env),
	}
}

// jraftIdentity stands for the identity hash Java's Object.toString
// prints: eight hex digits, the same for one process.
func jraftIdentity(env Env) string {
	return fmt.Sprintf("%08x", crc32.ChecksumIEEE([]byte(env.HostName+env.UserHome())))
}

// StorePath is getControllerStorePath: the configured path, or
// ${user.home}/<controllerType>Controller when it is empty.
func (c *ControllerConfig) StorePath(env Env) string {
	if c.ControllerStorePath != "" {
		return c.ControllerStorePath
	}
	return filepath.Join(env.UserHome(), c.ControllerType+"Controller")
}

// JraftConfig mirrors 5.3.3's JraftConfig, bound from the same file; only
// controllerType=jRaft reads it.
type JraftConfig struct {
	JRaftElectionTimeoutMs    int32  `prop:"jRaftElectionTimeoutMs"`
	JRaftScanWaitTimeoutMs    int32  `prop:"jRaftScanWaitTimeoutMs"`
	JRaftSnapshotIntervalSecs int32  `prop:"jRaftSnapshotIntervalSecs"`
	JRaftGroupId              string `prop:"jRaftGroupId"`
	// JRaftServerId is this member's Raft endpoint, host:port.
	JRaftServerId string `prop:"jRaftServerId"`
	// JRaftInitConf lists every member's Raft endpoint, comma-separated.
	JRaftInitConf string `prop:"jRaftInitConf"`
	// JRaftControllerRPCAddr lists the members' controller ports, in the
	// order of JRaftInitConf.
	JRaftControllerRPCAddr string `prop:"jRaftControllerRPCAddr"`

	src origins
}

// JavaClass returns "JraftConfig".
func (c *JraftConfig) JavaClass() string { return "JraftConfig" }

func (c *JraftConfig) sources() *origins { return &c.src }

// DefaultJraftConfig returns 5.3.3's defaults.
func DefaultJraftConfig() *JraftConfig {
	return &JraftConfig{
		JRaftElectionTimeoutMs:    1000,
		JRaftScanWaitTimeoutMs:    1000,
		JRaftSnapshotIntervalSecs: 3600,
		JRaftGroupId:              "jRaft-Controller",
		JRaftServerId:             "localhost:9880",
		JRaftInitConf:             "localhost:9880,localhost:9881,localhost:9882",
		JRaftControllerRPCAddr:    "localhost:9770,localhost:9771,localhost:9772",
	}
}
