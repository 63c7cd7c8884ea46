package remoting

import (
	"encoding/binary"
	"fmt"
	"math"
)

// ROCKETMQ binary header (wire format: do not change), big-endian:
//
//	offset  size  field
//	0       2     code             int16 (sign-extended on decode)
//	2       1     language         byte
//	3       2     version          int16
//	5       4     opaque           int32
//	9       4     flag             int32
//	13      4     remarkLength     int32, 0 for no remark
//	17      R     remark           UTF-8
//	17+R    4     extFieldsLength  int32, bytes of the entries that follow
//	21+R    E     entries          { int16 keyLen; key; int32 valueLen; value }*
//
// Java reads a zero-length string as null and skips null keys and values on
// encode, so empty strings do not survive this encoding.
const binaryFixedSize = 2 + 1 + 2 + 4 + 4 + 4 + 4

// appendBinaryHeader appends c's header in the ROCKETMQ encoding.
func appendBinaryHeader(dst []byte, c *Command) ([]byte, error) {
	if len(c.Remark) > math.MaxInt32 {
		return dst, fmt.Errorf("%w: remark too long", ErrMalformedHeader)
	}
	dst = binary.BigEndian.AppendUint16(dst, uint16(int16(c.Code)))
	dst = append(dst, byte(c.Language))
	dst = binary.BigEndian.AppendUint16(dst, uint16(int16(c.Version)))
	dst = binary.BigEndian.AppendUint32(dst, uint32(c.Opaque))
	dst = binary.BigEndian.AppendUint32(dst, uint32(c.Flag))
	dst = binary.BigEndian.AppendUint32(dst, uint32(len(c.Remark)))
	dst = append(dst, c.Remark...)
	lenAt := len(dst)
	dst = append(dst, 0, 0, 0, 0)
	var buf [24]ExtField // the headers' fields fit: no allocation to sort them
	for _, e := range c.ExtFields.sorted(buf[:]) {
		k, v := e.Key, e.Value
		if k == "" || v == "" {
			continue
		}
		if len(k) > math.MaxInt16 {
			return dst, fmt.Errorf("%w: header key of %d bytes", ErrMalformedHeader, len(k))
		}
		dst = binary.BigEndian.AppendUint16(dst, uint16(len(k)))
		dst = append(dst, k...)
		dst = binary.BigEndian.AppendUint32(dst, uint32(len(v)))
		dst = append(dst, v...)
	}
	binary.BigEndian.PutUint32(dst[lenAt:], uint32(len(dst)-lenAt-4))
	return dst, nil
}

// decodeBinaryHeader reads a ROCKETMQ header into c. Every length is checked
// against the bytes that are there, so a hostile header cannot make it read
// past the end or allocate more than the header's size.
func decodeBinaryHeader(h []byte, c *Command) error {
	if len(h) < binaryFixedSize {
		return fmt.Errorf("%w: binary header of %d bytes", ErrMalformedHeader, len(h))
	}
	c.Code = int32(int16(binary.BigEndian.Uint16(h[0:])))
	c.Language, c.LanguageKnown = LanguageCode(h[2]), LanguageCode(h[2]).Known()
	c.Version = int32(int16(binary.BigEndian.Uint16(h[3:])))
	c.Opaque = int32(binary.BigEndian.Uint32(h[5:]))
	c.Flag = int32(binary.BigEndian.Uint32(h[9:]))
	rest := h[13:]
	remark, rest, err := readBinaryString32(rest)
	if err != nil {
		return err
	}
	if remark != "" {
		c.Remark, c.HasRemark = remark, true
	}
	if len(rest) < 4 {
		return fmt.Errorf("%w: no extFields length", ErrMalformedHeader)
	}
	extLen := int64(int32(binary.BigEndian.Uint32(rest)))
	rest = rest[4:]
	if extLen < 0 || extLen > int64(len(rest)) {
		return fmt.Errorf("%w: extFields length %d exceeds header", ErrMalformedHeader, extLen)
	}
	if extLen > 0 {
		c.ExtFields, err = decodeBinaryExtFields(rest[:extLen])
	}
	return err
}

// decodeBinaryExtFields reads the key/value entries of a binary header. It
// checks every length first and counts the entries, then copies the region
// into one string that the keys and values are slices of: one allocation
// for the text and one for the list, however many fields.
func decodeBinaryExtFields(b []byte) (ExtFields, error) {
	n, err := countBinaryEntries(b)
	if err != nil {
		return nil, err
	}
	s := string(b)
	f := make(ExtFields, 0, n)
	for i := 0; i < len(s); {
		keyLen := int(binary.BigEndian.Uint16(b[i:]))
		key := s[i+2 : i+2+keyLen]
		i += 2 + keyLen
		valueLen := int(binary.BigEndian.Uint32(b[i:]))
		f = append(f, ExtField{key, s[i+4 : i+4+valueLen]})
		i += 4 + valueLen
	}
	return f, nil
}

// countBinaryEntries checks that b is a whole sequence of binary header
// entries and returns how many there are.
func countBinaryEntries(b []byte) (int, error) {
	n := 0
	for len(b) > 0 {
		if len(b) < 2 {
			return 0, fmt.Errorf("%w: truncated extFields key", ErrMalformedHeader)
		}
		keyLen := int(int16(binary.BigEndian.Uint16(b)))
		b = b[2:]
		if keyLen < 0 || keyLen > len(b) {
			return 0, fmt.Errorf("%w: extFields key length %d", ErrMalformedHeader, keyLen)
		}
		rest, err := skipBinaryString32(b[keyLen:])
		if err != nil {
			return 0, err
		}
		b = rest
		n++
	}
	return n, nil
}

// readBinaryString32 reads an int32 length and that many bytes.
func readBinaryString32(b []byte) (string, []byte, error) {
	rest, err := skipBinaryString32(b)
	if err != nil {
		return "", nil, err
	}
	return string(b[4 : len(b)-len(rest)]), rest, nil
}

// skipBinaryString32 checks an int32 length and that many bytes, and
// returns what follows them.
func skipBinaryString32(b []byte) ([]byte, error) {
	if len(b) < 4 {
		return nil, fmt.Errorf("%w: truncated string length", ErrMalformedHeader)
	}
	n := int64(int32(binary.BigEndian.Uint32(b)))
	b = b[4:]
	if n < 0 || n > int64(len(b)) {
		return nil, fmt.Errorf("%w: string length %d exceeds header", ErrMalformedHeader, n)
	}
	return b[n:], nil
}
