package conf

// NamesrvConfig mirrors org.apache.rocketmq.common.namesrv.NamesrvConfig.
// Fields are in Java 4.9.8's declaration order; the 5.x keys follow them
// (tag option since=5).
type NamesrvConfig struct {
	// RocketmqHome is the installation root holding conf/ (logback files,
	// plain_acl.yml); the startup refuses to run without it.
	RocketmqHome string `prop:"rocketmqHome,nullable"`
	// KvConfigPath is the name server's KV config file (JSON).
	KvConfigPath string `prop:"kvConfigPath"`
	// ConfigStorePath is the file UPDATE_NAMESRV_CONFIG rewrites (the -c file
	// when given).
	ConfigStorePath string `prop:"configStorePath"`
	// ProductEnvName is the product environment name.
	ProductEnvName string `prop:"productEnvName"`
	// ClusterTest is a legacy test switch.
	ClusterTest bool `prop:"clusterTest"`
	// OrderMessageEnable serves the ORDER_TOPIC_CONFIG KV namespace to clients.
	OrderMessageEnable bool `prop:"orderMessageEnable"`
	// ConfigBlackList lists the keys a config-update request may not change,
	// separated by ';'.
	ConfigBlackList string `prop:"configBlackList"`
	// ReturnOrderTopicConfigToBroker returns order-topic KV config to
	// registering brokers (5.x key).
	ReturnOrderTopicConfigToBroker bool `prop:"returnOrderTopicConfigToBroker,since=5"`
	// ClientRequestThreadPoolNums sizes the client request pool (5.x key).
	ClientRequestThreadPoolNums int32 `prop:"clientRequestThreadPoolNums,since=5"`
	// DefaultThreadPoolNums sizes the default request pool (5.x key).
	DefaultThreadPoolNums int32 `prop:"defaultThreadPoolNums,since=5"`
	// ClientRequestThreadPoolQueueCapacity bounds the client request queue (5.x
	// key).
	ClientRequestThreadPoolQueueCapacity int32 `prop:"clientRequestThreadPoolQueueCapacity,since=5"`
	// DefaultThreadPoolQueueCapacity bounds the default request queue (5.x key).
	DefaultThreadPoolQueueCapacity int32 `prop:"defaultThreadPoolQueueCapacity,since=5"`
	// ScanNotActiveBrokerInterval is the period of the idle-broker scan, in ms
	// (5.x key; 4.9.8 scans every 10000 ms).
	ScanNotActiveBrokerInterval int64 `prop:"scanNotActiveBrokerInterval,since=5"`
	// UnRegisterBrokerQueueCapacity bounds the unregister queue (5.x key).
	UnRegisterBrokerQueueCapacity int32 `prop:"unRegisterBrokerQueueCapacity,since=5"`
	// SupportActingMaster supports slaves acting as master (5.x key).
	SupportActingMaster bool `prop:"supportActingMaster,since=5"`
	// EnableAllTopicList answers GET_ALL_TOPIC_LIST_FROM_NAMESERVER (5.x key).
	EnableAllTopicList bool `prop:"enableAllTopicList,since=5"`
	// EnableTopicList answers the per-cluster topic list requests (5.x key).
	EnableTopicList bool `prop:"enableTopicList,since=5"`
	// NotifyMinBrokerIdChanged notifies brokers when their group's minimum
	// broker id changes (5.x key).
	NotifyMinBrokerIdChanged bool `prop:"notifyMinBrokerIdChanged,since=5"`
	// EnableControllerInNamesrv runs the 5.x controller inside the name
	// server, configured from the same file (5.x key).
	EnableControllerInNamesrv bool `prop:"enableControllerInNamesrv,since=5"`
	// NeedWaitForService delays serving until brokers have registered (5.x key).
	NeedWaitForService bool `prop:"needWaitForService,since=5"`
	// WaitSecondsForService is how long needWaitForService waits, in seconds
	// (5.x key).
	WaitSecondsForService int32 `prop:"waitSecondsForService,since=5"`
	// DeleteTopicWithBrokerRegistration deletes topics a broker stops
	// registering (5.x key).
	DeleteTopicWithBrokerRegistration bool `prop:"deleteTopicWithBrokerRegistration,since=5"`

	src origins
}

// JavaClass returns "NamesrvConfig".
func (c *NamesrvConfig) JavaClass() string { return "NamesrvConfig" }

func (c *NamesrvConfig) sources() *origins { return &c.src }

// DefaultNamesrvConfig returns Java 4.9.8's defaults: rocketmqHome from
// -Drocketmq.home.dir or ROCKETMQ_HOME, kvConfigPath
// ${user.home}/namesrv/kvConfig.json and configStorePath
// ${user.home}/namesrv/namesrv.properties.
func DefaultNamesrvConfig(env Env) *NamesrvConfig {
	return &NamesrvConfig{
		RocketmqHome:                         env.propOrVar(sysPropRocketmqHome, envRocketmqHome),
		KvConfigPath:                         env.UserHome() + "/namesrv/kvConfig.json",
		ConfigStorePath:                      env.UserHome() + "/namesrv/namesrv.properties",
		ProductEnvName:                       "center",
		ClusterTest:                          false,
		OrderMessageEnable:                   false,
		ConfigBlackList:                      "configBlackList;configStorePath;kvConfigPath",
		ReturnOrderTopicConfigToBroker:       true,
		ClientRequestThreadPoolNums:          8,
		DefaultThreadPoolNums:                16,
		ClientRequestThreadPoolQueueCapacity: 50000,
		DefaultThreadPoolQueueCapacity:       10000,
		ScanNotActiveBrokerInterval:          5000,
		UnRegisterBrokerQueueCapacity:        3000,
		SupportActingMaster:                  false,
		EnableAllTopicList:                   true,
		EnableTopicList:                      true,
		NotifyMinBrokerIdChanged:             false,
		EnableControllerInNamesrv:            false,
		NeedWaitForService:                   false,
		WaitSecondsForService:                45,
		DeleteTopicWithBrokerRegistration:    false,
	}
}
