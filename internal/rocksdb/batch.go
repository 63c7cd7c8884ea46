package rocksdb

import (
	"encoding/binary"
	"fmt"
)

// A WriteBatch, the payload of a WAL record (on-disk format: do not
// change):
//
//	+--------------+-----------+------------------------------------+
//	| Sequence (8) | Count (4) | Record ...                         |
//	+--------------+-----------+------------------------------------+
//	Record: Tag (1) [CF id varint32] Key [Value]
//	        Key, Value: varint32 length + bytes
//	Sequence (little endian) is the first record's sequence number; each
//	put, delete or merge takes the next one.
//
// The tags (db/dbformat.h ValueType); the same codes are the type byte of
// an SST's internal keys (0, 1, 2, 7, 0x14 there):
const (
	typeDeletion           = 0x0
	typeValue              = 0x1
	typeMerge              = 0x2
	typeLogData            = 0x3
	typeCFDeletion         = 0x4
	typeCFValue            = 0x5
	typeCFMerge            = 0x6
	typeSingleDeletion     = 0x7
	typeCFSingleDeletion   = 0x8
	typeNoop               = 0xD
	typeDeletionWithTSMark = 0x14

	batchHeaderSize = 12
)

// entry is one put or delete of a key of a column family.
type entry struct {
	cf      uint32
	key     []byte
	value   []byte
	seq     uint64
	deleted bool
}

// decodeBatch calls fn for each put and delete of a WriteBatch. Merges,
// range deletions, blob indexes, wide columns and transaction markers are
// refused (ErrUnsupported): ConfigRocksDBStorage writes none of them for
// the users and ACLs.
func decodeBatch(rec []byte, fn func(entry)) error {
	if len(rec) < batchHeaderSize {
		return fmt.Errorf("%w: write batch of %d bytes", ErrCorrupt, len(rec))
	}
	d := decoder{b: rec}
	seq := d.fixed64()
	count := d.fixed32()
	for n := uint32(0); len(d.b) > 0; n++ {
		tag := d.byte1()
		e := entry{seq: seq}
		switch tag {
		case typeCFValue, typeCFDeletion, typeCFSingleDeletion:
			e.cf = uint32(d.uvarint())
		}
		switch tag {
		case typeValue, typeCFValue:
			e.key, e.value = d.prefixed(), d.prefixed()
		case typeDeletion, typeCFDeletion, typeSingleDeletion, typeCFSingleDeletion:
			e.key, e.deleted = d.prefixed(), true
		case typeLogData:
			d.prefixed()
			continue
		case typeNoop:
			continue
		default:
			return fmt.Errorf("%w: write batch record type %#x", ErrUnsupported, tag)
		}
		if d.bad {
			return fmt.Errorf("%w: write batch record %d of %d", ErrCorrupt, n, count)
		}
		fn(e)
		seq++
	}
	return nil
}

// appendBatch appends a WriteBatch of puts and deletions, the first at
// sequence seq.
func appendBatch(dst []byte, seq uint64, entries []entry) []byte {
	dst = binary.LittleEndian.AppendUint64(dst, seq)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(entries)))
	for _, e := range entries {
		tag := byte(typeValue)
		switch {
		case e.deleted && e.cf == 0:
			tag = typeDeletion
		case e.deleted:
			tag = typeCFDeletion
		case e.cf != 0:
			tag = typeCFValue
		}
		dst = append(dst, tag)
		if e.cf != 0 {
			dst = binary.AppendUvarint(dst, uint64(e.cf))
		}
		dst = appendPrefixed(dst, e.key)
		if !e.deleted {
			dst = appendPrefixed(dst, e.value)
		}
	}
	return dst
}
