package store

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash/crc32"
	"net/netip"
)

// Commitlog record, as Java's CommitLog.DefaultAppendMessageCallback
// writes it (on-disk format: do not change). Big-endian throughout.
//
//	off  size   field
//	  0     4   TOTALSIZE        whole record, this field included
//	  4     4   MAGICCODE        DA A3 20 A7 (v1) | DA A3 20 AB (v2, 5.x)
//	  8     4   BODYCRC          crc32(body) & 0x7FFFFFFF
//	 12     4   QUEUEID
//	 16     4   FLAG             the producer's Message.flag
//	 20     8   QUEUEOFFSET      index in the consume queue (0 for half/rollback)
//	 28     8   PHYSICALOFFSET   absolute commitlog offset of this record
//	 36     4   SYSFLAG          see SysFlag*
//	 40     8   BORNTIMESTAMP
//	 48   8|20  BORNHOST         IPv4 (4) or IPv6 (16) address, then int port
//	  .     8   STORETIMESTAMP
//	  .   8|20  STOREHOST
//	  .     4   RECONSUMETIMES
//	  .     8   PREPAREDTRANSACTIONOFFSET
//	  .   4+B   BODYLENGTH, BODY
//	  . 1|2+T   TOPICLENGTH (byte in v1, short in v2), TOPIC (UTF-8)
//	  .   2+P   PROPERTIESLENGTH (short), PROPERTIES "k\x01v\x02k\x01v"
//
// The blank record that ends a commitlog file is 8 bytes:
// [int bytes left to the end of the file][int CB D4 31 94].
const (
	MagicV1    int32 = -626843481 // 0xDAA320A7
	MagicV2    int32 = -626843477 // 0xDAA320AB
	MagicBlank int32 = -875286124 // 0xCBD43194

	// blankRecordMinLength is END_FILE_MIN_BLANK_LENGTH: a record must
	// leave room for a blank record after it.
	blankRecordMinLength = 8

	posMagic       = 4
	posBodyCRC     = 8
	posQueueID     = 12
	posFlag        = 16
	posQueueOffset = 20
	posPhysOffset  = 28
	posSysFlag     = 36
	posBornTime    = 40
	posBornHost    = 48

	// maxPropertiesLength is the largest properties string (a signed
	// short holds its length).
	maxPropertiesLength = 32767
	// maxTopicLengthV1 is the largest topic a v1 record holds.
	maxTopicLengthV1 = 127
)

// SysFlag bits (MessageSysFlag; on-disk format: do not change).
const (
	SysFlagCompressed     int32 = 0x1
	SysFlagMultiTags      int32 = 0x2
	SysFlagTransactionMsk int32 = 0xC
	SysFlagTxNotType      int32 = 0x0
	SysFlagTxPrepared     int32 = 0x4
	SysFlagTxCommit       int32 = 0x8
	SysFlagTxRollback     int32 = 0xC
	SysFlagBornHostV6     int32 = 0x10
	SysFlagStoreHostV6    int32 = 0x20
	SysFlagNeedUnwrap     int32 = 0x40
	SysFlagInnerBatch     int32 = 0x80
)

// Message is what a writer hands the store: every field of a commitlog
// record that the store does not decide itself (queue offset, physical
// offset, store time and body CRC are the store's).
type Message struct {
	Topic   string
	QueueID int32
	Flag    int32
	// SysFlag carries the compression and transaction bits; the host bits
	// are set from BornHost and StoreHost.
	SysFlag int32
	Body    []byte
	// Properties is the encoded properties string (see EncodeProperties).
	Properties                string
	BornTimestamp             int64
	BornHost                  netip.AddrPort
	StoreHost                 netip.AddrPort
	ReconsumeTimes            int32
	PreparedTransactionOffset int64
}

// Record is a decoded commitlog record. Body, Topic and Properties point
// into the buffer it was decoded from.
type Record struct {
	Size                      int32
	Magic                     int32
	BodyCRC                   int32
	QueueID                   int32
	Flag                      int32
	QueueOffset               int64
	PhysicalOffset            int64
	SysFlag                   int32
	BornTimestamp             int64
	BornHost                  netip.AddrPort
	StoreTimestamp            int64
	StoreHost                 netip.AddrPort
	ReconsumeTimes            int32
	PreparedTransactionOffset int64
	Body                      []byte
	Topic                     string
	Properties                []byte
}

// TransactionType is the record's transaction bits (SysFlagTx*).
func (r *Record) TransactionType() int32 { return r.SysFlag & SysFlagTransactionMsk }

// Property returns one property of the record.
func (r *Record) Property(name string) (string, bool) { return propertyValue(r.Properties, name) }

// MsgID is the record's offset message id (Java's offsetMsgId).
func (r *Record) MsgID() string { return MessageID(r.StoreHost, r.PhysicalOffset) }

// hostLen is the encoded length of a host: address + int port.
func hostLen(ap netip.AddrPort) int {
	if ap.Addr().Unmap().Is4() {
		return 8
	}
	return 20
}

// hostFlags returns the V6 sysFlag bits for the two hosts.
func hostFlags(born, store netip.AddrPort) int32 {
	var f int32
	if hostLen(born) == 20 {
		f |= SysFlagBornHostV6
	}
	if hostLen(store) == 20 {
		f |= SysFlagStoreHostV6
	}
	return f
}

// storeTimestampPos is where STORETIMESTAMP sits for a record's sysFlag.
func storeTimestampPos(sysFlag int32) int {
	if sysFlag&SysFlagBornHostV6 != 0 {
		return posBornHost + 20
	}
	return posBornHost + 8
}

// recordLength is Java's calMsgLength (plus the v2 topic length short).
func recordLength(sysFlag int32, bodyLen, topicLen, propLen int, v2 bool) int {
	bornLen, storeLen := 8, 8
	if sysFlag&SysFlagBornHostV6 != 0 {
		bornLen = 20
	}
	if sysFlag&SysFlagStoreHostV6 != 0 {
		storeLen = 20
	}
	topicLenSize := 1
	if v2 {
		topicLenSize = 2
	}
	return 4 + 4 + 4 + 4 + 4 + 8 + 8 + 4 + 8 + bornLen + 8 + storeLen + 4 + 8 +
		4 + bodyLen + topicLenSize + topicLen + 2 + propLen
}

// BodyCRC is UtilAll.crc32: the IEEE CRC-32 with the top bit cleared.
func BodyCRC(body []byte) int32 {
	return int32(crc32.ChecksumIEEE(body) & 0x7FFFFFFF)
}

// appendRecord appends m encoded as a record whose queue offset, physical
// offset and store time are zero; patchRecord fills them in under the
// commitlog's lock. v2 selects the 5.x long-topic layout.
func appendRecord(dst []byte, m *Message, v2 bool) []byte {
	sysFlag := m.SysFlag&^(SysFlagBornHostV6|SysFlagStoreHostV6) | hostFlags(m.BornHost, m.StoreHost)
	size := recordLength(sysFlag, len(m.Body), len(m.Topic), len(m.Properties), v2)
	magic := MagicV1
	if v2 {
		magic = MagicV2
	}
	b := binary.BigEndian
	dst = b.AppendUint32(dst, uint32(size))
	dst = b.AppendUint32(dst, uint32(magic))
	dst = b.AppendUint32(dst, uint32(BodyCRC(m.Body)))
	dst = b.AppendUint32(dst, uint32(m.QueueID))
	dst = b.AppendUint32(dst, uint32(m.Flag))
	dst = b.AppendUint64(dst, 0) // queue offset
	dst = b.AppendUint64(dst, 0) // physical offset
	dst = b.AppendUint32(dst, uint32(sysFlag))
	dst = b.AppendUint64(dst, uint64(m.BornTimestamp))
	dst = appendHost(dst, m.BornHost)
	dst = b.AppendUint64(dst, 0) // store timestamp
	dst = appendHost(dst, m.StoreHost)
	dst = b.AppendUint32(dst, uint32(m.ReconsumeTimes))
	dst = b.AppendUint64(dst, uint64(m.PreparedTransactionOffset))
	dst = b.AppendUint32(dst, uint32(len(m.Body)))
	dst = append(dst, m.Body...)
	if v2 {
		dst = b.AppendUint16(dst, uint16(len(m.Topic)))
	} else {
		dst = append(dst, byte(len(m.Topic)))
	}
	dst = append(dst, m.Topic...)
	dst = b.AppendUint16(dst, uint16(len(m.Properties)))
	return append(dst, m.Properties...)
}

func appendHost(dst []byte, ap netip.AddrPort) []byte {
	addr := ap.Addr().Unmap()
	if addr.Is4() {
		a := addr.As4()
		dst = append(dst, a[:]...)
	} else {
		a := addr.As16()
		dst = append(dst, a[:]...)
	}
	return binary.BigEndian.AppendUint32(dst, uint32(ap.Port()))
}

// EncodeRecord is MessageDecoder.encode(msgExt, false): the record r as
// the store lays it out, with its size recomputed from r's topic, body and
// properties (which may have been changed since it was read) and its
// queue offset, physical offset and store time kept. The layout is the
// 5.x long-topic one only for a topic longer than 127 bytes.
func EncodeRecord(r *Record) []byte {
	m := Message{Topic: r.Topic, QueueID: r.QueueID, Flag: r.Flag, SysFlag: r.SysFlag, Body: r.Body,
		Properties: string(r.Properties), BornTimestamp: r.BornTimestamp, BornHost: r.BornHost,
		StoreHost: r.StoreHost, ReconsumeTimes: r.ReconsumeTimes, PreparedTransactionOffset: r.PreparedTransactionOffset}
	rec := appendRecord(nil, &m, len(r.Topic) > 127)
	patchRecord(rec, r.QueueOffset, r.PhysicalOffset, r.StoreTimestamp)
	return rec
}

// patchRecord writes the fields decided at append time into an encoded
// record.
func patchRecord(rec []byte, queueOffset, physOffset, storeTimestamp int64) {
	b := binary.BigEndian
	b.PutUint64(rec[posQueueOffset:], uint64(queueOffset))
	b.PutUint64(rec[posPhysOffset:], uint64(physOffset))
	sysFlag := int32(b.Uint32(rec[posSysFlag:]))
	b.PutUint64(rec[storeTimestampPos(sysFlag):], uint64(storeTimestamp))
}

// putBlank writes the blank record that ends a file at the start of dst,
// whose length is the room left in the file.
func putBlank(dst []byte) {
	binary.BigEndian.PutUint32(dst, uint32(len(dst)))
	magic := MagicBlank
	binary.BigEndian.PutUint32(dst[4:], uint32(magic))
}

// validateMessage reports why m cannot be stored, or "".
func validateMessage(m *Message, maxBody int, allowV2 bool) (v2 bool, problem string) {
	switch {
	case len(m.Properties) > maxPropertiesLength:
		return false, fmt.Sprintf("properties are %d bytes, at most %d allowed", len(m.Properties), maxPropertiesLength)
	case len(m.Body) > maxBody:
		return false, fmt.Sprintf("body is %d bytes, at most %d allowed", len(m.Body), maxBody)
	case m.Topic == "":
		return false, "empty topic"
	case len(m.Topic) > maxTopicLengthV1 && !allowV2:
		return false, fmt.Sprintf("topic is %d bytes, at most %d allowed", len(m.Topic), maxTopicLengthV1)
	case len(m.Topic) > 32767:
		return false, "topic too long"
	case !m.BornHost.IsValid() || !m.StoreHost.IsValid():
		return false, "born or store host missing"
	}
	return len(m.Topic) > maxTopicLengthV1, ""
}

// MessageID is the offset message id: uppercase hex of the store host's
// address, its port (int) and the record's commitlog offset (long), as
// MessageDecoder.createMessageId builds it.
func MessageID(storeHost netip.AddrPort, offset int64) string {
	var raw [28]byte
	b := appendHost(raw[:0], storeHost)
	b = binary.BigEndian.AppendUint64(b, uint64(offset))
	var text [56]byte
	n := hex.Encode(text[:], b)
	for i, c := range text[:n] {
		if c >= 'a' {
			text[i] = c - 'a' + 'A' // Java's UtilAll.bytes2string is upper case
		}
	}
	return string(text[:n]) // the only allocation of a message id
}

// DecodeMessageID splits an offset message id into store host and
// commitlog offset.
func DecodeMessageID(id string) (netip.AddrPort, int64, error) {
	raw, err := hex.DecodeString(id)
	if err != nil || (len(raw) != 16 && len(raw) != 28) {
		return netip.AddrPort{}, 0, fmt.Errorf("store: %q is not an offset message id", id)
	}
	addrLen := len(raw) - 12
	addr, _ := netip.AddrFromSlice(raw[:addrLen])
	port := binary.BigEndian.Uint32(raw[addrLen:])
	off := int64(binary.BigEndian.Uint64(raw[addrLen+4:]))
	return netip.AddrPortFrom(addr, uint16(port)), off, nil
}
