package store

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"go.uber.org/zap"
	"golang.org/x/sys/unix"
)

// warmAhead is how many bytes past the commitlog's write position the
// pageWarmer keeps mapped; it is woken when less than half is left.
const warmAhead = 4 << 20

// pageWarmer maps the commitlog's pages a little ahead of the writer, in
// the background, with MADV_POPULATE_WRITE (Linux 5.14 and later). A put
// copies its records into the mapping under putMu; without the warmer the
// first store into each 4 KB page of the MAP_SHARED file is a page fault
// the file system serves (ext4's page_mkwrite). With 1 KB messages one
// put in four paid one, inside the lock: a seventh of a SYNC_MASTER's CPU
// went there, on the way of the ack a synchronous send waits for. A slave
// copies what its master sent into the mapping the same way, and half its
// CPU went to those faults. (Writing a slave's frames with pwrite(2)
// instead cost 6 % less CPU, but put the page work back on the way of the
// ack: the sends' median latency rose by a tenth.)
//
// Java's broker takes the same faults; its warmMapedFileEnable (off by
// default) instead writes a whole new file ahead. A kernel without the
// advice (EINVAL) turns the warmer off, and the writer faults as before.
type pageWarmer struct {
	wake chan struct{}
	// file is the file being written, the one to warm.
	file atomic.Pointer[mappedFile]
	off  atomic.Bool
	log  *zap.Logger
}

func newPageWarmer(log *zap.Logger) *pageWarmer {
	return &pageWarmer{wake: make(chan struct{}, 1), log: log}
}

// wrote tells the warmer that f now holds data up to pos; it wakes the
// warmer when less than half of warmAhead is mapped past pos. It never
// blocks, and does nothing on a nil warmer.
func (w *pageWarmer) wrote(f *mappedFile, pos int64) {
	if w == nil || w.off.Load() {
		return
	}
	if warmed := f.warmed.Load(); warmed >= f.size || pos+warmAhead/2 <= warmed {
		return
	}
	w.file.Store(f)
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

// run warms whatever wrote asked for until ctx ends, or for good once the
// kernel refused the advice.
func (w *pageWarmer) run(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-w.wake:
		}
		if f := w.file.Load(); f != nil {
			if err := warm(f); err != nil {
				w.off.Store(true)
				w.log.Info("the commitlog's pages are not mapped ahead of the writer: the kernel refused MADV_POPULATE_WRITE",
					zap.Error(err))
				return
			}
		}
	}
}

// warm maps f's pages from where the last warm stopped (or the write
// position's page) to warmAhead past the write position. It fails when
// the kernel does not know MADV_POPULATE_WRITE. Another error (a file
// that could not get its blocks) only skips the range: the writer's own
// fault reports it.
func warm(f *mappedFile) error {
	if !f.hold() {
		return nil
	}
	defer f.release()
	pos := f.wrotePosition()
	from := max(f.warmed.Load(), pos) &^ (osPageSize - 1)
	to := min(f.size, (pos+warmAhead+osPageSize-1)&^(osPageSize-1))
	if to <= from {
		return nil
	}
	err := unix.Madvise(f.data[from:to], unix.MADV_POPULATE_WRITE)
	if errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("madvise %s [%d, %d): %w", f.name(), from, to, err)
	}
	f.warmed.Store(to)
	return nil
}
