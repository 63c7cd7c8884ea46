package store

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// lockFile is the store's `lock` file. Java takes an exclusive POSIX
// record lock on byte [0,1) (FileChannel.tryLock(0, 1, false), which is
// fcntl F_SETLK on Linux) and writes "lock"; flock(2) would not conflict
// with it. An open-file-description lock (F_OFD_SETLK) on the same byte
// does conflict with it, and also with a second open in this process, so
// that is what is taken here: either broker refuses to start on a
// directory the other is running on.
type lockFile struct {
	file *os.File
}

// acquireLock creates the lock file if needed and locks it.
func acquireLock(path string) (*lockFile, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("store: open lock file: %w", err)
	}
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: 0, Len: 1}
	if err := unix.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &lk); err != nil {
		f.Close()
		if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EACCES) {
			return nil, fmt.Errorf("%w (%s)", ErrLocked, path)
		}
		return nil, fmt.Errorf("store: lock %s: %w", path, err)
	}
	if _, err := f.WriteAt([]byte("lock"), 0); err != nil {
		f.Close()
		return nil, fmt.Errorf("store: write lock file: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, fmt.Errorf("store: sync lock file: %w", err)
	}
	return &lockFile{file: f}, nil
}

// release drops the lock; the file stays, as Java leaves it.
func (l *lockFile) release() error {
	if l == nil || l.file == nil {
		return nil
	}
	err := l.file.Close() // closing the descriptor drops the lock
	l.file = nil
	return err
}
