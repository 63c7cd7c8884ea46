package rocksdb

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Write replaces the database in dir (made if absent) by a new one that
// holds families (ids in that order, families[0] the default) and their
// keys, as RocksDB's own files would after the writes were made and
// before a flush:
//
//	<t+1>.log          one WriteBatch (sequence s+1 on): every key, by
//	                   family then key, then a deletion of each key the
//	                   old database has and the new one has not
//	MANIFEST-<t+2>     a VersionEdit per family: the default's with the
//	                   comparator, log number t+1, next file t+4, last
//	                   sequence s; each other's adding it with log number t+1
//	<t+3>.dbtmp        "MANIFEST-<t+2>\n", renamed to CURRENT
//
// where t is the highest file number in dir and s the highest sequence
// number of the old database (0 when none). Each file is synced before
// CURRENT moves to it, and the directory after. A crash before the rename
// leaves the old database with a WAL above its own: replayed onto it (by
// RocksDB or Read), its writes are the newest and its deletions remove
// what the new one dropped, so the outcome is the new database all the
// same. The files of the old one (MANIFEST, WAL, SST) are removed after;
// IDENTITY, OPTIONS and LOCK stay. Nothing may have the database open
// meanwhile (Java's broker must be stopped). An old database that cannot
// be read is not replaced (the error is returned).
func Write(dir string, families []Family) error {
	if len(families) == 0 || families[0].Name != DefaultFamily {
		return fmt.Errorf("rocksdb: the first column family must be %q", DefaultFamily)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("rocksdb: %w", err)
	}
	old, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("rocksdb: %w", err)
	}
	var top uint64
	for _, de := range old {
		if n, ok := fileNumber(de.Name()); ok {
			top = max(top, n)
		}
	}
	logNumber, manifestNumber := top+1, top+2
	wal, lastSeq, err := walReplacing(dir, families)
	if err != nil {
		return err
	}
	if err := writeSynced(dir, fmt.Sprintf("%06d.log", logNumber), wal); err != nil {
		return err
	}
	manifestName := fmt.Sprintf("MANIFEST-%06d", manifestNumber)
	if err := writeManifest(dir, manifestName, families, logNumber, top+4, lastSeq); err != nil {
		return err
	}
	if err := setCurrent(dir, fmt.Sprintf("%06d.dbtmp", top+3), manifestName); err != nil {
		return err
	}
	return removeObsolete(dir, old)
}

// writeManifest writes the MANIFEST of a new database of families.
func writeManifest(dir, name string, families []Family, logNumber, nextFile, lastSeq uint64) error {
	names := make([]string, len(families))
	for i, f := range families {
		names[i] = f.Name
	}
	var manifest []byte
	for _, e := range newDBEdits(names, logNumber, nextFile, lastSeq) {
		manifest = appendLogRecord(manifest, e)
	}
	return writeSynced(dir, name, manifest)
}

// setCurrent points CURRENT at a MANIFEST: a temporary file, synced,
// renamed, the directory synced.
func setCurrent(dir, tmp, manifestName string) error {
	if err := writeSynced(dir, tmp, []byte(manifestName+"\n")); err != nil {
		return err
	}
	if err := os.Rename(filepath.Join(dir, tmp), filepath.Join(dir, currentFile)); err != nil {
		return fmt.Errorf("rocksdb: %w", err)
	}
	return syncDir(dir)
}

// walReplacing is the WAL of the new database (see Write) and the last
// sequence number before it.
func walReplacing(dir string, families []Family) ([]byte, uint64, error) {
	v, c, err := readCells(dir)
	if errors.Is(err, ErrNotFound) {
		v, c, err = &version{}, cells{}, nil
	}
	if err != nil {
		return nil, 0, err
	}
	old := map[string]map[string]cell{}
	for id, f := range v.families {
		old[f.name] = c[id]
	}
	var entries []entry
	for id, f := range families {
		for _, k := range slices.Sorted(maps.Keys(f.Entries)) {
			entries = append(entries, entry{cf: uint32(id), key: []byte(k), value: f.Entries[k]})
		}
	}
	for id, f := range families {
		for _, k := range slices.Sorted(maps.Keys(old[f.Name])) {
			if _, keep := f.Entries[k]; !keep && !old[f.Name][k].deleted {
				entries = append(entries, entry{cf: uint32(id), key: []byte(k), deleted: true})
			}
		}
	}
	last := c.maxSeq()
	if len(entries) == 0 {
		return nil, last, nil
	}
	return appendLogRecord(nil, appendBatch(nil, last+1, entries)), last, nil
}

// writeSynced writes a new file and syncs it.
func writeSynced(dir, name string, data []byte) error {
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("rocksdb: %w", err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("rocksdb: %w", err)
	}
	return nil
}

// syncDir syncs a directory (a rename in it).
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("rocksdb: %w", err)
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("rocksdb: %w", err)
	}
	return nil
}

// removeObsolete removes the MANIFEST, WAL, SST and temporary files of
// the listing taken before the new database was written.
func removeObsolete(dir string, old []os.DirEntry) error {
	for _, de := range old {
		name := de.Name()
		if _, ok := fileNumber(name); !ok {
			continue
		}
		if strings.HasPrefix(name, "MANIFEST-") || strings.HasSuffix(name, ".log") ||
			strings.HasSuffix(name, ".sst") || strings.HasSuffix(name, ".dbtmp") {
			if err := os.Remove(filepath.Join(dir, name)); err != nil && !os.IsNotExist(err) {
				return fmt.Errorf("rocksdb: %w", err)
			}
		}
	}
	return nil
}
