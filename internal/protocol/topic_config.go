package protocol

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// TopicFilterType is the enum TopicFilterType, written by name.
type TopicFilterType string

// Topic filter types (wire values: do not change).
const (
	SingleTag TopicFilterType = "SINGLE_TAG"
	MultiTag  TopicFilterType = "MULTI_TAG"
)

// Valid is whether TopicFilterType.valueOf takes t: exactly one of the
// names, case and blanks included.
func (t TopicFilterType) Valid() bool { return t == SingleTag || t == MultiTag }

// Java's TopicConfig defaults.
const (
	DefaultReadQueueNums  int32 = 16
	DefaultWriteQueueNums int32 = 16
	DefaultPerm                 = PermRead | PermWrite
)

// TopicConfig is one topic of a broker.
//
// JSON (wire format: do not change):
//
//	4.9.8: {"order":false,"perm":6,"readQueueNums":4,"topicFilterType":"SINGLE_TAG","topicName":"T","topicSysFlag":0,"writeQueueNums":4}
//	5.x:   {"attributes":{},"order":false,"perm":6,...}
//
// Attributes is written when non-nil, so a nil map gives the 4.9.8 form
// and an empty one the 5.x form.
type TopicConfig struct {
	TopicName       string
	ReadQueueNums   int32
	WriteQueueNums  int32
	Perm            int32
	TopicFilterType TopicFilterType
	TopicSysFlag    int32
	Order           bool
	Attributes      map[string]string
}

// NewTopicConfig returns a config with Java's field initializers: 16 read
// and write queues, perm RW, SINGLE_TAG.
func NewTopicConfig(name string) TopicConfig {
	return TopicConfig{TopicName: name, ReadQueueNums: DefaultReadQueueNums,
		WriteQueueNums: DefaultWriteQueueNums, Perm: DefaultPerm, TopicFilterType: SingleTag}
}

// AppendJSON appends the fastjson form.
func (c *TopicConfig) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	if c.Attributes != nil {
		dst = fastjson.AppendStringMap(fastjson.AppendField(dst, "attributes"), c.Attributes, fastjson.Fastjson)
	}
	dst = fastjson.AppendBoolField(dst, "order", c.Order)
	dst = fastjson.AppendIntField(dst, "perm", int64(c.Perm), fastjson.Fastjson)
	dst = fastjson.AppendIntField(dst, "readQueueNums", int64(c.ReadQueueNums), fastjson.Fastjson)
	if c.TopicFilterType != "" {
		dst = fastjson.AppendStringField(dst, "topicFilterType", string(c.TopicFilterType), fastjson.Fastjson)
	}
	dst = fastjson.AppendOptionalStringField(dst, "topicName", c.TopicName, fastjson.Fastjson)
	dst = fastjson.AppendIntField(dst, "topicSysFlag", int64(c.TopicSysFlag), fastjson.Fastjson)
	dst = fastjson.AppendIntField(dst, "writeQueueNums", int64(c.WriteQueueNums), fastjson.Fastjson)
	return append(dst, '}')
}

// DecodeTopicConfig reads one TopicConfig body (GET_TOPIC_CONFIG's
// TopicConfigAndQueueMapping: its mappingDetail is skipped).
func DecodeTopicConfig(data []byte) (TopicConfig, error) {
	var c TopicConfig
	err := fastjson.Decode(data, func(r *fastjson.Reader) (err error) {
		c, err = readTopicConfig(r)
		return err
	})
	return c, err
}

// readTopicConfig reads a TopicConfig object, starting from Java's
// defaults for absent properties.
func readTopicConfig(r *fastjson.Reader) (TopicConfig, error) {
	c := NewTopicConfig("")
	err := r.Object(func(key string) (err error) {
		switch key {
		case "topicname":
			c.TopicName, err = r.Str()
		case "readqueuenums":
			c.ReadQueueNums, err = r.IntOr(c.ReadQueueNums)
		case "writequeuenums":
			c.WriteQueueNums, err = r.IntOr(c.WriteQueueNums)
		case "perm":
			c.Perm, err = r.IntOr(c.Perm)
		case "topicfiltertype":
			c.TopicFilterType, err = readFilterType(r)
		case "topicsysflag":
			c.TopicSysFlag, err = r.IntOr(c.TopicSysFlag)
		case "order":
			c.Order, err = r.BoolOr(c.Order)
		case "attributes":
			c.Attributes, err = r.StringMap()
		default:
			err = r.Skip()
		}
		return err
	})
	return c, err
}

// readFilterType reads the enum by name or by ordinal, as fastjson does
// (an unknown name is null: "").
func readFilterType(r *fastjson.Reader) (TopicFilterType, error) {
	s, err := r.Enum([]string{string(SingleTag), string(MultiTag)})
	return TopicFilterType(s), err
}

// AppendLine appends TopicConfig.encode(), the form used inside the
// compressed REGISTER_BROKER body:
//
//	4.9.8: "name readQueueNums writeQueueNums perm topicFilterType"
//	5.x:   the same + " " + attributes JSON (the space even when nil)
//
// topicSysFlag and order are not carried (a decoder reads them as 0).
func (c *TopicConfig) AppendLine(dst []byte, v5 bool) []byte {
	dst = append(dst, c.TopicName...)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(c.ReadQueueNums), 10)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(c.WriteQueueNums), 10)
	dst = append(dst, ' ')
	dst = strconv.AppendInt(dst, int64(c.Perm), 10)
	dst = append(dst, ' ')
	dst = append(dst, c.filterType()...)
	if v5 {
		dst = append(dst, ' ')
		if c.Attributes != nil {
			dst = fastjson.AppendStringMap(dst, c.Attributes, fastjson.Fastjson)
		}
	}
	return dst
}

func (c *TopicConfig) filterType() string {
	if c.TopicFilterType == "" {
		return string(SingleTag)
	}
	return string(c.TopicFilterType)
}

// ParseTopicConfigLine decodes AppendLine's form as TopicConfig.decode
// (5.x) does: at least five space-separated fields; an attributes field
// that does not parse is ignored, as Java ignores it.
func ParseTopicConfigLine(line string) (TopicConfig, error) {
	parts := javaSplitSpace(line)
	if len(parts) < 5 {
		return TopicConfig{}, fmt.Errorf("%w: topic config %q has %d fields", ErrMalformedBody, line, len(parts))
	}
	c := NewTopicConfig(parts[0])
	nums := []*int32{&c.ReadQueueNums, &c.WriteQueueNums, &c.Perm}
	for i, p := range nums {
		n, err := strconv.ParseInt(parts[i+1], 10, 32)
		if err != nil {
			return TopicConfig{}, fmt.Errorf("%w: topic config %q: %v", ErrMalformedBody, line, err)
		}
		*p = int32(n)
	}
	if parts[4] != string(SingleTag) && parts[4] != string(MultiTag) {
		return TopicConfig{}, fmt.Errorf("%w: topic config %q: filter type %q", ErrMalformedBody, line, parts[4])
	}
	c.TopicFilterType = TopicFilterType(parts[4])
	if len(parts) >= 6 {
		var attrs map[string]string
		err := fastjson.Decode([]byte(parts[5]), func(r *fastjson.Reader) (err error) {
			attrs, err = r.StringMap()
			return err
		})
		if err == nil {
			c.Attributes = attrs
		}
	}
	return c, nil
}

// javaSplitSpace is Java's String.split(" "): empty fields between
// separators are kept, trailing empty fields dropped.
func javaSplitSpace(s string) []string {
	parts := strings.Split(s, " ")
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// ValidTopicOrGroup is !TopicValidator.isTopicOrGroupIllegal: only
// ^[%|a-zA-Z0-9_-]+$ characters.
func ValidTopicOrGroup(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '%' || c == '-' || c == '_' || c == '|'
		if !ok {
			return false
		}
	}
	return true
}
