package fastjson

// Scalars as fastjson converts them into a bean's properties (the
// oracle's answers, the same on both lines unless noted):
//
//	String     a string; a number or boolean as its text; an object or
//	           array as its compact JSON text; null as null ("")
//	int        a number (a fraction truncated: 1.5 -> 1, 1e2 -> 100) or a
//	           decimal string ("+5", "-5"; not " 7", "1.5", "1e2"), true 1,
//	           false 0; out of range fails; null and "" keep the default
//	long       the same, but true and false fail; a literal of 20 digits
//	           or more wraps (BigInteger.longValue), a shorter one out of
//	           range fails
//	Integer    (an element of a Set<Integer>) as int, with null and ""
//	           read as a null element
//	boolean    true/false in any case, quoted or not, "1"; a number is true
//	           when its integer part is 1; null is false; "yes", "2" fail
//	enum       a constant's name (any case), or its ordinal as an integer
//	           literal; an unknown or empty name is null; 1.0 and an
//	           ordinal out of range fail
//
// A string's escapes are \" \\ \/ \' \b \f \n \r \t \v \xHH \uXXXX; any
// other fails. Bytes that are not UTF-8 read as U+FFFD, as 4.9.x reads
// them (5.x refuses such a body).

import (
	"bytes"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// isDecimal tells whether s is an integer fastjson's parseInt/parseLong
// take from a string: an optional sign and one or more ASCII digits
// (^[+-]?[0-9]+$, by hand: it runs for every number of every body, and
// the regexp was a third of the time of a large REGISTER_BROKER).
func isDecimal[T string | []byte](s T) bool {
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if len(s) == 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// quoted reads a string in double or single quotes.
func (r *Reader) quoted() (string, error) {
	b, err := r.quotedBytes()
	if err != nil {
		return "", err
	}
	return validUTF8(string(b)), nil
}

// quotedBytes reads a string in double or single quotes as its bytes,
// invalid UTF-8 left as it is: a slice of the body when the string holds
// no escape (nothing is copied), else the decoded bytes.
func (r *Reader) quotedBytes() ([]byte, error) {
	q := r.data[r.pos]
	r.pos++
	start := r.pos
	end := bytes.IndexByte(r.data[start:], q)
	if end < 0 || bytes.IndexByte(r.data[start:start+end], '\\') >= 0 {
		return r.quotedEscaped(q)
	}
	r.pos = start + end + 1
	return r.data[start : start+end], nil
}

// validUTF8 replaces what is not UTF-8 with U+FFFD as Java's decoder
// does: one for each maximal start of a sequence (E5 AE before a byte
// that does not continue it is one), one for a surrogate's three bytes.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError || n > 1 {
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		b.WriteString("\uFFFD")
		i += malformedLength(s[i:])
	}
	return b.String()
}

// malformedLength is how many bytes at the start of s Java's UTF-8 decoder
// replaces with one U+FFFD.
func malformedLength(s string) int {
	need := 0
	switch b0 := s[0]; {
	case b0 >= 0xC2 && b0 <= 0xDF:
		need = 2
	case b0 >= 0xE0 && b0 <= 0xEF:
		need = 3
	case b0 >= 0xF0 && b0 <= 0xF4:
		need = 4
	default:
		return 1
	}
	if s[0] == 0xED && len(s) >= 3 && isContinuation(s[1]) && isContinuation(s[2]) {
		return 3 // a surrogate
	}
	k := 1
	for k < need && k < len(s) && continues(s[0], k, s[k]) {
		k++
	}
	return k
}

func isContinuation(c byte) bool { return c >= 0x80 && c <= 0xBF }

// continues tells whether c may stand at position k of a sequence led by b0.
func continues(b0 byte, k int, c byte) bool {
	if k > 1 {
		return isContinuation(c)
	}
	switch b0 {
	case 0xE0:
		return c >= 0xA0 && c <= 0xBF
	case 0xED:
		return c >= 0x80 && c <= 0x9F
	case 0xF0:
		return c >= 0x90 && c <= 0xBF
	case 0xF4:
		return c >= 0x80 && c <= 0x8F
	}
	return isContinuation(c)
}

// quotedEscaped is the slow path of quotedBytes for strings with escapes.
func (r *Reader) quotedEscaped(q byte) ([]byte, error) {
	var b []byte
	for r.pos < len(r.data) {
		c := r.data[r.pos]
		switch {
		case c == q:
			r.pos++
			return b, nil
		case c == '\\':
			var err error
			if b, err = r.escape(b); err != nil {
				return nil, err
			}
		default:
			b = append(b, c)
			r.pos++
		}
	}
	return nil, r.Fail("unterminated string")
}

// escape decodes one backslash escape at r.pos.
func (r *Reader) escape(b []byte) ([]byte, error) {
	if r.pos+1 >= len(r.data) {
		return nil, r.Fail("truncated escape")
	}
	c := r.data[r.pos+1]
	r.pos += 2
	switch c {
	case '"', '\\', '/', '\'':
		return append(b, c), nil
	case 'b':
		return append(b, '\b'), nil
	case 'f':
		return append(b, '\f'), nil
	case 'n':
		return append(b, '\n'), nil
	case 'r':
		return append(b, '\r'), nil
	case 't':
		return append(b, '\t'), nil
	case 'v':
		return append(b, '\v'), nil
	case 'x':
		n, err := r.hex(2)
		return utf8.AppendRune(b, n), err
	case 'u':
		return r.unicodeEscape(b)
	}
	r.pos -= 2
	return nil, r.Fail("bad escape")
}

// unicodeEscape decodes \uXXXX, joining a surrogate pair when one follows.
func (r *Reader) unicodeEscape(b []byte) ([]byte, error) {
	u, err := r.hex(4)
	if err != nil {
		return nil, err
	}
	if utf16.IsSurrogate(u) && r.pos+6 <= len(r.data) && r.data[r.pos] == '\\' && r.data[r.pos+1] == 'u' {
		save := r.pos
		r.pos += 2
		if lo, err := r.hex(4); err == nil {
			if p := utf16.DecodeRune(u, lo); p != utf8.RuneError {
				return utf8.AppendRune(b, p), nil
			}
		}
		r.pos = save
	}
	return utf8.AppendRune(b, u), nil
}

func (r *Reader) hex(n int) (rune, error) {
	if r.pos+n > len(r.data) {
		return 0, r.Fail("truncated escape")
	}
	v, err := strconv.ParseUint(string(r.data[r.pos:r.pos+n]), 16, 32)
	if err != nil {
		return 0, r.Fail("bad hex escape")
	}
	r.pos += n
	return rune(v), nil
}

// Str reads a String property.
func (r *Reader) Str() (string, error) {
	switch c := r.Peek(); {
	case c == '"' || c == '\'':
		return r.quoted()
	case r.Null():
		return "", nil
	case c == '{' || c == '[':
		return r.compactText()
	}
	tok, err := r.bareToken()
	return numberText(tok), err
}

// bareToken reads a bare number or literal as its text.
func (r *Reader) bareToken() (string, error) {
	start := r.pos
	if err := r.skipBare(); err != nil {
		return "", err
	}
	return string(r.data[start:r.pos]), nil
}

// numberText is the text a String property gets of a bare token: true and
// false as they are, NaN and undefined null (""), an integer as written
// without a leading '+' or a type suffix, any other number as Java's
// BigDecimal.toString writes it (1e3 -> 1E+3, 1e-3 -> 0.001).
func numberText(tok string) string {
	switch tok {
	case "true", "false":
		return tok
	case "NaN", "undefined":
		return ""
	}
	tok = strings.TrimRight(strings.TrimPrefix(tok, "+"), "LSBFD")
	if isDecimal(tok) {
		return tok
	}
	return bigDecimalText(tok)
}

// bigDecimalText is BigDecimal.toString of a number literal.
func bigDecimalText(tok string) string {
	mant, exp, _ := strings.Cut(strings.ToLower(tok), "e")
	e, _ := strconv.Atoi(exp)
	neg := strings.HasPrefix(mant, "-")
	mant = strings.TrimLeft(mant, "+-")
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	if digits == "" {
		digits = "0"
	}
	scale := len(frac) - e
	adjusted := -scale + len(digits) - 1
	var out string
	switch {
	case scale == 0:
		out = digits
	case scale > 0 && adjusted >= -6:
		if pad := scale - len(digits) + 1; pad > 0 {
			digits = strings.Repeat("0", pad) + digits
		}
		out = digits[:len(digits)-scale] + "." + digits[len(digits)-scale:]
	default:
		out = digits[:1]
		if len(digits) > 1 {
			out += "." + digits[1:]
		}
		out += "E"
		if adjusted >= 0 {
			out += "+"
		}
		out += strconv.Itoa(adjusted)
	}
	if neg {
		out = "-" + out
	}
	return out
}

// compactText reads an object or array as the text fastjson gives a
// String property: JSON without whitespace, keys sorted (its JSONObject
// is a HashMap, which orders short keys so).
func (r *Reader) compactText() (string, error) {
	v, err := r.anyValue()
	if err != nil {
		return "", err
	}
	return string(appendAny(nil, v)), nil
}

// anyValue reads a value into maps, slices and their texts.
func (r *Reader) anyValue() (any, error) {
	switch c := r.Peek(); {
	case c == '{':
		m := map[string]any{}
		err := r.AnyMap(func(k string) error {
			v, err := r.anyValue()
			if v != nil {
				m[keyText(k)] = v // JSONObject.toString leaves null values out
			}
			return err
		})
		return m, err
	case c == '[':
		var l []any
		err := r.Array(func() error {
			v, err := r.anyValue()
			l = append(l, v)
			return err
		})
		return l, err
	case c == '"' || c == '\'':
		s, err := r.quoted()
		return quotedText(s), err
	case r.Null():
		return nil, nil
	}
	tok, err := r.bareToken()
	return parsedNumberText(tok), err
}

// parsedNumberText is the text of a number inside a JSONObject or
// JSONArray, which fastjson parsed to an Integer, Long or BigInteger
// (leading zeros gone) or a BigDecimal.
func parsedNumberText(tok string) string {
	t := strings.TrimRight(strings.TrimPrefix(tok, "+"), "LSBFD")
	if isDecimal(t) {
		if i, ok := new(big.Int).SetString(t, 10); ok {
			return i.String()
		}
	}
	return numberText(tok)
}

// quotedText marks a string read by anyValue, to be written quoted.
type quotedText string

// rawKey marks a JSONObject key that is an object or array, which
// toString writes unquoted.
const rawKey = "\x00raw:"

// keyText is how JSONObject.toString writes a key read as k: a number
// as its BigDecimal text, an object or array key compact and unquoted.
func keyText(k string) string {
	switch {
	case strings.HasPrefix(k, "{") || strings.HasPrefix(k, "["):
		var v any
		if err := Decode([]byte(k), func(r *Reader) (err error) { v, err = r.anyValue(); return err }); err == nil {
			return rawKey + string(appendAny(nil, v))
		}
	case bareValue.MatchString(k):
		return numberText(k)
	}
	return k
}

func appendAny(dst []byte, v any) []byte {
	switch x := v.(type) {
	case map[string]any:
		dst = append(dst, '{')
		for _, k := range SortedKeys(x) {
			if raw, ok := strings.CutPrefix(k, rawKey); ok {
				dst = append(Comma(dst), raw...)
			} else {
				dst = AppendString(Comma(dst), k, Fastjson)
			}
			dst = appendAny(append(dst, ':'), x[k])
		}
		return append(dst, '}')
	case []any:
		dst = append(dst, '[')
		for _, e := range x {
			dst = appendAny(Comma(dst), e)
		}
		return append(dst, ']')
	case quotedText:
		return AppendString(dst, string(x), Fastjson)
	case string:
		if x == "" {
			return append(dst, "null"...)
		}
		return append(dst, x...)
	}
	return dst
}

// number reads a value fastjson converts to an integer: its decimal text
// and whether it came quoted. empty is true for null and "".
func (r *Reader) number() (tok string, quoted, empty bool, err error) {
	switch c := r.Peek(); {
	case c == '"' || c == '\'':
		s, err := r.quoted()
		return s, true, s == "" || strings.EqualFold(s, "null"), err
	case r.Null():
		return "", false, true, nil
	case c == '{' || c == '[' || c == 0:
		return "", false, false, r.Fail("expected a number")
	}
	tok, err = r.bareToken()
	return tok, false, false, err
}

// toLong converts a number's text as fastjson does for a long (a quoted
// one may carry thousands separators: "1,000").
func (r *Reader) toLong(tok string, quoted bool) (int64, error) {
	if quoted {
		tok = strings.ReplaceAll(tok, ",", "")
	}
	if isDecimal(tok) {
		n, err := strconv.ParseInt(strings.TrimPrefix(tok, "+"), 10, 64)
		if err != nil && len(strings.TrimLeft(tok, "+-")) < 20 {
			return 0, r.Fail(fmt.Sprintf("integer out of range %q", tok))
		}
		if err != nil {
			// 20 digits and more: a BigInteger, whose longValue wraps
			return wrapLong(tok), nil
		}
		return n, nil
	}
	if quoted || !bareValue.MatchString(tok) || strings.Trim(tok, "+-.0123456789eE") != "" {
		return 0, r.Fail(fmt.Sprintf("bad integer %q", tok))
	}
	f, _, err := big.ParseFloat(tok, 10, 200, big.ToZero)
	if err != nil {
		return 0, r.Fail(fmt.Sprintf("bad integer %q", tok))
	}
	i, _ := f.Int(nil)
	return lowBits(i), nil
}

// wrapLong is BigInteger.longValue of a decimal text.
func wrapLong(tok string) int64 {
	i, _ := new(big.Int).SetString(strings.TrimPrefix(tok, "+"), 10)
	return lowBits(i)
}

// lowBits is the low 64 bits of i in two's complement, as Java's
// BigInteger and BigDecimal longValue give them.
func lowBits(i *big.Int) int64 {
	return int64(new(big.Int).And(i, new(big.Int).SetUint64(math.MaxUint64)).Uint64())
}

// Long reads a long property; null and "" give 0 (LongOr keeps another
// default).
func (r *Reader) Long() (int64, error) { return r.LongOr(0) }

// LongOr reads a long property, or def for null and "" (the field keeps
// its default).
func (r *Reader) LongOr(def int64) (int64, error) {
	if r.literal("true") || r.literal("false") {
		return 0, r.Fail("parseLong error")
	}
	v, present, err := r.longValue()
	if !present {
		return def, err
	}
	return v, err
}

// Int reads an int property: as Long, within int32, and true/false as 1/0.
func (r *Reader) Int() (int32, error) { return r.IntOr(0) }

// IntOr reads an int property, or def for null and "" (the field keeps
// its default).
func (r *Reader) IntOr(def int32) (int32, error) {
	n, present, err := r.intValue()
	if !present {
		return def, err
	}
	return n, err
}

// intValue reads what castToInt takes; present is false for null and "".
func (r *Reader) intValue() (n int32, present bool, err error) {
	if r.literal("true") {
		return 1, true, nil
	}
	if r.literal("false") {
		return 0, true, nil
	}
	v, present, err := r.longValue()
	if err == nil && (v > math.MaxInt32 || v < math.MinInt32) {
		err = r.Fail("int out of range")
	}
	return int32(v), present, err
}

// longValue reads what castToLong takes but a boolean; present is false
// for null and "".
func (r *Reader) longValue() (v int64, present bool, err error) {
	r.skipSpace()
	if v, ok := r.plainInt(); ok {
		return v, true, nil
	}
	tok, quoted, empty, err := r.number()
	if err != nil || empty {
		return 0, false, err
	}
	v, err = r.toLong(tok, quoted)
	return v, true, err
}

// plainInt reads a bare integer of at most 18 digits, '-' allowed, that
// nothing continues (1.5, 16L and 1e2 are left to number and toLong):
// most numbers of most bodies, read without copying their text. It
// consumes nothing when ok is false.
func (r *Reader) plainInt() (n int64, ok bool) {
	i := r.pos
	neg := i < len(r.data) && r.data[i] == '-'
	if neg {
		i++
	}
	start := i
	for i < len(r.data) && i-start < 18 && r.data[i] >= '0' && r.data[i] <= '9' {
		n = n*10 + int64(r.data[i]-'0')
		i++
	}
	if i == start || i < len(r.data) && isBareKeyByte(r.data[i]) {
		return 0, false
	}
	r.pos = i
	if neg {
		n = -n
	}
	return n, true
}

// LongKey parses a map key as fastjson reads an Integer or Long key: an
// integer, thousands separators ignored.
func (r *Reader) LongKey(tok string) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimPrefix(strings.ReplaceAll(tok, ",", ""), "+"), 10, 64)
	if err != nil && r.bareKey {
		return r.toLong(tok, false) // a bare number: a fraction is truncated
	}
	if err != nil {
		return 0, r.Fail(fmt.Sprintf("bad integer %q", tok))
	}
	return n, nil
}

// Bool reads a boolean property.
func (r *Reader) Bool() (bool, error) { return r.BoolOr(false) }

// BoolOr reads a boolean property, or def for null and "" (the field
// keeps its default).
func (r *Reader) BoolOr(def bool) (bool, error) {
	switch c := r.Peek(); {
	case r.Null():
		return def, nil
	case c == '"' || c == '\'':
		s, err := r.quoted()
		if err != nil {
			return false, err
		}
		switch strings.ToLower(s) {
		case "true", "1":
			return true, nil
		case "false", "0":
			return false, nil
		case "", "null":
			return def, nil
		}
		return false, r.Fail("parseBoolean error")
	case r.literal("true"):
		return true, nil
	case r.literal("false"):
		return false, nil
	}
	tok, err := r.bareToken()
	if err != nil {
		return false, err
	}
	if isDecimal(tok) {
		n, err := strconv.ParseInt(strings.TrimPrefix(tok, "+"), 10, 32)
		if err != nil {
			return false, r.Fail("parseBoolean error")
		}
		return n == 1, nil
	}
	f, err := strconv.ParseFloat(strings.TrimPrefix(tok, "+"), 64)
	if err != nil {
		return false, r.Fail("parseBoolean error")
	}
	return math.Trunc(f) == 1, nil
}

// Enum reads a Java enum property: the constant's name, "" for null.
func (r *Reader) Enum(names []string) (string, error) {
	switch c := r.Peek(); {
	case c == '"' || c == '\'':
		s, err := r.quotedBytes()
		if err != nil {
			return "", err
		}
		for _, n := range names {
			if strings.EqualFold(n, string(s)) { // invalid UTF-8 matches no name, as U+FFFD matches none
				return n, nil
			}
		}
		return "", nil
	case r.Null():
		return "", nil
	}
	start := r.pos
	tok, err := r.bareToken()
	if err != nil {
		return "", err
	}
	n, err := strconv.Atoi(strings.TrimPrefix(tok, "+"))
	if err != nil || n < 0 || n >= len(names) {
		r.pos = start
		return "", r.Fail(fmt.Sprintf("parse enum error, value : %s", tok))
	}
	return names[n], nil
}

// StringList reads a Set<String> or List<String>: an array, null giving
// nil; a null element is left out.
func (r *Reader) StringList() ([]string, error) {
	if r.Null() {
		return nil, nil
	}
	list := []string{}
	err := r.Array(func() error {
		if r.Null() {
			return nil
		}
		v, err := r.Str()
		list = append(list, v)
		return err
	})
	return list, err
}

// IntList reads a Set<Integer>: an array, null giving nil; null and ""
// elements are left out (Java keeps them as null).
func (r *Reader) IntList() ([]int32, error) {
	if r.Null() {
		return nil, nil
	}
	list := []int32{}
	err := r.Array(func() error {
		v, present, err := r.intValue()
		if present {
			list = append(list, v)
		}
		return err
	})
	return list, err
}

// LongList reads a List<Long>: an array, null giving nil; null and ""
// elements are left out (Java keeps them as null).
func (r *Reader) LongList() ([]int64, error) {
	if r.Null() {
		return nil, nil
	}
	list := []int64{}
	err := r.Array(func() error {
		v, present, err := r.longValue()
		if present {
			list = append(list, v)
		}
		return err
	})
	return list, err
}

// StringMap reads a Map<String, String>; null gives nil, a null value "".
func (r *Reader) StringMap() (map[string]string, error) {
	if r.Null() {
		return nil, nil
	}
	m := map[string]string{}
	err := r.Map(func(k string) (err error) {
		m[k], err = r.Str()
		return err
	})
	return m, err
}
