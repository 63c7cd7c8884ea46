package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// fileNameDigits is the width of a mapped file's name: its start offset,
// zero-padded to 20 decimal digits, as Java's UtilAll.offset2FileName
// writes it (on-disk format: do not change).
const fileNameDigits = 20

// osPageSize is the page size Java assumes when it counts dirty pages
// (MappedFile.OS_PAGE_SIZE).
const osPageSize = 4096

// fileName returns the 20-digit name of the file that starts at offset.
func fileName(offset int64) string {
	return fmt.Sprintf("%020d", offset)
}

// parseFileName reads a mapped file's start offset from its name.
func parseFileName(name string) (int64, error) {
	if len(name) != fileNameDigits {
		return 0, fmt.Errorf("%w: %q is not a 20-digit offset", ErrCorrupt, name)
	}
	off, err := strconv.ParseInt(name, 10, 64)
	if err != nil || off < 0 {
		return 0, fmt.Errorf("%w: %q is not a 20-digit offset", ErrCorrupt, name)
	}
	return off, nil
}

// mappedFile is one file of a commitlog or consume queue, mapped whole into
// memory. Appends are memory copies under the owner's lock; readers slice
// the mapping up to the published write position. A reader holds a
// reference (hold/release) so the mapping outlives the file's deletion
// until the last reader is done: unmapping under a reader would crash the
// process, so a deleted file is unlinked at once and unmapped last.
type mappedFile struct {
	path  string
	start int64 // absolute offset of byte 0 (the file's name)
	size  int64
	file  *os.File
	data  []byte
	// sparse files hold blocks only where something was written, as
	// Java's files do (see mapping.sparse).
	sparse bool

	wrote   atomic.Int64 // bytes appended; published after the copy
	flushed atomic.Int64 // bytes known durable
	// released is how far the pages were handed back to the page cache
	// (see releaseResident).
	released atomic.Int64
	// warmed is how far the pages were mapped ahead of the writer (see
	// pageWarmer).
	warmed atomic.Int64

	// startTime and stopTime cache the store times of a consume-queue
	// file's first and last units once read (0: not yet), for 5.x's
	// search by time (time_search.go).
	startTime, stopTime atomic.Int64

	refs      atomic.Int64 // 1 for the queue's own reference + readers
	closing   atomic.Bool  // no new readers once set
	closeOnce sync.Once
	unmapErr  error
}

// mapping says how openMapped opens a file.
type mapping struct {
	// create makes the file, which must not exist yet, at its size.
	create bool
	// readOnly maps an existing file for reading only.
	readOnly bool
	// sparse makes a new file sparse, as Java's MappedFile does, instead
	// of reserving its blocks, and a cut-back tail holes again (zeroFrom).
	// The file's writer must put the first store into each page through
	// the file (writeThrough) or into blocks reserved (reserveRange):
	// on a full disk a store into a hole of the mapping is a SIGBUS,
	// where pwrite(2) and fallocate(2) answer ENOSPC.
	sparse bool
}

// openMapped maps the file at path, creating it at size bytes with create.
// An existing file must be exactly size bytes long, as Java's
// MappedFileQueue.doLoad requires. Space for a new file that is not sparse
// is reserved with fallocate where the file system supports it, so that a
// full disk shows up here, as an error, and never as a fault on a later
// write.
func openMapped(path string, start, size int64, how mapping) (*mappedFile, error) {
	flags := os.O_RDWR
	if how.create {
		flags |= os.O_CREATE | os.O_EXCL
	}
	if how.readOnly {
		flags = os.O_RDONLY
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	mf, err := mapFile(f, path, start, size, how)
	if err != nil {
		f.Close()
		if how.create {
			os.Remove(path)
		}
		return nil, err
	}
	return mf, nil
}

func mapFile(f *os.File, path string, start, size int64, how mapping) (*mappedFile, error) {
	if err := sizeFile(f, path, size, how); err != nil {
		return nil, err
	}
	prot := unix.PROT_READ | unix.PROT_WRITE
	if how.readOnly {
		prot = unix.PROT_READ
	}
	data, err := unix.Mmap(int(f.Fd()), 0, int(size), prot, unix.MAP_SHARED)
	if err != nil {
		return nil, fmt.Errorf("store: mmap %s: %w", path, err)
	}
	mf := &mappedFile{path: path, start: start, size: size, file: f, data: data, sparse: how.sparse}
	mf.refs.Store(1)
	return mf, nil
}

// sizeFile gives a new file its size (sparse or reserved) and checks an
// existing one's.
func sizeFile(f *os.File, path string, size int64, how mapping) error {
	switch {
	case how.create && how.sparse:
		if err := f.Truncate(size); err != nil {
			return fmt.Errorf("%w: %s: %w", ErrCreateFile, path, err)
		}
	case how.create:
		if err := reserve(f, size); err != nil {
			return fmt.Errorf("%w: %s: %w", ErrCreateFile, path, err)
		}
	default:
		st, err := f.Stat()
		if err != nil {
			return fmt.Errorf("store: stat %s: %w", path, err)
		}
		if st.Size() != size {
			return fmt.Errorf("%w: %s is %d bytes, the configured file size is %d",
				ErrCorrupt, path, st.Size(), size)
		}
	}
	return nil
}

// reserve sizes a new file, allocating its blocks when the file system can.
func reserve(f *os.File, size int64) error {
	err := unix.Fallocate(int(f.Fd()), 0, 0, size)
	if err == nil {
		return nil
	}
	if errors.Is(err, unix.ENOSPC) || errors.Is(err, unix.EDQUOT) {
		return err
	}
	// No fallocate here (tmpfs before 3.5, some network file systems):
	// a sparse file, as Java makes.
	return f.Truncate(size)
}

// reserveRange allocates the blocks of [from, to) that are holes, for a
// sparse file's writer that stores into the mapping there: a full disk is
// then an error here, not a fault later. Where the file system has no
// fallocate it does nothing (the file stays as sparse as Java's).
func (m *mappedFile) reserveRange(from, to int64) error {
	to = min(to, m.size)
	if from >= to {
		return nil
	}
	switch err := unix.Fallocate(int(m.file.Fd()), 0, from, to-from); {
	case err == nil, errors.Is(err, unix.EOPNOTSUPP), errors.Is(err, unix.ENOSYS):
		return nil
	default:
		return fmt.Errorf("store: reserve %s [%d, %d): %w", m.path, from, to, err)
	}
}

// writeThrough writes b at pos with pwrite(2) instead of a copy into the
// mapping, and is meant for bytes that reach a page nothing has touched
// yet: the first store into such a page of a MAP_SHARED mapping is a major
// fault that reads the page in (about 15 ms on this project's busy test
// disk; a consume queue pays one per page, so 1,024 new queues stalled the
// dispatcher for seconds), where a pwrite puts a zeroed page in the page
// cache without reading it; the mapping sees the same page.
func (m *mappedFile) writeThrough(b []byte, pos int64) error {
	if _, err := m.file.WriteAt(b, pos); err != nil {
		return fmt.Errorf("store: %w", err) // the error names the file
	}
	return nil
}

// firstTouch reports that bytes [pos, pos+n) reach a page of the file that
// the bytes before pos did not, when the file is written in order from 0.
func firstTouch(pos, n int64) bool {
	return pos == 0 || (pos-1)/osPageSize != (pos+n-1)/osPageSize
}

// name is the file's base name.
func (m *mappedFile) name() string { return filepath.Base(m.path) }

// end is the absolute offset just past the file.
func (m *mappedFile) end() int64 { return m.start + m.size }

// wrotePosition is how many bytes of the file hold data.
func (m *mappedFile) wrotePosition() int64 { return m.wrote.Load() }

// isFull reports whether nothing more can be appended.
func (m *mappedFile) isFull() bool { return m.wrote.Load() >= m.size }

// hold takes a reader's reference; it fails once the file is being closed.
func (m *mappedFile) hold() bool {
	for {
		n := m.refs.Load()
		if n <= 0 || m.closing.Load() {
			return false
		}
		if m.refs.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// release drops a reference; the last one unmaps the file.
func (m *mappedFile) release() {
	if m.refs.Add(-1) == 0 {
		m.unmap()
	}
}

func (m *mappedFile) unmap() {
	m.closeOnce.Do(func() {
		err := unix.Munmap(m.data)
		if cerr := m.file.Close(); err == nil {
			err = cerr
		}
		m.data = nil
		m.unmapErr = err
	})
}

// close stops new readers and drops the owner's reference; the mapping goes
// away when the last reader releases it.
func (m *mappedFile) close() {
	if m.closing.CompareAndSwap(false, true) {
		m.release()
	}
}

// destroy unlinks the file and closes it. Readers still holding it keep
// their mapping (the kernel frees the blocks when the last one goes).
func (m *mappedFile) destroy() error {
	err := os.Remove(m.path)
	m.close()
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("store: delete %s: %w", m.path, err)
	}
	return nil
}

// flush makes the bytes written so far durable when at least leastPages
// whole pages are pending (0: whatever is pending) and returns the new
// flushed position.
func (m *mappedFile) flush(leastPages int) (int64, error) {
	wrote := m.wrote.Load()
	flushed := m.flushed.Load()
	if wrote <= flushed || !m.enoughPages(flushed, wrote, leastPages) {
		return flushed, nil
	}
	if !m.hold() {
		return flushed, nil
	}
	defer m.release()
	from := flushed &^ (osPageSize - 1)
	if err := unix.Msync(m.data[from:wrote], unix.MS_SYNC); err != nil {
		return flushed, fmt.Errorf("store: msync %s: %w", m.path, err)
	}
	m.flushed.Store(wrote)
	return wrote, nil
}

// releaseResident drops the pages below upto (already flushed) from this
// process's mapping with MADV_DONTNEED. The data stays in the OS page
// cache and on disk; a later read faults the page back in. It keeps the
// broker's resident memory to the part of the commitlog it is working on,
// where Java keeps every page it ever touched.
func (m *mappedFile) releaseResident(upto int64) {
	upto = min(upto, m.flushed.Load()) &^ (osPageSize - 1)
	from := m.released.Load()
	if upto <= from || !m.hold() {
		return
	}
	defer m.release()
	if err := unix.Madvise(m.data[from:upto], unix.MADV_DONTNEED); err == nil {
		m.released.Store(upto)
	}
}

// enoughPages is Java's MappedFile.isAbleToFlush: a full file always
// flushes, otherwise leastPages pages must be dirty.
func (m *mappedFile) enoughPages(flushed, wrote int64, leastPages int) bool {
	if wrote >= m.size {
		return true
	}
	if leastPages > 0 {
		return wrote/osPageSize-flushed/osPageSize >= int64(leastPages)
	}
	return wrote > flushed
}

// zeroFrom clears the file from position pos to its end, so that bytes a
// crash left behind a truncation point can never be read as records later.
// A reserved file keeps its blocks; a sparse one is made holes again past
// pos's page, as it was before the bytes were written.
func (m *mappedFile) zeroFrom(pos int64) error {
	if pos >= m.size {
		return nil
	}
	mode, from := uint32(unix.FALLOC_FL_ZERO_RANGE|unix.FALLOC_FL_KEEP_SIZE), pos
	if m.sparse {
		mode, from = unix.FALLOC_FL_PUNCH_HOLE|unix.FALLOC_FL_KEEP_SIZE, min(roundUpPage(pos), m.size)
		if err := m.clearPages(pos, from); err != nil {
			return err
		}
	}
	if from == m.size || unix.Fallocate(int(m.file.Fd()), mode, from, m.size-from) == nil {
		return nil
	}
	// No ZERO_RANGE or PUNCH_HOLE here (tmpfs before 3.5, some network
	// file systems).
	return m.clearPages(from, m.size)
}

// clearPages clears [from, to) through the mapping, touching only the
// pages holding something, so holes of a sparse file stay holes, and
// makes it durable.
func (m *mappedFile) clearPages(from, to int64) error {
	if from >= to {
		return nil
	}
	for p := from; p < to; p = (p &^ (osPageSize - 1)) + osPageSize {
		page := m.data[p:min(to, (p&^(osPageSize-1))+osPageSize)]
		if !allZero(page) {
			clear(page)
		}
	}
	if err := unix.Msync(m.data[from&^(osPageSize-1):to], unix.MS_SYNC); err != nil {
		return fmt.Errorf("store: msync %s: %w", m.path, err)
	}
	return nil
}

// roundUpPage is the first page boundary at or after pos.
func roundUpPage(pos int64) int64 { return (pos + osPageSize - 1) &^ (osPageSize - 1) }

func allZero(b []byte) bool {
	for _, c := range b {
		if c != 0 {
			return false
		}
	}
	return true
}

// modTime is the file's last modification time, which retention compares
// with fileReservedTime as Java does.
func (m *mappedFile) modTime() time.Time {
	st, err := m.file.Stat()
	if err != nil {
		return time.Time{}
	}
	return st.ModTime()
}

// flushAll syncs the whole mapping, for files written in place rather
// than appended (index files, the checkpoint).
func (m *mappedFile) flushAll() (int64, error) {
	if !m.hold() {
		return 0, nil
	}
	defer m.release()
	if err := unix.Msync(m.data, unix.MS_SYNC); err != nil {
		return 0, fmt.Errorf("store: msync %s: %w", m.path, err)
	}
	return m.size, nil
}
