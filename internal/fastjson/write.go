package fastjson

import (
	"sort"
	"strconv"
	"unicode/utf8"
)

// Style is how fastjson writes a body.
type Style uint8

const (
	// Fastjson is JSON.toJSONString with the default features, what
	// RemotingSerializable.encode produces: integer map keys bare ({0:"a"}),
	// non-ASCII written raw, control characters, '"' and '\\' escaped.
	Fastjson Style = iota
	// Standard is the route encoding the name server uses for clients at
	// or above V4_9_4 (features BrowserCompatible, QuoteFieldNames,
	// SkipTransientField, MapSortField): integer map keys quoted
	// ({"0":"a"}), every char >= 0x7F as \uXXXX, '/' as \/, and longs
	// beyond +-(2^53-1) written as strings.
	Standard
)

// maxSafeLong is the largest long BrowserCompatible writes as a number.
const maxSafeLong = 9007199254740991

const hexDigits = "0123456789ABCDEF"

// comma appends ',' unless dst ends an opening bracket: the writers below
// call it before every property, map entry and array element.
func Comma(dst []byte) []byte {
	if n := len(dst); n > 0 && dst[n-1] != '{' && dst[n-1] != '[' {
		return append(dst, ',')
	}
	return dst
}

// appendField appends a bean property name (ASCII, no escaping needed)
// and the colon, preceded by a comma when needed.
func AppendField(dst []byte, name string) []byte {
	dst = Comma(dst)
	dst = append(dst, '"')
	dst = append(dst, name...)
	return append(dst, '"', ':')
}

// appendStringField appends "name":"value".
func AppendStringField(dst []byte, name, value string, st Style) []byte {
	return AppendString(AppendField(dst, name), value, st)
}

// appendOptionalStringField appends "name":"value", or nothing when value
// is empty: fastjson leaves out a null string, which Java has where Go has
// "".
func AppendOptionalStringField(dst []byte, name, value string, st Style) []byte {
	if value == "" {
		return dst
	}
	return AppendStringField(dst, name, value, st)
}

// appendIntField appends "name":n.
func AppendIntField(dst []byte, name string, n int64, st Style) []byte {
	return AppendLong(AppendField(dst, name), n, st)
}

// appendBoolField appends "name":true|false.
func AppendBoolField(dst []byte, name string, b bool) []byte {
	return strconv.AppendBool(AppendField(dst, name), b)
}

// appendLong writes a long as fastjson does in style st.
func AppendLong(dst []byte, n int64, st Style) []byte {
	if st == Standard && (n > maxSafeLong || n < -maxSafeLong) {
		dst = append(dst, '"')
		dst = strconv.AppendInt(dst, n, 10)
		return append(dst, '"')
	}
	return strconv.AppendInt(dst, n, 10)
}

// appendIntKey writes an integer map key and the colon: bare in the
// default style, quoted in Standard.
func AppendIntKey(dst []byte, k int64, st Style) []byte {
	dst = Comma(dst)
	if st == Standard {
		dst = append(dst, '"')
		dst = strconv.AppendInt(dst, k, 10)
		return append(dst, '"', ':')
	}
	dst = strconv.AppendInt(dst, k, 10)
	return append(dst, ':')
}

// appendStringKey writes a string map key and the colon.
func AppendStringKey(dst []byte, k string, st Style) []byte {
	return append(AppendString(Comma(dst), k, st), ':')
}

// appendString writes s as a JSON string the way fastjson's SerializeWriter
// escapes it in style st. Java strings are UTF-16: a rune outside the BMP
// is escaped as its two surrogates in Standard style, and invalid UTF-8
// becomes U+FFFD as it would when Java decoded the bytes.
func AppendString(dst []byte, s string, st Style) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			dst = appendASCII(dst, c, st)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		dst = appendNonASCII(dst, r, st)
	}
	return append(dst, '"')
}

func appendASCII(dst []byte, c byte, st Style) []byte {
	switch c {
	case '"', '\\':
		return append(dst, '\\', c)
	case '\b':
		return append(dst, '\\', 'b')
	case '\t':
		return append(dst, '\\', 't')
	case '\n':
		return append(dst, '\\', 'n')
	case '\f':
		return append(dst, '\\', 'f')
	case '\r':
		return append(dst, '\\', 'r')
	case '/':
		if st == Standard {
			return append(dst, '\\', '/')
		}
		return append(dst, c)
	}
	if c < 0x20 || c == 0x7F {
		return appendUnicodeEscape(dst, rune(c))
	}
	return append(dst, c)
}

// appendNonASCII writes a rune >= 0x80: escaped in Standard style, raw in
// the default style except C1 controls and the JavaScript line separators.
func appendNonASCII(dst []byte, r rune, st Style) []byte {
	if st == Standard {
		if r >= 0x10000 {
			r -= 0x10000
			dst = appendUnicodeEscape(dst, 0xD800+(r>>10))
			return appendUnicodeEscape(dst, 0xDC00+(r&0x3FF))
		}
		return appendUnicodeEscape(dst, r)
	}
	if r < 0xA0 || r == 0x2028 || r == 0x2029 {
		return appendUnicodeEscape(dst, r)
	}
	return utf8.AppendRune(dst, r)
}

func appendUnicodeEscape(dst []byte, r rune) []byte {
	return append(dst, '\\', 'u', hexDigits[r>>12&0xF], hexDigits[r>>8&0xF], hexDigits[r>>4&0xF], hexDigits[r&0xF])
}

// appendStringArray writes a JSON array of strings.
func AppendStringArray(dst []byte, list []string, st Style) []byte {
	dst = append(dst, '[')
	for _, s := range list {
		dst = AppendString(Comma(dst), s, st)
	}
	return append(dst, ']')
}

// appendStringMap writes a map of strings with its keys sorted.
func AppendStringMap(dst []byte, m map[string]string, st Style) []byte {
	dst = append(dst, '{')
	for _, k := range SortedKeys(m) {
		dst = AppendString(AppendStringKey(dst, k, st), m[k], st)
	}
	return append(dst, '}')
}

// SortedKeys returns the keys of m in ascending order.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
