package store

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"

	"go.uber.org/zap"
)

// fileQueue is the ordered list of same-sized mapped files of one
// directory: the commitlog, or one consume queue (Java's MappedFileQueue).
// File n starts at offset start(0) + n*fileSize; the name of each file is
// its start offset.
type fileQueue struct {
	dir      string
	fileSize int64
	log      *zap.Logger
	// readOnly maps files for reading and turns truncation into setting
	// the end: nothing on disk changes.
	readOnly bool
	// sparse makes new files sparse, as Java's are (a consume queue's:
	// most queues fill a few pages of their 6 MB), instead of reserving
	// their blocks (see mapping.sparse).
	sparse bool

	mu    sync.RWMutex
	files []*mappedFile // ascending start offsets, contiguous; set with setFiles
	// tail is files' last element (nil when none), read without mu: every
	// put and every read of the end asks for it.
	tail atomic.Pointer[mappedFile]

	// preallocate creates the file after each new one in the background,
	// as Java's AllocateMappedFileService does for the commitlog, so a put
	// that fills a file does not wait for the next to be made.
	preallocate bool
	spareMu     sync.Mutex
	spare       *spareFile

	// residentWindow, when positive, is how many flushed bytes behind the
	// flushed end stay mapped in the process; older pages are released
	// after each flush (releaseResident).
	residentWindow int64
}

// spareFile is a file being created ahead of need.
type spareFile struct {
	start int64
	done  chan struct{}
	mf    *mappedFile
	err   error
}

func newFileQueue(dir string, fileSize int64, log *zap.Logger, readOnly bool) *fileQueue {
	return &fileQueue{dir: dir, fileSize: fileSize, log: log, readOnly: readOnly}
}

// load maps every file of the directory. Each must be exactly fileSize
// bytes, as Java requires, and is taken as full until recovery sets its
// real write position. A zero-length last file (a crash while creating it)
// is deleted, as the 5.x broker does.
func (q *fileQueue) load() error {
	entries, err := os.ReadDir(q.dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: read %s: %w", q.dir, err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if !e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	for i, name := range names {
		if err := q.loadFile(name, i == len(names)-1); err != nil {
			q.closeAll()
			return err
		}
	}
	return q.checkContiguous()
}

func (q *fileQueue) loadFile(name string, last bool) error {
	path := filepath.Join(q.dir, name)
	start, err := parseFileName(name)
	if err != nil {
		return fmt.Errorf("%w (in %s)", err, q.dir)
	}
	if last && !q.readOnly {
		if st, err := os.Stat(path); err == nil && st.Size() == 0 {
			q.log.Warn("deleting empty last mapped file", zap.String("file", path))
			return os.Remove(path)
		}
	}
	mf, err := openMapped(path, start, q.fileSize, mapping{readOnly: q.readOnly, sparse: q.sparse})
	if err != nil {
		return err
	}
	mf.wrote.Store(q.fileSize)
	mf.flushed.Store(q.fileSize)
	q.setFiles(append(q.files, mf))
	return nil
}

// setFiles replaces the list (under mu, or before the queue is shared).
func (q *fileQueue) setFiles(files []*mappedFile) {
	q.files = files
	if len(files) == 0 {
		q.tail.Store(nil)
		return
	}
	q.tail.Store(files[len(files)-1])
}

// checkContiguous is Java's checkSelf, but strict: a gap between files
// would make offsets ambiguous.
func (q *fileQueue) checkContiguous() error {
	for i := 1; i < len(q.files); i++ {
		if q.files[i].start != q.files[i-1].start+q.fileSize {
			return fmt.Errorf("%w: %s: %s does not follow %s", ErrCorrupt, q.dir,
				q.files[i].name(), q.files[i-1].name())
		}
	}
	return nil
}

// snapshot returns the current files; the slice must not be modified.
func (q *fileQueue) snapshot() []*mappedFile {
	q.mu.RLock()
	defer q.mu.RUnlock()
	return q.files
}

// first returns the oldest file, or nil.
func (q *fileQueue) first() *mappedFile {
	q.mu.RLock()
	defer q.mu.RUnlock()
	if len(q.files) == 0 {
		return nil
	}
	return q.files[0]
}

// last returns the newest file, or nil.
func (q *fileQueue) last() *mappedFile { return q.tail.Load() }

// lastWritable returns the newest file if it has room, or creates the next
// one. With no files, the first starts at the file boundary at or below
// startOffset (Java's getLastMappedFile(startOffset)).
func (q *fileQueue) lastWritable(startOffset int64) (*mappedFile, bool, error) {
	if q.readOnly {
		return nil, false, ErrReadOnly
	}
	last := q.last()
	if last != nil && !last.isFull() {
		return last, false, nil
	}
	next := startOffset - startOffset%q.fileSize
	if last != nil {
		next = last.end()
	}
	if err := os.MkdirAll(q.dir, 0o755); err != nil {
		return nil, false, fmt.Errorf("%w: %s: %w", ErrCreateFile, q.dir, err)
	}
	mf := q.takeSpare(next)
	if mf == nil {
		var err error
		if mf, err = q.create(next); err != nil {
			return nil, false, err
		}
	}
	q.mu.Lock()
	q.setFiles(append(q.files[:len(q.files):len(q.files)], mf))
	q.mu.Unlock()
	if q.preallocate {
		q.prepareSpare(next + q.fileSize)
	}
	return mf, true, nil
}

// create makes and maps the file that starts at start.
func (q *fileQueue) create(start int64) (*mappedFile, error) {
	return openMapped(filepath.Join(q.dir, fileName(start)), start, q.fileSize, mapping{create: true, sparse: q.sparse})
}

// prepareSpare starts creating the file at start.
func (q *fileQueue) prepareSpare(start int64) {
	sp := &spareFile{start: start, done: make(chan struct{})}
	q.spareMu.Lock()
	if q.spare != nil {
		q.spareMu.Unlock()
		return
	}
	q.spare = sp
	q.spareMu.Unlock()
	go func() {
		defer close(sp.done)
		sp.mf, sp.err = q.create(start)
		if sp.err != nil {
			q.log.Warn("creating the next file ahead failed; it will be made when needed", zap.Error(sp.err))
		}
	}()
}

// takeSpare returns the file created ahead if it starts at start, waiting
// for it to be ready; nil when there is none.
func (q *fileQueue) takeSpare(start int64) *mappedFile {
	q.spareMu.Lock()
	sp := q.spare
	q.spare = nil
	q.spareMu.Unlock()
	if sp == nil {
		return nil
	}
	<-sp.done
	if sp.err != nil {
		return nil
	}
	if sp.start != start {
		if err := sp.mf.destroy(); err != nil {
			q.log.Warn("deleting an unused spare file", zap.Error(err))
		}
		return nil
	}
	return sp.mf
}

// closeSpare unmaps a file created ahead; it stays on disk, empty, as
// Java leaves its pre-allocated file.
func (q *fileQueue) closeSpare() {
	q.spareMu.Lock()
	sp := q.spare
	q.spare = nil
	q.spareMu.Unlock()
	if sp != nil {
		<-sp.done
		if sp.mf != nil {
			sp.mf.close()
		}
	}
}

// find returns the file holding offset, or nil.
func (q *fileQueue) find(offset int64) *mappedFile {
	files := q.snapshot()
	if len(files) == 0 || offset < files[0].start {
		return nil
	}
	i := int((offset - files[0].start) / q.fileSize)
	if i >= len(files) {
		return nil
	}
	return files[i]
}

// minOffset is the start of the oldest file (Java's getMinOffset), or 0.
func (q *fileQueue) minOffset() int64 {
	if f := q.first(); f != nil {
		return f.start
	}
	return 0
}

// maxOffset is the end of the written data.
func (q *fileQueue) maxOffset() int64 {
	if f := q.last(); f != nil {
		return f.start + f.wrotePosition()
	}
	return 0
}

// flushedOffset is the end of the data known durable.
func (q *fileQueue) flushedOffset() int64 {
	for _, f := range q.reversed() {
		if fl := f.flushed.Load(); fl > 0 {
			return f.start + fl
		}
	}
	return q.minOffset()
}

func (q *fileQueue) reversed() []*mappedFile {
	files := q.snapshot()
	out := make([]*mappedFile, len(files))
	for i, f := range files {
		out[len(files)-1-i] = f
	}
	return out
}

// truncate makes offset the end of the data (Java's truncateDirtyFiles):
// files wholly after it are deleted, the file holding it is cut there and
// its tail zeroed. Read-only, the files after it are only let go.
func (q *fileQueue) truncate(offset int64) error {
	q.mu.Lock()
	keep := q.files[:0:0]
	var dropped []*mappedFile
	for _, f := range q.files {
		if f.start > offset {
			dropped = append(dropped, f)
			continue
		}
		keep = append(keep, f)
	}
	q.setFiles(keep)
	q.mu.Unlock()
	for _, f := range dropped {
		if q.readOnly {
			f.close()
			continue
		}
		q.log.Info("deleting file beyond the recovered end", zap.String("file", f.path), zap.Int64("end", offset))
		if err := f.destroy(); err != nil {
			return err
		}
	}
	f := q.find(offset)
	if f == nil {
		return nil
	}
	pos := offset - f.start
	f.wrote.Store(pos)
	f.flushed.Store(pos)
	// Clearing the tail unmaps its pages: the warmer maps them again.
	f.warmed.Store(min(f.warmed.Load(), pos))
	if q.readOnly {
		return nil
	}
	return f.zeroFrom(pos)
}

// flush makes the written bytes durable (see mappedFile.flush) and returns
// whether anything was flushed.
func (q *fileQueue) flush(leastPages int) (bool, error) {
	did := false
	for _, f := range q.snapshot() {
		if f.flushed.Load() >= f.wrotePosition() {
			continue
		}
		before := f.flushed.Load()
		after, err := f.flush(leastPages)
		if err != nil {
			return did, err
		}
		did = did || after > before
	}
	q.releaseResident()
	return did, nil
}

// releaseResident hands the pages more than residentWindow behind the
// flushed end back to the page cache.
func (q *fileQueue) releaseResident() {
	if q.residentWindow <= 0 {
		return
	}
	limit := q.flushedOffset() - q.residentWindow
	for _, f := range q.snapshot() {
		if f.start >= limit {
			return
		}
		f.releaseResident(limit - f.start)
	}
}

// removeFirst drops the oldest n files from the list and returns them, for
// deletion by the caller.
func (q *fileQueue) removeFirst(n int) []*mappedFile {
	q.mu.Lock()
	defer q.mu.Unlock()
	n = min(n, len(q.files))
	out := append([]*mappedFile(nil), q.files[:n]...)
	q.setFiles(append([]*mappedFile(nil), q.files[n:]...))
	return out
}

// destroyAll deletes every file and the directory.
func (q *fileQueue) destroyAll() error {
	files := q.removeFirst(len(q.snapshot()))
	for _, f := range files {
		if err := f.destroy(); err != nil {
			return err
		}
	}
	return os.RemoveAll(q.dir)
}

// closeAll unmaps every file (when the last reader lets go).
func (q *fileQueue) closeAll() {
	q.closeSpare()
	q.mu.Lock()
	files := q.files
	q.setFiles(nil)
	q.mu.Unlock()
	for _, f := range files {
		f.close()
	}
}
