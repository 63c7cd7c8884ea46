package rocksdb

import (
	"encoding/binary"
	"fmt"

	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
)

// A block-based table (<number>.sst; table/format.h, on-disk format: do
// not change), as ConfigHelper's options leave it (format_version 5,
// binary-search index, no compression):
//
//	[data block] ... [filter block] [meta blocks] [metaindex block] [index block] [footer]
//
// Every block is followed by a 5-byte trailer: the compression type (1)
// and a checksum (4, of the type named in the footer; not verified here).
//
// Footer (the last 53 bytes, format_version 1 to 5):
//
//	+--------------+----------------------+------------------+---------+-----------+
//	| checksum (1) | metaindex handle,    | padding to 41    | format  | magic (8) |
//	| type         | index handle         |                  | ver (4) |           |
//	+--------------+----------------------+------------------+---------+-----------+
//	handle: varint64 offset, varint64 size (without the trailer)
//	magic:  0x88e241b785f4cff7 (little endian), the block-based table's
//
// A block (data, index): entries, then the restart offsets (fixed32 each)
// and their count (fixed32; its top bit set marks a data block hash index,
// which ConfigHelper does not ask for). An entry:
//
//	varint32 shared key bytes | varint32 unshared | varint32 value length | unshared key bytes | value
//
// In an index block of format_version >= 4 the value length is left out
// and the value is a handle; an entry off a restart point holds only a
// signed (zigzag) varint64 size delta, its offset following the previous
// block and trailer. Data block keys are internal keys: the user key then
// fixed64 (sequence << 8 | type), the type one of batch.go's.
//
// Compression types (the trailer's first byte): 0 none (ConfigHelper's),
// 1 Snappy (raw), 7 ZSTD (varint32 uncompressed size, then a frame); the
// others are refused.
const (
	footerSize         = 53
	tableMagic         = 0x88e241b785f4cff7
	blockTrailerSize   = 5
	internalKeyTrailer = 8
	hashIndexBit       = 1 << 31

	compressionNone   = 0
	compressionSnappy = 1
	compressionZSTD   = 7
)

// handle is a block's place in the file.
type handle struct{ offset, size uint64 }

// readTable calls fn for each entry of the data blocks of a table file:
// the user key, the sequence number, the type and the value.
func readTable(data []byte, fn func(key []byte, seq uint64, typ byte, value []byte) error) error {
	if len(data) < footerSize {
		return fmt.Errorf("%w: table of %d bytes", ErrCorrupt, len(data))
	}
	foot := decoder{b: data[len(data)-footerSize:]}
	foot.byte1()
	foot.uvarint()
	foot.uvarint()
	index := handle{foot.uvarint(), foot.uvarint()}
	formatVersion := binary.LittleEndian.Uint32(data[len(data)-12:])
	if binary.LittleEndian.Uint64(data[len(data)-8:]) != tableMagic || foot.bad || formatVersion < 1 || formatVersion > 5 {
		return fmt.Errorf("%w: not a block-based table (format_version 1-5)", ErrUnsupported)
	}
	indexBlock, err := readBlock(data, index)
	if err != nil {
		return err
	}
	handles, err := indexHandles(indexBlock, formatVersion >= 4)
	if err != nil {
		return err
	}
	for _, h := range handles {
		block, err := readBlock(data, h)
		if err != nil {
			return err
		}
		err = forEachEntry(block, func(ikey, value []byte) error {
			if len(ikey) < internalKeyTrailer {
				return fmt.Errorf("%w: internal key of %d bytes", ErrCorrupt, len(ikey))
			}
			n := len(ikey) - internalKeyTrailer
			t := binary.LittleEndian.Uint64(ikey[n:])
			return fn(ikey[:n], t>>8, byte(t), value)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// readBlock returns a block's contents, uncompressed.
func readBlock(data []byte, h handle) ([]byte, error) {
	n := uint64(len(data))
	if h.offset > n || h.size > n || h.offset+h.size+blockTrailerSize > n {
		return nil, fmt.Errorf("%w: block %d+%d past the table's end", ErrCorrupt, h.offset, h.size)
	}
	raw := data[h.offset : h.offset+h.size]
	switch c := data[h.offset+h.size]; c {
	case compressionNone:
		return raw, nil
	case compressionSnappy:
		return snappy.Decode(nil, raw)
	case compressionZSTD:
		d := decoder{b: raw}
		d.uvarint()
		if d.bad {
			return nil, fmt.Errorf("%w: ZSTD block size", ErrCorrupt)
		}
		return unzstd(d.b)
	default:
		return nil, fmt.Errorf("%w: block compression type %d", ErrUnsupported, c)
	}
}

// unzstd decodes a ZSTD frame (a rare block here: ConfigHelper asks for
// none, so a decoder is made for each).
func unzstd(frame []byte) ([]byte, error) {
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	defer dec.Close()
	return dec.DecodeAll(frame, nil)
}

// splitBlock returns a block's entries and its restart offsets.
func splitBlock(block []byte) (entries []byte, restarts map[uint32]bool, err error) {
	if len(block) < 4 {
		return nil, nil, fmt.Errorf("%w: block of %d bytes", ErrCorrupt, len(block))
	}
	n := binary.LittleEndian.Uint32(block[len(block)-4:])
	if n&hashIndexBit != 0 {
		return nil, nil, fmt.Errorf("%w: data block hash index", ErrUnsupported)
	}
	end := uint64(len(block)) - 4 - 4*uint64(n)
	if end > uint64(len(block)) {
		return nil, nil, fmt.Errorf("%w: %d restarts in a block of %d bytes", ErrCorrupt, n, len(block))
	}
	restarts = make(map[uint32]bool, n)
	for i := uint64(0); i < uint64(n); i++ {
		restarts[binary.LittleEndian.Uint32(block[end+4*i:])] = true
	}
	return block[:end], restarts, nil
}

// forEachEntry calls fn with each key (restored from its shared prefix)
// and value of a block whose entries carry their value length.
func forEachEntry(block []byte, fn func(key, value []byte) error) error {
	entries, _, err := splitBlock(block)
	if err != nil {
		return err
	}
	d := decoder{b: entries}
	var key []byte
	for len(d.b) > 0 {
		shared, unshared, vlen := d.uvarint(), d.uvarint(), d.uvarint()
		if shared > uint64(len(key)) {
			d.fail()
		}
		suffix := d.take(int(unshared))
		value := d.take(int(vlen))
		if d.bad {
			return fmt.Errorf("%w: block entry", ErrCorrupt)
		}
		key = append(key[:shared], suffix...)
		if err := fn(key, value); err != nil {
			return err
		}
	}
	return nil
}

// indexHandles returns the data block handles of an index block;
// deltaValues for format_version >= 4 (see the top of the file).
func indexHandles(block []byte, deltaValues bool) ([]handle, error) {
	if !deltaValues {
		var out []handle
		err := forEachEntry(block, func(_, value []byte) error {
			d := decoder{b: value}
			out = append(out, handle{d.uvarint(), d.uvarint()})
			if d.bad {
				return fmt.Errorf("%w: index entry", ErrCorrupt)
			}
			return nil
		})
		return out, err
	}
	entries, restarts, err := splitBlock(block)
	if err != nil {
		return nil, err
	}
	d := decoder{b: entries}
	var out []handle
	for len(d.b) > 0 {
		restart := restarts[uint32(len(entries)-len(d.b))]
		d.uvarint()
		d.take(int(d.uvarint()))
		if restart || len(out) == 0 {
			out = append(out, handle{d.uvarint(), d.uvarint()})
		} else {
			prev := out[len(out)-1]
			delta := zigzag(d.uvarint())
			out = append(out, handle{prev.offset + prev.size + blockTrailerSize, uint64(int64(prev.size) + delta)})
		}
		if d.bad {
			return nil, fmt.Errorf("%w: index entry", ErrCorrupt)
		}
	}
	return out, nil
}

// zigzag decodes a signed varint's value (util/coding.h DecodeSignedInt64).
func zigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }
