package fastjson

// Pretty turns the compact fastjson form written by this package's
// encoders into what fastjson 1.2.x writes for the same object with
// SerializerFeature.PrettyFormat, the form ConfigManager.persist writes to
// the config files (on-disk format: do not change):
//
//	{"dataVersion":{"counter":1,"timestamp":1700000000000},"offsetTable":{"T@g":{0:12,1:7}},"m":{},"s":["a","b"],"l":[{"x":1}]}
//
// becomes (tabs shown as →)
//
//	{
//	→"dataVersion":{
//	→→"counter":1,
//	→→"timestamp":1700000000000
//	→},
//	→"offsetTable":{
//	→→"T@g":{0:12,1:7
//	→→}
//	→},
//	→"m":{},
//	→"s":["a","b"],
//	→"l":[{
//	→→"x":1
//	→}]
//	}
//
// The rules, from fastjson's JavaBeanSerializer and MapSerializer:
//
//   - every non-empty object: a member with a quoted (String) key starts on
//     a new line indented one tab deeper than the object's closing brace,
//     which itself goes on a new line;
//   - a member with a bare (Integer/Long) key stays on the current line, so
//     an integer-keyed map prints as {0:12,1:7 then a new line and the
//     closing brace; no space after ':' anywhere;
//   - an empty object prints as {};
//   - arrays print inline with no line breaks and no extra indentation, as
//     fastjson's CollectionCodec (Set) and PrimitiveArraySerializer (int[],
//     long[]) do; an object inside an array still breaks its members,
//     indented one tab deeper than the enclosing object's members' depth;
//   - no trailing newline.
//
// Two fastjson cases are not reproduced because the config documents do
// not produce them: a java.util.List field (ListSerializer breaks lines
// between elements), and a bean whose getters all return null (Java writes
// "{", a blank indented line and "}", this writes {}).
//
// Whitespace outside strings in compact is dropped, so Pretty of its
// own output gives the same bytes back. It returns ErrMalformed when
// strings or brackets do not balance; dst is returned unchanged then.
func Pretty(dst, compact []byte) ([]byte, error) {
	p := prettyPrinter{out: dst, in: compact}
	start := len(dst)
	if err := p.run(); err != nil {
		return dst[:start], err
	}
	return p.out, nil
}

// prettyPrinter is the state of one Pretty call.
type prettyPrinter struct {
	out   []byte
	in    []byte
	pos   int
	stack []byte // '{' or '[' of each open container
	depth int    // open objects: the indentation of the next member
}

func (p *prettyPrinter) run() error {
	for p.skipSpace() {
		c := p.in[p.pos]
		p.pos++
		var err error
		switch c {
		case '"', '\'':
			err = p.copyString(c)
		case '{':
			err = p.open()
		case '[':
			p.stack = append(p.stack, '[')
			p.out = append(p.out, '[')
		case '}', ']':
			err = p.close(c)
		case ',':
			p.out = append(p.out, ',')
			p.breakBeforeKey()
		default:
			p.out = append(p.out, c)
		}
		if err != nil {
			return err
		}
	}
	if len(p.stack) != 0 {
		return p.fail("unclosed bracket")
	}
	return nil
}

// skipSpace moves past whitespace and reports whether input remains.
func (p *prettyPrinter) skipSpace() bool {
	for p.pos < len(p.in) {
		switch p.in[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return true
		}
	}
	return false
}

// open starts an object: {} when empty, else a new level.
func (p *prettyPrinter) open() error {
	if p.skipSpace() && p.in[p.pos] == '}' {
		p.pos++
		p.out = append(p.out, '{', '}')
		return nil
	}
	p.stack = append(p.stack, '{')
	p.depth++
	p.out = append(p.out, '{')
	p.breakBeforeKey()
	return nil
}

// breakBeforeKey starts a new line before a quoted key of an object.
func (p *prettyPrinter) breakBeforeKey() {
	if n := len(p.stack); n == 0 || p.stack[n-1] != '{' {
		return
	}
	if p.skipSpace() && (p.in[p.pos] == '"' || p.in[p.pos] == '\'') {
		p.newline(p.depth)
	}
}

func (p *prettyPrinter) close(c byte) error {
	n := len(p.stack)
	if n == 0 || (c == '}') != (p.stack[n-1] == '{') {
		return p.fail("unbalanced bracket")
	}
	p.stack = p.stack[:n-1]
	if c == '}' {
		p.depth--
		p.newline(p.depth)
	}
	p.out = append(p.out, c)
	return nil
}

func (p *prettyPrinter) newline(indent int) {
	p.out = append(p.out, '\n')
	for i := 0; i < indent; i++ {
		p.out = append(p.out, '\t')
	}
}

// copyString copies a string literal whose opening quote q was consumed.
func (p *prettyPrinter) copyString(q byte) error {
	start := p.pos - 1
	for p.pos < len(p.in) {
		c := p.in[p.pos]
		p.pos++
		switch c {
		case '\\':
			p.pos++
		case q:
			p.out = append(p.out, p.in[start:p.pos]...)
			return nil
		}
	}
	return p.fail("unterminated string")
}

func (p *prettyPrinter) fail(what string) error {
	r := Reader{data: p.in, pos: p.pos}
	return r.Fail(what)
}
