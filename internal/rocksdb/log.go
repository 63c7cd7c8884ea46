package rocksdb

import (
	"encoding/binary"
	"hash/crc32"
)

// The log format of the WAL files (<number>.log) and of the MANIFEST
// (on-disk format: do not change). A file is cut into 32 KiB blocks; a
// record (a WriteBatch, a VersionEdit) is written as fragments that each
// fit in the rest of a block:
//
//	+---------+----------+----------+------------------+--------------+
//	| CRC (4) | Size (2) | Type (1) | Log number (4)   | Payload      |
//	+---------+----------+----------+------------------+--------------+
//	CRC         masked crc32c (Castagnoli) of Type [+ Log number] + Payload,
//	            little endian; Size little endian
//	Type        1 full, 2 first, 3 middle, 4 last fragment of a record;
//	            5-8 the same in a recycled file (with the Log number field);
//	            9 (compression type), 10 and 11 (timestamp sizes): metadata
//	            records, skipped here; 0: preallocated zeros, ends the block
//	block tail  fewer than 7 bytes left in a block are zeros
const (
	logBlockSize            = 32 * 1024
	logHeaderSize           = 4 + 2 + 1
	logRecyclableHeaderSize = logHeaderSize + 4

	fragZero           = 0
	fragFull           = 1
	fragFirst          = 2
	fragMiddle         = 3
	fragLast           = 4
	fragRecyclableFull = 5
	fragRecyclableLast = 8
	fragRecyclableMeta = 11

	// crcMaskDelta is added to the rotated crc32c (util/crc32c.h Mask).
	crcMaskDelta = 0xa282ead8
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// maskCRC is crc32c::Mask: a CRC stored next to the data it covers.
func maskCRC(c uint32) uint32 { return (c>>15 | c<<17) + crcMaskDelta }

// readLog returns the records (whole payloads) of a log file. A torn or
// corrupt fragment drops the record it belongs to and the rest of its
// block, as RocksDB's SkipAnyCorruptedRecords (ConfigHelper's WAL
// recovery mode) does; a record torn by the file's end is dropped.
func readLog(data []byte) [][]byte {
	var out [][]byte
	var pending []byte
	inRecord := false
	for off := 0; off < len(data); {
		blockEnd := min((off/logBlockSize+1)*logBlockSize, len(data))
		payload, typ, n, ok := readFragment(data[off:blockEnd])
		if !ok {
			off, pending, inRecord = blockEnd, nil, false
			continue
		}
		off += n
		switch typ {
		case fragFull:
			out, pending, inRecord = append(out, payload), nil, false
		case fragFirst:
			pending, inRecord = append([]byte(nil), payload...), true
		case fragMiddle:
			if inRecord {
				pending = append(pending, payload...)
			}
		case fragLast:
			if inRecord {
				out = append(out, append(pending, payload...))
			}
			pending, inRecord = nil, false
		}
	}
	return out
}

// readFragment reads the fragment at the start of block: its payload, its
// type (the recyclable types folded onto the plain ones, metadata types
// as they are) and its length; false for zeros, a short or a corrupt
// fragment.
func readFragment(block []byte) (payload []byte, typ byte, n int, ok bool) {
	if len(block) < logHeaderSize {
		return nil, 0, 0, false
	}
	typ = block[6]
	hs := logHeaderSize
	if typ >= fragRecyclableFull && typ <= fragRecyclableLast || typ == fragRecyclableMeta {
		hs = logRecyclableHeaderSize
	}
	size := int(binary.LittleEndian.Uint16(block[4:6]))
	if typ == fragZero || hs+size > len(block) {
		return nil, 0, 0, false
	}
	if maskCRC(crc32.Checksum(block[6:hs+size], castagnoli)) != binary.LittleEndian.Uint32(block) {
		return nil, 0, 0, false
	}
	if typ >= fragRecyclableFull && typ <= fragRecyclableLast {
		typ -= fragRecyclableFull - fragFull
	}
	return block[hs : hs+size], typ, hs + size, true
}

// appendLogRecord appends rec to the log file held whole in dst (its
// length is the offset in the file) as plain fragments, padding a block's
// tail with zeros.
func appendLogRecord(dst, rec []byte) []byte {
	first := true
	for {
		left := logBlockSize - len(dst)%logBlockSize
		if left < logHeaderSize {
			dst = append(dst, make([]byte, left)...)
			left = logBlockSize
		}
		n := min(len(rec), left-logHeaderSize)
		last := n == len(rec)
		typ := byte(fragMiddle)
		switch {
		case first && last:
			typ = fragFull
		case first:
			typ = fragFirst
		case last:
			typ = fragLast
		}
		dst = appendFragment(dst, typ, rec[:n])
		if last {
			return dst
		}
		rec, first = rec[n:], false
	}
}

// appendFragment appends one plain fragment.
func appendFragment(dst []byte, typ byte, payload []byte) []byte {
	crc := crc32.Update(crc32.Checksum([]byte{typ}, castagnoli), castagnoli, payload)
	dst = binary.LittleEndian.AppendUint32(dst, maskCRC(crc))
	dst = binary.LittleEndian.AppendUint16(dst, uint16(len(payload)))
	dst = append(dst, typ)
	return append(dst, payload...)
}
