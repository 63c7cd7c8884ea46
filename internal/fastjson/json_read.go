package protocol

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// ErrMalformedJSON is returned when a body is not JSON fastjson would
// accept, or a value has a type the property cannot take.
var ErrMalformedJSON = errors.New("protocol: malformed JSON")

var nullLiteral = []byte("null")

// maxDepth bounds nesting, so hostile bodies cannot exhaust the stack.
const maxDepth = 512

// jsonReader is a pull parser for the lenient JSON fastjson reads.
type jsonReader struct {
	data  []byte
	pos   int
	depth int
}

// decodeJSON runs fn on the single top-level value of data and checks
// that nothing but whitespace follows it.
func decodeJSON(data []byte, fn func(r *jsonReader) error) error {
	r := &jsonReader{data: data}
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		r.pos = 3
	}
	if err := fn(r); err != nil {
		return err
	}
	if r.skipSpace(); r.pos != len(r.data) {
		return r.fail("trailing data")
	}
	return nil
}

func (r *jsonReader) fail(what string) error {
	return fmt.Errorf("%w: %s at offset %d", ErrMalformedJSON, what, r.pos)
}

// skipSpace skips the characters fastjson's lexer treats as whitespace.
func (r *jsonReader) skipSpace() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r', '\f', '\b':
			r.pos++
		default:
			return
		}
	}
}

// peek returns the next non-space byte, 0 at the end.
func (r *jsonReader) peek() byte {
	r.skipSpace()
	if r.pos >= len(r.data) {
		return 0
	}
	return r.data[r.pos]
}

// null consumes a null literal if one is next.
func (r *jsonReader) null() bool {
	if r.peek() == 'n' && bytes.HasPrefix(r.data[r.pos:], nullLiteral) {
		r.pos += 4
		return true
	}
	return false
}

func (r *jsonReader) enter() error {
	if r.depth++; r.depth > maxDepth {
		return r.fail("nesting too deep")
	}
	return nil
}

// object reads an object, calling fn with each key positioned before the
// value; fn must consume the value. Keys may be quoted, single-quoted,
// bare tokens (fastjson's {0:"a"}) or objects (MessageQueue keys, passed
// as their raw text).
func (r *jsonReader) object(fn func(key string) error) error {
	if r.peek() != '{' {
		return r.fail("expected '{'")
	}
	if err := r.enter(); err != nil {
		return err
	}
	r.pos++
	for {
		if c := r.peek(); c == '}' {
			r.pos++
			r.depth--
			return nil
		}
		key, err := r.key()
		if err != nil {
			return err
		}
		if r.peek() != ':' {
			return r.fail("expected ':'")
		}
		r.pos++
		if err := fn(key); err != nil {
			return err
		}
		if err := r.next('}'); err != nil {
			return err
		}
	}
}

// next consumes the ',' between members, or checks the closing bracket
// follows (a trailing comma is allowed).
func (r *jsonReader) next(closing byte) error {
	switch r.peek() {
	case ',':
		r.pos++
		return nil
	case closing:
		return nil
	}
	return r.fail("expected ',' or '" + string(closing) + "'")
}

func (r *jsonReader) key() (string, error) {
	switch c := r.peek(); {
	case c == '"' || c == '\'':
		return r.quoted()
	case c == '{' || c == '[':
		start := r.pos
		if err := r.skip(); err != nil {
			return "", err
		}
		return string(r.data[start:r.pos]), nil
	}
	start := r.pos
	for r.pos < len(r.data) && isBareKeyByte(r.data[r.pos]) {
		r.pos++
	}
	if r.pos == start {
		return "", r.fail("expected a key")
	}
	return string(r.data[start:r.pos]), nil
}

func isBareKeyByte(c byte) bool {
	return c == '_' || c == '$' || c == '-' || c == '+' || c == '.' ||
		(c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}

// array reads an array, calling fn positioned before each element.
func (r *jsonReader) array(fn func() error) error {
	if r.peek() != '[' {
		return r.fail("expected '['")
	}
	if err := r.enter(); err != nil {
		return err
	}
	r.pos++
	for {
		if r.peek() == ']' {
			r.pos++
			r.depth--
			return nil
		}
		if err := fn(); err != nil {
			return err
		}
		if err := r.next(']'); err != nil {
			return err
		}
	}
}

// str reads a string property. null gives ""; a bare number or boolean is
// taken as its text, as fastjson coerces it.
func (r *jsonReader) str() (string, error) {
	switch c := r.peek(); {
	case c == '"' || c == '\'':
		return r.quoted()
	case r.null():
		return "", nil
	case c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f':
		return r.scalarToken()
	}
	return "", r.fail("expected a string")
}

// scalarToken reads a bare number or true/false as text.
func (r *jsonReader) scalarToken() (string, error) {
	start := r.pos
	for r.pos < len(r.data) && isBareKeyByte(r.data[r.pos]) {
		r.pos++
	}
	tok := string(r.data[start:r.pos])
	if tok == "true" || tok == "false" {
		return tok, nil
	}
	if _, err := strconv.ParseFloat(tok, 64); err != nil {
		r.pos = start
		return "", r.fail("bad scalar")
	}
	return tok, nil
}

// quoted reads a string in double or single quotes.
func (r *jsonReader) quoted() (string, error) {
	q := r.data[r.pos]
	r.pos++
	start := r.pos
	for r.pos < len(r.data) {
		c := r.data[r.pos]
		if c == q {
			s := string(r.data[start:r.pos])
			r.pos++
			return s, nil
		}
		if c == '\\' {
			r.pos = start
			return r.quotedEscaped(q)
		}
		r.pos++
	}
	return "", r.fail("unterminated string")
}

// quotedEscaped is the slow path of quoted for strings with escapes.
func (r *jsonReader) quotedEscaped(q byte) (string, error) {
	var b []byte
	for r.pos < len(r.data) {
		c := r.data[r.pos]
		switch {
		case c == q:
			r.pos++
			return string(b), nil
		case c == '\\':
			var err error
			if b, err = r.escape(b); err != nil {
				return "", err
			}
		default:
			b = append(b, c)
			r.pos++
		}
	}
	return "", r.fail("unterminated string")
}

// escape decodes one backslash escape at r.pos.
func (r *jsonReader) escape(b []byte) ([]byte, error) {
	if r.pos+1 >= len(r.data) {
		return nil, r.fail("truncated escape")
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
	return nil, r.fail("bad escape")
}

// unicodeEscape decodes \uXXXX, joining a surrogate pair when one follows.
func (r *jsonReader) unicodeEscape(b []byte) ([]byte, error) {
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

func (r *jsonReader) hex(n int) (rune, error) {
	if r.pos+n > len(r.data) {
		return 0, r.fail("truncated escape")
	}
	v, err := strconv.ParseUint(string(r.data[r.pos:r.pos+n]), 16, 32)
	if err != nil {
		return 0, r.fail("bad hex escape")
	}
	r.pos += n
	return rune(v), nil
}

// long reads a long property: a number (a fraction is truncated, as
// fastjson does for integer fields), a numeric string, or null (0).
func (r *jsonReader) long() (int64, error) {
	var tok string
	switch c := r.peek(); {
	case c == '"' || c == '\'':
		s, err := r.quoted()
		if err != nil {
			return 0, err
		}
		if tok = strings.TrimSpace(s); tok == "" {
			return 0, nil
		}
	case r.null():
		return 0, nil
	default:
		start := r.pos
		for r.pos < len(r.data) && isNumberByte(r.data[r.pos]) {
			r.pos++
		}
		tok = string(r.data[start:r.pos])
	}
	return r.parseLong(tok)
}

func isNumberByte(c byte) bool {
	return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

func (r *jsonReader) parseLong(tok string) (int64, error) {
	if n, err := strconv.ParseInt(tok, 10, 64); err == nil {
		return n, nil
	}
	f, err := strconv.ParseFloat(tok, 64)
	if err != nil || math.IsNaN(f) || f >= math.MaxInt64 || f <= math.MinInt64 {
		return 0, r.fail(fmt.Sprintf("bad integer %q", tok))
	}
	return int64(f), nil
}

// int reads an int property, failing beyond int32 as Java's int would.
func (r *jsonReader) int() (int32, error) {
	n, err := r.long()
	if err != nil {
		return 0, err
	}
	if n > math.MaxInt32 || n < math.MinInt32 {
		return 0, r.fail("int out of range")
	}
	return int32(n), nil
}

// bool reads a boolean property: true/false, their quoted forms, 1/0, or
// null (false).
func (r *jsonReader) bool() (bool, error) {
	if r.null() {
		return false, nil
	}
	s, err := r.str()
	if err != nil {
		return false, err
	}
	switch strings.ToLower(s) {
	case "true", "1":
		return true, nil
	case "false", "0", "":
		return false, nil
	}
	return false, r.fail("bad boolean")
}

// skip consumes any value.
func (r *jsonReader) skip() error {
	switch c := r.peek(); {
	case c == '{':
		return r.object(func(string) error { return r.skip() })
	case c == '[':
		return r.array(r.skip)
	case c == '"' || c == '\'':
		_, err := r.quoted()
		return err
	case c == 0:
		return r.fail("unexpected end")
	}
	start := r.pos
	for r.pos < len(r.data) && isBareKeyByte(r.data[r.pos]) {
		r.pos++
	}
	if r.pos == start {
		return r.fail("unexpected character")
	}
	return nil
}

// stringMap reads an object of strings; null gives nil.
func (r *jsonReader) stringMap() (map[string]string, error) {
	if r.null() {
		return nil, nil
	}
	m := map[string]string{}
	err := r.object(func(k string) error {
		if r.null() {
			return nil
		}
		v, err := r.str()
		m[k] = v
		return err
	})
	return m, err
}

// stringList reads an array of strings; null gives nil.
func (r *jsonReader) stringList() ([]string, error) {
	if r.null() {
		return nil, nil
	}
	list := []string{}
	err := r.array(func() error {
		v, err := r.str()
		list = append(list, v)
		return err
	})
	return list, err
}

// property normalizes a bean property name as fastjson's smart match
// does: case-insensitive, '_' and '-' ignored.
func property(key string) string {
	clean := true
	for i := 0; i < len(key); i++ {
		if c := key[i]; c == '_' || c == '-' || (c >= 'A' && c <= 'Z') {
			clean = false
			break
		}
	}
	if clean {
		return key
	}
	b := make([]byte, 0, len(key))
	for i := 0; i < len(key); i++ {
		switch c := key[i]; {
		case c == '_' || c == '-':
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// intList reads an array of ints (elements as int reads them); null gives
// nil.
func (r *jsonReader) intList() ([]int32, error) {
	if r.null() {
		return nil, nil
	}
	list := []int32{}
	err := r.array(func() error {
		v, err := r.int()
		list = append(list, v)
		return err
	})
	return list, err
}

// enum reads a Java enum property as fastjson's EnumDeserializer does: a
// constant's name, or its ordinal as a number (out of range fails); an
// empty or unknown name and null give "" (Java's null).
func (r *jsonReader) enum(names []string) (string, error) {
	switch c := r.peek(); {
	case c == '"' || c == '\'':
		s, err := r.quoted()
		if err != nil {
			return "", err
		}
		for _, n := range names {
			if n == s {
				return n, nil
			}
		}
		return "", nil
	case r.null():
		return "", nil
	}
	start := r.pos
	n, err := r.long()
	if err != nil {
		return "", err
	}
	if n < 0 || n >= int64(len(names)) {
		r.pos = start
		return "", r.fail(fmt.Sprintf("no enum constant of ordinal %d", n))
	}
	return names[n], nil
}
