package fastjson

// Reading: the structure of a body as fastjson 1.2.x's lexer and parser
// take it (both lines agree on all of it; compat/fastjson's oracle is the
// reference, and internal/protocol's differential test holds us to it):
//
//   - whitespace is ' ', \t, \n, \r, \f, \b; comments /* ... */ and // ...
//     may stand wherever whitespace may, except between a key and its ':';
//     a UTF-8 BOM may lead, NUL bytes may trail;
//   - an object's members are separated by ',' (leading, doubled and
//     trailing commas are taken) or one ';'; keys may be double- or
//     single-quoted, bare tokens ({0:"a"}) or objects (MessageQueue keys);
//     "@type" (autoType) is refused; property names match without regard
//     to case, '_' or '-' (Property);
//   - a typed array's elements are separated by single commas, a trailing
//     one taken; a skipped value (an unknown property's) is read more
//     loosely, as fastjson parses it into a JSONArray or JSONObject;
//   - a bare value is true, false, null, undefined, NaN, a number (with a
//     leading '+' or zeros) or new Date(n); anything else (True, 0x10,
//     Infinity) is refused.
//
// The scalars (strings, numbers, booleans, enums) are scalar.go's.

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"unicode/utf8"
)

// ErrMalformed is returned when a body is not JSON fastjson would
// accept, or a value has a type the property cannot take.
var ErrMalformed = errors.New("fastjson: malformed JSON")

// maxDepth bounds nesting, so hostile bodies cannot exhaust the stack:
// fastjson reads 2000 nested objects and fails at 5000 (its stack), and
// refuses arrays nested deeper than 513.
const (
	maxDepth      = 4096
	maxArrayDepth = 513
)

// eoi is the character fastjson's lexer takes as the end of its input
// (JSONLexer.EOI).
const eoi = 0x1A

// Reader is a pull parser for the lenient JSON fastjson reads.
type Reader struct {
	data       []byte
	pos        int
	depth      int
	arrayDepth int
	// nullKey and bareKey are set while the value of a bare null key, of
	// an unquoted key, is read.
	nullKey, bareKey bool
	// props remembers Property of the bean property names met, in the
	// order first met; nextProp is where the next name is looked for
	// first (see property).
	props    []propName
	nextProp int
}

// propName is a property name as written and as Property normalizes it.
type propName struct{ text, prop string }

// Decode runs fn on the single top-level value of data and checks that
// nothing but whitespace, comments and NUL bytes follows it.
func Decode(data []byte, fn func(r *Reader) error) error {
	r := &Reader{data: data}
	if bytes.HasPrefix(data, []byte("\xEF\xBB\xBF")) {
		r.pos = 3
	}
	if err := fn(r); err != nil {
		return err
	}
	r.skipSpace()
	for r.pos < len(r.data) && r.data[r.pos] == 0 {
		r.pos++
	}
	if r.pos != len(r.data) {
		return r.Fail("trailing data")
	}
	return nil
}

// Fail is an ErrMalformed at the reader's position.
func (r *Reader) Fail(what string) error {
	return fmt.Errorf("%w: %s at offset %d", ErrMalformed, what, r.pos)
}

// skipWhite skips the characters fastjson's lexer treats as whitespace.
func (r *Reader) skipWhite() {
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case ' ', '\t', '\n', '\r', '\f', '\b':
			r.pos++
		default:
			return
		}
	}
}

// skipSpace skips whitespace and comments.
func (r *Reader) skipSpace() {
	for {
		r.skipWhite()
		if r.pos+1 >= len(r.data) || r.data[r.pos] != '/' {
			return
		}
		switch r.data[r.pos+1] {
		case '*':
			end := bytes.Index(r.data[r.pos+2:], []byte("*/"))
			if end < 0 {
				return // left for the caller to refuse
			}
			r.pos += end + 4
		case '/':
			end := bytes.IndexByte(r.data[r.pos:], '\n')
			if end < 0 {
				r.pos = len(r.data)
				return
			}
			r.pos += end + 1
		default:
			return
		}
	}
}

// Peek returns the next byte after whitespace and comments, 0 at the end.
func (r *Reader) Peek() byte {
	r.skipSpace()
	if r.pos >= len(r.data) {
		return 0
	}
	return r.data[r.pos]
}

// Null consumes a null literal if one is next.
func (r *Reader) Null() bool {
	if r.Peek() == 'n' && r.literal("null") {
		return true
	}
	return false
}

// EmptyString consumes "" if it is next.
func (r *Reader) EmptyString() bool {
	if c := r.Peek(); (c == '"' || c == '\'') && r.pos+1 < len(r.data) && r.data[r.pos+1] == c {
		r.pos += 2
		return true
	}
	return false
}

// literal consumes word when it stands next as a whole token.
func (r *Reader) literal(word string) bool {
	end := r.pos + len(word)
	if end > len(r.data) || string(r.data[r.pos:end]) != word || end < len(r.data) && isBareKeyByte(r.data[end]) {
		return false
	}
	r.pos = end
	return true
}

func (r *Reader) enter() error {
	if r.depth++; r.depth > maxDepth {
		return r.Fail("nesting too deep")
	}
	return nil
}

// enterArray is enter for an array.
func (r *Reader) enterArray() error {
	if r.arrayDepth++; r.arrayDepth > maxArrayDepth {
		return r.Fail("array level > 512")
	}
	return r.enter()
}

// leaveArray ends an array.
func (r *Reader) leaveArray() {
	r.arrayDepth--
	r.depth--
}

// keyKind is what an object's keys may be, by what Java reads it into.
type keyKind int

const (
	// nameKeys: a String-keyed map's keys, quoted or bare identifiers.
	nameKeys keyKind = iota
	// propertyKeys: a bean's property names, as nameKeys, handed on
	// normalized by Property.
	propertyKeys
	// numberKeys: an Integer- or Long-keyed map's, also bare numbers.
	numberKeys
	// anyKeys: a JSONObject's, also objects and arrays (passed on as
	// their raw text).
	anyKeys
	// beanKeys: a MessageQueue-keyed map's, keys as anyKeys; fastjson's
	// MapDeserializer reads these and, unlike its JSONObject and bean
	// readers, takes no empty member: a leading or doubled comma fails
	// (a trailing one does not).
	beanKeys
)

// identifiers tells whether keys are identifiers (or quoted).
func (k keyKind) identifiers() bool { return k == nameKeys || k == propertyKeys }

// Object reads a bean, calling fn with each property name, normalized by
// Property, positioned before the value; fn must consume the value. A
// name is quoted or an identifier: a number, object or array in its place
// fails.
func (r *Reader) Object(fn func(key string) error) error { return r.object(fn, propertyKeys) }

// Map reads a map with String keys: keys as Object's.
func (r *Reader) Map(fn func(key string) error) error { return r.object(fn, nameKeys) }

// NumberMap reads a map with Integer or Long keys ({0:"a"}).
func (r *Reader) NumberMap(fn func(key string) error) error { return r.object(fn, numberKeys) }

// AnyMap reads a JSONObject: keys may be objects or arrays.
func (r *Reader) AnyMap(fn func(key string) error) error { return r.object(fn, anyKeys) }

// BeanKeyMap reads a map whose keys are beans ({{MessageQueue}:5}).
func (r *Reader) BeanKeyMap(fn func(key string) error) error { return r.object(fn, beanKeys) }

func (r *Reader) object(fn func(key string) error, keys keyKind) error {
	if r.Peek() != '{' {
		return r.Fail("expected '{'")
	}
	if err := r.enter(); err != nil {
		return err
	}
	r.pos++
	for {
		for (keys.identifiers() || keys == anyKeys) && r.Peek() == ',' {
			r.pos++
		}
		if r.Peek() == '}' {
			r.pos++
			r.depth--
			return nil
		}
		if err := r.member(fn, keys); err != nil {
			return err
		}
		switch r.Peek() {
		case ',':
			r.pos++
		case '}':
		case ';':
			r.pos++
			if c := r.Peek(); c == ';' || c == ',' {
				return r.Fail("illegal identifier ;")
			}
		default:
			return r.Fail("expected ',' or '}'")
		}
	}
}

// member reads one key, its colon and (through fn) its value.
func (r *Reader) member(fn func(key string) error, keys keyKind) error {
	c0 := r.Peek()
	switch c := c0; {
	case c == '"' || c == '\'' || isIdentifierStart(c):
	case keys == numberKeys && (c == '-' || c == '+' || c >= '0' && c <= '9'):
	case keys == anyKeys || keys == beanKeys:
	default:
		return r.Fail("illegal identifier")
	}
	text, err := r.keyText(keys)
	if err != nil {
		return err
	}
	if r.skipWhite(); r.pos >= len(r.data) || r.data[r.pos] != ':' {
		return r.Fail("expected ':'")
	}
	r.pos++
	if string(text) == "@type" {
		return r.Fail("autoType is not supported")
	}
	r.bareKey = c0 != '"' && c0 != '\''
	r.nullKey = r.bareKey && string(text) == "null"
	switch {
	case keys == propertyKeys:
		return fn(r.property(text, !r.bareKey))
	case r.bareKey:
		return fn(string(text))
	}
	return fn(validUTF8(string(text)))
}

// NullKey tells whether the member being read has a bare null key (a
// null in Java, which a ConcurrentHashMap refuses).
func (r *Reader) NullKey() bool { return r.nullKey }

// keyText reads a key as its text: a slice of the body unless it is a
// quoted string with escapes; invalid UTF-8 in a quoted key is left for
// the caller to replace.
func (r *Reader) keyText(keys keyKind) ([]byte, error) {
	switch c := r.Peek(); {
	case c == '"' || c == '\'':
		start := r.pos
		text, err := r.quotedBytes()
		if err == nil && bytes.IndexByte(r.data[start:r.pos], eoi) >= 0 {
			return nil, r.Fail("unclosed string (fastjson reads a raw 0x1A in a key as the end of the input)")
		}
		return text, err
	case c == '{' || c == '[':
		start := r.pos
		if err := r.Skip(); err != nil {
			return nil, err
		}
		return r.data[start:r.pos], nil
	}
	start := r.pos
	bare := isIdentifierByte
	if !keys.identifiers() {
		bare = isBareKeyByte
	}
	for r.pos < len(r.data) && bare(r.data[r.pos]) {
		r.pos++
	}
	if r.pos == start {
		return nil, r.Fail("expected a key")
	}
	return r.data[start:r.pos], nil
}

// maxProps bounds how many property names a reader remembers.
const maxProps = 64

// property is Property of a bean's key text, remembered by the reader: a
// body of many beans (10,000 topic configs) spells the same few names
// again and again, in the same order, so each is normalized, and copied,
// once, and each is found at once after the one before it.
func (r *Reader) property(text []byte, quoted bool) string {
	for i := range r.props {
		j := (r.nextProp + i) % len(r.props)
		if string(text) == r.props[j].text {
			r.nextProp = j + 1
			return r.props[j].prop
		}
	}
	key := string(text)
	if quoted {
		key = validUTF8(key)
	}
	p := Property(key)
	if len(r.props) < maxProps && utf8.Valid(text) {
		r.props = append(r.props, propName{key, p})
		r.nextProp = len(r.props)
	}
	return p
}

func isIdentifierStart(c byte) bool {
	return c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}

func isIdentifierByte(c byte) bool { return isIdentifierStart(c) || c >= '0' && c <= '9' }

func isBareKeyByte(c byte) bool {
	return c == '_' || c == '$' || c == '-' || c == '+' || c == '.' ||
		(c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}

// Array reads an array, calling fn positioned before each element.
func (r *Reader) Array(fn func() error) error {
	if r.Peek() != '[' {
		return r.Fail("expected '['")
	}
	if err := r.enterArray(); err != nil {
		return err
	}
	r.pos++
	for {
		if r.Peek() == ']' {
			r.pos++
			r.leaveArray()
			return nil
		}
		if err := fn(); err != nil {
			return err
		}
		switch r.Peek() {
		case ',':
			r.pos++
		case ']':
		default:
			return r.Fail("expected ',' or ']'")
		}
	}
}

// Skip consumes any value, as fastjson parses one it has no property for.
func (r *Reader) Skip() error {
	switch c := r.Peek(); {
	case c == '{':
		return r.AnyMap(func(string) error { return r.Skip() })
	case c == '[':
		return r.skipArray()
	case c == '"' || c == '\'':
		_, err := r.quoted()
		return err
	case c == 0:
		return r.Fail("unexpected end")
	}
	return r.skipBare()
}

// skipArray consumes an array whose elements nothing reads: commas may
// lead and repeat.
func (r *Reader) skipArray() error {
	if err := r.enterArray(); err != nil {
		return err
	}
	r.pos++
	for {
		switch r.Peek() {
		case ']':
			r.pos++
			r.leaveArray()
			return nil
		case ',':
			r.pos++
			continue
		}
		if err := r.Skip(); err != nil {
			return err
		}
		if c := r.Peek(); c != ',' && c != ']' {
			return r.Fail("expected ',' or ']'")
		}
	}
}

// bareValue is what fastjson's parser takes unquoted: a number or one of
// its literals. A number starts with a digit or a sign: -.5 is a number,
// .5 a syntax error.
var bareValue = regexp.MustCompile(`^(true|false|null|undefined|NaN|([+-]?\d+\.?\d*|[+-]\.\d+)([eE][+-]?\d+)?[LSBFD]?)$`)

// skipBare consumes a bare value, or new Date(n).
func (r *Reader) skipBare() error {
	if r.literal("new") {
		r.skipWhite()
		if !r.literal("Date") || r.Peek() != '(' {
			return r.Fail("bad new")
		}
		r.pos++
		if err := r.skipBare(); err != nil {
			return err
		}
		if r.Peek() != ')' {
			return r.Fail("expected ')'")
		}
		r.pos++
		return nil
	}
	start := r.pos
	for r.pos < len(r.data) && isBareKeyByte(r.data[r.pos]) {
		r.pos++
	}
	if tok := r.data[start:r.pos]; !isDecimal(tok) && !bareValue.Match(tok) {
		r.pos = start
		return r.Fail("unexpected character")
	}
	return nil
}

// IsRef tells whether the next value is a fastjson reference,
// {"$ref":"..."}: Java reads there an object met earlier in the body.
func (r *Reader) IsRef() bool {
	if r.Peek() != '{' {
		return false
	}
	save := r.pos
	defer func() { r.pos = save }()
	r.pos++
	if c := r.Peek(); c != '"' && c != '\'' {
		return false
	}
	key, err := r.quoted()
	return err == nil && key == "$ref"
}

// Try reads the value at the reader's position with fn. When fn fails on
// a value that is well-formed JSON, the reader skips that value and Try
// returns fn's error as bad, so the caller can go on with the next one;
// a value that is not JSON at all is err.
func (r *Reader) Try(fn func() error) (bad, err error) {
	start, depth, arrays := r.pos, r.depth, r.arrayDepth
	if bad = fn(); bad == nil {
		return nil, nil
	}
	r.pos, r.depth, r.arrayDepth = start, depth, arrays
	return bad, r.Skip()
}

// Property normalizes a bean property name as fastjson's smart match
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
