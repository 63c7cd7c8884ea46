package protocol

import "github.com/rmqgo/rmqgo/internal/fastjson"

// HARuntimeInfo is GET_BROKER_HA_STATUS's body (5.x): on a master, each
// slave connection; on a slave, its client's side.
//
// JSON (wire format: do not change), fastjson's order (properties sorted)
// with null strings left out:
//
//	{"haClientRuntimeInfo":{"lastReadTimestamp":1,"lastWriteTimestamp":1,
//	  "masterAddr":"127.0.0.1:10912","masterFlushOffset":0,"maxOffset":0,
//	  "transferredByteInSecond":0},
//	 "haConnectionInfo":[{"addr":"127.0.0.1:50000","diff":0,"inSync":true,
//	  "slaveAckOffset":100,"transferFromWhere":100,"transferredByteInSecond":0}],
//	 "inSyncSlaveNums":1,"master":true,"masterCommitLogMaxOffset":100}
type HARuntimeInfo struct {
	Master                   bool
	MasterCommitLogMaxOffset int64
	InSyncSlaveNums          int32
	Connections              []HAConnectionRuntimeInfo
	Client                   HAClientRuntimeInfo
}

// HAConnectionRuntimeInfo is one slave connection of a master.
type HAConnectionRuntimeInfo struct {
	Addr                    string
	SlaveAckOffset          int64
	Diff                    int64
	InSync                  bool
	TransferredByteInSecond int64
	TransferFromWhere       int64
}

// HAClientRuntimeInfo is a slave's side.
type HAClientRuntimeInfo struct {
	MasterAddr              string
	TransferredByteInSecond int64
	MaxOffset               int64
	LastReadTimestamp       int64
	LastWriteTimestamp      int64
	MasterFlushOffset       int64
}

// AppendJSON appends the fastjson form.
func (h *HARuntimeInfo) AppendJSON(dst []byte) []byte {
	st := fastjson.Fastjson
	c := &h.Client
	dst = append(fastjson.AppendField(append(dst, '{'), "haClientRuntimeInfo"), '{')
	dst = fastjson.AppendIntField(dst, "lastReadTimestamp", c.LastReadTimestamp, st)
	dst = fastjson.AppendIntField(dst, "lastWriteTimestamp", c.LastWriteTimestamp, st)
	dst = fastjson.AppendOptionalStringField(dst, "masterAddr", c.MasterAddr, st)
	dst = fastjson.AppendIntField(dst, "masterFlushOffset", c.MasterFlushOffset, st)
	dst = fastjson.AppendIntField(dst, "maxOffset", c.MaxOffset, st)
	dst = fastjson.AppendIntField(dst, "transferredByteInSecond", c.TransferredByteInSecond, st)
	dst = append(fastjson.AppendField(append(dst, '}'), "haConnectionInfo"), '[')
	for i, conn := range h.Connections {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, '{')
		dst = fastjson.AppendStringField(dst, "addr", conn.Addr, st)
		dst = fastjson.AppendIntField(dst, "diff", conn.Diff, st)
		dst = fastjson.AppendBoolField(dst, "inSync", conn.InSync)
		dst = fastjson.AppendIntField(dst, "slaveAckOffset", conn.SlaveAckOffset, st)
		dst = fastjson.AppendIntField(dst, "transferFromWhere", conn.TransferFromWhere, st)
		dst = fastjson.AppendIntField(dst, "transferredByteInSecond", conn.TransferredByteInSecond, st)
		dst = append(dst, '}')
	}
	dst = fastjson.AppendIntField(append(dst, ']'), "inSyncSlaveNums", int64(h.InSyncSlaveNums), st)
	dst = fastjson.AppendBoolField(dst, "master", h.Master)
	dst = fastjson.AppendIntField(dst, "masterCommitLogMaxOffset", h.MasterCommitLogMaxOffset, st)
	return append(dst, '}')
}
