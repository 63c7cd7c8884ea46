package store

import (
	"encoding/binary"
	"fmt"
	"net/netip"
)

// recordCheck is what decodeRecord found at a position.
type recordCheck uint8

const (
	recordOK      recordCheck = iota // a whole, valid record
	recordBlank                      // the blank record: the file ends here
	recordInvalid                    // anything else: where recovery stops
)

// decodeRecord reads the record at the start of buf as Java's
// checkMessageAndReturnSize does: a magic that is neither a message nor
// blank, a record running past buf, a length that disagrees with its
// fields or (with checkCRC) a body CRC mismatch make it invalid.
func decodeRecord(buf []byte, checkCRC bool) (Record, recordCheck, string) {
	var r Record
	if len(buf) < 8 {
		return r, recordInvalid, "short buffer"
	}
	b := binary.BigEndian
	r.Size = int32(b.Uint32(buf))
	r.Magic = int32(b.Uint32(buf[posMagic:]))
	switch r.Magic {
	case MagicBlank:
		return r, recordBlank, ""
	case MagicV1, MagicV2:
	default:
		return r, recordInvalid, fmt.Sprintf("illegal magic code 0x%08X", uint32(r.Magic))
	}
	if r.Size < 0 || int(r.Size) > len(buf) {
		return r, recordInvalid, fmt.Sprintf("record of %d bytes runs past its file", r.Size)
	}
	rec := buf[:r.Size]
	if why := r.decodeFields(rec); why != "" {
		return r, recordInvalid, why
	}
	if checkCRC && len(r.Body) > 0 && BodyCRC(r.Body) != r.BodyCRC {
		return r, recordInvalid, fmt.Sprintf("body CRC %d, stored %d", BodyCRC(r.Body), r.BodyCRC)
	}
	return r, recordOK, ""
}

// recordReader walks an encoded record with bounds checks.
type recordReader struct {
	buf []byte
	pos int
	bad bool
}

func (rr *recordReader) take(n int) []byte {
	if rr.bad || n < 0 || rr.pos+n > len(rr.buf) {
		rr.bad = true
		return nil
	}
	out := rr.buf[rr.pos : rr.pos+n : rr.pos+n]
	rr.pos += n
	return out
}

func (rr *recordReader) u16() uint16 {
	if p := rr.take(2); p != nil {
		return binary.BigEndian.Uint16(p)
	}
	return 0
}

func (rr *recordReader) u32() uint32 {
	if p := rr.take(4); p != nil {
		return binary.BigEndian.Uint32(p)
	}
	return 0
}

func (rr *recordReader) u64() uint64 {
	if p := rr.take(8); p != nil {
		return binary.BigEndian.Uint64(p)
	}
	return 0
}

func (rr *recordReader) host(v6 bool) netip.AddrPort {
	n := 4
	if v6 {
		n = 16
	}
	raw := rr.take(n)
	port := rr.u32()
	if rr.bad {
		return netip.AddrPort{}
	}
	addr, _ := netip.AddrFromSlice(raw)
	return netip.AddrPortFrom(addr, uint16(port))
}

// decodeFields fills r from one whole record and reports an
// inconsistency, or "".
func (r *Record) decodeFields(rec []byte) string {
	rr := recordReader{buf: rec, pos: posBodyCRC}
	r.BodyCRC = int32(rr.u32())
	r.QueueID = int32(rr.u32())
	r.Flag = int32(rr.u32())
	r.QueueOffset = int64(rr.u64())
	r.PhysicalOffset = int64(rr.u64())
	r.SysFlag = int32(rr.u32())
	r.BornTimestamp = int64(rr.u64())
	r.BornHost = rr.host(r.SysFlag&SysFlagBornHostV6 != 0)
	r.StoreTimestamp = int64(rr.u64())
	r.StoreHost = rr.host(r.SysFlag&SysFlagStoreHostV6 != 0)
	r.ReconsumeTimes = int32(rr.u32())
	r.PreparedTransactionOffset = int64(rr.u64())
	bodyLen := int(int32(rr.u32()))
	if bodyLen > 0 {
		r.Body = rr.take(bodyLen)
	}
	v2 := r.Magic == MagicV2
	var topicLen int
	if v2 {
		topicLen = int(int16(rr.u16()))
	} else if p := rr.take(1); p != nil {
		topicLen = int(int8(p[0]))
	}
	r.Topic = string(rr.take(topicLen))
	propLen := int(int16(rr.u16()))
	if propLen > 0 {
		r.Properties = rr.take(propLen)
	}
	if rr.bad {
		return "record fields run past its length"
	}
	want := recordLength(r.SysFlag, max(bodyLen, 0), topicLen, max(propLen, 0), v2)
	if int(r.Size) != want {
		return fmt.Sprintf("total size %d, fields add up to %d", r.Size, want)
	}
	return ""
}

// DecodeRecord decodes one whole record (as a pull or a lookup by offset
// returns it), checking its body CRC.
func DecodeRecord(rec []byte) (Record, error) {
	r, check, why := decodeRecord(rec, true)
	if check != recordOK {
		if check == recordBlank {
			why = "blank record"
		}
		return r, fmt.Errorf("%w: %s", ErrCorrupt, why)
	}
	return r, nil
}
