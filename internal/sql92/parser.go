package sql92

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// Expr is a compiled expression.
type Expr struct {
	root node
	src  string
}

// Dialect selects a line's grammar.
type Dialect int

const (
	// Dialect4 is 4.9's grammar.
	Dialect4 Dialect = 4
	// Dialect5 adds CONTAINS, STARTSWITH and ENDSWITH.
	Dialect5 Dialect = 5
)

// Compile parses an expression as SelectorParser.parse does; the error is
// an *Error.
func Compile(src string, d Dialect) (*Expr, error) {
	p := &parser{lex: lexer{src: src, stringOps: d >= Dialect5}}
	if err := p.advance(); err != nil {
		return nil, err
	}
	root, err := p.orExpr()
	if err != nil {
		return nil, err
	}
	if p.tok.kind != tokEOF {
		return nil, p.unexpected()
	}
	if root, err = asBoolean(root); err != nil {
		return nil, err
	}
	return &Expr{root: root, src: src}, nil
}

// String is the source text.
func (e *Expr) String() string { return e.src }

// Evaluate returns TRUE, FALSE or nil (unknown); an error where Java's
// evaluation throws.
func (e *Expr) Evaluate(p Properties) (any, error) { return e.root.eval(p) }

// Match tells whether a message with these properties is wanted: only a
// TRUE result is (unknown and failed evaluations are not).
func (e *Expr) Match(p Properties) bool {
	v, err := e.root.eval(p)
	b, ok := v.(bool)
	return err == nil && ok && b
}

// parser is a recursive-descent parser over the lexer, one token ahead.
type parser struct {
	lex  lexer
	tok  token
	peek *token
}

func (p *parser) advance() error {
	if p.peek != nil {
		p.tok, p.peek = *p.peek, nil
		return nil
	}
	t, err := p.lex.next()
	if err != nil {
		return err
	}
	p.tok = t
	return nil
}

// lookahead returns the token after the current one.
func (p *parser) lookahead() (token, error) {
	if p.peek == nil {
		t, err := p.lex.next()
		if err != nil {
			return token{}, err
		}
		p.peek = &t
	}
	return *p.peek, nil
}

func (p *parser) is(k tokenKind, text string) bool {
	return p.tok.kind == k && (text == "" || p.tok.text == text)
}

func (p *parser) expect(k tokenKind, text string) error {
	if !p.is(k, text) {
		return p.unexpected()
	}
	return p.advance()
}

func (p *parser) unexpected() error {
	return parseError(fmt.Sprintf("Encountered \" %s \" at line 1, column %d.", strconv.Quote(p.tok.describe()), p.tok.column))
}

func (p *parser) orExpr() (node, error) {
	return p.chain(tokOr, false, p.andExpr)
}

func (p *parser) andExpr() (node, error) {
	return p.chain(tokAnd, true, p.equality)
}

// chain parses operand (op operand)* into left-nested logic nodes.
func (p *parser) chain(op tokenKind, and bool, operand func() (node, error)) (node, error) {
	left, err := operand()
	if err != nil {
		return nil, err
	}
	for p.is(op, "") {
		if err := p.advance(); err != nil {
			return nil, err
		}
		right, err := operand()
		if err != nil {
			return nil, err
		}
		l, err := asBoolean(left)
		if err != nil {
			return nil, err
		}
		r, err := asBoolean(right)
		if err != nil {
			return nil, err
		}
		left = logic{and: and, l: l, r: r}
	}
	return left, nil
}

func (p *parser) equality() (node, error) {
	left, err := p.comparison()
	if err != nil {
		return nil, err
	}
	for {
		switch {
		case p.is(tokPunct, "=") || p.is(tokPunct, "<>"):
			neq := p.tok.text == "<>"
			if err := p.advance(); err != nil {
				return nil, err
			}
			right, err := p.comparison()
			if err != nil {
				return nil, err
			}
			if left, err = createEqual(left, right); err != nil {
				return nil, err
			}
			if neq {
				left = not{left}
			}
		case p.is(tokIs, ""):
			if err := p.advance(); err != nil {
				return nil, err
			}
			negated := p.is(tokNot, "")
			if negated {
				if err := p.advance(); err != nil {
					return nil, err
				}
			}
			if err := p.expect(tokNull, ""); err != nil {
				return nil, err
			}
			left = equal{l: left, r: constant{v: nil, isBoolean: true}}
			if negated {
				left = not{left}
			}
		default:
			return left, nil
		}
	}
}

func (p *parser) comparison() (node, error) {
	left, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		negated := false
		if p.is(tokNot, "") {
			next, err := p.lookahead()
			if err != nil {
				return nil, err
			}
			switch next.kind {
			case tokBetween, tokIn, tokContains, tokStartsWith, tokEndsWith:
				negated = true
				if err := p.advance(); err != nil {
					return nil, err
				}
			default:
				return left, nil
			}
		}
		var done bool
		if left, done, err = p.comparisonTail(left, negated); err != nil || done {
			return left, err
		}
	}
}

// comparisonTail parses one operator after left; done when there is none.
func (p *parser) comparisonTail(left node, negated bool) (node, bool, error) {
	switch {
	case !negated && p.tok.kind == tokPunct && (p.tok.text == ">" || p.tok.text == ">=" || p.tok.text == "<" || p.tok.text == "<="):
		op := p.tok.text
		if err := p.advance(); err != nil {
			return nil, false, err
		}
		right, err := p.unary()
		if err != nil {
			return nil, false, err
		}
		n, err := createComparison(op, left, right)
		return n, false, err
	case p.is(tokBetween, ""):
		n, err := p.between(left, negated)
		return n, false, err
	case p.is(tokIn, ""):
		n, err := p.inList(left, negated)
		return n, false, err
	case p.is(tokContains, "") || p.is(tokStartsWith, "") || p.is(tokEndsWith, ""):
		op := strings.ToUpper(p.tok.text)
		if err := p.advance(); err != nil {
			return nil, false, err
		}
		search, err := p.stringLiteral()
		if err != nil {
			return nil, false, err
		}
		return stringOp{op: op, x: left, search: search, not: negated}, false, nil
	}
	return left, true, nil
}

func (p *parser) between(value node, negated bool) (node, error) {
	if err := p.advance(); err != nil {
		return nil, err
	}
	low, err := p.unary()
	if err != nil {
		return nil, err
	}
	if err := p.expect(tokAnd, ""); err != nil {
		return nil, err
	}
	high, err := p.unary()
	if err != nil {
		return nil, err
	}
	if negated {
		lt, err := createComparison("<", value, low)
		if err != nil {
			return nil, err
		}
		gt, err := createComparison(">", value, high)
		if err != nil {
			return nil, err
		}
		return logic{l: lt, r: gt}, nil
	}
	if err := checkBetweenBounds(low, high); err != nil {
		return nil, err
	}
	ge, err := createComparison(">=", value, low)
	if err != nil {
		return nil, err
	}
	le, err := createComparison("<=", value, high)
	if err != nil {
		return nil, err
	}
	return logic{and: true, l: ge, r: le}, nil
}

// checkBetweenBounds is createBetween's check of two constant bounds.
func checkBetweenBounds(low, high node) error {
	lc, lok := low.(constant)
	hc, hok := high.(constant)
	if !lok || !hok {
		return nil
	}
	if lc.v == nil || hc.v == nil {
		return runtimeError("Illegal values of between, values can not be null!")
	}
	if n, err := compare(hc.v, lc.v); err == nil && n < 0 {
		return runtimeError(fmt.Sprintf("Illegal values of between, left value(%s) must less than or equal to right value(%s)", javaValue(lc.v), javaValue(hc.v)))
	}
	return nil
}

func (p *parser) inList(left node, negated bool) (node, error) {
	if err := p.advance(); err != nil {
		return nil, err
	}
	if err := p.expect(tokPunct, "("); err != nil {
		return nil, err
	}
	var list []string
	for {
		s, err := p.stringLiteral()
		if err != nil {
			return nil, err
		}
		list = append(list, s)
		if !p.is(tokPunct, ",") {
			break
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
	}
	if err := p.expect(tokPunct, ")"); err != nil {
		return nil, err
	}
	if _, ok := left.(property); !ok {
		return nil, runtimeError("Expected a property for In expression, got: " + left.String())
	}
	values := make(map[string]bool, len(list))
	for _, s := range list {
		values[s] = true
	}
	return in{prop: left, values: values, not: negated, list: list}, nil
}

func (p *parser) stringLiteral() (string, error) {
	if p.tok.kind != tokString {
		return "", p.unexpected()
	}
	s := p.tok.text
	return s, p.advance()
}

func (p *parser) unary() (node, error) {
	switch {
	case p.is(tokPunct, "+"):
		if err := p.advance(); err != nil {
			return nil, err
		}
		return p.unary()
	case p.is(tokPunct, "-"):
		if err := p.advance(); err != nil {
			return nil, err
		}
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		return negate{x}, nil
	case p.is(tokNot, ""):
		if err := p.advance(); err != nil {
			return nil, err
		}
		x, err := p.unary()
		if err != nil {
			return nil, err
		}
		b, err := asBoolean(x)
		if err != nil {
			return nil, err
		}
		return not{b}, nil
	}
	return p.primary()
}

func (p *parser) primary() (node, error) {
	t := p.tok
	var n node
	switch t.kind {
	case tokString:
		n = constant{v: t.text}
	case tokDecimal:
		v, err := decimalValue(t.text)
		if err != nil {
			return nil, err
		}
		n = constant{v: v}
	case tokFloat:
		v, err := floatValue(t.text)
		if err != nil {
			return nil, err
		}
		n = constant{v: v}
	case tokTrue, tokFalse:
		n = constant{v: t.kind == tokTrue, isBoolean: true}
	case tokNull:
		n = constant{v: nil, isBoolean: true}
	case tokID:
		n = property{name: t.text}
	case tokPunct:
		if t.text != "(" {
			return nil, p.unexpected()
		}
		if err := p.advance(); err != nil {
			return nil, err
		}
		inner, err := p.orExpr()
		if err != nil {
			return nil, err
		}
		return inner, p.expect(tokPunct, ")")
	default:
		return nil, p.unexpected()
	}
	return n, p.advance()
}

// decimalValue is createFromDecimal: an Integer when it fits, else a Long.
func decimalValue(text string) (any, error) {
	text = strings.TrimRight(text, "lL")
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return nil, &Error{JavaClass: "java.lang.NumberFormatException", Message: "For input string: \"" + text + "\""}
	}
	if n >= math.MinInt32 && n <= math.MaxInt32 {
		return int32(n), nil
	}
	return n, nil
}

// floatValue is createFloat, which refuses anything below
// Double.MIN_VALUE, 0.0 included.
func floatValue(text string) (any, error) {
	d, err := strconv.ParseFloat(text, 64)
	if err != nil && !math.IsInf(d, 0) {
		return nil, &Error{JavaClass: "java.lang.NumberFormatException", Message: "For input string: \"" + text + "\""}
	}
	if d > math.MaxFloat64 {
		return nil, runtimeError(text + " is greater than 1.7976931348623157E308")
	}
	if d < math.SmallestNonzeroFloat64 {
		return nil, runtimeError(text + " is less than 4.9E-324")
	}
	return d, nil
}

// asBoolean is the parser's asBooleanExpression.
func asBoolean(n node) (node, error) {
	if n.boolean() {
		return n, nil
	}
	if _, ok := n.(property); ok {
		return boolCast{n}, nil
	}
	return nil, parseError("Expression will not result in a boolean value: " + n.String())
}

// createEqual checks the operands as Java does.
func createEqual(l, r node) (node, error) {
	for _, x := range []node{l, r} {
		if c, ok := x.(constant); ok && c.v == nil {
			return nil, runtimeError("'" + x.String() + "' cannot be compared.")
		}
	}
	lc, lok := l.(constant)
	_, rok := r.(constant)
	if lok && rok && lc.isBoolean && !r.boolean() {
		return nil, runtimeError("'" + l.String() + "' cannot be compared with '" + r.String() + "'")
	}
	return equal{l: l, r: r}, nil
}

// createComparison checks that neither side is a non-number constant or
// a condition.
func createComparison(op string, l, r node) (node, error) {
	for _, x := range []node{l, r} {
		if c, ok := x.(constant); ok {
			switch c.v.(type) {
			case int32, int64, float64:
				continue
			}
			return nil, runtimeError("Value '" + x.String() + "' cannot be compared.")
		}
		if x.boolean() {
			return nil, runtimeError("Value '" + x.String() + "' cannot be compared.")
		}
	}
	return comparison{op: op, l: l, r: r}, nil
}

// javaValue prints a constant's value as Java's toString does.
func javaValue(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return string(fastjson.AppendJavaDouble(nil, x))
	case bool:
		return strconv.FormatBool(x)
	}
	return strconv.FormatInt(toInt64(v), 10)
}
