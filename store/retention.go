package store

import (
	"context"
	"fmt"
	"time"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"
)

// Retention, as Java's CleanCommitLogService and CleanConsumeQueueService
// do it. Every cleanResourceInterval:
//
//   - the disk holding the commitlog is measured; above
//     diskSpaceWarningLevelRatio puts are refused (SERVICE_NOT_AVAILABLE,
//     "disk full") until it drops again;
//   - when the hour is in deleteWhen, or the disk is above
//     diskMaxUsedSpaceRatio, or an operator asked, commitlog files older
//     than fileReservedTime are deleted oldest first (never the last one,
//     at most maxDeletePerRound a round); above
//     diskSpaceCleanForciblyRatio they go regardless of age; a file
//     holding records not yet dispatched to the consume queues is kept
//     whatever its age (deletableCommitLogFiles);
//   - consume-queue files and index files that only point below the new
//     commitlog minimum follow.
const (
	maxDeletePerRound = 10
	manualDeleteRound = 20
)

// retention runs the cleaner until ctx ends.
func (s *Store) retention(ctx context.Context) {
	interval := max(s.opts.Retention.CleanResourceInterval, 100*time.Millisecond)
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			if err := s.cleanOnce(ctx, now); err != nil {
				s.log.Error("retention failed", zap.Error(err))
			}
		}
	}
}

// DeleteExpiredFilesNow asks the cleaner to delete expired files on its
// next rounds, whatever the hour (admin deleteExpiredCommitLog).
func (s *Store) DeleteExpiredFilesNow() { s.manualDeletes.Store(manualDeleteRound) }

// cleanOnce is one round of the cleaner.
func (s *Store) cleanOnce(ctx context.Context, now time.Time) error {
	usage, err := diskUsage(s.opts.commitLogDir())
	if err != nil {
		s.log.Warn("cannot measure the disk", zap.Error(err))
		usage = 1
	}
	s.checkDiskFull(usage)
	r := &s.opts.Retention
	manual := s.manualDeletes.Load() > 0
	if manual {
		s.manualDeletes.Add(-1)
	}
	timeUp := isDeleteHour(r.DeleteWhen, now)
	spaceShort := usage*100 > float64(r.DiskMaxUsedSpaceRatio)
	if !timeUp && !spaceShort && !manual {
		return nil
	}
	force := r.CleanFileForciblyEnable && usage*100 > float64(r.DiskSpaceCleanForciblyRatio)
	deleted, err := s.deleteExpiredCommitLog(ctx, now, force)
	if err != nil || deleted == 0 {
		return err
	}
	return s.cleanConsumeQueuesAndIndex()
}

// checkDiskFull refuses or allows puts by disk usage.
func (s *Store) checkDiskFull(usage float64) {
	limit := float64(s.opts.Retention.DiskSpaceWarningLevelRatio) / 100
	full := usage > limit
	if full != s.diskFull.Load() {
		if full {
			s.log.Error("disk full, refusing new messages", zap.Float64("usage", usage), zap.Float64("limit", limit))
		} else {
			s.log.Info("disk space back to normal, accepting messages", zap.Float64("usage", usage))
		}
	}
	s.diskFullWhy.Store(fmt.Sprintf("commitlog disk %.1f%% used, limit %.0f%%", usage*100, limit*100))
	s.diskFull.Store(full)
}

func (s *Store) diskFullReason() string {
	why, _ := s.diskFullWhy.Load().(string)
	return why
}

// deleteExpiredCommitLog deletes expired commitlog files, oldest first,
// stopping at the first one still reserved; never the newest.
func (s *Store) deleteExpiredCommitLog(ctx context.Context, now time.Time, force bool) (int, error) {
	files := s.cl.files.snapshot()
	dispatched := s.disp.from.Load()
	n, undispatched := s.deletableCommitLogFiles(files, dispatched, now, force)
	if force && undispatched != nil {
		s.log.Warn("not deleting commitlog files whose messages are not in the consume queues yet",
			zap.String("file", undispatched.path), zap.Int64("dispatchedOffset", dispatched))
	}
	if n == 0 {
		return 0, nil
	}
	for i, f := range s.cl.files.removeFirst(n) {
		if i > 0 {
			select {
			case <-ctx.Done():
			case <-time.After(s.opts.Retention.DeleteCommitLogFilesInterval):
			}
		}
		s.log.Info("deleting expired commitlog file", zap.String("file", f.path), zap.Bool("forcibly", force))
		if err := f.destroy(); err != nil {
			return i, err
		}
	}
	if s.epochs != nil {
		// Controller mode: the epochs wholly before the log go too.
		s.epochs.TruncatePrefixByOffset(s.cl.files.minOffset() - 1)
	}
	return n, nil
}

// deletableCommitLogFiles is how many of the oldest files may go: those
// past fileReservedTime (any age when force), never the newest, at most
// maxDeletePerRound, and only those wholly below dispatched, the offset up
// to which records are in the consume queues; undispatched is the file
// that stopped the count for that last reason, else nil. Java deletes by
// age alone; here a file the dispatcher has not finished (it may be held
// up by a full disk, unable to make the next consume-queue file) is kept,
// so that a stored message is never deleted before consumers could see
// it.
func (s *Store) deletableCommitLogFiles(files []*mappedFile, dispatched int64, now time.Time, force bool) (n int, undispatched *mappedFile) {
	for ; n < len(files)-1 && n < maxDeletePerRound; n++ {
		if files[n].end() > dispatched {
			return n, files[n]
		}
		if !force && files[n].modTime().Add(s.opts.Retention.FileReservedTime).After(now) {
			break
		}
	}
	return n, nil
}

// cleanConsumeQueuesAndIndex deletes queue files whose last unit points
// below the commitlog minimum (never a queue's last file), corrects each
// queue's minimum and deletes index files below it.
func (s *Store) cleanConsumeQueuesAndIndex() error {
	minPhy := s.cl.files.minOffset()
	for _, cq := range s.cqs.all() {
		if err := cq.deleteBelow(minPhy); err != nil {
			return err
		}
		cq.correctMinOffset(minPhy)
	}
	if s.index != nil {
		return s.index.deleteBelow(minPhy)
	}
	return nil
}

// deleteBelow deletes the queue's files that only point below minPhy.
func (cq *consumeQueue) deleteBelow(minPhy int64) error {
	files := cq.files.snapshot()
	n := 0
	for ; n < len(files)-1; n++ {
		f := files[n]
		if f.wrotePosition() < cqUnitSize {
			break
		}
		if readUnit(f.data[f.wrotePosition()-cqUnitSize:]).offset >= minPhy {
			break
		}
	}
	for _, f := range cq.files.removeFirst(n) {
		if err := f.destroy(); err != nil {
			return err
		}
	}
	return nil
}

// isDeleteHour reports whether now's hour is one of deleteWhen's.
func isDeleteHour(deleteWhen string, now time.Time) bool {
	hours, _ := parseDeleteWhen(deleteWhen)
	for _, h := range hours {
		if h == now.Hour() {
			return true
		}
	}
	return false
}

// diskUsage is the used fraction of the file system holding dir, as Java
// measures it (DiskUsedRatio).
func diskUsage(dir string) (float64, error) {
	total, free, usable, err := DiskSpace(dir)
	if err != nil {
		return 0, err
	}
	return max(DiskUsedRatio(total, free, usable), 0), nil
}

// DiskUsedRatio is UtilAll.getDiskPartitionSpaceUsedPercent's arithmetic
// (both lines): used = total-free over used+usable (the space a non-root
// user sees; blocks reserved for root count as neither), as a percentage
// rounded up to a whole number, then /100; -1 for an empty file system.
func DiskUsedRatio(total, free, usable int64) float64 {
	if total <= 0 {
		return -1
	}
	used := total - free
	entire := used + usable
	if entire <= 0 {
		return -1
	}
	pct := used * 100 / entire
	if used*100%entire != 0 {
		pct++
	}
	return float64(pct) / 100.0
}

// DiskSpace is the size of the file system holding dir, its free bytes
// and the bytes free to this process (File.getTotalSpace, getFreeSpace,
// getUsableSpace).
func DiskSpace(dir string) (total, free, usable int64, err error) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return 0, 0, 0, fmt.Errorf("store: statfs %s: %w", dir, err)
	}
	bs := int64(st.Bsize)
	return int64(st.Blocks) * bs, int64(st.Bfree) * bs, int64(st.Bavail) * bs, nil
}
