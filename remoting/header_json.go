package remoting

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	jsoniter "github.com/json-iterator/go"
)

// JSON header (wire format: do not change). Java writes the command with
// fastjson: names sorted, null fields left out, for example
//
//	{"code":105,"extFields":{"topic":"TopicTest"},"flag":0,"language":"JAVA","opaque":7,"serializeTypeCurrentRPC":"JSON","version":409}
//
// and reads it back tolerantly: any key order, unknown keys, keys matched
// without regard to case, numbers and booleans in extFields as strings.

// jsonAPI is the json-iterator configuration the codec reads headers with.
var jsonAPI = jsoniter.ConfigCompatibleWithStandardLibrary

// appendJSONHeader appends c's header as fastjson would write it.
func appendJSONHeader(dst []byte, c *Command) []byte {
	dst = append(dst, `{"code":`...)
	dst = strconv.AppendInt(dst, int64(c.Code), 10)
	if c.ExtFields != nil {
		dst = append(dst, `,"extFields":`...)
		dst = appendJSONFields(dst, c.ExtFields)
	}
	dst = append(dst, `,"flag":`...)
	dst = strconv.AppendInt(dst, int64(c.Flag), 10)
	if c.LanguageKnown {
		dst = append(dst, `,"language":"`...)
		dst = append(dst, c.Language.String()...)
		dst = append(dst, '"')
	}
	dst = append(dst, `,"opaque":`...)
	dst = strconv.AppendInt(dst, int64(c.Opaque), 10)
	if c.HasRemark || c.Remark != "" {
		dst = append(dst, `,"remark":`...)
		dst = appendJSONString(dst, c.Remark)
	}
	dst = append(dst, `,"serializeTypeCurrentRPC":"JSON","version":`...)
	dst = strconv.AppendInt(dst, int64(c.Version), 10)
	return append(dst, '}')
}

// appendJSONFields appends f as a JSON object with sorted keys, so that
// equal commands encode to equal bytes.
func appendJSONFields(dst []byte, f ExtFields) []byte {
	var buf [24]ExtField // the headers' fields fit: no allocation to sort them
	dst = append(dst, '{')
	for i, e := range f.sorted(buf[:]) {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, e.Key)
		dst = append(dst, ':')
		dst = appendJSONString(dst, e.Value)
	}
	return append(dst, '}')
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s quoted and escaped as fastjson escapes it:
// quote, backslash and control characters; other text as UTF-8. Invalid
// UTF-8 becomes U+FFFD, as Java's decoder would have made it.
func appendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	plain := 0
	for plain < len(s) && !jsonNeedsEscape(s[plain]) {
		plain++
	}
	dst = append(dst, s[:plain]...)
	for i := plain; i < len(s); {
		b := s[i]
		if b >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				dst = append(dst, "\ufffd"...)
			} else {
				dst = append(dst, s[i:i+size]...)
			}
			i += size
			continue
		}
		switch {
		case b == '"' || b == '\\':
			dst = append(dst, '\\', b)
		case b == '\n':
			dst = append(dst, '\\', 'n')
		case b == '\r':
			dst = append(dst, '\\', 'r')
		case b == '\t':
			dst = append(dst, '\\', 't')
		case b == '\b':
			dst = append(dst, '\\', 'b')
		case b == '\f':
			dst = append(dst, '\\', 'f')
		case b < 0x20 || b == 0x7f:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[b>>4], hexDigits[b&0xF])
		default:
			dst = append(dst, b)
		}
		i++
	}
	return append(dst, '"')
}

// jsonNeedsEscape reports whether b cannot be copied as it is into a
// string: quote, backslash, control characters and DEL, and the first
// byte of multi-byte UTF-8 (checked for validity by the slow loop).
func jsonNeedsEscape(b byte) bool {
	return b == '"' || b == '\\' || b < 0x20 || b >= 0x7f
}

// decodeJSONHeader reads a JSON header into c: the fast path for the shape
// Java writes (header_json_fast.go), else the general reader.
func decodeJSONHeader(data []byte, c *Command) error {
	if decodeJSONHeaderFast(data, c) {
		return nil
	}
	return decodeJSONHeaderGeneral(data, c)
}

// decodeJSONHeaderGeneral reads any JSON header fastjson would read.
func decodeJSONHeaderGeneral(data []byte, c *Command) error {
	iter := jsonAPI.BorrowIterator(data)
	defer jsonAPI.ReturnIterator(iter)
	if iter.WhatIsNext() != jsoniter.ObjectValue {
		return fmt.Errorf("%w: JSON header is not an object", ErrMalformedHeader)
	}
	iter.ReadObjectCB(func(it *jsoniter.Iterator, field string) bool {
		readJSONHeaderField(it, headerFieldName(field), c)
		return it.Error == nil
	})
	if iter.Error != nil {
		return fmt.Errorf("%w: %v", ErrMalformedHeader, iter.Error)
	}
	return nil
}

// headerFieldName lower-cases a header key, without allocating for the
// names Java writes.
func headerFieldName(field string) string {
	switch field {
	case "code", "flag", "opaque", "version", "language", "remark":
		return field
	case "extFields":
		return "extfields"
	}
	return strings.ToLower(field)
}

// readJSONHeaderField reads the value of one header key (lower-cased).
func readJSONHeaderField(it *jsoniter.Iterator, field string, c *Command) {
	switch field {
	case "code":
		c.Code = readJSONInt32(it)
	case "flag":
		c.Flag = readJSONInt32(it)
	case "opaque":
		c.Opaque = readJSONInt32(it)
	case "version":
		c.Version = readJSONInt32(it)
	case "language":
		if s, ok := readJSONScalar(it); ok {
			c.Language, c.LanguageKnown = parseJSONLanguage(s)
		}
	case "remark":
		if s, ok := readJSONScalar(it); ok {
			c.Remark, c.HasRemark = s, true
		}
	case "extfields":
		c.ExtFields = readJSONStringMap(it)
	default:
		it.Skip()
	}
}

// parseJSONLanguage reads the language as fastjson reads an enum: by name,
// or by its ordinal when a number is sent.
func parseJSONLanguage(s string) (LanguageCode, bool) {
	if s == "" || s[0] < '0' || s[0] > '9' {
		return ParseLanguage(s) // a name: no number to try (and no error to allocate)
	}
	if n, err := strconv.ParseUint(s, 10, 8); err == nil {
		return LanguageCode(n), LanguageCode(n).Known()
	}
	return ParseLanguage(s)
}

// readJSONInt32 reads a number, or a string holding one, as fastjson
// coerces it; anything else reads as 0.
func readJSONInt32(it *jsoniter.Iterator) int32 {
	s, ok := readJSONScalar(it)
	if !ok {
		return 0
	}
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return 0
	}
	return int32(n)
}

// readJSONScalar reads a string, number or boolean as its text; null reads
// as absent and objects or arrays as their JSON text.
func readJSONScalar(it *jsoniter.Iterator) (string, bool) {
	switch it.WhatIsNext() {
	case jsoniter.StringValue:
		return it.ReadString(), true
	case jsoniter.NumberValue:
		return string(it.ReadNumber()), true
	case jsoniter.BoolValue:
		return strconv.FormatBool(it.ReadBool()), true
	case jsoniter.NilValue:
		it.ReadNil()
		return "", false
	default:
		return string(it.SkipAndReturnBytes()), true
	}
}

// readJSONStringMap reads extFields; a null map reads as absent.
func readJSONStringMap(it *jsoniter.Iterator) ExtFields {
	if it.WhatIsNext() != jsoniter.ObjectValue {
		it.Skip()
		return nil
	}
	m := make(ExtFields, 0, 16)
	it.ReadMapCB(func(it *jsoniter.Iterator, key string) bool {
		if v, ok := readJSONScalar(it); ok {
			m = append(m, ExtField{key, v})
		}
		return it.Error == nil
	})
	return m
}
