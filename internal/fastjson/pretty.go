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
// A java.util.List field is printed by ListSerializer, which breaks lines
// between its elements; Pretty cannot tell a List from a Set or an array
// in the compact form, so PrettyLists takes the names of the List
// properties. One fastjson case is not reproduced because the config
// documents do not produce it: a bean whose getters all return null (Java
// writes "{", a blank indented line and "}", this writes {}).
//
// Whitespace outside strings in compact is dropped, so Pretty of its
// own output gives the same bytes back. It returns ErrMalformed when
// strings or brackets do not balance; dst is returned unchanged then.
func Pretty(dst, compact []byte) ([]byte, error) { return PrettyLists(dst, compact) }

// PrettyLists is Pretty where the arrays that are the values of the bean
// properties named in lists are java.util.List fields, which fastjson's
// ListSerializer prints one element a line, one tab deeper than the
// property, the closing bracket on a line of its own (an empty List is []):
//
//	{"o":[5,1,3]} with lists "o" becomes
//
//	{
//	→"o":[
//	→→5,
//	→→1,
//	→→3
//	→]
//	}
func PrettyLists(dst, compact []byte, lists ...string) ([]byte, error) {
	p := prettyPrinter{out: dst, in: compact, lists: lists}
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
	stack []byte // '{', '[' or listOpen of each open container
	depth int    // open objects and Lists: the indentation of the next member
	// lists are the names of the List properties; key is the last
	// quoted key read in an object.
	lists []string
	key   []byte
}

// listOpen marks an open List on the stack.
const listOpen = 'L'

func (p *prettyPrinter) run() error {
	for p.skipSpace() {
		c := p.in[p.pos]
		p.pos++
		if c != ':' && c != '[' {
			p.key = nil // a key is followed by ':' and its value
		}
		var err error
		switch c {
		case '"', '\'':
			err = p.copyString(c)
		case '{':
			err = p.open()
		case '[':
			p.openArray()
		case '}', ']':
			err = p.close(c)
		case ',':
			p.out = append(p.out, ',')
			p.breakBeforeMember()
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
	p.breakBeforeMember()
	return nil
}

// openArray starts an array: inline, or a List when it is the value of a
// property named in lists.
func (p *prettyPrinter) openArray() {
	p.out = append(p.out, '[')
	list := p.inList()
	p.key = nil
	if !list {
		p.stack = append(p.stack, '[')
		return
	}
	if p.skipSpace() && p.in[p.pos] == ']' {
		p.pos++
		p.out = append(p.out, ']')
		return
	}
	p.stack = append(p.stack, listOpen)
	p.depth++
	p.newline(p.depth)
}

// inList tells whether the array being opened is a List property's value.
func (p *prettyPrinter) inList() bool {
	if n := len(p.stack); n == 0 || p.stack[n-1] != '{' || p.key == nil {
		return false
	}
	for _, name := range p.lists {
		if string(p.key) == name {
			return true
		}
	}
	return false
}

// breakBeforeMember starts a new line before a quoted key of an object and
// before every element of a List.
func (p *prettyPrinter) breakBeforeMember() {
	n := len(p.stack)
	switch {
	case n == 0:
	case p.stack[n-1] == listOpen:
		p.newline(p.depth)
	case p.stack[n-1] == '{' && p.skipSpace() && (p.in[p.pos] == '"' || p.in[p.pos] == '\''):
		p.newline(p.depth)
	}
}

func (p *prettyPrinter) close(c byte) error {
	n := len(p.stack)
	if n == 0 || (c == '}') != (p.stack[n-1] == '{') {
		return p.fail("unbalanced bracket")
	}
	top := p.stack[n-1]
	p.stack = p.stack[:n-1]
	if top != '[' {
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
			p.key = p.in[start+1 : p.pos-1]
			return nil
		}
	}
	return p.fail("unterminated string")
}

func (p *prettyPrinter) fail(what string) error {
	r := Reader{data: p.in, pos: p.pos}
	return r.Fail(what)
}
