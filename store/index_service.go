package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"
)

// indexNameLayout is UtilAll.timeMillisToHumanString: yyyyMMddHHmmssSSS in
// local time (on-disk format: do not change).
const indexNameLayout = "20060102150405.000"

func indexFileName(t time.Time) string {
	return strings.Replace(t.Format(indexNameLayout), ".", "", 1)
}

// indexService owns the index files (Java's IndexService): the dispatcher
// adds keys to the newest, queries walk them newest first.
type indexService struct {
	dir      string
	slots    int
	entries  int
	cp       *checkpoint
	log      *zap.Logger
	readOnly bool

	// rebuildFrom is the store time from which records may be missing
	// from the index after a crash (0: none): the earliest begin time of
	// the files load deleted, or the checkpoint's index time when the
	// newest file was kept. Recovery re-dispatches from there so that no
	// key is lost.
	rebuildFrom int64

	mu    sync.RWMutex
	files []*indexFile
}

func newIndexService(dir string, slots, entries int, cp *checkpoint, log *zap.Logger, readOnly bool) *indexService {
	return &indexService{dir: dir, slots: slots, entries: entries, cp: cp, log: log, readOnly: readOnly}
}

// load maps the index files in name order. After a crash, files that end
// after the checkpoint's index time are deleted, as Java does, and the
// re-dispatch of recovery rebuilds them; but the newest file is kept when
// the checkpoint's index time falls inside it (it was synced up to there,
// flushNewest), and only what it may miss is re-indexed. Java, reading the
// same checkpoint, deletes that file: it loses the file's keys after a
// crash of its own broker too. After a killed process the page cache holds
// every entry written, so nothing is lost; after a power loss, pages of
// the entries written after the checkpoint may be lost while the header
// says they are there, and build skips records below the header's end:
// the keys of the last CheckpointInterval may then be missing.
func (s *indexService) load(lastExitOK bool) error {
	entries, err := os.ReadDir(s.dir)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: read %s: %w", s.dir, err)
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if _, err := strconv.ParseInt(e.Name(), 10, 64); err != nil || e.IsDir() {
			s.log.Warn("skipping a file that is not an index file", zap.String("file", e.Name()))
			continue
		}
		names = append(names, e.Name())
	}
	sort.Strings(names)
	for i, name := range names {
		if err := s.loadFile(name, i == len(names)-1, lastExitOK); err != nil {
			s.closeAll()
			return err
		}
	}
	return nil
}

// loadFile maps one index file, or deletes it (see load).
func (s *indexService) loadFile(name string, newest, lastExitOK bool) error {
	path := filepath.Join(s.dir, name)
	if st, err := os.Stat(path); err == nil && st.Size() == 0 && newest && !s.readOnly {
		// A crash while the file was being created.
		s.log.Warn("deleting empty last index file", zap.String("file", path))
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("store: %w", err)
		}
		return nil
	}
	ix, err := s.open(path, false)
	if err != nil {
		return err
	}
	checkpointed := s.cp.indexMsgTimestamp.Load()
	if lastExitOK || s.readOnly || ix.endTimestamp() <= checkpointed {
		s.files = append(s.files, ix)
		return nil
	}
	if newest && ix.beginTimestamp() < checkpointed {
		s.log.Info("keeping the newest index file, synced up to the checkpoint; re-indexing what came after",
			zap.String("file", name), zap.Int64("checkpoint", checkpointed), zap.Int64("fileEnd", ix.endTimestamp()))
		s.files = append(s.files, ix)
		s.rebuildAfter(max(checkpointed-checkpointSafety, 1))
		return nil
	}
	s.log.Info("deleting index file newer than the checkpoint", zap.String("file", name))
	s.rebuildAfter(max(ix.beginTimestamp(), 1))
	return ix.mf.destroy()
}

// rebuildAfter lowers rebuildFrom to ts.
func (s *indexService) rebuildAfter(ts int64) {
	if s.rebuildFrom == 0 || ts < s.rebuildFrom {
		s.rebuildFrom = ts
	}
}

func (s *indexService) open(path string, create bool) (*indexFile, error) {
	mf, err := openMapped(path, 0, indexFileSize(s.slots, s.entries), mapping{create: create, readOnly: s.readOnly, sparse: true})
	if err != nil {
		return nil, err
	}
	ix := &indexFile{mf: mf, slots: s.slots, entries: s.entries}
	if create {
		// A new file's header is written at once (startAfter).
		if err := ix.reserveHead(); err != nil {
			return nil, errors.Join(err, mf.destroy())
		}
	}
	return ix, nil
}

// writable returns the newest file with room, creating one when needed.
func (s *indexService) writable() (*indexFile, error) {
	if s.readOnly {
		return nil, ErrReadOnly
	}
	s.mu.RLock()
	var last *indexFile
	if n := len(s.files); n > 0 {
		last = s.files[n-1]
	}
	s.mu.RUnlock()
	if last != nil && !last.full() {
		return last, nil
	}
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrCreateFile, s.dir, err)
	}
	ix, err := s.create(time.Now())
	if err != nil {
		return nil, err
	}
	if last != nil {
		ix.startAfter(last.endPhyOffset(), last.endTimestamp())
		s.retire(last)
	}
	s.mu.Lock()
	s.files = append(s.files[:len(s.files):len(s.files)], ix)
	s.mu.Unlock()
	return ix, nil
}

// create makes a new file named after t, moving on a millisecond while
// the name is taken.
func (s *indexService) create(t time.Time) (*indexFile, error) {
	for {
		path := filepath.Join(s.dir, indexFileName(t))
		if _, err := os.Stat(path); os.IsNotExist(err) {
			return s.open(path, true)
		}
		t = t.Add(time.Millisecond)
	}
}

// retire flushes a full file and records its end time in the checkpoint.
func (s *indexService) retire(full *indexFile) {
	if _, err := full.mf.flushAll(); err != nil {
		s.log.Error("flushing a full index file", zap.String("file", full.mf.path), zap.Error(err))
		return
	}
	advance(&s.cp.indexMsgTimestamp, full.endTimestamp())
	if err := s.cp.flush(); err != nil {
		s.log.Error("flushing the checkpoint", zap.Error(err))
	}
}

// build indexes one dispatched record (IndexService.buildIndex): its
// UNIQ_KEY and every word of its KEYS, under its stored topic. Rolled-back
// transaction records and records already indexed are skipped.
func (s *indexService) build(d *dispatchRequest) error {
	if d.txType == SysFlagTxRollback || (d.uniqKey == "" && d.keys == "") {
		return nil
	}
	ix, err := s.writable()
	if err != nil {
		return err
	}
	// Records before the file's end are indexed already; the record at its
	// end may be only partly (a crash between two of its keys).
	if d.offset < ix.endPhyOffset() {
		return nil
	}
	if d.uniqKey != "" {
		if ix, err = s.put(ix, d, d.uniqKey); err != nil {
			return err
		}
	}
	for _, key := range splitKeys(d.keys) {
		if ix, err = s.put(ix, d, key); err != nil {
			return err
		}
	}
	return nil
}

// put adds one key, moving to a new file when ix is full.
func (s *indexService) put(ix *indexFile, d *dispatchRequest, key string) (*indexFile, error) {
	hash := indexKeyHash(d.topic, key)
	if d.offset == ix.endPhyOffset() && ix.hasEntry(hash, d.offset) {
		return ix, nil
	}
	for {
		ok, err := ix.putKey(hash, d.offset, d.storeTimestamp)
		if ok || err != nil {
			return ix, err
		}
		if ix, err = s.writable(); err != nil {
			return nil, err
		}
	}
}

// IndexQueryResult is what a key lookup found.
type IndexQueryResult struct {
	// Offsets are commitlog offsets of records whose key hash matches,
	// newest file first; the caller compares the keys.
	Offsets []int64
	// LastUpdateTimestamp and LastUpdatePhyOffset describe the newest
	// index file (the broker returns them in the response header).
	LastUpdateTimestamp int64
	LastUpdatePhyOffset int64
}

// query is IndexService.queryOffset.
func (s *indexService) query(topic, key string, maxNum int, begin, end int64) IndexQueryResult {
	var res IndexQueryResult
	hash := indexKeyHash(topic, key)
	s.mu.RLock()
	files := s.files
	s.mu.RUnlock()
	for i := len(files) - 1; i >= 0; i-- {
		f := files[i]
		if !f.mf.hold() {
			continue
		}
		if i == len(files)-1 {
			res.LastUpdateTimestamp, res.LastUpdatePhyOffset = f.endTimestamp(), f.endPhyOffset()
		}
		if f.timeMatched(begin, end) {
			res.Offsets = f.selectOffsets(res.Offsets, hash, maxNum, begin, end)
		}
		stop := f.beginTimestamp() < begin || len(res.Offsets) >= maxNum
		f.mf.release()
		if stop {
			break
		}
	}
	return res
}

// newest returns the newest index file, or nil.
func (s *indexService) newest() *indexFile {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if n := len(s.files); n > 0 {
		return s.files[n-1]
	}
	return nil
}

// flushNewest syncs the newest index file and returns the store time of
// the last record it held before the sync (0 without files): every key of
// the records stored up to then is durable.
func (s *indexService) flushNewest() (int64, error) {
	newest := s.newest()
	if newest == nil {
		return 0, nil
	}
	end := newest.endTimestamp()
	if _, err := newest.mf.flushAll(); err != nil {
		return 0, err
	}
	return end, nil
}

// flush syncs every index file.
func (s *indexService) flush() error {
	s.mu.RLock()
	files := s.files
	s.mu.RUnlock()
	for _, f := range files {
		if _, err := f.mf.flushAll(); err != nil {
			return err
		}
	}
	return nil
}

// deleteBelow deletes the files that only index records before the
// commitlog offset min, never the newest.
func (s *indexService) deleteBelow(minOffset int64) error {
	s.mu.Lock()
	var doomed []*indexFile
	keep := s.files[:0:0]
	for i, f := range s.files {
		if i < len(s.files)-1 && f.endPhyOffset() < minOffset {
			doomed = append(doomed, f)
			continue
		}
		keep = append(keep, f)
	}
	s.files = keep
	s.mu.Unlock()
	for _, f := range doomed {
		s.log.Info("deleting expired index file", zap.String("file", f.mf.path))
		if err := f.mf.destroy(); err != nil {
			return err
		}
	}
	return nil
}

func (s *indexService) closeAll() {
	s.mu.Lock()
	files := s.files
	s.files = nil
	s.mu.Unlock()
	for _, f := range files {
		f.mf.close()
	}
}
