package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// FlushMode is the commitlog's flushDiskType.
type FlushMode uint8

const (
	// AsyncFlush (ASYNC_FLUSH): a put returns once its bytes are in the
	// page cache; a background flusher makes them durable.
	AsyncFlush FlushMode = iota
	// SyncFlush (SYNC_FLUSH): a put returns once an fsync covering its
	// bytes is done; concurrent puts share one fsync (group commit).
	SyncFlush
)

// Options configure a store. They carry Java's MessageStoreConfig keys
// under Go names; DefaultOptions gives Java's defaults.
type Options struct {
	// RootDir is storePathRootDir.
	RootDir string
	// CommitLogDir is storePathCommitLog; empty means RootDir/commitlog.
	CommitLogDir string

	CommitLogFileSize    int64 // mappedFileSizeCommitLog
	ConsumeQueueFileSize int64 // mappedFileSizeConsumeQueue, rounded up to 20

	Flush                             FlushMode     // flushDiskType
	FlushIntervalCommitLog            time.Duration // flushIntervalCommitLog
	FlushCommitLogLeastPages          int           // flushCommitLogLeastPages
	FlushCommitLogThoroughInterval    time.Duration // flushCommitLogThoroughInterval
	SyncFlushTimeout                  time.Duration // syncFlushTimeout
	FlushIntervalConsumeQueue         time.Duration // flushIntervalConsumeQueue
	FlushConsumeQueueLeastPages       int           // flushConsumeQueueLeastPages
	FlushConsumeQueueThoroughInterval time.Duration // flushConsumeQueueThoroughInterval

	MaxMessageSize    int  // maxMessageSize (body limit)
	CheckCRCOnRecover bool // checkCRCOnRecover
	// AllowMessageV2 writes topics longer than 127 bytes as v2 records
	// (5.x autoMessageVersionOnTopicLen). A 4.9 broker cannot read them.
	AllowMessageV2 bool

	MessageIndexEnable bool // messageIndexEnable
	MessageIndexSafe   bool // messageIndexSafe
	MaxHashSlotNum     int  // maxHashSlotNum
	MaxIndexNum        int  // maxIndexNum
	MaxMsgsNumBatch    int  // maxMsgsNumBatch (index query cap)

	// MessageDelayLevel is messageDelayLevel ("1s 5s ... 2h").
	MessageDelayLevel string

	MaxTransferBytesOnMessageInMemory int // maxTransferBytesOnMessageInMemory
	MaxTransferCountOnMessageInMemory int // maxTransferCountOnMessageInMemory
	MaxTransferBytesOnMessageInDisk   int // maxTransferBytesOnMessageInDisk
	MaxTransferCountOnMessageInDisk   int // maxTransferCountOnMessageInDisk
	AccessMessageInMemoryMaxRatio     int // accessMessageInMemoryMaxRatio (percent of RAM)

	// OSPageCacheBusyTimeout is osPageCacheBusyTimeOutMills: a put lock
	// held longer makes IsOSPageCacheBusy true.
	OSPageCacheBusyTimeout time.Duration

	// ResidentCommitLogBytes is how much of the flushed commitlog, counted
	// back from its flushed end, stays mapped in the process; older pages
	// are handed back to the OS page cache after each flush (they stay
	// cached and on disk, and a read maps them again). 0 keeps every page
	// mapped, as Java does. Not a broker.conf key.
	ResidentCommitLogBytes int64

	// CheckpointInterval bounds how far the checkpoint may fall behind
	// the data, and so how much a crash recovery reads again: every
	// CheckpointInterval the newest index file is synced and the
	// checkpoint's index time moved to what it then holds (Java syncs an
	// index file only once it is full, and deletes the newest after a
	// crash), and a consume queue whose oldest unflushed unit is older than
	// this is flushed even with fewer than flushConsumeQueueLeastPages dirty
	// pages (Java waits for the thorough flush, a minute). 0 does both on
	// every consume-queue flush. Not a broker.conf key.
	CheckpointInterval time.Duration

	Retention RetentionOptions

	// HA are the replication settings.
	HA HAOptions
	// Slave is brokerRole=SLAVE: puts are refused (SERVICE_NOT_AVAILABLE);
	// the commitlog grows only by what the master sends.
	Slave bool
	// OffsetCheckInSlave (offsetCheckInSlave) lets a slave correct a
	// read's next offset as a master does; without it a slave's read that
	// finds no message at the offset asks for the same offset again
	// (Java's nextOffsetCorrection).
	OffsetCheckInSlave bool
	// SyncMaster is brokerRole=SYNC_MASTER: a put that waits for its store
	// (WAIT, true unless set otherwise) also waits, up to SyncFlushTimeout,
	// for a slave to acknowledge it (Java's handleHA).
	SyncMaster bool
	// Slave and SyncMaster only set the role the store opens with; the
	// role can change at run time (Store.SetRole, role.go).

	// ControllerMode is enableControllerMode (RIP-44): the role is set at
	// run time by AutoSwitchHA's role changes, the consume queues and index
	// are built only up to the confirm offset (confirm_offset.go), recovery
	// keeps that offset, and a master's puts follow the ack rules of
	// AutoSwitch (InSyncReplicas, AllAckInSyncStateSet). Replication then
	// uses AutoSwitchHA, not HAMaster/HAClient.
	ControllerMode bool
	// AutoSwitch are the controller-mode settings.
	AutoSwitch AutoSwitchOptions

	// ReadOnly opens the store for inspection: no lock, no abort file, no
	// recovery writes, no background services.
	ReadOnly bool

	// Now stamps the records' store times; nil is time.Now (tests pass a
	// clock they move by hand). Not a broker.conf key.
	Now func() time.Time
}

// RetentionOptions are the file reservation and disk space rules.
type RetentionOptions struct {
	DeleteWhen                   string        // deleteWhen, e.g. "04" or "04;16"
	FileReservedTime             time.Duration // fileReservedTime (hours in broker.conf)
	DiskMaxUsedSpaceRatio        int           // diskMaxUsedSpaceRatio, percent, clamped 10..95
	DiskSpaceWarningLevelRatio   int           // diskSpaceWarningLevelRatio, percent: puts refused above
	DiskSpaceCleanForciblyRatio  int           // diskSpaceCleanForciblyRatio, percent
	CleanFileForciblyEnable      bool          // cleanFileForciblyEnable
	CleanResourceInterval        time.Duration // cleanResourceInterval
	DeleteCommitLogFilesInterval time.Duration // deleteCommitLogFilesInterval
	DestroyFileForcibly          time.Duration // destroyMapedFileIntervalForcibly
}

// HAOptions are MessageStoreConfig's ha* keys (Java's DefaultHAService).
type HAOptions struct {
	HeartbeatInterval    time.Duration // haSendHeartbeatInterval
	HousekeepingInterval time.Duration // haHousekeepingInterval
	TransferBatchSize    int           // haTransferBatchSize
	SlaveFallbehindMax   int64         // haSlaveFallbehindMax
}

// AutoSwitchOptions are MessageStoreConfig's controller-mode keys.
type AutoSwitchOptions struct {
	// AllAckInSyncStateSet (allAckInSyncStateSet): a put waits until every
	// member of the SyncStateSet has acknowledged it, and the confirm
	// offset is the smallest of their acknowledged offsets.
	AllAckInSyncStateSet bool
	// InSyncReplicas (inSyncReplicas): without AllAckInSyncStateSet, how
	// many replicas, the master included, must hold a put; 1 waits for none.
	InSyncReplicas int
	// MinInSyncReplicas (minInSyncReplicas): a put is refused with
	// IN_SYNC_REPLICAS_NOT_ENOUGH while the SyncStateSet is smaller.
	MinInSyncReplicas int
	// HaMaxTimeSlaveNotCatchup (haMaxTimeSlaveNotCatchup): a slave that
	// has not caught up for this long leaves the SyncStateSet.
	HaMaxTimeSlaveNotCatchup time.Duration
	// SyncFromLastFile (syncFromLastFile): an empty slave asks for the
	// master's last commitlog file only, not all of it.
	SyncFromLastFile bool
	// AsyncLearner (asyncLearner): this slave replicates but never joins
	// the SyncStateSet.
	AsyncLearner bool
	// ReadUnCommitted (readUnCommitted): dispatch (make visible) what is
	// written, not only what is confirmed.
	ReadUnCommitted bool
	// EpochFilePath (storePathEpochFile); empty is RootDir/epochFileCheckpoint.
	EpochFilePath string
	// SlaveTimeout (slaveTimeout) is how long a put waits for the slaves'
	// acknowledgements before FLUSH_SLAVE_TIMEOUT; 0 is SyncFlushTimeout.
	SlaveTimeout time.Duration
}

// DefaultOptions returns Java 4.9.8's MessageStoreConfig defaults, with
// the root at $HOME/store.
func DefaultOptions() Options {
	home, _ := os.UserHomeDir()
	return Options{
		RootDir:                           filepath.Join(home, "store"),
		CommitLogFileSize:                 1 << 30,
		ConsumeQueueFileSize:              300000 * cqUnitSize,
		Flush:                             AsyncFlush,
		FlushIntervalCommitLog:            500 * time.Millisecond,
		FlushCommitLogLeastPages:          4,
		FlushCommitLogThoroughInterval:    10 * time.Second,
		SyncFlushTimeout:                  5 * time.Second,
		FlushIntervalConsumeQueue:         time.Second,
		FlushConsumeQueueLeastPages:       2,
		FlushConsumeQueueThoroughInterval: time.Minute,
		MaxMessageSize:                    4 << 20,
		CheckCRCOnRecover:                 true,
		MessageIndexEnable:                true,
		MaxHashSlotNum:                    5000000,
		MaxIndexNum:                       20000000,
		MaxMsgsNumBatch:                   64,
		MessageDelayLevel:                 "1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h",
		MaxTransferBytesOnMessageInMemory: 256 * 1024,
		MaxTransferCountOnMessageInMemory: 32,
		MaxTransferBytesOnMessageInDisk:   64 * 1024,
		MaxTransferCountOnMessageInDisk:   8,
		AccessMessageInMemoryMaxRatio:     40,
		OSPageCacheBusyTimeout:            time.Second,
		ResidentCommitLogBytes:            16 << 20,
		CheckpointInterval:                5 * time.Second,
		AutoSwitch: AutoSwitchOptions{
			InSyncReplicas:           1,
			MinInSyncReplicas:        1,
			HaMaxTimeSlaveNotCatchup: 15 * time.Second,
			SlaveTimeout:             3 * time.Second,
		},
		HA: HAOptions{
			HeartbeatInterval:    5 * time.Second,
			HousekeepingInterval: 20 * time.Second,
			TransferBatchSize:    32 * 1024,
			SlaveFallbehindMax:   256 << 20,
		},
		Retention: RetentionOptions{
			DeleteWhen:                   "04",
			FileReservedTime:             72 * time.Hour,
			DiskMaxUsedSpaceRatio:        75,
			DiskSpaceWarningLevelRatio:   90,
			DiskSpaceCleanForciblyRatio:  85,
			CleanFileForciblyEnable:      true,
			CleanResourceInterval:        10 * time.Second,
			DeleteCommitLogFilesInterval: 100 * time.Millisecond,
			DestroyFileForcibly:          2 * time.Minute,
		},
	}
}

// commitLogDir is storePathCommitLog as Java derives it.
func (o *Options) commitLogDir() string {
	if o.CommitLogDir != "" {
		return o.CommitLogDir
	}
	return filepath.Join(o.RootDir, "commitlog")
}

// Paths under the root, as StorePathConfigHelper derives them.
func (o *Options) consumeQueueDir() string { return filepath.Join(o.RootDir, "consumequeue") }
func (o *Options) indexDir() string        { return filepath.Join(o.RootDir, "index") }
func (o *Options) checkpointPath() string  { return filepath.Join(o.RootDir, "checkpoint") }
func (o *Options) abortPath() string       { return filepath.Join(o.RootDir, "abort") }
func (o *Options) lockPath() string        { return filepath.Join(o.RootDir, "lock") }

// epochFilePath is storePathEpochFile.
func (o *Options) epochFilePath() string {
	if o.AutoSwitch.EpochFilePath != "" {
		return o.AutoSwitch.EpochFilePath
	}
	return filepath.Join(o.RootDir, "epochFileCheckpoint")
}

// ConfigDir is the directory of the JSON config files (topics.json...).
func (o *Options) ConfigDir() string { return filepath.Join(o.RootDir, "config") }

// Validate reports every unusable option at once.
func (o *Options) Validate() error {
	var errs []error
	bad := func(format string, a ...any) {
		errs = append(errs, fmt.Errorf("%w: "+format, append([]any{ErrOptions}, a...)...))
	}
	if o.RootDir == "" {
		bad("storePathRootDir is empty")
	}
	if strings.Contains(o.CommitLogDir, ",") {
		bad("storePathCommitLog %q: several commitlog directories are not supported", o.CommitLogDir)
	}
	if o.CommitLogFileSize < 4096 {
		bad("mappedFileSizeCommitLog %d is too small", o.CommitLogFileSize)
	}
	if o.ConsumeQueueFileSize < cqUnitSize {
		bad("mappedFileSizeConsumeQueue %d is too small", o.ConsumeQueueFileSize)
	}
	if o.MaxMessageSize <= 0 {
		bad("maxMessageSize %d must be positive", o.MaxMessageSize)
	}
	if o.MessageIndexEnable && (o.MaxHashSlotNum <= 0 || o.MaxIndexNum <= 1) {
		bad("maxHashSlotNum %d / maxIndexNum %d must be positive", o.MaxHashSlotNum, o.MaxIndexNum)
	}
	if o.HA.HeartbeatInterval <= 0 || o.HA.HousekeepingInterval <= 0 || o.HA.TransferBatchSize <= 0 {
		bad("haSendHeartbeatInterval %v, haHousekeepingInterval %v and haTransferBatchSize %d must be positive",
			o.HA.HeartbeatInterval, o.HA.HousekeepingInterval, o.HA.TransferBatchSize)
	}
	if _, err := ParseDelayLevels(o.MessageDelayLevel); err != nil {
		errs = append(errs, fmt.Errorf("%w: %w", ErrOptions, err))
	}
	if _, err := parseDeleteWhen(o.Retention.DeleteWhen); err != nil {
		errs = append(errs, fmt.Errorf("%w: %w", ErrOptions, err))
	}
	return errors.Join(errs...)
}

// normalized returns the options with Java's getter adjustments applied.
func (o Options) normalized() Options {
	if r := o.ConsumeQueueFileSize % cqUnitSize; r != 0 {
		o.ConsumeQueueFileSize += cqUnitSize - r
	}
	o.Retention.DiskMaxUsedSpaceRatio = min(max(o.Retention.DiskMaxUsedSpaceRatio, 10), 95)
	if o.MaxMsgsNumBatch <= 0 {
		o.MaxMsgsNumBatch = 64
	}
	return o
}

// ParseDelayLevels parses messageDelayLevel as ScheduleMessageService does:
// words separated by single spaces, each a number and one unit of s, m,
// h or d. Level n is element n-1.
func ParseDelayLevels(s string) ([]time.Duration, error) {
	units := map[byte]time.Duration{'s': time.Second, 'm': time.Minute, 'h': time.Hour, 'd': 24 * time.Hour}
	words := strings.Split(s, " ")
	levels := make([]time.Duration, 0, len(words))
	for i, w := range words {
		if len(w) < 2 {
			return nil, fmt.Errorf("messageDelayLevel %q: level %d %q is not a number and a unit", s, i+1, w)
		}
		unit, ok := units[w[len(w)-1]]
		n, err := strconv.ParseInt(w[:len(w)-1], 10, 64)
		if !ok || err != nil {
			return nil, fmt.Errorf("messageDelayLevel %q: level %d %q is not a number and a unit (s, m, h, d)", s, i+1, w)
		}
		levels = append(levels, time.Duration(n)*unit)
	}
	return levels, nil
}

// parseDeleteWhen reads deleteWhen: hours of the day separated by ';'.
func parseDeleteWhen(s string) ([]int, error) {
	var hours []int
	for _, w := range strings.Split(s, ";") {
		w = strings.TrimSpace(w)
		if w == "" {
			continue
		}
		h, err := strconv.Atoi(w)
		if err != nil || h < 0 || h > 23 {
			return nil, fmt.Errorf("deleteWhen %q: %q is not an hour of the day", s, w)
		}
		hours = append(hours, h)
	}
	return hours, nil
}
