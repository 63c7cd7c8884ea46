package conf

// MessageStoreConfig mirrors org.apache.rocketmq.store.config.MessageStoreConfig:
// store paths and file sizes, flush and cleanup timing, HA and the broker's
// role. Fields are in Java 4.9.8's declaration order; the 5.x keys rmqgo also
// reads follow them (tag option since=5).
type MessageStoreConfig struct {
	// StorePathRootDir is the store root: commitlog/, consumequeue/, index/,
	// config/, checkpoint, abort, lock.
	StorePathRootDir string `prop:"storePathRootDir,important"`
	// StorePathCommitLog is the commitlog directory; empty means
	// storePathRootDir/commitlog (several, ',' separated, allowed).
	StorePathCommitLog string `prop:"storePathCommitLog,important,nullable"`
	// StorePathDLedgerCommitLog is the DLedger commitlog directory.
	StorePathDLedgerCommitLog string `prop:"storePathDLedgerCommitLog,important,nullable"`
	// ReadOnlyCommitLogStorePaths lists extra read-only commitlog directories.
	ReadOnlyCommitLogStorePaths string `prop:"readOnlyCommitLogStorePaths,nullable"`
	// MappedFileSizeCommitLog is the size of one commitlog file in bytes.
	MappedFileSizeCommitLog int32 `prop:"mappedFileSizeCommitLog"`
	// MappedFileSizeConsumeQueue is the size of one consume-queue file in bytes
	// (rounded up to a multiple of 20 on use).
	MappedFileSizeConsumeQueue int32 `prop:"mappedFileSizeConsumeQueue"`
	// EnableConsumeQueueExt writes consume-queue extension files.
	EnableConsumeQueueExt bool `prop:"enableConsumeQueueExt"`
	// MappedFileSizeConsumeQueueExt is the size of one consume-queue extension
	// file.
	MappedFileSizeConsumeQueueExt int32 `prop:"mappedFileSizeConsumeQueueExt"`
	// BitMapLengthConsumeQueueExt is the bit map length of the consume-queue
	// extension.
	BitMapLengthConsumeQueueExt int32 `prop:"bitMapLengthConsumeQueueExt"`
	// FlushIntervalCommitLog is the asynchronous flush period in ms.
	FlushIntervalCommitLog int32 `prop:"flushIntervalCommitLog,important"`
	// CommitIntervalCommitLog is the transient-store-pool commit period in ms.
	CommitIntervalCommitLog int32 `prop:"commitIntervalCommitLog,important"`
	// UseReentrantLockWhenPutMessage uses a mutex rather than a spin lock around
	// appends.
	UseReentrantLockWhenPutMessage bool `prop:"useReentrantLockWhenPutMessage"`
	// FlushCommitLogTimed sleeps between flushes instead of waiting to be woken.
	FlushCommitLogTimed bool `prop:"flushCommitLogTimed,important"`
	// FlushIntervalConsumeQueue is the consume-queue flush period in ms.
	FlushIntervalConsumeQueue int32 `prop:"flushIntervalConsumeQueue"`
	// CleanResourceInterval is the period of the expired-file cleaner in ms.
	CleanResourceInterval int32 `prop:"cleanResourceInterval"`
	// DeleteCommitLogFilesInterval is the pause between two commitlog file
	// deletions in ms.
	DeleteCommitLogFilesInterval int32 `prop:"deleteCommitLogFilesInterval"`
	// DeleteConsumeQueueFilesInterval is the pause between two consume-queue
	// file deletions in ms.
	DeleteConsumeQueueFilesInterval int32 `prop:"deleteConsumeQueueFilesInterval"`
	// DestroyMapedFileIntervalForcibly is how long a referenced file may delay
	// its deletion, in ms.
	DestroyMapedFileIntervalForcibly int32 `prop:"destroyMapedFileIntervalForcibly"`
	// RedeleteHangedFileInterval is the retry period for a file whose deletion
	// hung, in ms.
	RedeleteHangedFileInterval int32 `prop:"redeleteHangedFileInterval"`
	// DeleteWhen lists the hours (e.g. "04" or "04;16") at which expired files
	// are deleted.
	DeleteWhen string `prop:"deleteWhen,important"`
	// DiskMaxUsedSpaceRatio is the disk usage percentage that triggers deletion
	// (clamped to 10..95 on use).
	DiskMaxUsedSpaceRatio int32 `prop:"diskMaxUsedSpaceRatio"`
	// FileReservedTime is how long commitlog files are kept, in hours.
	FileReservedTime int32 `prop:"fileReservedTime,important"`
	// PutMsgIndexHightWater is a legacy index water mark.
	PutMsgIndexHightWater int32 `prop:"putMsgIndexHightWater"`
	// MaxMessageSize is the largest accepted message body in bytes.
	MaxMessageSize int32 `prop:"maxMessageSize"`
	// CheckCRCOnRecover verifies body CRCs during recovery.
	CheckCRCOnRecover bool `prop:"checkCRCOnRecover"`
	// FlushCommitLogLeastPages is how many 4 KiB pages must be dirty before an
	// asynchronous flush.
	FlushCommitLogLeastPages int32 `prop:"flushCommitLogLeastPages"`
	// CommitCommitLogLeastPages is how many pages must be pending before a
	// commit.
	CommitCommitLogLeastPages int32 `prop:"commitCommitLogLeastPages"`
	// FlushLeastPagesWhenWarmMapedFile is the flush granularity while warming a
	// new file.
	FlushLeastPagesWhenWarmMapedFile int32 `prop:"flushLeastPagesWhenWarmMapedFile"`
	// FlushConsumeQueueLeastPages is how many pages must be dirty before a
	// consume-queue flush.
	FlushConsumeQueueLeastPages int32 `prop:"flushConsumeQueueLeastPages"`
	// FlushCommitLogThoroughInterval forces a full flush at least this often, in
	// ms.
	FlushCommitLogThoroughInterval int32 `prop:"flushCommitLogThoroughInterval"`
	// CommitCommitLogThoroughInterval forces a full commit at least this often,
	// in ms.
	CommitCommitLogThoroughInterval int32 `prop:"commitCommitLogThoroughInterval"`
	// FlushConsumeQueueThoroughInterval forces a full consume-queue flush at
	// least this often, in ms.
	FlushConsumeQueueThoroughInterval int32 `prop:"flushConsumeQueueThoroughInterval"`
	// MaxTransferBytesOnMessageInMemory caps the bytes of one pull served from
	// memory.
	MaxTransferBytesOnMessageInMemory int32 `prop:"maxTransferBytesOnMessageInMemory,important"`
	// MaxTransferCountOnMessageInMemory caps the messages of one pull served
	// from memory.
	MaxTransferCountOnMessageInMemory int32 `prop:"maxTransferCountOnMessageInMemory,important"`
	// MaxTransferBytesOnMessageInDisk caps the bytes of one pull served from
	// disk.
	MaxTransferBytesOnMessageInDisk int32 `prop:"maxTransferBytesOnMessageInDisk,important"`
	// MaxTransferCountOnMessageInDisk caps the messages of one pull served from
	// disk.
	MaxTransferCountOnMessageInDisk int32 `prop:"maxTransferCountOnMessageInDisk,important"`
	// AccessMessageInMemoryMaxRatio is the share of RAM, in percent, below which
	// data counts as in memory.
	AccessMessageInMemoryMaxRatio int32 `prop:"accessMessageInMemoryMaxRatio,important"`
	// MessageIndexEnable builds the key/unique-key index.
	MessageIndexEnable bool `prop:"messageIndexEnable,important"`
	// MaxHashSlotNum is the number of hash slots of one index file.
	MaxHashSlotNum int32 `prop:"maxHashSlotNum"`
	// MaxIndexNum is the number of entries of one index file.
	MaxIndexNum int32 `prop:"maxIndexNum"`
	// MaxMsgsNumBatch caps the results of one index query.
	MaxMsgsNumBatch int32 `prop:"maxMsgsNumBatch"`
	// MessageIndexSafe makes index recovery stricter.
	MessageIndexSafe bool `prop:"messageIndexSafe,important"`
	// HaListenPort is the HA port (the 4.9.8 startup forces listenPort+1).
	HaListenPort int32 `prop:"haListenPort"`
	// HaSendHeartbeatInterval is the slave's HA heartbeat period in ms.
	HaSendHeartbeatInterval int32 `prop:"haSendHeartbeatInterval"`
	// HaHousekeepingInterval closes an HA connection silent this long, in ms.
	HaHousekeepingInterval int32 `prop:"haHousekeepingInterval"`
	// HaTransferBatchSize caps one HA transfer in bytes.
	HaTransferBatchSize int32 `prop:"haTransferBatchSize"`
	// HaMasterAddress fixes the master's HA address on a slave instead of
	// learning it from the name server.
	HaMasterAddress string `prop:"haMasterAddress,important,nullable"`
	// HaSlaveFallbehindMax is how far, in bytes, a slave may lag and still count
	// as available.
	HaSlaveFallbehindMax int32 `prop:"haSlaveFallbehindMax,until=4"`
	// BrokerRole is ASYNC_MASTER, SYNC_MASTER or SLAVE.
	BrokerRole BrokerRole `prop:"brokerRole,important"`
	// FlushDiskType is ASYNC_FLUSH or SYNC_FLUSH.
	FlushDiskType FlushDiskType `prop:"flushDiskType,important"`
	// SyncFlushTimeout is how long a synchronous flush may take, in ms.
	SyncFlushTimeout int32 `prop:"syncFlushTimeout"`
	// SlaveTimeout is how long a SYNC_MASTER waits for its slave, in ms.
	SlaveTimeout int32 `prop:"slaveTimeout"`
	// MessageDelayLevel lists the delay levels, e.g. "1s 5s 10s 30s 1m ... 2h".
	MessageDelayLevel string `prop:"messageDelayLevel"`
	// FlushDelayOffsetInterval is how often delay offsets are persisted, in ms.
	FlushDelayOffsetInterval int64 `prop:"flushDelayOffsetInterval"`
	// CleanFileForciblyEnable deletes unexpired files when the disk is nearly
	// full.
	CleanFileForciblyEnable bool `prop:"cleanFileForciblyEnable,important"`
	// WarmMapedFileEnable pre-touches new mapped files.
	WarmMapedFileEnable bool `prop:"warmMapedFileEnable"`
	// OffsetCheckInSlave checks pull offsets on a slave.
	OffsetCheckInSlave bool `prop:"offsetCheckInSlave"`
	// DebugLockEnable logs lock diagnostics.
	DebugLockEnable bool `prop:"debugLockEnable"`
	// DuplicationEnable allows re-dispatch of already dispatched records.
	DuplicationEnable bool `prop:"duplicationEnable"`
	// DiskFallRecorded records how far consumers read from disk.
	DiskFallRecorded bool `prop:"diskFallRecorded"`
	// OsPageCacheBusyTimeOutMills is how long an append may hold the lock before
	// the page cache counts as busy, in ms.
	OsPageCacheBusyTimeOutMills int64 `prop:"osPageCacheBusyTimeOutMills"`
	// DefaultQueryMaxNum is the default result count of a message query.
	DefaultQueryMaxNum int32 `prop:"defaultQueryMaxNum"`
	// TransientStorePoolEnable stages appends in off-heap buffers before
	// committing them.
	TransientStorePoolEnable bool `prop:"transientStorePoolEnable,important"`
	// TransientStorePoolSize is the number of staging buffers.
	TransientStorePoolSize int32 `prop:"transientStorePoolSize"`
	// FastFailIfNoBufferInStorePool fails sends when no staging buffer is free.
	FastFailIfNoBufferInStorePool bool `prop:"fastFailIfNoBufferInStorePool"`
	// EnableDLegerCommitLog replaces the commitlog with DLedger (not supported
	// here).
	EnableDLegerCommitLog bool `prop:"enableDLegerCommitLog"`
	// DLegerGroup is the DLedger group name.
	DLegerGroup string `prop:"dLegerGroup,nullable"`
	// DLegerPeers lists the DLedger peers.
	DLegerPeers string `prop:"dLegerPeers,nullable"`
	// DLegerSelfId is this node's DLedger id.
	DLegerSelfId string `prop:"dLegerSelfId,nullable"`
	// PreferredLeaderId is the preferred DLedger leader.
	PreferredLeaderId string `prop:"preferredLeaderId,nullable"`
	// EnableBatchPush pushes DLedger entries in batches; Java binds it as
	// enableBatchPush.
	EnableBatchPush bool `prop:"enableBatchPush,print=isEnableBatchPush,print5=enableBatchPush"`
	// EnableScheduleMessageStats keeps delay-level statistics.
	EnableScheduleMessageStats bool `prop:"enableScheduleMessageStats"`
	// EnableLmq enables light message queues.
	EnableLmq bool `prop:"enableLmq"`
	// EnableMultiDispatch dispatches a message to several queues (LMQ).
	EnableMultiDispatch bool `prop:"enableMultiDispatch"`
	// MaxLmqConsumeQueueNum caps the number of LMQ consume queues.
	MaxLmqConsumeQueueNum int32 `prop:"maxLmqConsumeQueueNum"`
	// EnableScheduleAsyncDeliver delivers due delayed messages asynchronously.
	EnableScheduleAsyncDeliver bool `prop:"enableScheduleAsyncDeliver"`
	// ScheduleAsyncDeliverMaxPendingLimit caps pending asynchronous deliveries
	// per level.
	ScheduleAsyncDeliverMaxPendingLimit int32 `prop:"scheduleAsyncDeliverMaxPendingLimit"`
	// ScheduleAsyncDeliverMaxResendNum2Blocked is how many failed deliveries
	// block a level.
	ScheduleAsyncDeliverMaxResendNum2Blocked int32 `prop:"scheduleAsyncDeliverMaxResendNum2Blocked"`
	// StorePathEpochFile is the controller-mode epoch file (5.x key).
	StorePathEpochFile string `prop:"storePathEpochFile,important,nullable,since=5"`
	// StorePathBrokerIdentity is the controller-mode broker identity file (5.x
	// key).
	StorePathBrokerIdentity string `prop:"storePathBrokerIdentity,important,nullable,since=5"`
	// MappedFileSizeTimerLog is the size of one timer log file (5.x key).
	MappedFileSizeTimerLog int32 `prop:"mappedFileSizeTimerLog,since=5"`
	// TimerPrecisionMs is the timer wheel tick in ms (5.x key).
	TimerPrecisionMs int32 `prop:"timerPrecisionMs,since=5"`
	// TimerMaxDelaySec caps timer message delays, in seconds (5.x key).
	TimerMaxDelaySec int32 `prop:"timerMaxDelaySec,since=5"`
	// TimerWheelEnable enables the 5.x timer wheel for delayed messages (5.x
	// key).
	TimerWheelEnable bool `prop:"timerWheelEnable,since=5"`
	// DisappearTimeAfterStart is a 5.x test switch (5.x key).
	DisappearTimeAfterStart int32 `prop:"disappearTimeAfterStart,important,since=5"`
	// StoreType selects the consume-queue store: "default" or "defaultRocksDB"
	// (5.x key; only default supported).
	StoreType string `prop:"storeType,important,since=5"`
	// MaxRecoveryCommitlogFiles caps the commitlog files scanned by recovery
	// (5.x key).
	MaxRecoveryCommitlogFiles int32 `prop:"maxRecoveryCommitlogFiles,since=5"`
	// DiskSpaceWarningLevelRatio is the disk usage percentage that refuses
	// writes (5.x key; 4.9.8 has only the JVM property
	// -Drocketmq.broker.diskSpaceWarningLevelRatio, a fraction such as 0.90,
	// which sets the default here).
	DiskSpaceWarningLevelRatio int32 `prop:"diskSpaceWarningLevelRatio,since=5"`
	// DiskSpaceCleanForciblyRatio is the disk usage percentage that deletes
	// unexpired files (5.x key; 4.9.8 has only the JVM property
	// -Drocketmq.broker.diskSpaceCleanForciblyRatio, a fraction such as 0.85,
	// which sets the default here).
	DiskSpaceCleanForciblyRatio int32 `prop:"diskSpaceCleanForciblyRatio,since=5"`
	// DeleteFileBatchMax caps the files deleted in one round (5.x key).
	DeleteFileBatchMax int32 `prop:"deleteFileBatchMax,important,since=5"`
	// MaxFilterMessageSize caps the messages examined by one filtered pull (5.x
	// key).
	MaxFilterMessageSize int32 `prop:"maxFilterMessageSize,since=5"`
	// HaMaxGapNotInSync is how many bytes a slave may lag and stay in sync (5.x
	// key).
	HaMaxGapNotInSync int32 `prop:"haMaxGapNotInSync,since=5"`
	// PutMessageTimeout is how long a put may take before it fails, in ms (5.x
	// key).
	PutMessageTimeout int32 `prop:"putMessageTimeout,since=5"`
	// MaxBatchDeleteFilesNum caps the files deleted by one manual deletion (5.x
	// key).
	MaxBatchDeleteFilesNum int32 `prop:"maxBatchDeleteFilesNum,since=5"`
	// MaxTopicLength caps topic names in bytes (5.x key).
	MaxTopicLength int32 `prop:"maxTopicLength,since=5"`
	// AutoMessageVersionOnTopicLen writes v2 records for topics longer than 127
	// bytes (5.x key).
	AutoMessageVersionOnTopicLen bool `prop:"autoMessageVersionOnTopicLen,since=5"`
	// EnabledAppendPropCRC appends a CRC property to stored records (5.x key).
	EnabledAppendPropCRC bool `prop:"enabledAppendPropCRC,since=5"`
	// ForceVerifyPropCRC verifies the appended CRC property on recovery (5.x
	// key).
	ForceVerifyPropCRC bool `prop:"forceVerifyPropCRC,since=5"`
	// TravelCqFileNumWhenGetMessage is how many consume-queue files one pull may
	// walk (5.x key).
	TravelCqFileNumWhenGetMessage int32 `prop:"travelCqFileNumWhenGetMessage,since=5"`
	// WakeCommitWhenPutMessage wakes the committer after each put (5.x key).
	WakeCommitWhenPutMessage bool `prop:"wakeCommitWhenPutMessage,important,since=5"`
	// WakeFlushWhenPutMessage wakes the flusher after each put (5.x key).
	WakeFlushWhenPutMessage bool `prop:"wakeFlushWhenPutMessage,important,since=5"`
	// EnableCleanExpiredOffset drops consumer offsets of deleted queues (5.x
	// key).
	EnableCleanExpiredOffset bool `prop:"enableCleanExpiredOffset,important,since=5"`
	// MaxAsyncPutMessageRequests bounds in-flight asynchronous puts (5.x key).
	MaxAsyncPutMessageRequests int32 `prop:"maxAsyncPutMessageRequests,since=5"`
	// PullBatchMaxMessageCount caps the messages of one pull (5.x key).
	PullBatchMaxMessageCount int32 `prop:"pullBatchMaxMessageCount,since=5"`
	// TotalReplicas is the replica count of the 5.x HA group (5.x key).
	TotalReplicas int32 `prop:"totalReplicas,important,since=5"`
	// InSyncReplicas is the number of replicas a SYNC_MASTER waits for (5.x
	// key).
	InSyncReplicas int32 `prop:"inSyncReplicas,important,since=5"`
	// MinInSyncReplicas is the least number of in-sync replicas (5.x key).
	MinInSyncReplicas int32 `prop:"minInSyncReplicas,important,since=5"`
	// AllAckInSyncStateSet waits for every in-sync replica (5.x key).
	AllAckInSyncStateSet bool `prop:"allAckInSyncStateSet,important,since=5"`
	// EnableAutoInSyncReplicas adjusts inSyncReplicas automatically (5.x key).
	EnableAutoInSyncReplicas bool `prop:"enableAutoInSyncReplicas,important,since=5"`
	// HaFlowControlEnable rate-limits HA transfer (5.x key).
	HaFlowControlEnable bool `prop:"haFlowControlEnable,important,since=5"`
	// MaxHaTransferByteInSecond is the HA transfer rate limit in bytes per
	// second (5.x key).
	MaxHaTransferByteInSecond int64 `prop:"maxHaTransferByteInSecond,since=5"`
	// HaMaxTimeSlaveNotCatchup is how long a slave may lag and stay in sync, in
	// ms (5.x key).
	HaMaxTimeSlaveNotCatchup int64 `prop:"haMaxTimeSlaveNotCatchup,since=5"`
	// SyncMasterFlushOffsetWhenStartup syncs the master's flush offset at slave
	// start-up (5.x key).
	SyncMasterFlushOffsetWhenStartup bool `prop:"syncMasterFlushOffsetWhenStartup,since=5"`
	// MaxSlaveResendLength caps what a master re-sends to a slave, in bytes (5.x
	// key).
	MaxSlaveResendLength int64 `prop:"maxSlaveResendLength,since=5"`
	// SyncFromLastFile makes a new slave start from the master's last file (5.x
	// key).
	SyncFromLastFile bool `prop:"syncFromLastFile,since=5"`
	// AsyncLearner makes this slave an asynchronous learner (5.x key).
	AsyncLearner bool `prop:"asyncLearner,since=5"`
	// DataReadAheadEnable lets the OS read ahead on mapped files (5.x key).
	DataReadAheadEnable bool `prop:"dataReadAheadEnable,since=5"`
	// TopicQueueLockNum is the number of topic-queue lock stripes (5.x key).
	TopicQueueLockNum int32 `prop:"topicQueueLockNum,since=5"`
	// ReadUnCommitted serves messages not yet confirmed by the HA group (5.x
	// key).
	ReadUnCommitted bool `prop:"readUnCommitted,since=5"`

	src origins
}

// JavaClass returns "MessageStoreConfig".
func (c *MessageStoreConfig) JavaClass() string { return "MessageStoreConfig" }

func (c *MessageStoreConfig) sources() *origins { return &c.src }

// DefaultMessageStoreConfig returns Java 4.9.8's defaults; storePathRootDir
// is ${user.home}/store with user.home from env.
func DefaultMessageStoreConfig(env Env) *MessageStoreConfig {
	return &MessageStoreConfig{
		StorePathRootDir:                         env.UserHome() + "/store",
		StorePathCommitLog:                       "",
		StorePathDLedgerCommitLog:                "",
		ReadOnlyCommitLogStorePaths:              "",
		MappedFileSizeCommitLog:                  1 << 30,
		MappedFileSizeConsumeQueue:               300000 * cqUnitSize,
		EnableConsumeQueueExt:                    false,
		MappedFileSizeConsumeQueueExt:            48 << 20,
		BitMapLengthConsumeQueueExt:              64,
		FlushIntervalCommitLog:                   500,
		CommitIntervalCommitLog:                  200,
		UseReentrantLockWhenPutMessage:           true,
		FlushCommitLogTimed:                      true,
		FlushIntervalConsumeQueue:                1000,
		CleanResourceInterval:                    10000,
		DeleteCommitLogFilesInterval:             100,
		DeleteConsumeQueueFilesInterval:          100,
		DestroyMapedFileIntervalForcibly:         120000,
		RedeleteHangedFileInterval:               120000,
		DeleteWhen:                               "04",
		DiskMaxUsedSpaceRatio:                    75,
		FileReservedTime:                         72,
		PutMsgIndexHightWater:                    600000,
		MaxMessageSize:                           4 << 20,
		CheckCRCOnRecover:                        true,
		FlushCommitLogLeastPages:                 4,
		CommitCommitLogLeastPages:                4,
		FlushLeastPagesWhenWarmMapedFile:         4096,
		FlushConsumeQueueLeastPages:              2,
		FlushCommitLogThoroughInterval:           10000,
		CommitCommitLogThoroughInterval:          200,
		FlushConsumeQueueThoroughInterval:        60000,
		MaxTransferBytesOnMessageInMemory:        256 << 10,
		MaxTransferCountOnMessageInMemory:        32,
		MaxTransferBytesOnMessageInDisk:          64 << 10,
		MaxTransferCountOnMessageInDisk:          8,
		AccessMessageInMemoryMaxRatio:            40,
		MessageIndexEnable:                       true,
		MaxHashSlotNum:                           5000000,
		MaxIndexNum:                              5000000 * 4,
		MaxMsgsNumBatch:                          64,
		MessageIndexSafe:                         false,
		HaListenPort:                             10912,
		HaSendHeartbeatInterval:                  5000,
		HaHousekeepingInterval:                   20000,
		HaTransferBatchSize:                      32 << 10,
		HaMasterAddress:                          "",
		HaSlaveFallbehindMax:                     256 << 20,
		BrokerRole:                               AsyncMaster,
		FlushDiskType:                            AsyncFlush,
		SyncFlushTimeout:                         5000,
		SlaveTimeout:                             3000,
		MessageDelayLevel:                        "1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h",
		FlushDelayOffsetInterval:                 10000,
		CleanFileForciblyEnable:                  true,
		WarmMapedFileEnable:                      false,
		OffsetCheckInSlave:                       false,
		DebugLockEnable:                          false,
		DuplicationEnable:                        false,
		DiskFallRecorded:                         true,
		OsPageCacheBusyTimeOutMills:              1000,
		DefaultQueryMaxNum:                       32,
		TransientStorePoolEnable:                 false,
		TransientStorePoolSize:                   5,
		FastFailIfNoBufferInStorePool:            false,
		EnableDLegerCommitLog:                    false,
		DLegerGroup:                              "",
		DLegerPeers:                              "",
		DLegerSelfId:                             "",
		PreferredLeaderId:                        "",
		EnableBatchPush:                          false,
		EnableScheduleMessageStats:               true,
		EnableLmq:                                false,
		EnableMultiDispatch:                      false,
		MaxLmqConsumeQueueNum:                    20000,
		EnableScheduleAsyncDeliver:               false,
		ScheduleAsyncDeliverMaxPendingLimit:      2000,
		ScheduleAsyncDeliverMaxResendNum2Blocked: 3,
		StorePathEpochFile:                       "",
		StorePathBrokerIdentity:                  "",
		MappedFileSizeTimerLog:                   104857600,
		TimerPrecisionMs:                         1000,
		TimerMaxDelaySec:                         259200,
		TimerWheelEnable:                         true,
		DisappearTimeAfterStart:                  -1,
		StoreType:                                "default",
		MaxRecoveryCommitlogFiles:                30,
		DiskSpaceWarningLevelRatio:               env.percentProp(sysPropDiskSpaceWarningLevelRatio, 90),
		DiskSpaceCleanForciblyRatio:              env.percentProp(sysPropDiskSpaceCleanForciblyRatio, 85),
		DeleteFileBatchMax:                       10,
		MaxFilterMessageSize:                     16000,
		HaMaxGapNotInSync:                        268435456,
		PutMessageTimeout:                        8000,
		MaxBatchDeleteFilesNum:                   50,
		MaxTopicLength:                           127,
		AutoMessageVersionOnTopicLen:             true,
		EnabledAppendPropCRC:                     false,
		ForceVerifyPropCRC:                       false,
		TravelCqFileNumWhenGetMessage:            1,
		WakeCommitWhenPutMessage:                 true,
		WakeFlushWhenPutMessage:                  false,
		EnableCleanExpiredOffset:                 false,
		MaxAsyncPutMessageRequests:               5000,
		PullBatchMaxMessageCount:                 160,
		TotalReplicas:                            1,
		InSyncReplicas:                           1,
		MinInSyncReplicas:                        1,
		AllAckInSyncStateSet:                     false,
		EnableAutoInSyncReplicas:                 false,
		HaFlowControlEnable:                      false,
		MaxHaTransferByteInSecond:                104857600,
		HaMaxTimeSlaveNotCatchup:                 15000,
		SyncMasterFlushOffsetWhenStartup:         false,
		MaxSlaveResendLength:                     268435456,
		SyncFromLastFile:                         false,
		AsyncLearner:                             false,
		DataReadAheadEnable:                      true,
		TopicQueueLockNum:                        32,
		ReadUnCommitted:                          false,
	}
}
