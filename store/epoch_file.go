package store

// The epoch file of controller mode (Java's EpochFileCache over a
// CheckpointFile): which master epoch wrote which part of the commitlog.
// Each entry says "epoch E starts at commitlog offset S"; it ends where
// the next starts, the last never. AutoSwitch HA compares a slave's list
// with its master's to find how much of the slave's log they share
// (FindConsistentPoint) and cuts the rest.
//
// On-disk format (storePathEpochFile, default <root>/epochFileCheckpoint,
// and <path>.bak; do not change): UTF-8 text, every line ended by "\n".
//
//	<number of entries>
//	<crc>
//	<epoch>-<startOffset>
//	<epoch>-<startOffset>
//	...
//
// <crc> is CRC-32 (IEEE, Java's CRC32) of the bytes of all entry lines
// with their "\n", masked with 0x7FFFFFFF, in decimal; 0 is "not
// checked". Example, epoch 1 from 0 and epoch 2 from 1580:
// "2\n1302340025\n1-0\n2-1580\n".
//
// Writing, after every change: nothing when the list is empty (so the
// previous content survives a truncation to nothing, as in Java);
// otherwise the current file, if any, is copied to <path>.bak and then
// the new content replaces <path>. Java overwrites <path> in place; here it
// is written to <path>.tmp and renamed, so a crash never leaves it torn.
// Reading falls back to <path>.bak when <path> does not exist, holds no
// entry, or does not match its count or crc (which covers every line
// after it, entry or not). A count line that is not a number makes Java's
// start fail (NumberFormatException); here it counts as a damaged file
// and the .bak is read.

import (
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"go.uber.org/zap"
)

// epochCRCMask keeps the CRC a positive Java int.
const epochCRCMask = 0x7FFFFFFF

// EpochEntry is one master epoch and the commitlog range it wrote:
// [StartOffset, EndOffset), EndOffset math.MaxInt64 for the last entry.
type EpochEntry struct {
	Epoch       int32
	StartOffset int64
	EndOffset   int64
}

// EpochFile is the epoch list with its file. It is safe for concurrent
// use; every change is written at once.
type EpochFile struct {
	path string
	log  *zap.Logger

	mu      sync.RWMutex
	entries []EpochEntry // ascending epoch and start, ends chained
}

// OpenEpochFile reads the epoch file at path, or its .bak when path is
// missing, empty or damaged; neither there is an empty list.
func OpenEpochFile(path string) (*EpochFile, error) {
	entries, err := readEpochFile(path)
	if err != nil || len(entries) == 0 {
		bak, bakErr := readEpochFile(path + ".bak")
		if bakErr != nil {
			return nil, fmt.Errorf("store: epoch file %s: %w", path, errors.Join(err, bakErr))
		}
		entries = bak
	}
	return &EpochFile{path: path, log: zap.NewNop(), entries: chainEpochs(entries, math.MaxInt64)}, nil
}

// readEpochFile parses one epoch file: nil, nil when it does not exist.
func readEpochFile(path string) ([]EpochEntry, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return parseEpochFile(string(data))
}

// parseEpochFile checks the count and crc lines and parses the entries.
// As Java's CheckpointFile: the crc covers every line after the crc line
// (each with "\n"), and lines that are not "a-b" are skipped.
func parseEpochFile(text string) ([]EpochEntry, error) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1] // the last line's end
	}
	if len(lines) < 2 {
		return nil, errors.New("no count and crc lines")
	}
	count, err1 := strconv.Atoi(lines[0])
	crc, err2 := strconv.Atoi(lines[1])
	if err := errors.Join(err1, err2); err != nil {
		return nil, err
	}
	var entries []EpochEntry
	var body strings.Builder
	for _, line := range lines[2:] {
		body.WriteString(line + "\n")
		e, ok, err := parseEpochLine(line)
		if err != nil {
			return nil, err
		}
		if ok {
			entries = append(entries, e)
		}
	}
	if len(entries) != count {
		return nil, fmt.Errorf("expect %d entries, only found %d entries", count, len(entries))
	}
	if truth := int(epochCRC(body.String())); crc != 0 && truth != crc {
		return nil, fmt.Errorf("entries crc32 not match, file=%d, truth=%d", crc, truth)
	}
	slices.SortFunc(entries, func(a, b EpochEntry) int { return int(a.Epoch) - int(b.Epoch) })
	return entries, nil
}

// parseEpochLine reads "epoch-startOffset"; ok=false for a line of
// another shape (Java's split drops trailing empty parts).
func parseEpochLine(line string) (EpochEntry, bool, error) {
	parts := strings.Split(strings.TrimRight(line, "-"), "-")
	if len(parts) != 2 {
		return EpochEntry{}, false, nil
	}
	epoch, err1 := strconv.ParseInt(parts[0], 10, 32)
	start, err2 := strconv.ParseInt(parts[1], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return EpochEntry{}, false, fmt.Errorf("entry %q: %w", line, err)
	}
	return EpochEntry{Epoch: int32(epoch), StartOffset: start}, true, nil
}

// epochCRC is the crc line of the given entry lines.
func epochCRC(lines string) uint32 { return crc32.ChecksumIEEE([]byte(lines)) & epochCRCMask }

// formatEpochFile is the file content of entries.
func formatEpochFile(entries []EpochEntry) string {
	var body strings.Builder
	for _, e := range entries {
		fmt.Fprintf(&body, "%d-%d\n", e.Epoch, e.StartOffset)
	}
	return fmt.Sprintf("%d\n%d\n%s", len(entries), epochCRC(body.String()), body.String())
}

// chainEpochs sets each entry's end to the next one's start and the
// last one's to lastEnd (when it is not before its start).
func chainEpochs(entries []EpochEntry, lastEnd int64) []EpochEntry {
	out := slices.Clone(entries)
	for i := range out {
		if i+1 < len(out) {
			out[i].EndOffset = out[i+1].StartOffset
		} else {
			out[i].EndOffset = math.MaxInt64
			if lastEnd >= out[i].StartOffset {
				out[i].EndOffset = lastEnd
			}
		}
	}
	return out
}

// write persists the entries (mu held); nothing when there are none.
func (f *EpochFile) write() {
	if len(f.entries) == 0 || f.path == "" {
		return
	}
	if err := f.writeFile(formatEpochFile(f.entries)); err != nil {
		f.log.Error("writing the epoch file failed", zap.String("path", f.path), zap.Error(err))
	}
}

func (f *EpochFile) writeFile(content string) error {
	if old, err := os.ReadFile(f.path); err == nil {
		if err := os.WriteFile(f.path+".bak", old, 0o644); err != nil {
			return err
		}
	}
	tmp := f.path + ".tmp"
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, f.path)
}

// Path is the file's path.
func (f *EpochFile) Path() string { return f.path }

// Entries returns a copy of the entries, ascending.
func (f *EpochFile) Entries() []EpochEntry {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return slices.Clone(f.entries)
}

// Len is the number of entries.
func (f *EpochFile) Len() int {
	f.mu.RLock()
	defer f.mu.RUnlock()
	return len(f.entries)
}

// LastEpoch is the last entry's epoch, -1 when there is none.
func (f *EpochFile) LastEpoch() int32 {
	if e, ok := f.LastEntry(); ok {
		return e.Epoch
	}
	return -1
}

// LastEntry is the last entry.
func (f *EpochFile) LastEntry() (EpochEntry, bool) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	if len(f.entries) == 0 {
		return EpochEntry{}, false
	}
	return f.entries[len(f.entries)-1], true
}

// FirstEntry is the first entry.
func (f *EpochFile) FirstEntry() (EpochEntry, bool) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	if len(f.entries) == 0 {
		return EpochEntry{}, false
	}
	return f.entries[0], true
}

// Entry is the entry of epoch.
func (f *EpochFile) Entry(epoch int32) (EpochEntry, bool) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	for _, e := range f.entries {
		if e.Epoch == epoch {
			return e, true
		}
	}
	return EpochEntry{}, false
}

// NextEntry is the first entry of an epoch above epoch (Java's nextEntry).
func (f *EpochFile) NextEntry(epoch int32) (EpochEntry, bool) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	for _, e := range f.entries {
		if e.Epoch > epoch {
			return e, true
		}
	}
	return EpochEntry{}, false
}

// FindEntryByOffset is the entry with StartOffset <= o < EndOffset.
func (f *EpochFile) FindEntryByOffset(o int64) (EpochEntry, bool) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	for _, e := range f.entries {
		if e.StartOffset <= o && o < e.EndOffset {
			return e, true
		}
	}
	return EpochEntry{}, false
}

// Append adds epoch from start and writes the file. It is refused
// (false, nothing changes) unless both epoch and start are greater than
// the last entry's: a master epoch that starts where the previous one
// did (no message in between) is not recorded.
func (f *EpochFile) Append(epoch int32, start int64) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if n := len(f.entries); n > 0 {
		last := &f.entries[n-1]
		if last.Epoch >= epoch || last.StartOffset >= start {
			f.log.Warn("The appending entry's lastEpoch or endOffset is not bigger than lastEntry",
				zap.Int32("epoch", epoch), zap.Int64("start", start), zap.Int32("lastEpoch", last.Epoch),
				zap.Int64("lastStart", last.StartOffset))
			return false
		}
		last.EndOffset = start
	}
	f.entries = append(f.entries, EpochEntry{Epoch: epoch, StartOffset: start, EndOffset: math.MaxInt64})
	f.write()
	return true
}

// TruncateSuffixByEpoch drops the entries of epoch e and above.
func (f *EpochFile) TruncateSuffixByEpoch(e int32) {
	f.truncateSuffix(func(x EpochEntry) bool { return x.Epoch >= e })
}

// TruncateSuffixByOffset drops the entries starting at or after o.
func (f *EpochFile) TruncateSuffixByOffset(o int64) {
	f.truncateSuffix(func(x EpochEntry) bool { return x.StartOffset >= o })
}

func (f *EpochFile) truncateSuffix(drop func(EpochEntry) bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.entries = slices.DeleteFunc(f.entries, drop)
	if n := len(f.entries); n > 0 {
		f.entries[n-1].EndOffset = math.MaxInt64
	}
	f.write()
}

// TruncatePrefixByOffset drops the entries that end at or before o (the
// last entry, which never ends, stays).
func (f *EpochFile) TruncatePrefixByOffset(o int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.entries = slices.DeleteFunc(f.entries, func(x EpochEntry) bool { return x.EndOffset <= o })
	f.write()
}

// FindConsistentPoint is how much of its log a replica whose epoch list
// is local shares with one whose list is master (both with their ends
// chained, the last one's end the replica's commitlog end): going down
// from the local highest epoch, the first epoch the master also has with
// the same start gives the smaller of the two ends; -1 when none does.
// Only epochs and starts are compared, never data.
func FindConsistentPoint(local, master []EpochEntry) int64 {
	for i := len(local) - 1; i >= 0; i-- {
		l := local[i]
		for _, m := range master {
			if m.Epoch == l.Epoch {
				if m.StartOffset == l.StartOffset {
					return min(l.EndOffset, m.EndOffset)
				}
				break
			}
		}
	}
	return -1
}
