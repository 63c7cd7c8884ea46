package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
)

// Store is a message store on a directory laid out as the Java broker
// lays out its store: open it, Start it, put and get messages, Close it.
type Store struct {
	opts   Options
	log    *zap.Logger
	delays []time.Duration
	// memoryBudget is how far (bytes) a read may lag behind the commitlog
	// end and still count as served from memory.
	memoryBudget int64

	lock  *lockFile
	cp    *checkpoint
	cl    *commitLog
	cqs   *cqTable
	index *indexService // nil when messageIndexEnable is off
	disp  *dispatcher
	group *groupCommit

	lastExitOK bool
	recovery   RecoveryInfo
	// indexCheckpointed is when (Unix ns) the newest index file was last
	// synced for the checkpoint (checkpointIndex).
	indexCheckpointed atomic.Int64
	onArrive          func(Arrival)
	// haMaster is the HA master serving this store's slaves, once made.
	haMaster atomic.Pointer[HAMaster]
	// autoHA is the controller mode's HA service, once made.
	autoHA atomic.Pointer[AutoSwitchHA]
	// epochs is the epoch file (controller mode only).
	epochs *EpochFile

	// role and fenced are the run-time role and fence (role.go);
	// switching refuses puts while AutoSwitchHA makes the store a master.
	role      atomic.Int32
	fenced    atomic.Bool
	switching atomic.Bool

	diskFull    atomic.Bool
	diskFullWhy atomic.Value // string
	// manualDeletes counts the cleaner rounds an operator asked for.
	manualDeletes atomic.Int32
	closed        atomic.Bool
	stats         storeStats
	startOnce     sync.Once
	closeOnce     sync.Once
	cancel        context.CancelFunc
	services      sync.WaitGroup
	dispatchDone  chan struct{}
}

// Open loads the store directory and recovers it: after a clean stop
// (no abort file) from the last three commitlog files, after a crash from
// the last file older than the checkpoint, re-dispatching every record;
// the commitlog is cut after its last valid record and the consume queues
// and index are trimmed to match. The directory is locked against other
// brokers (Java's or ours) until Close.
func Open(opts Options, log *zap.Logger) (*Store, error) {
	if log == nil {
		log = zap.NewNop()
	}
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	opts = opts.normalized()
	delays, _ := ParseDelayLevels(opts.MessageDelayLevel)
	s := &Store{opts: opts, log: log, delays: delays, dispatchDone: make(chan struct{})}
	s.initRole()
	s.stats.boot = time.Now()
	s.memoryBudget = int64(float64(totalMemory()) * float64(opts.AccessMessageInMemoryMaxRatio) / 100)
	if err := s.load(); err != nil {
		s.closeFiles()
		return nil, err
	}
	return s, nil
}

func (s *Store) load() error {
	o := &s.opts
	if !o.ReadOnly {
		for _, dir := range []string{o.RootDir, o.commitLogDir(), o.consumeQueueDir()} {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return fmt.Errorf("store: create %s: %w", dir, err)
			}
		}
		lock, err := acquireLock(o.lockPath())
		if err != nil {
			return err
		}
		s.lock = lock
	}
	_, err := os.Stat(o.abortPath())
	s.lastExitOK = errors.Is(err, os.ErrNotExist)
	s.cl = newCommitLog(o.commitLogDir(), o.CommitLogFileSize, s.log, o.ReadOnly, o.Now)
	s.cl.files.residentWindow = o.ResidentCommitLogBytes
	s.cqs = newCQTable(o.consumeQueueDir(), o.ConsumeQueueFileSize, s.log, o.ReadOnly)
	if err := s.cl.files.load(); err != nil {
		return err
	}
	if err := s.cqs.load(); err != nil {
		return err
	}
	if s.cp, err = openCheckpoint(o.checkpointPath(), o.ReadOnly); err != nil {
		return err
	}
	if o.ControllerMode {
		if s.epochs, err = OpenEpochFile(o.epochFilePath()); err != nil {
			return err
		}
		s.epochs.log = s.log.Named("epoch")
	}
	if o.MessageIndexEnable {
		s.index = newIndexService(o.indexDir(), o.MaxHashSlotNum, o.MaxIndexNum, s.cp, s.log, o.ReadOnly)
		if err := s.index.load(s.lastExitOK); err != nil {
			return err
		}
	}
	s.disp = newDispatcher(s, 0)
	s.group = newGroupCommit(s)
	return s.recover()
}

// SetArrivalListener sets the function told about every message the
// dispatcher makes visible (long polling). Call it before Start.
func (s *Store) SetArrivalListener(fn func(Arrival)) { s.onArrive = fn }

// LastExitOK reports whether the previous run stopped cleanly.
func (s *Store) LastExitOK() bool { return s.lastExitOK }

// Start runs the dispatcher until it has caught up with the commitlog,
// then the flush and retention services, and marks the store as running
// (the abort file) so that a crash is recovered as one.
func (s *Store) Start() error {
	if s.opts.ReadOnly {
		return ErrReadOnly
	}
	var err error
	s.startOnce.Do(func() { err = s.start() })
	return err
}

func (s *Store) start() error {
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	go func() {
		defer close(s.dispatchDone)
		s.disp.run(ctx)
	}()
	if err := s.disp.waitCaughtUp(ctx); err != nil {
		return err
	}
	s.refreshQueueOffsets()
	s.goService(ctx, s.consumeQueueFlusher)
	if s.opts.Flush == SyncFlush {
		s.goService(ctx, s.group.run)
	} else {
		s.goService(ctx, s.asyncCommitLogFlusher)
	}
	s.goService(ctx, s.retention)
	if s.cl.warm != nil {
		s.goService(ctx, s.cl.warm.run)
	}
	if err := os.WriteFile(s.opts.abortPath(), nil, 0o644); err != nil {
		return fmt.Errorf("store: create abort file: %w", err)
	}
	s.log.Info("store started", zap.String("root", s.opts.RootDir),
		zap.Int64("commitLogMinOffset", s.cl.files.minOffset()), zap.Int64("commitLogMaxOffset", s.cl.files.maxOffset()))
	return nil
}

func (s *Store) goService(ctx context.Context, fn func(context.Context)) {
	s.services.Add(1)
	go func() {
		defer s.services.Done()
		fn(ctx)
	}()
}

// Close stops the services, lets the dispatcher finish, flushes
// everything, removes the abort file (a clean stop) and unlocks the
// directory. Reads still holding files keep them mapped until released.
func (s *Store) Close() error {
	var err error
	s.closeOnce.Do(func() { err = s.close() })
	return err
}

func (s *Store) close() error {
	s.closed.Store(true)
	var errs []error
	if s.cancel != nil {
		s.cancel()
		s.services.Wait()
		<-s.dispatchDone
		errs = append(errs, s.flushAll())
		if s.disp.from.Load() >= s.dispatchEnd() {
			if err := os.Remove(s.opts.abortPath()); err != nil && !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, err)
			}
		} else {
			s.log.Warn("dispatch is behind the commitlog; leaving the abort file so the next start recovers")
		}
	}
	s.closeFiles()
	s.log.Info("store closed", zap.String("root", s.opts.RootDir))
	return errors.Join(errs...)
}

// flushAll makes everything durable: commitlog, consume queues, index,
// checkpoint.
func (s *Store) flushAll() error {
	if err := s.flushCommitLog(0); err != nil {
		return err
	}
	if s.index != nil {
		if err := s.index.flush(); err != nil {
			return err
		}
	}
	return s.flushConsumeQueues(0)
}

func (s *Store) closeFiles() {
	if s.cl != nil {
		s.cl.files.closeAll()
	}
	if s.cqs != nil {
		s.cqs.closeAll()
	}
	if s.index != nil {
		s.index.closeAll()
	}
	if s.cp != nil {
		if err := s.cp.close(); err != nil {
			s.log.Warn("closing checkpoint", zap.Error(err))
		}
	}
	if err := s.lock.release(); err != nil {
		s.log.Warn("releasing lock file", zap.Error(err))
	}
}

// dispatch builds the consume-queue unit and index entries of one record
// and tells the arrival listener (Java's doDispatch and arriving notify).
func (s *Store) dispatch(d *dispatchRequest) error {
	counts := d.txType == SysFlagTxNotType || d.txType == SysFlagTxCommit
	if counts {
		cq := s.cqs.findOrCreate(d.topic, d.queueID)
		if err := cq.put(cqUnit{offset: d.offset, size: d.size, tagsCode: d.tagsCode}, d.queueOffset, d.storeTimestamp); err != nil {
			return err
		}
		s.disp.lastStoreTimestamp.Store(d.storeTimestamp)
	}
	if s.index != nil {
		if err := s.index.build(d); err != nil {
			return err
		}
	}
	if counts && s.onArrive != nil {
		s.onArrive(Arrival{Topic: d.topic, QueueID: d.queueID, NextOffset: d.queueOffset + 1,
			TagsCode: d.tagsCode, StoreTimestamp: d.storeTimestamp, Properties: d.properties})
	}
	return nil
}

// refreshQueueOffsets rebuilds the next-offset table from the queues and
// sets each queue's minimum (Java's recoverTopicQueueTable).
func (s *Store) refreshQueueOffsets() {
	table := make(map[queueRef]int64)
	minPhy := s.cl.files.minOffset()
	for _, cq := range s.cqs.all() {
		table[queueRef{cq.topic, cq.queueID}] = cq.maxOffset()
		cq.correctMinOffset(minPhy)
	}
	s.cl.setQueueOffsets(table)
}

// CommitLogMinOffset is the first commitlog offset still stored.
func (s *Store) CommitLogMinOffset() int64 { return s.cl.files.minOffset() }

// CommitLogHasFiles reports whether the commitlog has a file yet; the
// first is made by the first put.
func (s *Store) CommitLogHasFiles() bool { return s.cl.files.first() != nil }

// CommitLogMaxOffset is the end of the written commitlog.
func (s *Store) CommitLogMaxOffset() int64 { return s.cl.files.maxOffset() }

// DispatchedOffset is how far the consume queues and index are built.
func (s *Store) DispatchedOffset() int64 { return s.disp.from.Load() }

// WaitDispatched blocks until everything appended so far is dispatched
// (in controller mode: up to the confirm offset).
func (s *Store) WaitDispatched(ctx context.Context) error { return s.disp.waitCaughtUp(ctx) }

// Options returns the options the store runs with (normalised).
func (s *Store) Options() Options { return s.opts }

// Topics returns the topics that have consume queues, with their queue ids.
func (s *Store) Topics() map[string][]int32 {
	out := make(map[string][]int32)
	for _, cq := range s.cqs.all() {
		out[cq.topic] = append(out[cq.topic], cq.queueID)
	}
	return out
}

// DelayLevels is messageDelayLevel parsed: the delay of level i+1 at i.
func (s *Store) DelayLevels() []time.Duration { return slices.Clone(s.delays) }

// UnflushedBytes is how much of the commitlog is written but not yet
// flushed (remainHowManyDataToFlush).
func (s *Store) UnflushedBytes() int64 {
	return max(s.cl.files.maxOffset()-s.cl.files.flushedOffset(), 0)
}
