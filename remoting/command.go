package remoting

import (
	"errors"
	"fmt"
	"strconv"
)

// Flag bits of a command (wire format: do not change).
const (
	// FlagResponse marks a response; a request has the bit clear.
	FlagResponse int32 = 1 << 0
	// FlagOneway marks a request the receiver must not answer.
	FlagOneway int32 = 1 << 1
)

// DefaultVersion is the MQVersion ordinal this project reports in the
// version field of the commands it creates: V4_9_8.
const DefaultVersion int32 = 409

// ErrMissingField is returned by the typed extFields accessors when a
// required key is absent.
var ErrMissingField = errors.New("remoting: missing header field")

// ErrBadField is returned by the typed extFields accessors when a value does
// not parse the way Java's Integer.parseInt / Long.parseLong would parse it.
var ErrBadField = errors.New("remoting: bad header field")

// Command is one remoting request or response. The custom header lives in
// ExtFields as strings, the way Java flattens header classes.
type Command struct {
	Code     int32
	Language LanguageCode
	// LanguageKnown is false when the peer sent a language this table does
	// not know (Java decodes it as null).
	LanguageKnown bool
	Version       int32
	Opaque        int32
	Flag          int32
	// Remark is the error text; HasRemark tells an empty remark from none,
	// which only the JSON header can carry.
	Remark        string
	HasRemark     bool
	ExtFields     ExtFields
	Body          []byte
	SerializeType SerializeType
}

// NewRequest returns a request with the given code and header fields,
// language JAVA, this project's version and a JSON header; the opaque is set
// by whoever sends it.
func NewRequest(code RequestCode, ext map[string]string) *Command {
	return &Command{
		Code:          int32(code),
		Language:      LanguageJava,
		LanguageKnown: true,
		Version:       DefaultVersion,
		ExtFields:     FieldsOf(ext),
	}
}

// NewResponse returns the response to req with the given code and remark:
// same opaque, same header encoding, response flag set.
func NewResponse(req *Command, code ResponseCode, remark string) *Command {
	return &Command{
		Code:          int32(code),
		Language:      LanguageJava,
		LanguageKnown: true,
		Version:       DefaultVersion,
		Opaque:        req.Opaque,
		Flag:          FlagResponse,
		Remark:        remark,
		HasRemark:     remark != "",
		SerializeType: req.SerializeType,
	}
}

// Clone is a copy with its own header fields (the body is shared): a
// request to send on, whose opaque the sender sets.
func (c *Command) Clone() *Command {
	out := *c
	out.ExtFields = c.ExtFields.Clone()
	return &out
}

// IsResponse tells whether the response bit is set.
func (c *Command) IsResponse() bool { return c.Flag&FlagResponse != 0 }

// IsOneway tells whether the oneway bit is set.
func (c *Command) IsOneway() bool { return c.Flag&FlagOneway != 0 }

// SetRemark sets the remark text.
func (c *Command) SetRemark(remark string) {
	c.Remark = remark
	c.HasRemark = true
}

// SetExt sets one header field.
func (c *Command) SetExt(key, value string) {
	if c.ExtFields == nil {
		c.ExtFields = make(ExtFields, 0, 8)
	}
	c.ExtFields.Set(key, value)
}

// Ext returns a header field and whether it is present.
func (c *Command) Ext(key string) (string, bool) { return c.ExtFields.Get(key) }

// ExtString returns a header field, or "" when it is absent.
func (c *Command) ExtString(key string) string {
	v, _ := c.ExtFields.Get(key)
	return v
}

// ExtInt32 parses a required int header field as Java's Integer.parseInt.
func (c *Command) ExtInt32(key string) (int32, error) {
	v, ok := c.ExtFields.Get(key)
	if !ok {
		return 0, fmt.Errorf("%w: %s", ErrMissingField, key)
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("%w: %s=%q", ErrBadField, key, v)
	}
	return int32(n), nil
}

// ExtInt64 parses a required long header field as Java's Long.parseLong.
func (c *Command) ExtInt64(key string) (int64, error) {
	v, ok := c.ExtFields.Get(key)
	if !ok {
		return 0, fmt.Errorf("%w: %s", ErrMissingField, key)
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%w: %s=%q", ErrBadField, key, v)
	}
	return n, nil
}

// ExtInt32Or returns an optional int header field, def when absent or bad.
func (c *Command) ExtInt32Or(key string, def int32) int32 {
	v, ok := c.ExtFields.Get(key)
	if !ok {
		return def
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return def
	}
	return int32(n)
}

// ExtInt64Or returns an optional long header field, def when absent or bad.
func (c *Command) ExtInt64Or(key string, def int64) int64 {
	v, ok := c.ExtFields.Get(key)
	if !ok {
		return def
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return def
	}
	return n
}

// ExtBool reads a header field as Java's Boolean.parseBoolean: true only for
// "true" in any case; absent is false.
func (c *Command) ExtBool(key string) bool {
	v := c.ExtString(key)
	return len(v) == 4 && (v[0]|0x20) == 't' && (v[1]|0x20) == 'r' && (v[2]|0x20) == 'u' && (v[3]|0x20) == 'e'
}

// String describes the command for logs, without its body.
func (c *Command) String() string {
	kind := "request"
	if c.IsResponse() {
		kind = "response"
	}
	return fmt.Sprintf("%s{code=%d opaque=%d flag=%d lang=%s version=%d remark=%q ext=%v body=%dB %s}",
		kind, c.Code, c.Opaque, c.Flag, c.Language, c.Version, c.Remark, c.ExtFields, len(c.Body), c.SerializeType)
}
