package rocksdb

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Errors of this package.
var (
	// ErrNotFound: the directory holds no database (no CURRENT).
	ErrNotFound = errors.New("rocksdb: no database")
	// ErrCorrupt: a file cannot be read as RocksDB writes it.
	ErrCorrupt = errors.New("rocksdb: corrupt")
	// ErrUnsupported: a feature this reader does not implement.
	ErrUnsupported = errors.New("rocksdb: unsupported")
)

// DefaultFamily is the name of column family 0.
const DefaultFamily = "default"

// currentFile names the MANIFEST in use.
const currentFile = "CURRENT"

// Family is a column family: its name and the latest value of each key.
type Family struct {
	Name    string
	Entries map[string][]byte
}

// Exists reports whether dir holds a database (a CURRENT file).
func Exists(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, currentFile))
	return err == nil
}

// cell is the newest write of a key seen so far.
type cell struct {
	seq     uint64
	deleted bool
	value   []byte
}

// cells are the newest writes by column family id and key.
type cells map[uint32]map[string]cell

// put keeps e unless a newer write of its key is known.
func (c cells) put(e entry) {
	m := c[e.cf]
	if m == nil {
		return
	}
	if old, ok := m[string(e.key)]; ok && old.seq > e.seq {
		return
	}
	m[string(e.key)] = cell{seq: e.seq, deleted: e.deleted, value: append([]byte(nil), e.value...)}
}

// Read returns the column families of the database in dir, by id, with
// their live keys: the SST files the MANIFEST lists, then the WAL files
// not flushed yet; of the writes of a key the one of the highest sequence
// number wins, a deletion removes the key.
func Read(dir string) ([]Family, error) {
	v, c, err := readCells(dir)
	if err != nil {
		return nil, err
	}
	return v.live(c), nil
}

// readCells replays the database: its version and its newest writes.
func readCells(dir string) (*version, cells, error) {
	v, err := readVersion(dir)
	if err != nil {
		return nil, nil, err
	}
	c := cells{}
	for id, f := range v.families {
		c[id] = map[string]cell{}
		for n := range f.files {
			if err := readTableFile(dir, id, n, c); err != nil {
				return nil, nil, err
			}
		}
	}
	logs, err := fileNumbers(dir, ".log")
	if err != nil {
		return nil, nil, err
	}
	for _, n := range logs {
		if err := replayWAL(dir, n, v, c); err != nil {
			return nil, nil, err
		}
	}
	return v, c, nil
}

// maxSeq is the highest sequence number of the writes.
func (c cells) maxSeq() uint64 {
	var top uint64
	for _, m := range c {
		for _, e := range m {
			top = max(top, e.seq)
		}
	}
	return top
}

// readVersion replays the MANIFEST that CURRENT names.
func readVersion(dir string) (*version, error) {
	cur, err := os.ReadFile(filepath.Join(dir, currentFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%w in %s", ErrNotFound, dir)
	} else if err != nil {
		return nil, fmt.Errorf("rocksdb: %w", err)
	}
	name := strings.TrimSuffix(string(cur), "\n")
	if !strings.HasPrefix(name, "MANIFEST-") || strings.ContainsAny(name, "/\\") {
		return nil, fmt.Errorf("%w: CURRENT names %q", ErrCorrupt, name)
	}
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return nil, fmt.Errorf("rocksdb: %w", err)
	}
	v, err := replayManifest(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return v, nil
}

// readTableFile adds the writes of an SST file of column family cf.
func readTableFile(dir string, cf uint32, n uint64, c cells) error {
	name := fmt.Sprintf("%06d.sst", n)
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return fmt.Errorf("rocksdb: %w", err)
	}
	err = readTable(data, func(key []byte, seq uint64, typ byte, value []byte) error {
		switch typ {
		case typeValue:
			c.put(entry{cf: cf, key: key, value: value, seq: seq})
		case typeDeletion, typeSingleDeletion, typeDeletionWithTSMark:
			c.put(entry{cf: cf, key: key, seq: seq, deleted: true})
		default:
			return fmt.Errorf("%w: key type %#x", ErrUnsupported, typ)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}

// replayWAL adds the writes of WAL file n to the column families that
// have not flushed them (their log number at most n).
func replayWAL(dir string, n uint64, v *version, c cells) error {
	name := fmt.Sprintf("%06d.log", n)
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		return fmt.Errorf("rocksdb: %w", err)
	}
	for _, rec := range readLog(data) {
		err := decodeBatch(rec, func(e entry) {
			if f := v.families[e.cf]; f != nil && f.logNumber <= n {
				c.put(e)
			}
		})
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return nil
}

// live are the families with their keys not deleted, by id.
func (v *version) live(c cells) []Family {
	ids := make([]uint32, 0, len(v.families))
	for id := range v.families {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	out := make([]Family, 0, len(ids))
	for _, id := range ids {
		f := Family{Name: v.families[id].name, Entries: map[string][]byte{}}
		for k, e := range c[id] {
			if !e.deleted {
				f.Entries[k] = e.value
			}
		}
		out = append(out, f)
	}
	return out
}

// fileNumbers are the numbers of the files of dir named "<n><suffix>",
// ascending.
func fileNumbers(dir, suffix string) ([]uint64, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("rocksdb: %w", err)
	}
	var out []uint64
	for _, de := range des {
		if n, ok := fileNumber(de.Name()); ok && strings.HasSuffix(de.Name(), suffix) {
			out = append(out, n)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out, nil
}

// fileNumber is the number of a numbered RocksDB file: "<n>.log",
// "<n>.sst", "<n>.dbtmp", "MANIFEST-<n>", "OPTIONS-<n>".
func fileNumber(name string) (uint64, bool) {
	s := name
	if i := strings.IndexByte(s, '-'); i >= 0 {
		s = s[i+1:]
	}
	if i := strings.IndexByte(s, '.'); i >= 0 {
		s = s[:i]
	}
	var n uint64
	if s == "" {
		return 0, false
	}
	for _, ch := range s {
		if ch < '0' || ch > '9' {
			return 0, false
		}
		n = n*10 + uint64(ch-'0')
	}
	return n, true
}
