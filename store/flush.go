package store

import (
	"context"
	"sync"
	"time"

	"go.uber.org/zap"
)

// Flushing, as Java's FlushRealTimeService, GroupCommitService and
// FlushConsumeQueueService do it:
//
//   - ASYNC_FLUSH: every flushIntervalCommitLog the commitlog is synced if
//     flushCommitLogLeastPages pages are dirty, and whatever is dirty every
//     flushCommitLogThoroughInterval.
//   - SYNC_FLUSH: a put waits until an fsync covering its bytes is done;
//     the puts that arrive while one fsync runs share the next one.
//   - Consume queues: every flushIntervalConsumeQueue if
//     flushConsumeQueueLeastPages pages are dirty, everything every
//     flushConsumeQueueThoroughInterval, then the checkpoint (each round,
//     where Java writes it only with the thorough flush; see
//     checkpoint.go for how far each of its times moves).

// asyncCommitLogFlusher is the ASYNC_FLUSH service.
func (s *Store) asyncCommitLogFlusher(ctx context.Context) {
	o := &s.opts
	s.flushPeriodically(ctx, "commitlog", o.FlushIntervalCommitLog, o.FlushCommitLogThoroughInterval,
		o.FlushCommitLogLeastPages, s.flushCommitLog)
}

// consumeQueueFlusher is the FlushConsumeQueueService.
func (s *Store) consumeQueueFlusher(ctx context.Context) {
	o := &s.opts
	s.flushPeriodically(ctx, "consume queue", o.FlushIntervalConsumeQueue, o.FlushConsumeQueueThoroughInterval,
		o.FlushConsumeQueueLeastPages, s.flushConsumeQueues)
}

// flushPeriodically calls flush every interval with least pages, and
// with 0 (everything) once thorough has passed since the last such call,
// until ctx ends.
func (s *Store) flushPeriodically(ctx context.Context, what string, interval, thorough time.Duration,
	least int, flush func(least int) error) {
	tick := time.NewTicker(max(interval, time.Millisecond))
	defer tick.Stop()
	lastThorough := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			pages := least
			if now.Sub(lastThorough) >= thorough {
				pages, lastThorough = 0, now
			}
			if err := flush(pages); err != nil {
				s.log.Error(what+" flush failed", zap.Error(err))
			}
		}
	}
}

// flushCommitLog syncs the commitlog and, when the flush reached the end
// the commitlog had before it began, moves the checkpoint's commitlog time
// to the last record that end covered. (Java moves it only on a thorough
// flush; a flush with least pages that syncs everything is as good.)
func (s *Store) flushCommitLog(least int) error {
	storeTs := s.cl.lastStoreTimestamp.Load() // before the end: see append
	end := s.cl.files.maxOffset()
	if _, err := s.cl.files.flush(least); err != nil {
		return err
	}
	if storeTs > 0 && s.cl.files.flushedOffset() >= end {
		advance(&s.cp.physicMsgTimestamp, storeTs)
	}
	return nil
}

// flushConsumeQueues syncs the queues, then moves the checkpoint's logics
// time to just before the oldest record whose unit is still not durable
// (a queue left with fewer than least dirty pages keeps its units in
// memory, for CheckpointInterval at most), or to the last record
// dispatched before the round when none is; every CheckpointInterval (and
// on a full flush) it syncs the newest index file and moves the index
// time; then it writes the file.
func (s *Store) flushConsumeQueues(least int) error {
	logicsTs := s.disp.lastStoreTimestamp.Load()
	pending, err := s.cqs.flush(least, logicsTs, s.opts.CheckpointInterval)
	if err != nil {
		return err
	}
	if pending > 0 {
		logicsTs = min(logicsTs, pending-1)
	}
	if logicsTs > 0 {
		advance(&s.cp.logicsMsgTimestamp, logicsTs)
	}
	if err := s.checkpointIndex(least == 0); err != nil {
		return err
	}
	return s.cp.flush()
}

// checkpointIndex syncs the newest index file and records in the
// checkpoint the store time it covers, when forced or when
// CheckpointInterval has passed since the last time.
func (s *Store) checkpointIndex(force bool) error {
	if s.index == nil {
		return nil
	}
	now := time.Now().UnixNano()
	if !force && time.Duration(now-s.indexCheckpointed.Load()) < s.opts.CheckpointInterval {
		return nil
	}
	s.indexCheckpointed.Store(now)
	ts, err := s.index.flushNewest()
	if err != nil {
		return err
	}
	if ts > 0 {
		advance(&s.cp.indexMsgTimestamp, ts)
	}
	return nil
}

// groupCommit is the SYNC_FLUSH service: waiters name the commitlog
// offset their bytes end at; one fsync releases every waiter it covers.
type groupCommit struct {
	s    *Store
	wake chan struct{}

	mu      sync.Mutex
	waiters []flushWaiter
}

type flushWaiter struct {
	end  int64
	done chan error
}

func newGroupCommit(s *Store) *groupCommit {
	return &groupCommit{s: s, wake: make(chan struct{}, 1)}
}

// wait blocks until the commitlog is durable up to end, or the sync flush
// timeout passes (ErrFlushTimeout).
func (g *groupCommit) wait(end int64) error {
	w := flushWaiter{end: end, done: make(chan error, 1)}
	g.mu.Lock()
	g.waiters = append(g.waiters, w)
	g.mu.Unlock()
	select {
	case g.wake <- struct{}{}:
	default:
	}
	timer := time.NewTimer(g.s.opts.SyncFlushTimeout)
	defer timer.Stop()
	select {
	case err := <-w.done:
		return err
	case <-timer.C:
		return errFlushTimeout
	}
}

// run flushes whenever a waiter arrives, until ctx ends; then it flushes
// once more and releases everyone.
func (g *groupCommit) run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			g.flushOnce()
			return
		case <-g.wake:
			g.flushOnce()
		}
	}
}

func (g *groupCommit) flushOnce() {
	g.mu.Lock()
	pending := g.waiters
	g.waiters = nil
	g.mu.Unlock()
	if len(pending) == 0 {
		return
	}
	covered := g.s.cl.files.maxOffset()
	err := g.s.flushCommitLog(0)
	var later []flushWaiter
	for _, w := range pending {
		if err == nil && w.end > covered {
			later = append(later, w) // appended after the sample: next round
			continue
		}
		w.done <- err
	}
	if len(later) > 0 {
		g.mu.Lock()
		g.waiters = append(later, g.waiters...)
		g.mu.Unlock()
		select {
		case g.wake <- struct{}{}:
		default:
		}
	}
}
