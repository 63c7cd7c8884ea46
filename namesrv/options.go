package namesrv

import (
	"crypto/tls"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/remoting"
)

// ErrInvalidOptions is returned by Validate and New for unusable options.
var ErrInvalidOptions = errors.New("namesrv: invalid options")

// ConfigSource is the name server's configuration as GET_NAMESRV_CONFIG
// and UPDATE_NAMESRV_CONFIG see it (Java's Configuration over NamesrvConfig
// and NettyServerConfig).
type ConfigSource interface {
	// PropertiesText is every setting as "key=value\n" lines
	// (Configuration.getAllConfigsFormatString).
	PropertiesText() string
	// Update applies and persists the given settings
	// (Configuration.update). Keys in the black list never reach it.
	Update(props map[string]string) error
}

// Options configures a name server. Field names follow NamesrvConfig and
// NettyServerConfig; start from DefaultOptions, which holds Java's
// defaults (some booleans default to true).
type Options struct {
	// ListenAddr is host:port; Java listens on 0.0.0.0:listenPort (9876).
	ListenAddr string
	// KVConfigPath is kvConfigPath, ${user.home}/namesrv/kvConfig.json.
	KVConfigPath string

	// OrderMessageEnable adds orderTopicConf (KV namespace
	// ORDER_TOPIC_CONFIG) to routes.
	OrderMessageEnable bool
	// ReturnOrderTopicConfigToBroker (5.x, default true) answers
	// REGISTER_BROKER with the ORDER_TOPIC_CONFIG KVTable.
	ReturnOrderTopicConfigToBroker bool
	// EnableAllTopicList (5.x, default true) serves 206; EnableTopicList
	// (default true) serves 224 and 311-313. Off, they answer
	// SYSTEM_ERROR "disable".
	EnableAllTopicList bool
	EnableTopicList    bool
	// NeedWaitForService (5.x) answers route queries SYSTEM_ERROR
	// "name server not ready" for WaitSecondsForService after start.
	NeedWaitForService    bool
	WaitSecondsForService int
	// DeleteTopicWithBrokerRegistration (5.x) drops the topics a master no
	// longer registers.
	DeleteTopicWithBrokerRegistration bool
	// SupportActingMaster (5.x) lets the smallest live slave of a masterless
	// broker group with enableActingMaster act as master in routes.
	SupportActingMaster bool
	// ConfigBlackList is configBlackList: ';'-separated keys
	// UPDATE_NAMESRV_CONFIG refuses (configBlackList, configStorePath,
	// kvConfigPath and rocketmqHome are always refused).
	ConfigBlackList string

	// ClusterTest (clusterTest) looks up a topic it has no route for on
	// ProductEnvNamesrvAddr, the name server of the product environment
	// ProductEnvName (Java's DefaultMQAdminExt with that unit name finds it
	// through NAMESRV_ADDR).
	ClusterTest           bool
	ProductEnvName        string
	ProductEnvNamesrvAddr string

	// ScanNotActiveBrokerInterval is how often brokers are checked for
	// expiry (5.x scanNotActiveBrokerInterval, 5 s; 4.9.8 scans every 10 s).
	ScanNotActiveBrokerInterval time.Duration
	// BrokerChannelExpiredTime drops a broker not heard from for this long
	// when it did not send heartbeatTimeoutMillis (120 s).
	BrokerChannelExpiredTime time.Duration

	// ClientRequestThreadPoolNums / ...QueueCapacity size the pool of
	// GET_ROUTEINFO_BY_TOPIC (5.x: 8 / 50000); DefaultThreadPoolNums /
	// ...QueueCapacity the pool of every other code (16 / 10000).
	ClientRequestThreadPoolNums          int
	ClientRequestThreadPoolQueueCapacity int
	DefaultThreadPoolNums                int
	DefaultThreadPoolQueueCapacity       int
	// EventLoops is the number of network event loops; 0 is
	// remoting.DefaultEventLoops.
	EventLoops int
	// ServerChannelMaxIdleTime closes a connection that has neither read
	// nor written for this long (serverChannelMaxIdleTimeSeconds, 120 s);
	// 0 keeps quiet connections open, as Netty does for 0.
	ServerChannelMaxIdleTime time.Duration
	// TLSMode and TLSConfig are tls.server.mode and the server's TLS
	// config (remoting.ServerOptions; internal/tlsconf builds them from
	// Java's keys). The zero values serve plaintext only.
	TLSMode   remoting.TLSMode
	TLSConfig *tls.Config

	// Config serves GET/UPDATE_NAMESRV_CONFIG; nil answers GET with no
	// body and UPDATE with SYSTEM_ERROR.
	Config ConfigSource
	// Logger receives the name server's log; nil discards it.
	Logger *zap.Logger
	// Now is the clock of liveness and versions; nil is time.Now.
	Now func() time.Time
}

// DefaultOptions returns Java's defaults, with the KV file under the
// current user's home directory.
func DefaultOptions() Options {
	home, _ := os.UserHomeDir()
	return Options{
		ListenAddr:                           "0.0.0.0:9876",
		KVConfigPath:                         filepath.Join(home, "namesrv", "kvConfig.json"),
		ReturnOrderTopicConfigToBroker:       true,
		EnableAllTopicList:                   true,
		EnableTopicList:                      true,
		WaitSecondsForService:                45,
		ConfigBlackList:                      "configBlackList;configStorePath;kvConfigPath",
		ProductEnvName:                       "center",
		ScanNotActiveBrokerInterval:          5 * time.Second,
		BrokerChannelExpiredTime:             120 * time.Second,
		ClientRequestThreadPoolNums:          8,
		ClientRequestThreadPoolQueueCapacity: 50000,
		DefaultThreadPoolNums:                16,
		DefaultThreadPoolQueueCapacity:       10000,
		ServerChannelMaxIdleTime:             120 * time.Second,
	}
}

// Validate reports every problem with the options at once.
func (o *Options) Validate() error {
	var problems []string
	if o.ListenAddr == "" {
		problems = append(problems, "ListenAddr is empty")
	}
	if o.KVConfigPath == "" {
		problems = append(problems, "KVConfigPath is empty")
	}
	if o.ScanNotActiveBrokerInterval < 0 || o.BrokerChannelExpiredTime < 0 || o.ServerChannelMaxIdleTime < 0 {
		problems = append(problems, "negative scan interval, expiry or idle time")
	}
	if o.ClusterTest && o.ProductEnvNamesrvAddr == "" {
		problems = append(problems, "ClusterTest needs ProductEnvNamesrvAddr")
	}
	if len(problems) > 0 {
		return fmt.Errorf("%w: %s", ErrInvalidOptions, strings.Join(problems, "; "))
	}
	return nil
}

// withDefaults fills the zero numbers and hooks with the defaults.
func (o Options) withDefaults() Options {
	d := DefaultOptions()
	if o.ScanNotActiveBrokerInterval == 0 {
		o.ScanNotActiveBrokerInterval = d.ScanNotActiveBrokerInterval
	}
	if o.BrokerChannelExpiredTime == 0 {
		o.BrokerChannelExpiredTime = d.BrokerChannelExpiredTime
	}
	fillInt(&o.ClientRequestThreadPoolNums, d.ClientRequestThreadPoolNums)
	fillInt(&o.ClientRequestThreadPoolQueueCapacity, d.ClientRequestThreadPoolQueueCapacity)
	fillInt(&o.DefaultThreadPoolNums, d.DefaultThreadPoolNums)
	fillInt(&o.DefaultThreadPoolQueueCapacity, d.DefaultThreadPoolQueueCapacity)
	if o.Logger == nil {
		o.Logger = zap.NewNop()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

func fillInt(p *int, def int) {
	if *p <= 0 {
		*p = def
	}
}

// blackList returns the keys UPDATE_NAMESRV_CONFIG refuses, as
// DefaultRequestProcessor.initConfigBlackList builds them.
func (o *Options) blackList() map[string]bool {
	keys := map[string]bool{"configBlackList": true, "configStorePath": true, "kvConfigPath": true, "rocketmqHome": true}
	for _, k := range strings.Split(o.ConfigBlackList, ";") {
		keys[k] = true
	}
	return keys
}
