package conf

import "strings"

// javaFiveKey is a setting Java 5.3.3 has in a class rmqgo mirrors but
// rmqgo has no field for (pop consumption, the timer wheel, RocksDB,
// compaction, metrics exporters, ACL 2.0 ...).
type javaFiveKey struct {
	// name is the Java field name, which GET_BROKER_CONFIG lists.
	name string
	// setter is the key a broker.conf sets it with (the setter's name); ""
	// for a field without a setter, which Java lists but never binds.
	setter string
	// value is Java's default as GET_BROKER_CONFIG lists it.
	value string
	// listed is false for a key Java binds but does not list: a null
	// default, or one of AuthConfig's keys (5.x binds broker.conf into
	// AuthConfig too, but does not register it with the Configuration).
	listed bool
}

// readElsewhereFiveKeys are 5.3.3 keys of AuthConfig (ACL 2.0) that the
// broker reads from broker.conf itself (broker/auth.go) rather than through
// a config field: a broker.conf setting them gets no "not implemented"
// warning.
var readElsewhereFiveKeys = map[string]bool{
	"authenticationEnabled": true, "authorizationEnabled": true,
	"authenticationProvider": true, "authorizationProvider": true,
	"authenticationMetadataProvider": true, "authorizationMetadataProvider": true,
	"authenticationStrategy": true, "authorizationStrategy": true,
	"authenticationWhitelist": true, "authorizationWhitelist": true,
	"initAuthenticationUser": true, "innerClientAuthenticationCredentials": true,
	"migrateAuthFromV1Enabled":                 true,
	"statefulAuthenticationCacheExpiredSecond": true, "statefulAuthenticationCacheMaxNum": true,
	"statefulAuthorizationCacheExpiredSecond": true, "statefulAuthorizationCacheMaxNum": true,
}

// IsAuthConfigKey is whether key is one of 5.3.3's AuthConfig (ACL 2.0)
// keys, which the 5.x broker reads from broker.conf itself and the 4.x
// broker does not know.
func IsAuthConfigKey(key string) bool { return readElsewhereFiveKeys[key] }

// javaFiveKeys returns the 5.3.3 settings of the class named that rmqgo
// has no field for, with their defaults, so that a 5.x broker lists them as
// 5.3.3 does and a broker.conf that changes one gets a "not implemented"
// warning instead of "unknown key". The names, setters and defaults are
// those of the 5.3.3 classes (BrokerIdentity's fields belong to
// BrokerConfig); none depends on the machine.
func javaFiveKeys(class string) []javaFiveKey {
	var text string
	switch class {
	case "BrokerConfig":
		text = javaFiveBrokerKeys
	case "MessageStoreConfig":
		text = javaFiveStoreKeys
	}
	var keys []javaFiveKey
	for _, tok := range strings.Fields(text) {
		name, value, listed := strings.Cut(tok, "=")
		setter, odd := javaFiveSetters[name]
		if !odd {
			setter = name
		}
		keys = append(keys, javaFiveKey{name: name, setter: setter, value: value, listed: listed})
	}
	return keys
}

// javaFiveSetters names the setter of each field in the lists below whose
// setter is not named after it; "" marks a field without a setter.
var javaFiveSetters = map[string]string{
	"isInBrokerContainer":   "inBrokerContainer",
	"isBrokerContainer":     "",
	"timerCheckMetricsWhen": "",
	"timerEnableDisruptor":  "",
	"timerStopDequeue":      "",
	"timerWarmEnable":       "",
}

// The 5.3.3 settings rmqgo has no field for, as "name=default" (listed by
// GET_BROKER_CONFIG) or "name" (bound but not listed), in name order.
const (
	javaFiveBrokerKeys = `
		accountStatsPrintZeroValues=true ackMessageThreadPoolNums=16
		ackThreadPoolQueueCapacity=100000 aclCacheExpiredSecond aclCacheMaxNum
		aclCacheRefreshSecond
		appendAckAsync=false appendCkAsync=false asyncSendEnable=true
		authConfigPath authenticationEnabled authenticationMetadataProvider
		authenticationProvider authenticationStrategy authenticationWhitelist
		authorizationEnabled authorizationMetadataProvider authorizationProvider
		authorizationStrategy authorizationWhitelist
		broadcastOffsetExpireMaxSecond=300 broadcastOffsetExpireSecond=120
		brokerConfigPath 
		cgColdReadThreshold=3145728 
		cleanOfflineBrokerInterval=30000 clusterName coldCtrStrategyEnable=false
		commercialSizePerMsg=4096 configManagerVersion=v1 configName
		consumerOffsetUpdateVersionStep=500 
		defaultMessageRequestMode=PULL defaultPopShareQueueNum=-1
		delayOffsetUpdateVersionStep=200 enableBroadcastOffsetStore=true
		enableFastChannelEventProcess=false
		enableNotifyAfterPopOrderLockRelease=true
		enableNotifyBeforePopCalculateLag=true enablePopBatchAck=false
		enablePopBufferMerge=false enablePopLog=false
		enablePopMessageThreshold=false 
		enableSingleTopicRegister=false enableSkipLongAwaitingAck=false
		estimateAccumulation=true forwardTimeout=3000
		globalColdReadThreshold=104857600 initAuthenticationUser
		 innerClientAuthenticationCredentials
		isBrokerContainer=false isInBrokerContainer=false listenPort
		loadBalanceProcessorThreadPoolNums=32
		loadBalanceThreadPoolQueueCapacity=100000 lockInStrictMode=false
		 metricGrpcExporterIntervalInMills=60000
		metricGrpcExporterTimeOutInMills=3000
		metricLoggingExporterIntervalInMills=10000
		metricsGrpcExporterHeader= metricsGrpcExporterTarget=
		migrateAuthFromV1Enabled popCkMaxBufferSize=200000
		popCkOffsetMaxQueueSize=20000 popCkStayBufferTime=10000
		popCkStayBufferTimeOut=3000 popConsumerFSServiceInit=true
		popConsumerKVServiceEnable=false popConsumerKVServiceInit=false
		popConsumerKVServiceLog=false 
		popInflightMessageThreshold=10000 
		popPollingMapSize=100000 
		 popReviveMaxAttemptTimes=16
		popReviveMaxReturnSizePerRead=16384 printChannelGroups=false
		printChannelGroupsMinNum=5 realTimeNotifyConsumerChange=true
		reviveAckWaitMs=180000  
		 
		
		statefulAuthenticationCacheExpiredSecond
		statefulAuthenticationCacheMaxNum statefulAuthorizationCacheExpiredSecond
		statefulAuthorizationCacheMaxNum syncBrokerMemberGroupPeriod=1000
		 
		transactionMetricFlushInterval=3000 usePIDColdCtrStrategy=true
		userCacheExpiredSecond userCacheMaxNum userCacheRefreshSecond
		useStaticSubscription=false waitTimeMillsInAckQueue=3000`
	javaFiveStoreKeys = `
		accessMessageInMemoryHotRatio=26 batchDispatchRequestThreadPoolNums=16
		bottomMostCompressionTypeForConsumeQueueStore=zstd
		cleanRocksDBDirtyCQIntervalMin=60 cleanSwapedMapInterval=300000
		coldDataFlowControlEnable=false coldDataScanEnable=false
		commitLogForceSwapMapInterval=43200000 commitLogSwapMapInterval=3600000
		commitLogSwapMapReserveFileNum=100 compactionCqMappedFileSize=10485760
		compactionMappedFileSize=104857600 compactionScheduleInternal=900000
		compactionThreadNum=6 correctLogicMinOffsetForceInterval=300000
		correctLogicMinOffsetSleepInterval=1 dispatchCqCacheNum=4096
		dispatchCqThreads=10 dispatchFromSenderThread=false enableAsyncReput=true
		enableBuildConsumeQueueConcurrently=false enableCompaction=true
		enableRocksDBLog=false logicalDiskSpaceCleanForciblyThreshold=0.8
		logicQueueForceSwapMapInterval=43200000 logicQueueSwapMapInterval=3600000
		logicQueueSwapMapReserveFileNum=20 mappedFileSwapEnable=true
		mapperFileSizeBatchConsumeQueue=13800000 maxChecksumRange=1073741824
		maxConsumeQueueScan=20000 maxOffsetMapSize=104857600
		memTableFlushIntervalMs=3600000 putConsumeQueueDataByFileChannel=true
		realTimePersistRocksDBConfig=true recheckReputOffsetFromCq=false
		replicasPerDiskPartition=1 rocksdbCompressionType=lz4
		rocksdbCQDoubleWriteEnable=false rocksdbFlushWalFrequency=1024
		rocksdbWalFileRollingThreshold=1073741824 sampleCountThreshold=5000
		sampleSteps=32 searchBcqByCacheEnable=true
		spinLockCollisionRetreatOptimalDegree=1000 statRocksDBCQIntervalSec=10
		timerCheckMetricsWhen=05 timerColdDataCheckIntervalMs=60000
		timerCongestNumEachSlot=2147483647 timerEnableCheckMetrics=true
		timerEnableDisruptor=false timerEnableRetryUntilSuccess=false
		timerFlushIntervalMs=1000 timerGetMessageThreadNum=3
		timerInterceptDelayLevel=false timerMetricSmallThreshold=1000000
		timerProgressLogIntervalMs=10000 timerPutMessageThreadNum=3
		timerRollWindowSlot=172800 timerSkipUnknownError=false
		timerStopDequeue=false timerStopEnqueue=false timerWarmEnable=false
		useABSLock=false`
)
