package protocol

import (
	"time"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// DataVersion versions a broker's topic configs (and other tables). Java
// compares all three fields for equality; nextVersion bumps the counter
// and stamps the time.
//
// JSON (wire format: do not change):
//
//	4.9.8: {"counter":3,"timestamp":1700000000000}
//	5.x:   {"counter":3,"stateVersion":0,"timestamp":1700000000000}
//
// AppendJSON writes the 5.x form; 4.9.8 readers ignore stateVersion, and
// a 4.9.8 writer's missing stateVersion reads as 0. AppendJSONLine writes
// the form of a given line (the config files need the exact 4.x form).
type DataVersion struct {
	StateVersion int64
	Timestamp    int64
	Counter      int64
}

// NewDataVersion returns the version Java's constructor makes: counter 0,
// stamped now.
func NewDataVersion(now time.Time) DataVersion {
	return DataVersion{Timestamp: now.UnixMilli()}
}

// Next bumps the version as DataVersion.nextVersion(stateVersion) does.
func (v *DataVersion) Next(now time.Time, stateVersion int64) {
	v.Timestamp = now.UnixMilli()
	v.StateVersion = stateVersion
	v.Counter++
}

// AppendJSON appends the fastjson form.
func (v DataVersion) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	dst = fastjson.AppendIntField(dst, "counter", v.Counter, fastjson.Fastjson)
	dst = fastjson.AppendIntField(dst, "stateVersion", v.StateVersion, fastjson.Fastjson)
	dst = fastjson.AppendIntField(dst, "timestamp", v.Timestamp, fastjson.Fastjson)
	return append(dst, '}')
}

// AppendJSONLine appends the fastjson form of line: without stateVersion
// before Line5.
func (v DataVersion) AppendJSONLine(dst []byte, line Line) []byte {
	if line.v5() {
		return v.AppendJSON(dst)
	}
	dst = append(dst, '{')
	dst = fastjson.AppendIntField(dst, "counter", v.Counter, fastjson.Fastjson)
	dst = fastjson.AppendIntField(dst, "timestamp", v.Timestamp, fastjson.Fastjson)
	return append(dst, '}')
}

// DecodeDataVersion parses a DataVersion body. A missing timestamp reads
// as 0 here, where Java would keep its constructor's current time.
func DecodeDataVersion(data []byte) (DataVersion, error) {
	var v DataVersion
	err := fastjson.Decode(data, v.read)
	return v, err
}

func (v *DataVersion) read(r *fastjson.Reader) error {
	return r.Object(func(key string) (err error) {
		switch key {
		case "counter":
			v.Counter, err = r.LongOr(v.Counter)
		case "stateversion":
			v.StateVersion, err = r.LongOr(v.StateVersion)
		case "timestamp":
			v.Timestamp, err = r.LongOr(v.Timestamp)
		default:
			err = r.Skip()
		}
		return err
	})
}
