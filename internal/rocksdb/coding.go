package rocksdb

import "encoding/binary"

// decoder reads RocksDB's encodings (util/coding.h) off a byte slice:
// little-endian fixed ints, LEB128 varints, length-prefixed slices
// (varint32 length + bytes). A short or malformed input marks it bad and
// every later read returns zero; the caller checks bad once.
type decoder struct {
	b   []byte
	bad bool
}

func (d *decoder) fail() { d.b, d.bad = nil, true }

// uvarint reads a varint32 or varint64.
func (d *decoder) uvarint() uint64 {
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail()
		return 0
	}
	d.b = d.b[n:]
	return v
}

// prefixed reads a length-prefixed slice.
func (d *decoder) prefixed() []byte {
	n := d.uvarint()
	if uint64(len(d.b)) < n {
		d.fail()
		return nil
	}
	v := d.b[:n:n]
	d.b = d.b[n:]
	return v
}

// take reads n bytes.
func (d *decoder) take(n int) []byte {
	if n < 0 || len(d.b) < n {
		d.fail()
		return nil
	}
	v := d.b[:n:n]
	d.b = d.b[n:]
	return v
}

func (d *decoder) fixed32() uint32 {
	if b := d.take(4); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (d *decoder) fixed64() uint64 {
	if b := d.take(8); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (d *decoder) byte1() byte {
	if b := d.take(1); b != nil {
		return b[0]
	}
	return 0
}

// appendPrefixed appends a length-prefixed slice.
func appendPrefixed(dst, b []byte) []byte {
	return append(binary.AppendUvarint(dst, uint64(len(b))), b...)
}
