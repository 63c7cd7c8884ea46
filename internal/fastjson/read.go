package fastjson

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

// ErrMalformed is returned when a body is not JSON fastjson would
// accept, or a value has a type the property cannot take.
var ErrMalformed = errors.New("fastjson: malformed JSON")

var nullLiteral = []byte("null")

// maxDepth bounds nesting, so hostile bodies cannot exhaust the stack.
const maxDepth = 512

// Reader is a pull parser for the lenient JSON fastjson reads.
type Reader struct {
	data  []byte
	pos   int
	depth int
}

// decodeJSON runs fn on the single top-level value of data and checks
// that nothing but whitespace follows it.
func Decode(data []byte, fn func(r *Reader) error) error {
	r := &Reader{data: data}
	if len(data) >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF {
		r.pos = 3
	}
	if err := fn(r); err != nil {
		return err
	}
	if r.skipSpace(); r.pos != len(r.data) {
		return r.Fail("trailing data")
	}
	return nil
}

func (r *Reader) Fail(what string) error {
	return fmt.Errorf("%w: %s at offset %d", ErrMalformed, what, r.pos)
}

// skipSpace skips the characters fastjson's lexer treats as whitespace.
func (r *Reader) skipSpace() {
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
func (r *Reader) Peek() byte {
	r.skipSpace()
	if r.pos >= len(r.data) {
		return 0
	}
	return r.data[r.pos]
}

// null consumes a null literal if one is next.
func (r *Reader) Null() bool {
	if r.Peek() == 'n' && bytes.HasPrefix(r.data[r.pos:], nullLiteral) {
		r.pos += 4
		return true
	}
	return false
}

func (r *Reader) enter() error {
	if r.depth++; r.depth > maxDepth {
		return r.Fail("nesting too deep")
	}
	return nil
}

// object reads an object, calling fn with each key positioned before the
// value; fn must consume the value. Keys may be quoted, single-quoted,
// bare tokens (fastjson's {0:"a"}) or objects (MessageQueue keys, passed
// as their raw text).
func (r *Reader) Object(fn func(key string) error) error {
	if r.Peek() != '{' {
		return r.Fail("expected '{'")
	}
	if err := r.enter(); err != nil {
		return err
	}
	r.pos++
	for {
		if c := r.Peek(); c == '}' {
			r.pos++
			r.depth--
			return nil
		}
		key, err := r.key()
		if err != nil {
			return err
		}
		if r.Peek() != ':' {
			return r.Fail("expected ':'")
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
func (r *Reader) next(closing byte) error {
	switch r.Peek() {
	case ',':
		r.pos++
		return nil
	case closing:
		return nil
	}
	return r.Fail("expected ',' or '" + string(closing) + "'")
}

func (r *Reader) key() (string, error) {
	switch c := r.Peek(); {
	case c == '"' || c == '\'':
		return r.quoted()
	case c == '{' || c == '[':
		start := r.pos
		if err := r.Skip(); err != nil {
			return "", err
		}
		return string(r.data[start:r.pos]), nil
	}
	start := r.pos
	for r.pos < len(r.data) && isBareKeyByte(r.data[r.pos]) {
		r.pos++
	}
	if r.pos == start {
		return "", r.Fail("expected a key")
	}
	return string(r.data[start:r.pos]), nil
}

func isBareKeyByte(c byte) bool {
	return c == '_' || c == '$' || c == '-' || c == '+' || c == '.' ||
		(c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}

// array reads an array, calling fn positioned before each element.
func (r *Reader) Array(fn func() error) error {
	if r.Peek() != '[' {
		return r.Fail("expected '['")
	}
	if err := r.enter(); err != nil {
		return err
	}
	r.pos++
	for {
		if r.Peek() == ']' {
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
func (r *Reader) Str() (string, error) {
	switch c := r.Peek(); {
	case c == '"' || c == '\'':
		return r.quoted()
	case r.Null():
		return "", nil
	case c == '-' || (c >= '0' && c <= '9') || c == 't' || c == 'f':
		return r.scalarToken()
	}
	return "", r.Fail("expected a string")
}

// scalarToken reads a bare number or true/false as text.
func (r *Reader) scalarToken() (string, error) {
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
		return "", r.Fail("bad scalar")
	}
	return tok, nil
}

// quoted reads a string in double or single quotes.
func (r *Reader) quoted() (string, error) {
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
	return "", r.Fail("unterminated string")
}

// quotedEscaped is the slow path of quoted for strings with escapes.
func (r *Reader) quotedEscaped(q byte) (string, error) {
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
	return "", r.Fail("unterminated string")
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

// long reads a long property: a number (a fraction is truncated, as
// fastjson does for integer fields), a numeric string, or null (0).
func (r *Reader) Long() (int64, error) {
	var tok string
	switch c := r.Peek(); {
	case c == '"' || c == '\'':
		s, err := r.quoted()
		if err != nil {
			return 0, err
		}
		if tok = strings.TrimSpace(s); tok == "" {
			return 0, nil
		}
	case r.Null():
		return 0, nil
	default:
		start := r.pos
		for r.pos < len(r.data) && isNumberByte(r.data[r.pos]) {
			r.pos++
		}
		tok = string(r.data[start:r.pos])
	}
	return r.LongKey(tok)
}

func isNumberByte(c byte) bool {
	return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// LongKey parses a map key (or any token) as a long, as fastjson reads an
// Integer or Long key.
func (r *Reader) LongKey(tok string) (int64, error) {
	if n, err := strconv.ParseInt(tok, 10, 64); err == nil {
		return n, nil
	}
	f, err := strconv.ParseFloat(tok, 64)
	if err != nil || math.IsNaN(f) || f >= math.MaxInt64 || f <= math.MinInt64 {
		return 0, r.Fail(fmt.Sprintf("bad integer %q", tok))
	}
	return int64(f), nil
}

// int reads an int property, failing beyond int32 as Java's int would.
func (r *Reader) Int() (int32, error) {
	n, err := r.Long()
	if err != nil {
		return 0, err
	}
	if n > math.MaxInt32 || n < math.MinInt32 {
		return 0, r.Fail("int out of range")
	}
	return int32(n), nil
}

// bool reads a boolean property: true/false, their quoted forms, 1/0, or
// null (false).
func (r *Reader) Bool() (bool, error) {
	if r.Null() {
		return false, nil
	}
	s, err := r.Str()
	if err != nil {
		return false, err
	}
	switch strings.ToLower(s) {
	case "true", "1":
		return true, nil
	case "false", "0", "":
		return false, nil
	}
	return false, r.Fail("bad boolean")
}

// skip consumes any value.
func (r *Reader) Skip() error {
	switch c := r.Peek(); {
	case c == '{':
		return r.Object(func(string) error { return r.Skip() })
	case c == '[':
		return r.Array(r.Skip)
	case c == '"' || c == '\'':
		_, err := r.quoted()
		return err
	case c == 0:
		return r.Fail("unexpected end")
	}
	start := r.pos
	for r.pos < len(r.data) && isBareKeyByte(r.data[r.pos]) {
		r.pos++
	}
	if r.pos == start {
		return r.Fail("unexpected character")
	}
	return nil
}

// stringMap reads an object of strings; null gives nil.
func (r *Reader) StringMap() (map[string]string, error) {
	if r.Null() {
		return nil, nil
	}
	m := map[string]string{}
	err := r.Object(func(k string) error {
		if r.Null() {
			return nil
		}
		v, err := r.Str()
		m[k] = v
		return err
	})
	return m, err
}

// stringList reads an array of strings; null gives nil.
func (r *Reader) StringList() ([]string, error) {
	if r.Null() {
		return nil, nil
	}
	list := []string{}
	err := r.Array(func() error {
		v, err := r.Str()
		list = append(list, v)
		return err
	})
	return list, err
}

// property normalizes a bean property name as fastjson's smart match
// does: case-insensitive, '_' and '-' ignored.
func Property(key string) string {
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
func (r *Reader) IntList() ([]int32, error) {
	if r.Null() {
		return nil, nil
	}
	list := []int32{}
	err := r.Array(func() error {
		v, err := r.Int()
		list = append(list, v)
		return err
	})
	return list, err
}

// enum reads a Java enum property as fastjson's EnumDeserializer does: a
// constant's name, or its ordinal as a number (out of range fails); an
// empty or unknown name and null give "" (Java's null).
func (r *Reader) Enum(names []string) (string, error) {
	switch c := r.Peek(); {
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
	case r.Null():
		return "", nil
	}
	start := r.pos
	n, err := r.Long()
	if err != nil {
		return "", err
	}
	if n < 0 || n >= int64(len(names)) {
		r.pos = start
		return "", r.Fail(fmt.Sprintf("no enum constant of ordinal %d", n))
	}
	return names[n], nil
}

// Try reads the value at the reader's position with fn. When fn fails on
// a value that is well-formed JSON, the reader skips that value and Try
// returns fn's error as bad, so the caller can go on with the next one;
// a value that is not JSON at all is err.
func (r *Reader) Try(fn func() error) (bad, err error) {
	start, depth := r.pos, r.depth
	if bad = fn(); bad == nil {
		return nil, nil
	}
	r.pos, r.depth = start, depth
	return bad, r.Skip()
}
