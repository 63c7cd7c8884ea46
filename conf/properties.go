package conf

import (
	"errors"
	"fmt"
	"io"
	"os"
	"unicode/utf16"
	"unicode/utf8"
)

// ErrMalformedEscape is returned when a \u escape is not followed by four hex
// digits; Java's Properties.load throws IllegalArgumentException("Malformed
// \uxxxx encoding.") there and the startup dies.
var ErrMalformedEscape = errors.New(`conf: malformed \uxxxx encoding`)

// Origin says where a key was read: a file (or another source name such as
// "command line") and the 1-based line on which its entry starts. The zero
// Origin means "not from a source", i.e. a default.
type Origin struct {
	File string
	Line int
}

// String renders "file:line", "file" without a line, or "" for a default.
func (o Origin) String() string {
	switch {
	case o.File == "":
		return ""
	case o.Line == 0:
		return o.File
	default:
		return fmt.Sprintf("%s:%d", o.File, o.Line)
	}
}

// Entry is one key/value pair of a properties source and where it started.
type Entry struct {
	Key    string
	Value  string
	Origin Origin
}

// Properties is what java.util.Properties.load produces: keys mapped to raw
// (untrimmed) values. A later duplicate replaces the value and the origin of
// an earlier one, as in Java; Keys keeps the order of first appearance, which
// Java's Hashtable does not have, so output built from it is stable.
type Properties struct {
	entries []Entry
	index   map[string]int
}

// NewProperties returns an empty set.
func NewProperties() *Properties {
	return &Properties{index: make(map[string]int)}
}

// PropertiesFromMap builds a set from a map, every entry attributed to
// source (no line numbers), keys in sorted order.
func PropertiesFromMap(m map[string]string, source string) *Properties {
	p := NewProperties()
	for _, k := range sortedKeys(m) {
		p.Set(Entry{Key: k, Value: m[k], Origin: Origin{File: source}})
	}
	return p
}

// Set adds e or replaces the entry with the same key.
func (p *Properties) Set(e Entry) {
	if p.index == nil {
		p.index = make(map[string]int)
	}
	if i, ok := p.index[e.Key]; ok {
		p.entries[i] = e
		return
	}
	p.index[e.Key] = len(p.entries)
	p.entries = append(p.entries, e)
}

// Get returns the entry of key.
func (p *Properties) Get(key string) (Entry, bool) {
	if p == nil {
		return Entry{}, false
	}
	i, ok := p.index[key]
	if !ok {
		return Entry{}, false
	}
	return p.entries[i], true
}

// Value returns the raw value of key, or "" and false.
func (p *Properties) Value(key string) (string, bool) {
	e, ok := p.Get(key)
	return e.Value, ok
}

// Len is the number of distinct keys.
func (p *Properties) Len() int {
	if p == nil {
		return 0
	}
	return len(p.entries)
}

// Entries returns the entries in order of first appearance.
func (p *Properties) Entries() []Entry {
	if p == nil {
		return nil
	}
	return append([]Entry(nil), p.entries...)
}

// Map returns the key/value pairs.
func (p *Properties) Map() map[string]string {
	m := make(map[string]string, p.Len())
	for _, e := range p.Entries() {
		m[e.Key] = e.Value
	}
	return m
}

// LoadPropertiesFile reads a properties file as BrokerStartup and
// NamesrvStartup do (Properties.load of a FileInputStream).
func LoadPropertiesFile(path string) (*Properties, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("conf: read %s: %w", path, err)
	}
	return ParseProperties(data, path)
}

// LoadProperties reads all of r and parses it; source names it in origins
// and errors.
func LoadProperties(r io.Reader, source string) (*Properties, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("conf: read %s: %w", source, err)
	}
	return ParseProperties(data, source)
}

// ParseProperties parses data exactly as java.util.Properties.load(InputStream):
// bytes are ISO-8859-1 characters; a logical line is a natural line plus the
// lines its odd number of trailing backslashes continues to (their leading
// whitespace dropped); lines whose first non-blank character is '#' or '!'
// are comments; the key ends at the first unescaped '=', ':', space, tab or
// form feed, after which blanks, at most one '=' or ':', and blanks again are
// skipped; the rest of the line, trailing whitespace included, is the value.
// Escapes \t \n \r \f \uXXXX are decoded and a backslash before any other
// character stands for that character. A malformed \u escape is an error
// wrapping ErrMalformedEscape with source:line.
func ParseProperties(data []byte, source string) (*Properties, error) {
	p := NewProperties()
	lr := lineReader{data: data, line: 1}
	for {
		logical, line, ok := lr.next()
		if !ok {
			return p, nil
		}
		key, value, err := splitEntry(logical)
		if err != nil {
			return nil, fmt.Errorf("%w at %s", err, Origin{File: source, Line: line})
		}
		p.Set(Entry{Key: key, Value: value, Origin: Origin{File: source, Line: line}})
	}
}

// latin1 decodes ISO-8859-1 bytes: every byte is the code point of the same
// value.
func latin1(b []byte) []rune {
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c)
	}
	return r
}

func isBlank(c rune) bool { return c == ' ' || c == '\t' || c == '\f' }

// splitEntry splits a logical line into its decoded key and value.
func splitEntry(line []rune) (string, string, error) {
	keyLen, valueStart := 0, len(line)
	hasSep, escaped := false, false
	for keyLen < len(line) {
		c := line[keyLen]
		if (c == '=' || c == ':') && !escaped {
			valueStart, hasSep = keyLen+1, true
			break
		}
		if isBlank(c) && !escaped {
			valueStart = keyLen + 1
			break
		}
		escaped = c == '\\' && !escaped
		keyLen++
	}
	for valueStart < len(line) {
		c := line[valueStart]
		if !isBlank(c) {
			if hasSep || (c != '=' && c != ':') {
				break
			}
			hasSep = true
		}
		valueStart++
	}
	key, err := unescape(line[:keyLen])
	if err != nil {
		return "", "", err
	}
	value, err := unescape(line[valueStart:])
	if err != nil {
		return "", "", err
	}
	return key, value, nil
}

// unescape decodes Properties escapes (Java's loadConvert).
func unescape(in []rune) (string, error) {
	out := make([]rune, 0, len(in))
	for i := 0; i < len(in); i++ {
		c := in[i]
		if c != '\\' || i+1 >= len(in) {
			out = append(out, c)
			continue
		}
		i++
		switch c = in[i]; c {
		case 'u':
			r, err := hex4(in[i+1:])
			if err != nil {
				return "", err
			}
			out = append(out, r)
			i += 4
		case 't':
			out = append(out, '\t')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 'f':
			out = append(out, '\f')
		default:
			out = append(out, c)
		}
	}
	return string(joinSurrogates(out)), nil
}

// joinSurrogates combines UTF-16 surrogate pairs (two \u escapes) into one
// code point, as a Java String holding them would read.
func joinSurrogates(in []rune) []rune {
	out := in[:0]
	for i := 0; i < len(in); i++ {
		if i+1 < len(in) && utf16.IsSurrogate(in[i]) {
			if r := utf16.DecodeRune(in[i], in[i+1]); r != utf8.RuneError {
				out = append(out, r)
				i++
				continue
			}
		}
		out = append(out, in[i])
	}
	return out
}

// hex4 decodes the four hex digits of a \u escape into one UTF-16 code unit,
// as Java does; joinSurrogates pairs them up afterwards (a lone surrogate
// cannot be held by a Go string and becomes U+FFFD).
func hex4(in []rune) (rune, error) {
	if len(in) < 4 {
		return 0, ErrMalformedEscape
	}
	var v rune
	for _, c := range in[:4] {
		d, ok := hexDigit(c)
		if !ok {
			return 0, ErrMalformedEscape
		}
		v = v<<4 | d
	}
	return v, nil
}

func hexDigit(c rune) (rune, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}
