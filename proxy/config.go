package proxy

// The proxy's settings: ProxyConfig's keys in rmq-proxy.json (5.3.3), with
// Java's defaults. The file is JSON, read leniently: unknown keys are
// kept out, as fastjson does with a bean; numbers may be quoted.
//
//	{
//	  "rocketMQClusterName": "DefaultCluster",
//	  "grpcServerPort": 8081,
//	  "remotingListenPort": 8080,
//	  "namesrvAddr": "127.0.0.1:9876",
//	  "proxyMode": "cluster"
//	}

import (
	"fmt"
	"os"
	"strings"

	jsoniter "github.com/json-iterator/go"

	"github.com/rmqgo/rmqgo/conf"
)

// Modes (ProxyMode).
const (
	ModeCluster = "CLUSTER"
	ModeLocal   = "LOCAL"
)

// Config is ProxyConfig: the keys this proxy reads.
type Config struct {
	RocketMQClusterName string `json:"rocketMQClusterName"`
	ProxyClusterName    string `json:"proxyClusterName"`
	ProxyName           string `json:"proxyName"`
	NamesrvAddr         string `json:"namesrvAddr"`
	ProxyMode           string `json:"proxyMode"`
	GrpcServerPort      int    `json:"grpcServerPort"`
	RemotingListenPort  int    `json:"remotingListenPort"`
	// RemotingAccessAddr is the host routes of the remoting port name
	// (remoting_route.go); "" is LocalServeAddr, the machine's address.
	RemotingAccessAddr string `json:"remotingAccessAddr"`
	LocalServeAddr     string `json:"localServeAddr"`
	// EnableRemotingLocalProxyGrpc serves gRPC (HTTP/2) on the remoting
	// port too.
	EnableRemotingLocalProxyGrpc bool `json:"enableRemotingLocalProxyGrpc"`
	// The topic cluster-mode proxies share their consumers on
	// (heartbeat_syncer.go); the cluster "" is RocketMQClusterName.
	HeartbeatSyncerTopicName               string `json:"heartbeatSyncerTopicName"`
	HeartbeatSyncerTopicClusterName        string `json:"heartbeatSyncerTopicClusterName"`
	HeartbeatSyncerThreadPoolQueueCapacity int    `json:"heartbeatSyncerThreadPoolQueueCapacity"`
	// GrpcMaxInboundMessageSize bounds one request (130 MiB).
	GrpcMaxInboundMessageSize int `json:"grpcMaxInboundMessageSize"`
	// MaxMessageSize bounds a message body (4 MiB).
	MaxMessageSize                                int   `json:"maxMessageSize"`
	EnableMessageBodyEmptyCheck                   bool  `json:"enableMessageBodyEmptyCheck"`
	MaxUserPropertySize                           int   `json:"maxUserPropertySize"`
	UserPropertyMaxNum                            int   `json:"userPropertyMaxNum"`
	MaxMessageGroupSize                           int   `json:"maxMessageGroupSize"`
	DefaultInvisibleTimeMills                     int64 `json:"defaultInvisibleTimeMills"`
	MinInvisibleTimeMillsForRecv                  int64 `json:"minInvisibleTimeMillsForRecv"`
	MaxInvisibleTimeMills                         int64 `json:"maxInvisibleTimeMills"`
	MaxDelayTimeMills                             int64 `json:"maxDelayTimeMills"`
	MaxTransactionRecoverySecond                  int64 `json:"maxTransactionRecoverySecond"`
	EnableTopicMessageTypeCheck                   bool  `json:"enableTopicMessageTypeCheck"`
	GrpcClientProducerMaxAttempts                 int   `json:"grpcClientProducerMaxAttempts"`
	GrpcClientProducerBackoffInitialMillis        int64 `json:"grpcClientProducerBackoffInitialMillis"`
	GrpcClientProducerBackoffMaxMillis            int64 `json:"grpcClientProducerBackoffMaxMillis"`
	GrpcClientProducerBackoffMultiplier           int   `json:"grpcClientProducerBackoffMultiplier"`
	GrpcClientConsumerMinLongPollingTimeoutMillis int64 `json:"grpcClientConsumerMinLongPollingTimeoutMillis"`
	GrpcClientConsumerMaxLongPollingTimeoutMillis int64 `json:"grpcClientConsumerMaxLongPollingTimeoutMillis"`
	GrpcClientConsumerLongPollingBatchSize        int   `json:"grpcClientConsumerLongPollingBatchSize"`
	LongPollingReserveTimeInMillis                int64 `json:"longPollingReserveTimeInMillis"`
	UseEndpointPortFromRequest                    bool  `json:"useEndpointPortFromRequest"`
	GrpcProxyRelayRequestTimeoutInSeconds         int   `json:"grpcProxyRelayRequestTimeoutInSeconds"`

	// ACL 2.0 of the gRPC port: AuthConfig's keys, read from this file in
	// both modes (auth.go).
	AuthenticationEnabled                    bool   `json:"authenticationEnabled"`
	AuthenticationProvider                   string `json:"authenticationProvider"`
	AuthenticationMetadataProvider           string `json:"authenticationMetadataProvider"`
	AuthenticationStrategy                   string `json:"authenticationStrategy"`
	AuthenticationWhitelist                  string `json:"authenticationWhitelist"`
	StatefulAuthenticationCacheExpiredSecond int    `json:"statefulAuthenticationCacheExpiredSecond"`
	StatefulAuthenticationCacheMaxNum        int    `json:"statefulAuthenticationCacheMaxNum"`
	AuthorizationEnabled                     bool   `json:"authorizationEnabled"`
	AuthorizationProvider                    string `json:"authorizationProvider"`
	AuthorizationMetadataProvider            string `json:"authorizationMetadataProvider"`
	AuthorizationStrategy                    string `json:"authorizationStrategy"`
	AuthorizationWhitelist                   string `json:"authorizationWhitelist"`
	StatefulAuthorizationCacheExpiredSecond  int    `json:"statefulAuthorizationCacheExpiredSecond"`
	StatefulAuthorizationCacheMaxNum         int    `json:"statefulAuthorizationCacheMaxNum"`
	// EnableAclRpcHookForClusterMode has a cluster-mode proxy sign its
	// requests to name servers and brokers (auth_inner.go) with
	// InnerClientAuthenticationCredentials (JSON SessionCredentials),
	// else with $ROCKETMQ_HOME/conf/tools.yml's keys.
	EnableAclRpcHookForClusterMode       bool   `json:"enableAclRpcHookForClusterMode"`
	InnerClientAuthenticationCredentials string `json:"innerClientAuthenticationCredentials"`
	// UserCacheRefreshSeconds and AclCacheRefreshSeconds: how long
	// cluster mode keeps a user or ACL read from a broker (20 s).
	UserCacheRefreshSeconds int `json:"userCacheRefreshSeconds"`
	AclCacheRefreshSeconds  int `json:"aclCacheRefreshSeconds"`
}

// DefaultConfig is ProxyConfig's defaults.
func DefaultConfig() Config {
	host, _ := os.Hostname()
	if host == "" {
		host = "DEFAULT_PROXY"
	}
	return Config{
		RocketMQClusterName: "DefaultCluster", ProxyClusterName: "DefaultCluster", ProxyName: host,
		NamesrvAddr: os.Getenv("NAMESRV_ADDR"), ProxyMode: ModeCluster,
		GrpcServerPort: 8081, RemotingListenPort: 8080, LocalServeAddr: conf.LocalAddressFromOS(),
		EnableRemotingLocalProxyGrpc: true, HeartbeatSyncerTopicName: "DefaultHeartBeatSyncerTopic",
		HeartbeatSyncerThreadPoolQueueCapacity: 100,
		GrpcMaxInboundMessageSize:              130 << 20, MaxMessageSize: 4 << 20, EnableMessageBodyEmptyCheck: true,
		MaxUserPropertySize: 16 << 10, UserPropertyMaxNum: 128, MaxMessageGroupSize: 64,
		DefaultInvisibleTimeMills: 60_000, MinInvisibleTimeMillsForRecv: 10_000, MaxInvisibleTimeMills: 12 * 3600_000,
		MaxDelayTimeMills: 24 * 3600_000, MaxTransactionRecoverySecond: 3600, EnableTopicMessageTypeCheck: true,
		GrpcClientProducerMaxAttempts: 3, GrpcClientProducerBackoffInitialMillis: 10,
		GrpcClientProducerBackoffMaxMillis: 1000, GrpcClientProducerBackoffMultiplier: 2,
		GrpcClientConsumerMinLongPollingTimeoutMillis: 5_000, GrpcClientConsumerMaxLongPollingTimeoutMillis: 20_000,
		GrpcClientConsumerLongPollingBatchSize: 32, LongPollingReserveTimeInMillis: 100,
		GrpcProxyRelayRequestTimeoutInSeconds:    5,
		StatefulAuthenticationCacheExpiredSecond: 60, StatefulAuthenticationCacheMaxNum: 10000,
		StatefulAuthorizationCacheExpiredSecond: 60, StatefulAuthorizationCacheMaxNum: 10000,
		UserCacheRefreshSeconds: 20, AclCacheRefreshSeconds: 20,
	}
}

// lenient reads JSON as fastjson does for a bean: quoted numbers, unknown
// keys skipped, key case ignored.
var lenient = jsoniter.Config{CaseSensitive: false}.Froze()

// LoadConfig reads rmq-proxy.json over the defaults.
func LoadConfig(path string) (Config, error) {
	c := DefaultConfig()
	data, err := os.ReadFile(path)
	if err != nil {
		return c, err
	}
	if err := lenient.Unmarshal(data, &c); err != nil {
		return c, fmt.Errorf("%s: %w", path, err)
	}
	c.ProxyMode = strings.ToUpper(c.ProxyMode)
	return c, nil
}

// local tells whether the proxy runs inside the broker.
func (c *Config) local() bool { return c.ProxyMode == ModeLocal }
