package sql92

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// ErrParse is what every compile error wraps.
var ErrParse = errors.New("sql92: invalid expression")

// errEval is a failed evaluation (Java throws; the message does not
// match).
var errEval = errors.New("sql92: evaluation failed")

// Error is a compile error with the Java exception it stands for, which
// the broker reports to the client.
type Error struct {
	// JavaClass is the exception class Java throws for this error.
	JavaClass string
	// Message is the exception's message.
	Message string
}

func (e *Error) Error() string { return "sql92: " + e.Message }

// Unwrap makes errors.Is(err, ErrParse) hold.
func (e *Error) Unwrap() error { return ErrParse }

// JavaText is the exception as Java's Throwable.toString prints it.
func (e *Error) JavaText() string { return e.JavaClass + ": " + e.Message }

func parseError(msg string) error {
	return &Error{JavaClass: "org.apache.rocketmq.filter.parser.ParseException", Message: msg}
}

func lexicalError(msg string) error {
	return &Error{JavaClass: "org.apache.rocketmq.filter.parser.TokenMgrError", Message: msg}
}

func runtimeError(msg string) error {
	return &Error{JavaClass: "java.lang.RuntimeException", Message: msg}
}

// Properties looks a message property up.
type Properties func(name string) (string, bool)

// node is an expression; eval returns nil (unknown), bool, int32, int64,
// float64 or string.
type node interface {
	eval(p Properties) (any, error)
	// boolean tells whether Java's class is a BooleanExpression.
	boolean() bool
	String() string
}

// constant is ConstantExpression; the TRUE, FALSE and NULL literals are
// BooleanConstantExpressions.
type constant struct {
	v         any
	isBoolean bool
}

func (c constant) eval(Properties) (any, error) { return c.v, nil }
func (c constant) boolean() bool                { return c.isBoolean }
func (c constant) String() string {
	switch v := c.v.(type) {
	case nil:
		return "NULL"
	case bool:
		if v {
			return "TRUE"
		}
		return "FALSE"
	case string:
		return "'" + strings.ReplaceAll(v, "'", "''") + "'"
	case float64:
		return string(fastjson.AppendJavaDouble(nil, v))
	}
	return strconv.FormatInt(toInt64(c.v), 10)
}

// property is PropertyExpression.
type property struct{ name string }

func (p property) eval(props Properties) (any, error) {
	if v, ok := props(p.name); ok {
		return v, nil
	}
	return nil, nil
}
func (p property) boolean() bool  { return false }
func (p property) String() string { return p.name }

// boolCast is createBooleanCast: a property used as a condition, TRUE
// only for a Boolean (never for a string property).
type boolCast struct{ x node }

func (b boolCast) eval(p Properties) (any, error) {
	v, err := b.x.eval(p)
	if err != nil || v == nil {
		return nil, err
	}
	bv, ok := v.(bool)
	return ok && bv, nil
}
func (b boolCast) boolean() bool  { return true }
func (b boolCast) String() string { return b.x.String() }

// not is createNOT.
type not struct{ x node }

func (n not) eval(p Properties) (any, error) {
	v, err := evalBool(n.x, p)
	if err != nil || v == nil {
		return nil, err
	}
	return !*v, nil
}
func (n not) boolean() bool  { return true }
func (n not) String() string { return "(NOT " + n.x.String() + ")" }

// negate is createNegate: a number negated, anything else unknown.
type negate struct{ x node }

func (n negate) eval(p Properties) (any, error) {
	v, err := n.x.eval(p)
	if err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case int32:
		return -x, nil
	case int64:
		return -x, nil
	case float64:
		return -x, nil
	}
	return nil, nil
}
func (n negate) boolean() bool  { return false }
func (n negate) String() string { return "(- " + n.x.String() + ")" }

// logic is LogicExpression: AND and OR in three-valued logic.
type logic struct {
	and  bool
	l, r node
}

func (lg logic) eval(p Properties) (any, error) {
	lv, err := evalBool(lg.l, p)
	if err != nil {
		return nil, err
	}
	// AND: a FALSE side decides; OR: a TRUE side decides.
	decides := !lg.and
	if lv != nil && *lv == decides {
		return decides, nil
	}
	rv, err := evalBool(lg.r, p)
	if err != nil {
		return nil, err
	}
	if rv != nil && *rv == decides {
		return decides, nil
	}
	if lv == nil || rv == nil {
		return nil, nil
	}
	return !decides, nil
}
func (lg logic) boolean() bool { return true }
func (lg logic) String() string {
	sym := "||"
	if lg.and {
		sym = "&&"
	}
	return "(" + lg.l.String() + " " + sym + " " + lg.r.String() + ")"
}

// evalBool evaluates a BooleanExpression: nil for unknown; a value that
// is not a boolean is Java's ClassCastException.
func evalBool(x node, p Properties) (*bool, error) {
	v, err := x.eval(p)
	if err != nil || v == nil {
		return nil, err
	}
	b, ok := v.(bool)
	if !ok {
		return nil, errEval
	}
	return &b, nil
}

// comparison is ComparisonExpression for > >= < <=.
type comparison struct {
	op   string
	l, r node
}

func (c comparison) eval(p Properties) (any, error) {
	lv, err := c.l.eval(p)
	if err != nil || lv == nil {
		return nil, err
	}
	rv, err := c.r.eval(p)
	if err != nil || rv == nil {
		return nil, err
	}
	if ls, ok := lv.(string); ok {
		if rs, ok := rv.(string); ok {
			// two strings compare as numbers or not at all
			ld, lok := javaParseDouble(ls)
			rd, rok := javaParseDouble(rs)
			if !lok || !rok {
				return nil, errEval
			}
			lv, rv = ld, rd
		}
	}
	n, err := compare(lv, rv)
	if err != nil {
		return nil, err
	}
	switch c.op {
	case ">":
		return n > 0, nil
	case ">=":
		return n >= 0, nil
	case "<":
		return n < 0, nil
	}
	return n <= 0, nil
}
func (c comparison) boolean() bool { return true }
func (c comparison) String() string {
	return "(" + c.l.String() + " " + c.op + " " + c.r.String() + ")"
}

// equal is doCreateEqual (also IS NULL against the NULL constant).
type equal struct{ l, r node }

func (e equal) eval(p Properties) (any, error) {
	lv, err := e.l.eval(p)
	if err != nil {
		return nil, err
	}
	rv, err := e.r.eval(p)
	if err != nil {
		return nil, err
	}
	if (lv == nil) != (rv == nil) {
		if lv == nil {
			return nil, nil
		}
		return false, nil
	}
	if lv == nil || javaEquals(lv, rv) {
		return true, nil
	}
	n, err := compare(lv, rv)
	if err != nil {
		return nil, err
	}
	return n == 0, nil
}
func (e equal) boolean() bool  { return true }
func (e equal) String() string { return "(" + e.l.String() + " == " + e.r.String() + ")" }

// in is UnaryInExpression: a string property among string literals.
type in struct {
	prop   node
	values map[string]bool
	not    bool
	list   []string
}

func (i in) eval(p Properties) (any, error) {
	v, err := i.prop.eval(p)
	if err != nil || v == nil {
		return nil, err
	}
	s, ok := v.(string)
	if !ok {
		return nil, nil
	}
	return i.values[s] != i.not, nil
}
func (i in) boolean() bool { return true }
func (i in) String() string {
	sym := " IN ( "
	if i.not {
		sym = " NOT IN ( "
	}
	return i.prop.String() + sym + strings.Join(i.list, ", ") + " )"
}

// stringOp is 5.x's CONTAINS, STARTSWITH and ENDSWITH: FALSE (not
// unknown) for a missing or non-string value or an empty search.
type stringOp struct {
	op     string
	x      node
	search string
	not    bool
}

func (s stringOp) eval(p Properties) (any, error) {
	if s.search == "" {
		return false, nil
	}
	v, err := s.x.eval(p)
	if err != nil {
		return nil, err
	}
	str, ok := v.(string)
	if !ok {
		return false, nil
	}
	var hit bool
	switch s.op {
	case "CONTAINS":
		hit = strings.Contains(str, s.search)
	case "STARTSWITH":
		hit = strings.HasPrefix(str, s.search)
	default:
		hit = strings.HasSuffix(str, s.search)
	}
	return hit != s.not, nil
}
func (s stringOp) boolean() bool { return true }
func (s stringOp) String() string {
	sym := s.op
	if s.not {
		sym = "NOT " + sym
	}
	return "(" + sym + " " + s.x.String() + ")"
}

// compare is ComparisonExpression.__compare with string conversion: the
// sides are brought to one type (numbers widen; a string becomes the
// other side's type; a boolean meets only a boolean) and compared.
func compare(lv, rv any) (int, error) {
	switch l := lv.(type) {
	case bool:
		switch r := rv.(type) {
		case bool:
			return boolCompare(l, r), nil
		case string:
			return 0, errEval // Java casts the Boolean to String
		}
		return -1, nil
	case int32:
		switch r := rv.(type) {
		case int32:
			return cmpOrdered(l, r), nil
		case int64:
			return cmpOrdered(int64(l), r), nil
		case float64:
			return javaDoubleCompare(float64(l), r), nil
		case string:
			n, err := strconv.ParseInt(r, 10, 32)
			if err != nil {
				return 0, errEval
			}
			return cmpOrdered(l, int32(n)), nil
		}
	case int64:
		switch r := rv.(type) {
		case int32:
			return cmpOrdered(l, int64(r)), nil
		case int64:
			return cmpOrdered(l, r), nil
		case float64:
			return javaDoubleCompare(float64(l), r), nil
		case string:
			n, err := strconv.ParseInt(r, 10, 64)
			if err != nil {
				return 0, errEval
			}
			return cmpOrdered(l, n), nil
		}
	case float64:
		switch r := rv.(type) {
		case int32:
			return javaDoubleCompare(l, float64(r)), nil
		case int64:
			return javaDoubleCompare(l, float64(r)), nil
		case float64:
			return javaDoubleCompare(l, r), nil
		case string:
			d, ok := javaParseDouble(r)
			if !ok {
				return 0, errEval
			}
			return javaDoubleCompare(l, d), nil
		}
	case string:
		return compareString(l, rv)
	}
	return -1, nil
}

// compareString compares a string with the other side, converting it to
// that side's type.
func compareString(l string, rv any) (int, error) {
	switch r := rv.(type) {
	case string:
		return strings.Compare(l, r), nil
	case bool:
		return boolCompare(strings.EqualFold(l, "true"), r), nil
	case int32:
		n, err := strconv.ParseInt(l, 10, 32)
		if err != nil {
			return 0, errEval
		}
		return cmpOrdered(int32(n), r), nil
	case int64:
		n, err := strconv.ParseInt(l, 10, 64)
		if err != nil {
			return 0, errEval
		}
		return cmpOrdered(n, r), nil
	case float64:
		d, ok := javaParseDouble(l)
		if !ok {
			return 0, errEval
		}
		return javaDoubleCompare(d, r), nil
	}
	return -1, nil
}

func cmpOrdered[T int32 | int64 | string](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func boolCompare(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// javaDoubleCompare is Double.compare: -0.0 below 0.0, NaN above all and
// equal to itself.
func javaDoubleCompare(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	ab, bb := int64(math.Float64bits(a)), int64(math.Float64bits(b))
	if math.IsNaN(a) {
		ab = 0x7ff8000000000000
	}
	if math.IsNaN(b) {
		bb = 0x7ff8000000000000
	}
	return cmpOrdered(ab, bb)
}

// javaEquals is Object.equals between two values of the same Java class.
func javaEquals(a, b any) bool {
	switch x := a.(type) {
	case float64:
		y, ok := b.(float64)
		return ok && javaDoubleCompare(x, y) == 0
	case bool, int32, int64, string:
		return a == b
	}
	return false
}

// javaParseDouble is Double.valueOf: surrounding white space, a d/f
// suffix, NaN and Infinity allowed.
func javaParseDouble(s string) (float64, bool) {
	s = strings.TrimFunc(s, func(r rune) bool { return r <= ' ' })
	switch strings.TrimLeft(s, "+-") {
	case "NaN":
		return math.NaN(), s == "NaN"
	case "Infinity":
		if strings.HasPrefix(s, "-") {
			return math.Inf(-1), true
		}
		return math.Inf(1), true
	case "", "inf", "Inf", "infinity", "nan":
		return 0, false
	}
	if n := len(s); n > 1 && strings.ContainsRune("dDfF", rune(s[n-1])) && !strings.HasPrefix(strings.TrimLeft(s, "+-"), "0x") {
		s = s[:n-1]
	}
	if strings.ContainsRune(s, '_') {
		return 0, false
	}
	d, err := strconv.ParseFloat(s, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, false
	}
	return d, true
}

func toInt64(v any) int64 {
	switch x := v.(type) {
	case int32:
		return int64(x)
	case int64:
		return x
	}
	return 0
}
