package rocksdb

import (
	"encoding/binary"
	"fmt"
)

// A MANIFEST is a log file (log.go) of VersionEdits; replayed in order
// they give the column families, the live SST files of each and the WAL
// files still to replay. A VersionEdit is a list of tagged fields
// (db/version_edit.h; on-disk format: do not change), each a varint32 tag
// and its value:
//
//	1   comparator        length-prefixed name ("leveldb.BytewiseComparator")
//	2   log number        varint64: WALs below it are flushed (of this CF)
//	3   next file number  varint64
//	4   last sequence     varint64
//	5   compact cursor    varint32 level, length-prefixed internal key
//	6   deleted file      varint32 level, varint64 file number
//	7   new file          level, number, size, smallest key, largest key
//	9   prev log number   varint64
//	10  min log to keep   varint64
//	100 new file 2        new file + varint64 smallest, largest seqno
//	102 new file 3        level, number, varint32 path id, size, keys, seqnos
//	103 new file 4        new file 2 + custom fields (varint32 tag,
//	                      length-prefixed value) up to the tag 1
//	200 column family     varint32 id the edit applies to (absent: 0, default)
//	201 CF add            length-prefixed name
//	202 CF drop           (no value)
//	203 max column family varint32
//	300 in atomic group   varint32 remaining edits
//	>= 8192 (bit 13 set)  forward compatible: a length-prefixed value, ignored
//	                      (DB id, WAL additions and deletions, ...)
const (
	tagComparator     = 1
	tagLogNumber      = 2
	tagNextFileNumber = 3
	tagLastSequence   = 4
	tagCompactCursor  = 5
	tagDeletedFile    = 6
	tagNewFile        = 7
	tagPrevLogNumber  = 9
	tagMinLogToKeep   = 10
	tagNewFile2       = 100
	tagNewFile3       = 102
	tagNewFile4       = 103
	tagColumnFamily   = 200
	tagCFAdd          = 201
	tagCFDrop         = 202
	tagMaxCF          = 203
	tagInAtomicGroup  = 300
	tagSafeIgnoreMask = 1 << 13

	newFileTerminate = 1

	bytewiseComparator = "leveldb.BytewiseComparator"
)

// family is a column family as the MANIFEST leaves it.
type family struct {
	name      string
	logNumber uint64
	files     map[uint64]bool // live SST file numbers
}

// version is the replayed MANIFEST: the column families by id.
type version struct {
	families map[uint32]*family
}

// replayManifest replays the VersionEdits of a MANIFEST file's bytes.
func replayManifest(data []byte) (*version, error) {
	v := &version{families: map[uint32]*family{0: {name: DefaultFamily, files: map[uint64]bool{}}}}
	for i, rec := range readLog(data) {
		if err := v.apply(rec); err != nil {
			return nil, fmt.Errorf("%w (edit %d)", err, i)
		}
	}
	return v, nil
}

// apply applies one VersionEdit.
func (v *version) apply(rec []byte) error {
	d := decoder{b: rec}
	var cf uint32
	var changes []func(*family)
	var added string
	dropped := false
	for len(d.b) > 0 && !d.bad {
		tag := d.uvarint()
		switch {
		case tag == tagColumnFamily:
			cf = uint32(d.uvarint())
		case tag == tagCFAdd:
			added = string(d.prefixed())
		case tag == tagCFDrop:
			dropped = true
		case tag == tagLogNumber:
			n := d.uvarint()
			changes = append(changes, func(f *family) { f.logNumber = n })
		case tag == tagDeletedFile:
			d.uvarint()
			n := d.uvarint()
			changes = append(changes, func(f *family) { delete(f.files, n) })
		case tag == tagNewFile || tag == tagNewFile2 || tag == tagNewFile3 || tag == tagNewFile4:
			n := decodeNewFile(&d, tag)
			changes = append(changes, func(f *family) { f.files[n] = true })
		default:
			if err := skipField(&d, tag); err != nil {
				return err
			}
		}
	}
	if d.bad {
		return fmt.Errorf("%w: MANIFEST edit", ErrCorrupt)
	}
	return v.commit(cf, added, dropped, changes)
}

// commit applies an edit's changes to its column family.
func (v *version) commit(cf uint32, added string, dropped bool, changes []func(*family)) error {
	switch {
	case added != "":
		v.families[cf] = &family{name: added, files: map[uint64]bool{}}
	case dropped:
		delete(v.families, cf)
		return nil
	}
	f := v.families[cf]
	if f == nil {
		if len(changes) == 0 {
			return nil
		}
		return fmt.Errorf("%w: MANIFEST edit of unknown column family %d", ErrCorrupt, cf)
	}
	for _, c := range changes {
		c(f)
	}
	return nil
}

// decodeNewFile reads a new-file field and returns the file's number.
func decodeNewFile(d *decoder, tag uint64) uint64 {
	d.uvarint() // level
	n := d.uvarint()
	if tag == tagNewFile3 {
		d.uvarint() // path id
	}
	d.uvarint() // size
	d.prefixed()
	d.prefixed()
	if tag == tagNewFile {
		return n
	}
	d.uvarint()
	d.uvarint()
	if tag == tagNewFile4 {
		for !d.bad && d.uvarint() != newFileTerminate {
			d.prefixed()
		}
	}
	return n
}

// skipField reads past a field this reader does not need.
func skipField(d *decoder, tag uint64) error {
	switch {
	case tag == tagComparator:
		d.prefixed()
	case tag == tagNextFileNumber || tag == tagLastSequence || tag == tagPrevLogNumber ||
		tag == tagMinLogToKeep || tag == tagMaxCF || tag == tagInAtomicGroup:
		d.uvarint()
	case tag == tagCompactCursor:
		d.uvarint()
		d.prefixed()
	case tag&tagSafeIgnoreMask != 0:
		d.prefixed()
	default:
		return fmt.Errorf("%w: MANIFEST field tag %d", ErrUnsupported, tag)
	}
	return nil
}

// appendVarintField appends a field's tag and its varint value.
func appendVarintField(dst []byte, tag, v uint64) []byte {
	return binary.AppendUvarint(binary.AppendUvarint(dst, tag), v)
}

// newDBEdits are the VersionEdits of a new database whose column families
// are names (ids in that order, names[0] the default) and whose every
// unflushed write is in the WAL logNumber: the default family's edit
// carries the comparator, the log, next file and last sequence numbers
// and the largest family id; each other family's edit adds it.
func newDBEdits(names []string, logNumber, nextFile, lastSeq uint64) [][]byte {
	var e []byte
	e = appendPrefixed(binary.AppendUvarint(e, tagComparator), []byte(bytewiseComparator))
	e = appendVarintField(e, tagLogNumber, logNumber)
	e = appendVarintField(e, tagNextFileNumber, nextFile)
	e = appendVarintField(e, tagLastSequence, lastSeq)
	e = appendVarintField(e, tagMaxCF, uint64(len(names)-1))
	edits := [][]byte{e}
	for id, name := range names[1:] {
		var a []byte
		a = appendVarintField(a, tagColumnFamily, uint64(id+1))
		a = appendPrefixed(binary.AppendUvarint(a, tagCFAdd), []byte(name))
		a = appendPrefixed(binary.AppendUvarint(a, tagComparator), []byte(bytewiseComparator))
		a = appendVarintField(a, tagLogNumber, logNumber)
		edits = append(edits, a)
	}
	return edits
}
