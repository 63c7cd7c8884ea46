package remoting

import (
	"strconv"
	"strings"
)

// The fast path of the JSON header decoder. Java clients send every header
// in the one shape fastjson writes (see header_json.go):
//
//	{"code":310,"extFields":{"a":"group","b":"TopicTest",...},"flag":0,"language":"JAVA","opaque":7,"serializeTypeCurrentRPC":"JSON","version":409}
//
// with ASCII strings (escaped where fastjson escapes). decodeJSONHeaderFast
// reads exactly that shape with one allocation for the text (keys and
// values are slices of one string), one for the ExtFields list and one per
// value with escapes, and gives up
// (ok false, c untouched as far as the caller cares) on anything else:
// bytes outside printable ASCII, surrogate escapes, numbers other than
// plain integers, null, nested values, unknown or differently cased keys,
// text after the object. The caller then decodes with the general
// (jsoniter) path, whose result is the reference: FuzzJSONHeaderFastPath
// checks that whenever the fast path accepts, both agree.
//
// A key or value kept from ExtFields holds the header's text (a few hundred
// bytes) alive; the tables copy what they keep for long.

// decodeJSONHeaderFast decodes data into c when it has the common shape.
func decodeJSONHeaderFast(data []byte, c *Command) bool {
	p := fastHeaderParser{s: string(data)}
	var h Command
	if !p.object(&h) {
		return false
	}
	*c = h
	return true
}

// fastHeaderParser walks a header's text; every method returns false when
// the text leaves the common shape.
type fastHeaderParser struct {
	s string
	i int
}

// object reads the whole header object and checks nothing but spaces
// follow it.
func (p *fastHeaderParser) object(c *Command) bool {
	if !p.expect('{') {
		return false
	}
	if p.peek() == '}' {
		p.i++
		return p.atEnd()
	}
	for {
		key, ok := p.str()
		if !ok || !p.expect(':') || !p.field(key, c) {
			return false
		}
		switch p.next() {
		case ',':
			continue
		case '}':
			return p.atEnd()
		default:
			return false
		}
	}
}

// field reads the value of one header key into c.
func (p *fastHeaderParser) field(key string, c *Command) bool {
	var ok bool
	switch key {
	case "code":
		c.Code, ok = p.int32()
	case "flag":
		c.Flag, ok = p.int32()
	case "opaque":
		c.Opaque, ok = p.int32()
	case "version":
		c.Version, ok = p.int32()
	case "language":
		var s string
		if s, ok = p.str(); ok {
			c.Language, c.LanguageKnown = parseJSONLanguage(s)
		}
	case "remark":
		c.Remark, ok = p.str()
		c.HasRemark = ok
	case "serializeTypeCurrentRPC":
		_, ok = p.str()
	case "extFields":
		c.ExtFields, ok = p.fields()
	}
	return ok
}

// fields reads extFields: string keys to string values.
func (p *fastHeaderParser) fields() (ExtFields, bool) {
	if !p.expect('{') {
		return nil, false
	}
	f := make(ExtFields, 0, 16)
	if p.peek() == '}' {
		p.i++
		return f, true
	}
	for {
		k, ok := p.str()
		if !ok || !p.expect(':') {
			return nil, false
		}
		v, ok := p.str()
		if !ok {
			return nil, false
		}
		f = append(f, ExtField{k, v})
		switch p.next() {
		case ',':
			continue
		case '}':
			return f, true
		default:
			return nil, false
		}
	}
}

// str reads a string of printable ASCII; escapes (\" \\ \/ \b \f \n \r
// \t and \u outside the surrogates, as fastjson writes the 0x01 and 0x02
// of message properties) are decoded into a new string.
func (p *fastHeaderParser) str() (string, bool) {
	if !p.expect('"') {
		return "", false
	}
	start := p.i
	for ; p.i < len(p.s); p.i++ {
		b := p.s[p.i]
		if b == '"' {
			s := p.s[start:p.i]
			p.i++
			return s, true
		}
		if b == '\\' {
			return p.escapedStr(start)
		}
		if b < 0x20 || b >= 0x7f {
			return "", false
		}
	}
	return "", false
}

// escapedStr finishes a string that has escapes, from its first escape at
// p.i; start is where its text began. The decoded text is built in one
// allocation: no escape decodes to more bytes than it takes, so the raw
// text up to the closing quote bounds it.
func (p *fastHeaderParser) escapedStr(start int) (string, bool) {
	var sb strings.Builder
	sb.Grow(p.rawStrEnd() - start)
	sb.WriteString(p.s[start:p.i])
	for p.i < len(p.s) {
		b := p.s[p.i]
		switch {
		case b == '"':
			p.i++
			return sb.String(), true
		case b == '\\':
			if !p.unescape(&sb) {
				return "", false
			}
		case b < 0x20 || b >= 0x7f:
			return "", false
		default:
			sb.WriteByte(b)
			p.i++
		}
	}
	return "", false
}

// rawStrEnd is where the string being read at p.i ends: its closing
// quote, or the end of the text when it has none.
func (p *fastHeaderParser) rawStrEnd() int {
	for i := p.i; i < len(p.s); i++ {
		switch p.s[i] {
		case '"':
			return i
		case '\\':
			i++
		}
	}
	return len(p.s)
}

// unescape writes the character of the escape at p.i to sb.
func (p *fastHeaderParser) unescape(sb *strings.Builder) bool {
	if p.i+1 >= len(p.s) {
		return false
	}
	c := p.s[p.i+1]
	p.i += 2
	switch c {
	case '"', '\\', '/':
		sb.WriteByte(c)
	case 'b':
		sb.WriteByte('\b')
	case 'f':
		sb.WriteByte('\f')
	case 'n':
		sb.WriteByte('\n')
	case 'r':
		sb.WriteByte('\r')
	case 't':
		sb.WriteByte('\t')
	case 'u':
		if p.i+4 > len(p.s) {
			return false
		}
		r, err := strconv.ParseUint(p.s[p.i:p.i+4], 16, 32)
		if err != nil || (r >= 0xD800 && r <= 0xDFFF) {
			return false
		}
		p.i += 4
		sb.WriteRune(rune(r))
	default:
		return false
	}
	return true
}

// int32 reads a plain integer (an optional minus, no leading zeros) that
// fits in 32 bits.
func (p *fastHeaderParser) int32() (int32, bool) {
	p.skipSpaces()
	start := p.i
	if p.i < len(p.s) && p.s[p.i] == '-' {
		p.i++
	}
	digits := p.i
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
	}
	n := p.i - digits
	if n == 0 || n > 10 || (n > 1 && p.s[digits] == '0') {
		return 0, false
	}
	v, err := strconv.ParseInt(p.s[start:p.i], 10, 32)
	return int32(v), err == nil
}

// expect skips spaces and reads b.
func (p *fastHeaderParser) expect(b byte) bool {
	if p.peek() != b {
		return false
	}
	p.i++
	return true
}

// next skips spaces and reads one byte (0 at the end).
func (p *fastHeaderParser) next() byte {
	b := p.peek()
	if p.i < len(p.s) {
		p.i++
	}
	return b
}

// peek skips spaces and returns the next byte (0 at the end).
func (p *fastHeaderParser) peek() byte {
	p.skipSpaces()
	if p.i >= len(p.s) {
		return 0
	}
	return p.s[p.i]
}

// atEnd reports whether only spaces are left.
func (p *fastHeaderParser) atEnd() bool {
	p.skipSpaces()
	return p.i == len(p.s)
}

func (p *fastHeaderParser) skipSpaces() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}
