package storeconf

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/store"
)

// ms converts a Java millisecond setting.
func ms[T int32 | int64](v T) time.Duration { return time.Duration(v) * time.Millisecond }

// Options maps a MessageStoreConfig to store.Options. line5 selects the
// 5.x record rules (v2 records for topics over 127 bytes).
func Options(c *conf.MessageStoreConfig, line5 bool) (store.Options, error) {
	if err := unsupported(c); err != nil {
		return store.Options{}, err
	}
	o := store.DefaultOptions()
	o.RootDir = c.StorePathRootDir
	o.CommitLogDir = c.StorePathCommitLog
	o.CommitLogFileSize = int64(c.MappedFileSizeCommitLog)
	o.ConsumeQueueFileSize = int64(c.MappedFileSizeConsumeQueue)
	o.Flush = store.AsyncFlush
	if c.FlushDiskType == conf.SyncFlush {
		o.Flush = store.SyncFlush
	}
	o.FlushIntervalCommitLog = ms(c.FlushIntervalCommitLog)
	o.FlushCommitLogLeastPages = int(c.FlushCommitLogLeastPages)
	o.FlushCommitLogThoroughInterval = ms(c.FlushCommitLogThoroughInterval)
	o.SyncFlushTimeout = ms(c.SyncFlushTimeout)
	o.FlushIntervalConsumeQueue = ms(c.FlushIntervalConsumeQueue)
	o.FlushConsumeQueueLeastPages = int(c.FlushConsumeQueueLeastPages)
	o.FlushConsumeQueueThoroughInterval = ms(c.FlushConsumeQueueThoroughInterval)
	o.MaxMessageSize = int(c.MaxMessageSize)
	o.CheckCRCOnRecover = c.CheckCRCOnRecover
	o.AllowMessageV2 = line5 && c.AutoMessageVersionOnTopicLen
	o.MessageIndexEnable = c.MessageIndexEnable
	o.MessageIndexSafe = c.MessageIndexSafe
	o.MaxHashSlotNum = int(c.MaxHashSlotNum)
	o.MaxIndexNum = int(c.MaxIndexNum)
	o.MaxMsgsNumBatch = int(c.MaxMsgsNumBatch)
	o.MessageDelayLevel = c.MessageDelayLevel
	o.MaxTransferBytesOnMessageInMemory = int(c.MaxTransferBytesOnMessageInMemory)
	o.MaxTransferCountOnMessageInMemory = int(c.MaxTransferCountOnMessageInMemory)
	o.MaxTransferBytesOnMessageInDisk = int(c.MaxTransferBytesOnMessageInDisk)
	o.MaxTransferCountOnMessageInDisk = int(c.MaxTransferCountOnMessageInDisk)
	o.AccessMessageInMemoryMaxRatio = int(c.AccessMessageInMemoryMaxRatio)
	o.OSPageCacheBusyTimeout = ms(c.OsPageCacheBusyTimeOutMills)
	o.Retention = retention(c)
	o.HA = store.HAOptions{
		HeartbeatInterval:    ms(c.HaSendHeartbeatInterval),
		HousekeepingInterval: ms(c.HaHousekeepingInterval),
		TransferBatchSize:    int(c.HaTransferBatchSize),
		SlaveFallbehindMax:   int64(c.HaSlaveFallbehindMax),
	}
	o.Slave = c.BrokerRole == conf.Slave
	o.OffsetCheckInSlave = c.OffsetCheckInSlave
	o.SyncMaster = c.BrokerRole == conf.SyncMaster
	return o, o.Validate()
}

func retention(c *conf.MessageStoreConfig) store.RetentionOptions {
	return store.RetentionOptions{
		DeleteWhen:                   c.DeleteWhen,
		FileReservedTime:             time.Duration(c.FileReservedTime) * time.Hour,
		DiskMaxUsedSpaceRatio:        int(c.DiskMaxUsedSpaceRatio),
		DiskSpaceWarningLevelRatio:   int(c.DiskSpaceWarningLevelRatio),
		DiskSpaceCleanForciblyRatio:  int(c.DiskSpaceCleanForciblyRatio),
		CleanFileForciblyEnable:      c.CleanFileForciblyEnable,
		CleanResourceInterval:        ms(c.CleanResourceInterval),
		DeleteCommitLogFilesInterval: ms(c.DeleteCommitLogFilesInterval),
		DestroyFileForcibly:          ms(c.DestroyMapedFileIntervalForcibly),
	}
}

// unsupported refuses the Java store modes whose files this store cannot
// read or write, naming each.
func unsupported(c *conf.MessageStoreConfig) error {
	var errs []error
	if c.EnableDLegerCommitLog {
		errs = append(errs, errors.New("enableDLegerCommitLog=true (the DLedger commitlog format)"))
	}
	if c.StoreType != "" && c.StoreType != "default" {
		errs = append(errs, fmt.Errorf("storeType=%s (only the file-based consume queue)", c.StoreType))
	}
	if strings.Contains(c.StorePathCommitLog, ",") {
		errs = append(errs, errors.New("several commitlog directories in storePathCommitLog"))
	}
	if c.ReadOnlyCommitLogStorePaths != "" {
		errs = append(errs, errors.New("readOnlyCommitLogStorePaths"))
	}
	if c.EnableConsumeQueueExt {
		errs = append(errs, errors.New("enableConsumeQueueExt=true (consume-queue extension files)"))
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("%w: %w", store.ErrUnsupported, errors.Join(errs...))
}

// ControllerMode sets the store up for enableControllerMode: replication
// by AutoSwitchHA, roles changed at run time, the controller-mode keys.
func ControllerMode(o *store.Options, c *conf.MessageStoreConfig) {
	o.ControllerMode = true
	o.AutoSwitch = store.AutoSwitchOptions{
		AllAckInSyncStateSet:     c.AllAckInSyncStateSet,
		InSyncReplicas:           int(c.InSyncReplicas),
		MinInSyncReplicas:        int(c.MinInSyncReplicas),
		HaMaxTimeSlaveNotCatchup: ms(c.HaMaxTimeSlaveNotCatchup),
		SyncFromLastFile:         c.SyncFromLastFile,
		AsyncLearner:             c.AsyncLearner,
		ReadUnCommitted:          c.ReadUnCommitted,
		EpochFilePath:            c.StorePathEpochFile,
		SlaveTimeout:             ms(c.SlaveTimeout),
	}
}
