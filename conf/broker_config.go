package conf

// BrokerConfig mirrors org.apache.rocketmq.common.BrokerConfig: the broker's
// identity, name-server registration, thread pools and feature switches.
// Fields are in Java 4.9.8's declaration order, which is the order of the -p
// listing; the 5.x keys rmqgo also reads follow them (tag option since=5).
type BrokerConfig struct {
	// RocketmqHome is the installation root holding conf/ (logback files,
	// plain_acl.yml); the startup refuses to run without it.
	RocketmqHome string `prop:"rocketmqHome,nullable"`
	// NamesrvAddr is the name server list, host:port entries separated by ';'.
	NamesrvAddr string `prop:"namesrvAddr,important,nullable"`
	// BrokerIP1 is the address the broker registers and stamps as the store host
	// of its messages.
	BrokerIP1 string `prop:"brokerIP1,important"`
	// BrokerIP2 is the address published to slaves for HA
	// (brokerIP2:haListenPort).
	BrokerIP2 string `prop:"brokerIP2"`
	// BrokerName names the master/slave group; a master and its slaves share it.
	BrokerName string `prop:"brokerName,important"`
	// BrokerClusterName is the cluster the broker registers under.
	BrokerClusterName string `prop:"brokerClusterName,important"`
	// BrokerId is 0 for a master and > 0 for a slave.
	BrokerId int64 `prop:"brokerId,important"`
	// BrokerPermission is the broker's read/write permission bits (PermName: 4
	// read, 2 write, 1 inherit).
	BrokerPermission int32 `prop:"brokerPermission"`
	// DefaultTopicQueueNums is the queue count of topics created from the TBW102
	// template.
	DefaultTopicQueueNums int32 `prop:"defaultTopicQueueNums"`
	// AutoCreateTopicEnable lets a send to an unknown topic create it from
	// TBW102.
	AutoCreateTopicEnable bool `prop:"autoCreateTopicEnable,important"`
	// ClusterTopicEnable creates a topic named after the cluster.
	ClusterTopicEnable bool `prop:"clusterTopicEnable"`
	// BrokerTopicEnable creates a topic named after the broker.
	BrokerTopicEnable bool `prop:"brokerTopicEnable"`
	// AutoCreateSubscriptionGroup creates unknown consumer groups on first use.
	AutoCreateSubscriptionGroup bool `prop:"autoCreateSubscriptionGroup,important"`
	// MessageStorePlugIn lists message store plug-in classes (Java only; ignored
	// here).
	MessageStorePlugIn string `prop:"messageStorePlugIn"`
	// MsgTraceTopicName is the topic message traces are written to.
	MsgTraceTopicName string `prop:"msgTraceTopicName,important"`
	// TraceTopicEnable creates the trace topic at start-up.
	TraceTopicEnable bool `prop:"traceTopicEnable,important"`
	// SendMessageThreadPoolNums sizes the send pool (Java: min(ncpu, 4)).
	SendMessageThreadPoolNums int32 `prop:"sendMessageThreadPoolNums"`
	// PutMessageFutureThreadPoolNums sizes the pool completing asynchronous puts
	// (Java: min(ncpu, 4)).
	PutMessageFutureThreadPoolNums int32 `prop:"putMessageFutureThreadPoolNums"`
	// PullMessageThreadPoolNums sizes the pull pool (Java: 16 + 2*ncpu).
	PullMessageThreadPoolNums int32 `prop:"pullMessageThreadPoolNums"`
	// ProcessReplyMessageThreadPoolNums sizes the request-reply pool (Java: 16 +
	// 2*ncpu).
	ProcessReplyMessageThreadPoolNums int32 `prop:"processReplyMessageThreadPoolNums"`
	// QueryMessageThreadPoolNums sizes the query pool (Java: 8 + ncpu).
	QueryMessageThreadPoolNums int32 `prop:"queryMessageThreadPoolNums"`
	// AdminBrokerThreadPoolNums sizes the admin pool.
	AdminBrokerThreadPoolNums int32 `prop:"adminBrokerThreadPoolNums"`
	// ClientManageThreadPoolNums sizes the client-management
	// (heartbeat/unregister) pool.
	ClientManageThreadPoolNums int32 `prop:"clientManageThreadPoolNums"`
	// ConsumerManageThreadPoolNums sizes the consumer-management (offsets, group
	// lists) pool.
	ConsumerManageThreadPoolNums int32 `prop:"consumerManageThreadPoolNums"`
	// HeartbeatThreadPoolNums sizes the heartbeat pool (Java: min(32, ncpu)).
	HeartbeatThreadPoolNums int32 `prop:"heartbeatThreadPoolNums"`
	// EndTransactionThreadPoolNums sizes the end-transaction pool (Java: max(8 +
	// 2*ncpu, 4*sendMessageThreadPoolNums)).
	EndTransactionThreadPoolNums int32 `prop:"endTransactionThreadPoolNums"`
	// FlushConsumerOffsetInterval is how often, in ms, consumer offsets are
	// persisted.
	FlushConsumerOffsetInterval int32 `prop:"flushConsumerOffsetInterval"`
	// FlushConsumerOffsetHistoryInterval is the consumer offset history flush
	// period in ms.
	FlushConsumerOffsetHistoryInterval int32 `prop:"flushConsumerOffsetHistoryInterval"`
	// RejectTransactionMessage refuses transactional (half) messages.
	RejectTransactionMessage bool `prop:"rejectTransactionMessage,important"`
	// FetchNamesrvAddrByAddressServer polls the HTTP address server for the name
	// server list.
	FetchNamesrvAddrByAddressServer bool `prop:"fetchNamesrvAddrByAddressServer,important"`
	// SendThreadPoolQueueCapacity bounds the send queue.
	SendThreadPoolQueueCapacity int32 `prop:"sendThreadPoolQueueCapacity"`
	// PutThreadPoolQueueCapacity bounds the asynchronous put queue.
	PutThreadPoolQueueCapacity int32 `prop:"putThreadPoolQueueCapacity"`
	// PullThreadPoolQueueCapacity bounds the pull queue.
	PullThreadPoolQueueCapacity int32 `prop:"pullThreadPoolQueueCapacity"`
	// ReplyThreadPoolQueueCapacity bounds the reply queue.
	ReplyThreadPoolQueueCapacity int32 `prop:"replyThreadPoolQueueCapacity"`
	// QueryThreadPoolQueueCapacity bounds the query queue.
	QueryThreadPoolQueueCapacity int32 `prop:"queryThreadPoolQueueCapacity"`
	// ClientManagerThreadPoolQueueCapacity bounds the client-management queue.
	ClientManagerThreadPoolQueueCapacity int32 `prop:"clientManagerThreadPoolQueueCapacity"`
	// ConsumerManagerThreadPoolQueueCapacity bounds the consumer-management
	// queue.
	ConsumerManagerThreadPoolQueueCapacity int32 `prop:"consumerManagerThreadPoolQueueCapacity"`
	// HeartbeatThreadPoolQueueCapacity bounds the heartbeat queue.
	HeartbeatThreadPoolQueueCapacity int32 `prop:"heartbeatThreadPoolQueueCapacity"`
	// EndTransactionPoolQueueCapacity bounds the end-transaction queue.
	EndTransactionPoolQueueCapacity int32 `prop:"endTransactionPoolQueueCapacity"`
	// FilterServerNums is the number of filter server processes to start (4.x
	// only).
	FilterServerNums int32 `prop:"filterServerNums,until=4"`
	// LongPollingEnable parks pulls that find nothing until a message arrives.
	LongPollingEnable bool `prop:"longPollingEnable"`
	// ShortPollingTimeMills is how long a pull waits when long polling is off,
	// in ms.
	ShortPollingTimeMills int64 `prop:"shortPollingTimeMills"`
	// NotifyConsumerIdsChangedEnable tells consumers when their group's
	// membership changes.
	NotifyConsumerIdsChangedEnable bool `prop:"notifyConsumerIdsChangedEnable"`
	// HighSpeedMode is a legacy switch with no effect in Java 4.9.8.
	HighSpeedMode bool `prop:"highSpeedMode"`
	// CommercialEnable is a legacy accounting switch.
	CommercialEnable bool `prop:"commercialEnable,until=4"`
	// CommercialTimerCount is a legacy accounting setting.
	CommercialTimerCount int32 `prop:"commercialTimerCount,until=4"`
	// CommercialTransCount is a legacy accounting setting.
	CommercialTransCount int32 `prop:"commercialTransCount,until=4"`
	// CommercialBigCount is a legacy accounting setting.
	CommercialBigCount int32 `prop:"commercialBigCount,until=4"`
	// CommercialBaseCount is a legacy accounting setting.
	CommercialBaseCount int32 `prop:"commercialBaseCount"`
	// TransferMsgByHeap copies pulled messages through the heap instead of
	// zero-copy.
	TransferMsgByHeap bool `prop:"transferMsgByHeap"`
	// MaxDelayTime is a legacy setting with no effect in Java 4.9.8.
	MaxDelayTime int32 `prop:"maxDelayTime,until=4"`
	// RegionId is the region written into trace data.
	RegionId string `prop:"regionId"`
	// RegisterBrokerTimeoutMills is the timeout of one register-broker call in
	// ms (4.9.8 default; 5.x uses 24000).
	RegisterBrokerTimeoutMills int32 `prop:"registerBrokerTimeoutMills"`
	// SlaveReadEnable lets consumers read from a slave when the master is far
	// behind.
	SlaveReadEnable bool `prop:"slaveReadEnable"`
	// DisableConsumeIfConsumerReadSlowly disables a group that falls behind by
	// consumerFallbehindThreshold.
	DisableConsumeIfConsumerReadSlowly bool `prop:"disableConsumeIfConsumerReadSlowly"`
	// ConsumerFallbehindThreshold is the lag in bytes that counts as reading
	// slowly.
	ConsumerFallbehindThreshold int64 `prop:"consumerFallbehindThreshold"`
	// BrokerFastFailureEnable answers SYSTEM_BUSY to requests that waited too
	// long in their queue.
	BrokerFastFailureEnable bool `prop:"brokerFastFailureEnable"`
	// WaitTimeMillsInSendQueue is how long a send may wait in its queue before
	// SYSTEM_BUSY, in ms.
	WaitTimeMillsInSendQueue int64 `prop:"waitTimeMillsInSendQueue"`
	// WaitTimeMillsInPullQueue is how long a pull may wait in its queue, in ms.
	WaitTimeMillsInPullQueue int64 `prop:"waitTimeMillsInPullQueue"`
	// WaitTimeMillsInHeartbeatQueue is how long a heartbeat may wait in its
	// queue, in ms.
	WaitTimeMillsInHeartbeatQueue int64 `prop:"waitTimeMillsInHeartbeatQueue"`
	// WaitTimeMillsInTransactionQueue is how long an end-transaction request may
	// wait in its queue, in ms.
	WaitTimeMillsInTransactionQueue int64 `prop:"waitTimeMillsInTransactionQueue"`
	// StartAcceptSendRequestTimeStamp refuses sends before this
	// epoch-millisecond time.
	StartAcceptSendRequestTimeStamp int64 `prop:"startAcceptSendRequestTimeStamp"`
	// TraceOn enables the broker's own trace hooks.
	TraceOn bool `prop:"traceOn"`
	// EnableCalcFilterBitMap computes consumer filter bit maps when building
	// consume queues.
	EnableCalcFilterBitMap bool `prop:"enableCalcFilterBitMap"`
	// ExpectConsumerNumUseFilter is the expected number of filtering consumers
	// (bloom filter sizing).
	ExpectConsumerNumUseFilter int32 `prop:"expectConsumerNumUseFilter"`
	// MaxErrorRateOfBloomFilter is the bloom filter error rate in percent
	// (1..100).
	MaxErrorRateOfBloomFilter int32 `prop:"maxErrorRateOfBloomFilter"`
	// FilterDataCleanTimeSpan is how long filter data of a dead consumer is
	// kept, in ms.
	FilterDataCleanTimeSpan int64 `prop:"filterDataCleanTimeSpan"`
	// FilterSupportRetry applies SQL92 filters to retry messages too.
	FilterSupportRetry bool `prop:"filterSupportRetry"`
	// EnablePropertyFilter allows SQL92 property filters in subscriptions.
	EnablePropertyFilter bool `prop:"enablePropertyFilter"`
	// CompressedRegister compresses the register-broker body.
	CompressedRegister bool `prop:"compressedRegister"`
	// ForceRegister registers with the name servers even when nothing changed.
	ForceRegister bool `prop:"forceRegister"`
	// RegisterNameServerPeriod is the register-broker period in ms (Java clamps
	// it to 10000..60000).
	RegisterNameServerPeriod int32 `prop:"registerNameServerPeriod"`
	// TransactionTimeOut is how old a half message must be before it is checked,
	// in ms.
	TransactionTimeOut int64 `prop:"transactionTimeOut,important"`
	// TransactionCheckMax is how many times a half message is checked before it
	// is discarded.
	TransactionCheckMax int32 `prop:"transactionCheckMax,important"`
	// TransactionCheckInterval is the transaction check period in ms (4.9.8
	// default; 5.x uses 30000).
	TransactionCheckInterval int64 `prop:"transactionCheckInterval,important"`
	// AclEnable turns on ACL checks of AccessKey signatures.
	AclEnable bool `prop:"aclEnable,important"`
	// StoreReplyMessageEnable stores request-reply messages.
	StoreReplyMessageEnable bool `prop:"storeReplyMessageEnable"`
	// EnableDetailStat keeps per-topic/group statistics.
	EnableDetailStat bool `prop:"enableDetailStat"`
	// AutoDeleteUnusedStats drops statistics of idle topics and groups (4.9.8
	// default false; 5.x true).
	AutoDeleteUnusedStats bool `prop:"autoDeleteUnusedStats"`
	// IsolateLogEnable writes logs to a per-broker sub-directory.
	IsolateLogEnable bool `prop:"isolateLogEnable"`
	// ConfigBlackList lists the keys a config-update request may not change,
	// separated by ';'.
	ConfigBlackList string `prop:"configBlackList"`
	// RecoverConcurrently recovers the store on several threads (5.x key).
	RecoverConcurrently bool `prop:"recoverConcurrently,important,since=5"`
	// LitePullMessageThreadPoolNums sizes the lite pull pool (5.x key; Java: 16
	// + 2*ncpu).
	LitePullMessageThreadPoolNums int32 `prop:"litePullMessageThreadPoolNums,since=5"`
	// RecoverThreadPoolNums sizes the recovery pool (5.x key).
	RecoverThreadPoolNums int32 `prop:"recoverThreadPoolNums,since=5"`
	// FetchNameSrvAddrByDnsLookup resolves namesrvAddr through DNS (5.x key).
	FetchNameSrvAddrByDnsLookup bool `prop:"fetchNameSrvAddrByDnsLookup,important,since=5"`
	// LitePullThreadPoolQueueCapacity bounds the lite pull queue (5.x key).
	LitePullThreadPoolQueueCapacity int32 `prop:"litePullThreadPoolQueueCapacity,since=5"`
	// AdminBrokerThreadPoolQueueCapacity bounds the admin queue (5.x key).
	AdminBrokerThreadPoolQueueCapacity int32 `prop:"adminBrokerThreadPoolQueueCapacity,since=5"`
	// AccountStatsEnable keeps accounting statistics (5.x key).
	AccountStatsEnable bool `prop:"accountStatsEnable,since=5"`
	// MaxStatsIdleTimeInMinutes drops statistics idle this long, in minutes; -1
	// keeps them (5.x key).
	MaxStatsIdleTimeInMinutes int32 `prop:"maxStatsIdleTimeInMinutes,since=5"`
	// SendHeartbeatTimeoutMillis is the timeout of one broker heartbeat call, in
	// ms (5.x key).
	SendHeartbeatTimeoutMillis int32 `prop:"sendHeartbeatTimeoutMillis,since=5"`
	// WaitTimeMillsInLitePullQueue is how long a lite pull may wait in its
	// queue, in ms (5.x key).
	WaitTimeMillsInLitePullQueue int64 `prop:"waitTimeMillsInLitePullQueue,since=5"`
	// WaitTimeMillsInAdminBrokerQueue is how long an admin request may wait in
	// its queue, in ms (5.x key).
	WaitTimeMillsInAdminBrokerQueue int64 `prop:"waitTimeMillsInAdminBrokerQueue,since=5"`
	// RejectPullConsumerEnable refuses pull consumers (5.x key).
	RejectPullConsumerEnable bool `prop:"rejectPullConsumerEnable,since=5"`
	// UpdateNameServerAddrPeriod is how often the address server is polled, in
	// ms (5.x key).
	UpdateNameServerAddrPeriod int32 `prop:"updateNameServerAddrPeriod,since=5"`
	// MetricsExporterType picks the metrics exporter (5.x key): DISABLE,
	// PROM (Prometheus text over HTTP), OTLP_GRPC or LOG, or their
	// ordinals 0-3. rmqgo serves PROM on both lines and not the others.
	MetricsExporterType MetricsExporterType `prop:"metricsExporterType,since=5"`
	// MetricsPromExporterHost is the address the Prometheus exporter
	// listens on; "" means brokerIP1 (5.x key).
	MetricsPromExporterHost string `prop:"metricsPromExporterHost,since=5"`
	// MetricsPromExporterPort is the Prometheus exporter's port (5.x key).
	MetricsPromExporterPort int32 `prop:"metricsPromExporterPort,since=5"`
	// MetricsLabel adds labels to every metric, "k1:v1,k2:v2" (5.x key).
	MetricsLabel string `prop:"metricsLabel,since=5"`
	// MetricsInDelta labels every metric aggregation="delta" (5.x key;
	// the Prometheus exporter stays cumulative, as Java's does).
	MetricsInDelta bool `prop:"metricsInDelta,since=5"`
	// MetricsOtelCardinalityLimit bounds the label sets of one metric;
	// past it they are folded into one overflow series (5.x key).
	MetricsOtelCardinalityLimit int32 `prop:"metricsOtelCardinalityLimit,since=5"`
	// BrokerHeartbeatInterval is the lightweight broker heartbeat period in ms
	// (5.x key).
	BrokerHeartbeatInterval int32 `prop:"brokerHeartbeatInterval,since=5"`
	// BrokerNotActiveTimeoutMillis is when a broker without heartbeats counts as
	// gone, in ms (5.x key).
	BrokerNotActiveTimeoutMillis int64 `prop:"brokerNotActiveTimeoutMillis,since=5"`
	// EnableNetWorkFlowControl answers flow-control errors when pools are full
	// (5.x key).
	EnableNetWorkFlowControl bool `prop:"enableNetWorkFlowControl,since=5"`
	// LitePullMessageEnable serves lite pull requests (5.x key).
	LitePullMessageEnable bool `prop:"litePullMessageEnable,since=5"`
	// TransactionOpMsgMaxSize caps one batched transaction op message (5.x key).
	TransactionOpMsgMaxSize int32 `prop:"transactionOpMsgMaxSize,since=5"`
	// TransactionOpBatchInterval is the transaction op batching period in ms
	// (5.x key).
	TransactionOpBatchInterval int32 `prop:"transactionOpBatchInterval,since=5"`
	// EnableSlaveActingMaster lets a slave act as master when the master is gone
	// (5.x key).
	EnableSlaveActingMaster bool `prop:"enableSlaveActingMaster,since=5"`
	// EnableRemoteEscape forwards messages to another broker when acting as
	// master (5.x key).
	EnableRemoteEscape bool `prop:"enableRemoteEscape,since=5"`
	// SkipPreOnline skips the 5.x pre-online phase (5.x key).
	SkipPreOnline bool `prop:"skipPreOnline,since=5"`
	// UseServerSideResetOffset resets consumer offsets on the broker (5.x key).
	UseServerSideResetOffset bool `prop:"useServerSideResetOffset,since=5"`
	// CompatibleWithOldNameSrv registers in the 4.x name server format (5.x
	// key).
	CompatibleWithOldNameSrv bool `prop:"compatibleWithOldNameSrv,since=5"`
	// EnableControllerMode lets a 5.x controller assign the broker's id and
	// role and elect a new master when one dies (5.x key).
	EnableControllerMode bool `prop:"enableControllerMode,since=5"`
	// ControllerAddr lists the 5.x controller addresses (5.x key).
	ControllerAddr string `prop:"controllerAddr,since=5"`
	// FetchControllerAddrByDnsLookup resolves controllerAddr through DNS (5.x
	// key).
	FetchControllerAddrByDnsLookup bool `prop:"fetchControllerAddrByDnsLookup,since=5"`
	// SyncBrokerMetadataPeriod is the period of CONTROLLER_GET_REPLICA_INFO
	// in controller mode, in ms (5.x key).
	SyncBrokerMetadataPeriod int64 `prop:"syncBrokerMetadataPeriod,since=5"`
	// CheckSyncStateSetPeriod is the period of a controller-mode master's
	// SyncStateSet shrink check, in ms (5.x key).
	CheckSyncStateSetPeriod int64 `prop:"checkSyncStateSetPeriod,since=5"`
	// SyncControllerMetadataPeriod is the period of the controller leader
	// lookup, in ms (5.x key).
	SyncControllerMetadataPeriod int64 `prop:"syncControllerMetadataPeriod,since=5"`
	// ControllerHeartBeatTimeoutMills is how long the controllers wait for
	// the broker's next heartbeat, in ms (5.x key).
	ControllerHeartBeatTimeoutMills int64 `prop:"controllerHeartBeatTimeoutMills,since=5"`
	// BrokerElectionPriority orders candidates of equal epoch and offset;
	// lower is preferred (5.x key).
	BrokerElectionPriority int32 `prop:"brokerElectionPriority,since=5"`
	// ValidateSystemTopicWhenUpdateTopic refuses updates of system topics (5.x
	// key).
	ValidateSystemTopicWhenUpdateTopic bool `prop:"validateSystemTopicWhenUpdateTopic,since=5"`
	// ChannelExpiredTimeout expires producer/consumer channels without
	// heartbeats, in ms (5.x key).
	ChannelExpiredTimeout int64 `prop:"channelExpiredTimeout,since=5"`
	// SubscriptionExpiredTimeout expires unused subscriptions, in ms (5.x key).
	SubscriptionExpiredTimeout int64 `prop:"subscriptionExpiredTimeout,since=5"`
	// FetchNamesrvAddrInterval is how often the name server list is refreshed,
	// in ms (5.x key).
	FetchNamesrvAddrInterval int64 `prop:"fetchNamesrvAddrInterval,since=5"`
	// EnableMixedMessageType allows mixed message types in one topic (5.x key).
	EnableMixedMessageType bool `prop:"enableMixedMessageType,since=5"`
	// EnableSplitRegistration splits large topic registrations (5.x key).
	EnableSplitRegistration bool `prop:"enableSplitRegistration,since=5"`
	// SplitRegistrationSize is the topic count of one split registration (5.x
	// key).
	SplitRegistrationSize int32 `prop:"splitRegistrationSize,since=5"`
	// ClearRetryTopicWhenDeleteTopic deletes the retry topics of a deleted topic
	// (5.x key).
	ClearRetryTopicWhenDeleteTopic bool `prop:"clearRetryTopicWhenDeleteTopic,since=5"`
	// EnableLmqStats keeps LMQ statistics (5.x key).
	EnableLmqStats bool `prop:"enableLmqStats,since=5"`
	// EnableRegisterProducer keeps a table of producers (5.x key).
	EnableRegisterProducer bool `prop:"enableRegisterProducer,since=5"`
	// EnableCreateSysGroup creates the system consumer groups at start-up (5.x
	// key).
	EnableCreateSysGroup bool `prop:"enableCreateSysGroup,since=5"`
	// ServerLoadBalancerEnable has QUERY_ASSIGNMENT share a topic's queues
	// among the group's clients; off, each client gets them all (5.x key).
	ServerLoadBalancerEnable bool `prop:"serverLoadBalancerEnable,since=5"`
	// LoadBalancePollNameServerInterval is how often the routes
	// QUERY_ASSIGNMENT reads are fetched again from the name server, in ms
	// (5.x key).
	LoadBalancePollNameServerInterval int32 `prop:"loadBalancePollNameServerInterval,since=5"`
	// ReviveQueueNum is how many queues the POP revive topic has, and how
	// many revive threads read them (5.x key).
	ReviveQueueNum int32 `prop:"reviveQueueNum,since=5"`
	// ReviveInterval is the pause between two rounds of a revive thread,
	// in ms (5.x key).
	ReviveInterval int64 `prop:"reviveInterval,since=5"`
	// ReviveMaxSlow bounds the idle back-off of a revive thread, in
	// intervals (5.x key).
	ReviveMaxSlow int64 `prop:"reviveMaxSlow,since=5"`
	// ReviveScanTime bounds the read phase of a revive round, in ms (5.x
	// key).
	ReviveScanTime int64 `prop:"reviveScanTime,since=5"`
	// PopFromRetryProbability is the share of POP requests, in percent,
	// that read the POP retry topic first (5.x key).
	PopFromRetryProbability int32 `prop:"popFromRetryProbability,since=5"`
	// EnableRetryTopicV2 names POP retry topics %RETRY%group+topic instead
	// of %RETRY%group_topic (5.x key).
	EnableRetryTopicV2 bool `prop:"enableRetryTopicV2,since=5"`
	// RetrieveMessageFromPopRetryTopicV1 has half the POP requests read
	// the V1 retry topic while V2 names are in use (5.x key).
	RetrieveMessageFromPopRetryTopicV1 bool `prop:"retrieveMessageFromPopRetryTopicV1,since=5"`
	// InitPopOffsetByCheckMsgInMem starts a new POP group at offset 0 when
	// the queue's first message is still in memory (5.x key).
	InitPopOffsetByCheckMsgInMem bool `prop:"initPopOffsetByCheckMsgInMem,since=5"`
	// PopPollingSize bounds the POP requests held on one queue key (5.x
	// key).
	PopPollingSize int32 `prop:"popPollingSize,since=5"`
	// MaxPopPollingSize bounds the POP requests held in all (5.x key).
	MaxPopPollingSize int32 `prop:"maxPopPollingSize,since=5"`
	// PopResponseReturnActualRetryTopic returns messages of a POP retry
	// topic as stored, under the retry topic's name (5.x key).
	PopResponseReturnActualRetryTopic bool `prop:"popResponseReturnActualRetryTopic,since=5"`
	// PopLongPollingForceNotifyInterval wakes a held POP request whatever
	// its filter at every Nth queue offset (5.x key).
	PopLongPollingForceNotifyInterval int64 `prop:"popLongPollingForceNotifyInterval,since=5"`
	// SkipWhenCKRePutReachMaxTimes drops a POP checkpoint the revive
	// service failed to revive 17 times (5.x key).
	SkipWhenCKRePutReachMaxTimes bool `prop:"skipWhenCKRePutReachMaxTimes,since=5"`
	// RecallMessageEnable lets producers recall their timer messages
	// (RECALL_MESSAGE); off, a recall is refused (5.x key).
	RecallMessageEnable bool `prop:"recallMessageEnable,since=5"`
	// AllowRecallWhenBrokerNotWriteable serves recalls while
	// brokerPermission forbids writes (5.x key).
	AllowRecallWhenBrokerNotWriteable bool `prop:"allowRecallWhenBrokerNotWriteable,since=5"`

	src origins
}

// JavaClass returns "BrokerConfig".
func (c *BrokerConfig) JavaClass() string { return "BrokerConfig" }

func (c *BrokerConfig) sources() *origins { return &c.src }

// DefaultBrokerConfig returns Java 4.9.8's defaults. The machine-dependent
// ones come from env: rocketmqHome (-Drocketmq.home.dir, else ROCKETMQ_HOME),
// namesrvAddr (-Drocketmq.namesrv.addr, else NAMESRV_ADDR), brokerIP1 and
// brokerIP2 (env.LocalAddress), brokerName (env.HostName, else
// "DEFAULT_BROKER") and the pool sizes Java derives from the CPU count.
func DefaultBrokerConfig(env Env) *BrokerConfig {
	n := int32(env.cpus())
	return &BrokerConfig{
		RocketmqHome:                           env.propOrVar(sysPropRocketmqHome, envRocketmqHome),
		NamesrvAddr:                            env.propOrVar(sysPropNamesrvAddr, envNamesrvAddr),
		BrokerIP1:                              env.LocalAddress,
		BrokerIP2:                              env.LocalAddress,
		BrokerName:                             env.hostName(),
		BrokerClusterName:                      "DefaultCluster",
		BrokerId:                               0,
		BrokerPermission:                       permRead | permWrite,
		DefaultTopicQueueNums:                  8,
		AutoCreateTopicEnable:                  true,
		ClusterTopicEnable:                     true,
		BrokerTopicEnable:                      true,
		AutoCreateSubscriptionGroup:            true,
		MessageStorePlugIn:                     "",
		MsgTraceTopicName:                      "RMQ_SYS_TRACE_TOPIC",
		TraceTopicEnable:                       false,
		SendMessageThreadPoolNums:              min(n, 4),
		PutMessageFutureThreadPoolNums:         min(n, 4),
		PullMessageThreadPoolNums:              16 + 2*n,
		ProcessReplyMessageThreadPoolNums:      16 + 2*n,
		QueryMessageThreadPoolNums:             8 + n,
		AdminBrokerThreadPoolNums:              16,
		ClientManageThreadPoolNums:             32,
		ConsumerManageThreadPoolNums:           32,
		HeartbeatThreadPoolNums:                min(32, n),
		EndTransactionThreadPoolNums:           max(8+2*n, 4*min(n, 4)),
		FlushConsumerOffsetInterval:            5000,
		FlushConsumerOffsetHistoryInterval:     60000,
		RejectTransactionMessage:               false,
		FetchNamesrvAddrByAddressServer:        false,
		SendThreadPoolQueueCapacity:            10000,
		PutThreadPoolQueueCapacity:             10000,
		PullThreadPoolQueueCapacity:            100000,
		ReplyThreadPoolQueueCapacity:           10000,
		QueryThreadPoolQueueCapacity:           20000,
		ClientManagerThreadPoolQueueCapacity:   1000000,
		ConsumerManagerThreadPoolQueueCapacity: 1000000,
		HeartbeatThreadPoolQueueCapacity:       50000,
		EndTransactionPoolQueueCapacity:        100000,
		FilterServerNums:                       0,
		LongPollingEnable:                      true,
		ShortPollingTimeMills:                  1000,
		NotifyConsumerIdsChangedEnable:         true,
		HighSpeedMode:                          false,
		CommercialEnable:                       true,
		CommercialTimerCount:                   1,
		CommercialTransCount:                   1,
		CommercialBigCount:                     1,
		CommercialBaseCount:                    1,
		TransferMsgByHeap:                      true,
		MaxDelayTime:                           40,
		RegionId:                               "DefaultRegion",
		RegisterBrokerTimeoutMills:             6000,
		SlaveReadEnable:                        false,
		DisableConsumeIfConsumerReadSlowly:     false,
		ConsumerFallbehindThreshold:            16 << 30,
		BrokerFastFailureEnable:                true,
		WaitTimeMillsInSendQueue:               200,
		WaitTimeMillsInPullQueue:               5000,
		WaitTimeMillsInHeartbeatQueue:          31000,
		WaitTimeMillsInTransactionQueue:        3000,
		StartAcceptSendRequestTimeStamp:        0,
		TraceOn:                                true,
		EnableCalcFilterBitMap:                 false,
		ExpectConsumerNumUseFilter:             32,
		MaxErrorRateOfBloomFilter:              20,
		FilterDataCleanTimeSpan:                24 * 3600 * 1000,
		FilterSupportRetry:                     false,
		EnablePropertyFilter:                   false,
		CompressedRegister:                     false,
		ForceRegister:                          true,
		RegisterNameServerPeriod:               30000,
		TransactionTimeOut:                     6000,
		TransactionCheckMax:                    15,
		TransactionCheckInterval:               60000,
		AclEnable:                              false,
		StoreReplyMessageEnable:                true,
		EnableDetailStat:                       true,
		AutoDeleteUnusedStats:                  false,
		IsolateLogEnable:                       false,
		ConfigBlackList:                        "configBlackList;brokerConfigPath",
		RecoverConcurrently:                    false,
		LitePullMessageThreadPoolNums:          16 + 2*n,
		RecoverThreadPoolNums:                  32,
		FetchNameSrvAddrByDnsLookup:            false,
		LitePullThreadPoolQueueCapacity:        100000,
		AdminBrokerThreadPoolQueueCapacity:     10000,
		AccountStatsEnable:                     true,
		MaxStatsIdleTimeInMinutes:              -1,
		SendHeartbeatTimeoutMillis:             1000,
		WaitTimeMillsInLitePullQueue:           5000,
		WaitTimeMillsInAdminBrokerQueue:        5000,
		RejectPullConsumerEnable:               false,
		UpdateNameServerAddrPeriod:             120000,
		MetricsExporterType:                    MetricsDisable,
		MetricsPromExporterPort:                5557,
		MetricsOtelCardinalityLimit:            50000,
		BrokerHeartbeatInterval:                1000,
		BrokerNotActiveTimeoutMillis:           10000,
		EnableNetWorkFlowControl:               false,
		LitePullMessageEnable:                  true,
		TransactionOpMsgMaxSize:                4096,
		TransactionOpBatchInterval:             3000,
		EnableSlaveActingMaster:                false,
		EnableRemoteEscape:                     false,
		SkipPreOnline:                          false,
		UseServerSideResetOffset:               true,
		CompatibleWithOldNameSrv:               true,
		EnableControllerMode:                   false,
		ControllerAddr:                         "",
		FetchControllerAddrByDnsLookup:         false,
		SyncBrokerMetadataPeriod:               5000,
		CheckSyncStateSetPeriod:                5000,
		SyncControllerMetadataPeriod:           10000,
		ControllerHeartBeatTimeoutMills:        10000,
		BrokerElectionPriority:                 2147483647,
		ValidateSystemTopicWhenUpdateTopic:     true,
		ChannelExpiredTimeout:                  120000,
		SubscriptionExpiredTimeout:             600000,
		FetchNamesrvAddrInterval:               10000,
		EnableMixedMessageType:                 false,
		EnableSplitRegistration:                false,
		SplitRegistrationSize:                  800,
		ClearRetryTopicWhenDeleteTopic:         true,
		EnableLmqStats:                         false,
		EnableRegisterProducer:                 true,
		EnableCreateSysGroup:                   true,
		ServerLoadBalancerEnable:               true,
		LoadBalancePollNameServerInterval:      30000,
		ReviveQueueNum:                         8,
		ReviveInterval:                         1000,
		ReviveMaxSlow:                          3,
		ReviveScanTime:                         10000,
		PopFromRetryProbability:                20,
		RetrieveMessageFromPopRetryTopicV1:     true,
		InitPopOffsetByCheckMsgInMem:           true,
		PopPollingSize:                         1024,
		MaxPopPollingSize:                      100000,
		PopLongPollingForceNotifyInterval:      800,
		AllowRecallWhenBrokerNotWriteable:      true,
	}
}

// applyJavaFiveDefaults sets the defaults 5.3.3 changed:
// autoDeleteUnusedStats true, registerBrokerTimeoutMills 24000.
func (c *BrokerConfig) applyJavaFiveDefaults() {
	c.AutoDeleteUnusedStats = true
	c.RegisterBrokerTimeoutMills = 24000
}
