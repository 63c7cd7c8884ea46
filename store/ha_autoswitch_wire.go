package store

// The frames of controller mode's replication (Java's AutoSwitchHAClient
// and AutoSwitchHAConnection). Wire format: do not change. Big-endian,
// one plain TCP connection per slave to the master's HA port, no framing
// beyond these headers. A classic (ha_master.go) peer on the other end
// fails: there is no version negotiation.
//
// Connection states, as sent in every frame (HAConnectionState ordinals;
// only HANDSHAKE and TRANSFER travel):
//
//	0 READY  1 HANDSHAKE  2 TRANSFER  3 SUSPEND  4 SHUTDOWN
//
// slave -> master, handshake (16 bytes, sent first on a connection):
//
//	+-----------+------------------+----------------+------------------+
//	| state = 1 | syncFromLastFile | isAsyncLearner | slave controller |
//	|   int32   | int16 (1 = true) | int16 (1=true) |    id, int64     |
//	+-----------+------------------+----------------+------------------+
//	      4              2                 2                 8
//
// slave -> master, report (12 bytes): after the handshake is processed,
// after every frame that grew the slave's commitlog, and when nothing
// was written for haSendHeartbeatInterval:
//
//	+-----------+-------------------------------+
//	| state = 2 | slave commitlog max offset    |
//	|   int32   |            int64              |
//	+-----------+-------------------------------+
//	      4                    8
//
// master -> slave, handshake answer (20-byte header, then 12 bytes per
// epoch entry, ascending):
//
//	+-----------+-----------+---------------+------------+------------------------+
//	| state = 1 | body size | master max    | last epoch |  n x (int32 epoch,     |
//	|   int32   | int32=12n | offset, int64 | int32, -1  |  int64 startOffset)    |
//	|           |           |               | when none  |                        |
//	+-----------+-----------+---------------+------------+------------------------+
//	      4           4             8             4              12 n
//
// master -> slave, transfer (36-byte header, then body size bytes of raw
// commitlog; size 0 is a heartbeat, its offset the next one to send):
//
//	+-----------+-----------+-----------+-----------+-------------+---------------+
//	| state = 2 | body size |  offset   |   epoch   | epoch start | confirmOffset |
//	|   int32   |   int32   |   int64   |   int32   |    int64    |     int64     |
//	+-----------+-----------+-----------+-----------+-------------+---------------+
//	      4           4          8           4            8              8
//
// A body never crosses a commitlog file, is at most haTransferBatchSize
// and never crosses an epoch boundary; the frame that completes epoch N is
// sent with epoch N+1 and N+1's start in its header (Java's order).

import (
	"encoding/binary"
	"fmt"
)

// haState is HAConnectionState.
type haState int32

// Connection states (ordinals on the wire).
const (
	haReady haState = iota
	haHandshake
	haTransfer
	haSuspend
	haShutdown
)

var haStateNames = [...]string{"READY", "HANDSHAKE", "TRANSFER", "SUSPEND", "SHUTDOWN"}

func (s haState) String() string {
	if s >= 0 && int(s) < len(haStateNames) {
		return haStateNames[s]
	}
	return fmt.Sprintf("haState(%d)", int32(s))
}

// Frame sizes.
const (
	asSlaveHandshakeLen  = 16   // AutoSwitchHAClient.HANDSHAKE_HEADER_SIZE
	asSlaveReportLen     = 12   // AutoSwitchHAClient.TRANSFER_HEADER_SIZE (MIN_HEADER_SIZE)
	asMasterHandshakeLen = 20   // AutoSwitchHAConnection.HANDSHAKE_HEADER_SIZE
	asMasterTransferLen  = 36   // AutoSwitchHAConnection.TRANSFER_HEADER_SIZE
	asEpochEntryLen      = 12   // EPOCH_ENTRY_SIZE
	asMaxEpochEntries    = 1000 // Java's handshake buffer holds this many
)

// slaveHandshake is the slave's first frame.
type slaveHandshake struct {
	SyncFromLastFile bool
	AsyncLearner     bool
	SlaveID          int64
}

func boolShort(b bool) uint16 {
	if b {
		return 1
	}
	return 0
}

// appendSlaveHandshake encodes h.
func appendSlaveHandshake(b []byte, h slaveHandshake) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(haHandshake))
	b = binary.BigEndian.AppendUint16(b, boolShort(h.SyncFromLastFile))
	b = binary.BigEndian.AppendUint16(b, boolShort(h.AsyncLearner))
	return binary.BigEndian.AppendUint64(b, uint64(h.SlaveID))
}

// decodeSlaveHandshake reads a 16-byte handshake (its state is checked
// by the caller); a flag other than 1 is false, as in Java.
func decodeSlaveHandshake(b []byte) slaveHandshake {
	be := binary.BigEndian
	return slaveHandshake{SyncFromLastFile: be.Uint16(b[4:]) == 1, AsyncLearner: be.Uint16(b[6:]) == 1,
		SlaveID: int64(be.Uint64(b[8:]))}
}

// appendSlaveReport encodes a report of offset.
func appendSlaveReport(b []byte, offset int64) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(haTransfer))
	return binary.BigEndian.AppendUint64(b, uint64(offset))
}

// masterHandshake is the master's answer to a handshake.
type masterHandshake struct {
	MaxOffset int64
	LastEpoch int32
	Entries   []EpochEntry // epoch and start only
}

// appendMasterHandshake encodes h, header and body.
func appendMasterHandshake(b []byte, h masterHandshake) []byte {
	be := binary.BigEndian
	b = be.AppendUint32(b, uint32(haHandshake))
	b = be.AppendUint32(b, uint32(len(h.Entries)*asEpochEntryLen))
	b = be.AppendUint64(b, uint64(h.MaxOffset))
	b = be.AppendUint32(b, uint32(h.LastEpoch))
	for _, e := range h.Entries {
		b = be.AppendUint32(b, uint32(e.Epoch))
		b = be.AppendUint64(b, uint64(e.StartOffset))
	}
	return b
}

// masterHeader is the common start of the master's frames: state, body
// size, offset (the max offset in a handshake) and epoch (the last
// epoch in a handshake).
type masterHeader struct {
	State    haState
	BodySize int32
	Offset   int64
	Epoch    int32
	// EpochStart and ConfirmOffset are in transfer frames only.
	EpochStart    int64
	ConfirmOffset int64
}

// decodeMasterHeader reads the 20 bytes every master frame starts with.
func decodeMasterHeader(b []byte) masterHeader {
	be := binary.BigEndian
	return masterHeader{State: haState(int32(be.Uint32(b))), BodySize: int32(be.Uint32(b[4:])),
		Offset: int64(be.Uint64(b[8:])), Epoch: int32(be.Uint32(b[16:]))}
}

// decodeTransferTail reads the rest of a 36-byte transfer header.
func (h *masterHeader) decodeTransferTail(b []byte) {
	h.EpochStart = int64(binary.BigEndian.Uint64(b[20:]))
	h.ConfirmOffset = int64(binary.BigEndian.Uint64(b[28:]))
}

// decodeEpochEntries reads a handshake body: bodySize/12 entries.
func decodeEpochEntries(body []byte) []EpochEntry {
	n := len(body) / asEpochEntryLen
	out := make([]EpochEntry, n)
	for i := range out {
		at := body[i*asEpochEntryLen:]
		out[i] = EpochEntry{Epoch: int32(binary.BigEndian.Uint32(at)), StartOffset: int64(binary.BigEndian.Uint64(at[4:]))}
	}
	return out
}

// putTransferHeader writes a transfer header into b (36 bytes).
func putTransferHeader(b []byte, h masterHeader) {
	be := binary.BigEndian
	be.PutUint32(b, uint32(haTransfer))
	be.PutUint32(b[4:], uint32(h.BodySize))
	be.PutUint64(b[8:], uint64(h.Offset))
	be.PutUint32(b[16:], uint32(h.Epoch))
	be.PutUint64(b[20:], uint64(h.EpochStart))
	be.PutUint64(b[28:], uint64(h.ConfirmOffset))
}
