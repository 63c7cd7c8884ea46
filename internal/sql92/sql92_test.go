package sql92

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func props(m map[string]string) Properties {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

// The semantics of RocketMQ's SqlFilter, case by case (the results were
// worked out from the Java expression classes: missing properties are
// unknown, strings convert to the other side's type, two strings compare
// as doubles under > >= < <=).
func TestEvaluatesAsJavaDoes(t *testing.T) {
	msg := props(map[string]string{"a": "5", "b": "abc", "c": "2.5", "flag": "true", "neg": "-3", "big": "9999999999"})
	cases := []struct {
		expr string
		want any
	}{
		{"a = 5", true},
		{"a = '5'", true},
		{"a <> 5", false},
		{"a > 4", true},
		{"a >= 5", true},
		{"a < 5", false},
		{"a <= 5.0", true},
		{"a > 4.5", true},
		{"c > 2", nil},    // "2.5" is no Integer: the evaluation fails
		{"c > 2.0", true}, // a string meets a Double
		{"c = 2.5", true},
		{"big > 2147483648", true}, // a Long literal parses the property as a Long
		{"big > 2147483647", nil},  // an Integer literal: "9999999999" is no Integer
		{"neg < -2", true},
		{"a BETWEEN 1 AND 5", true},
		{"a NOT BETWEEN 1 AND 4", true},
		{"b IN ('x', 'abc')", true},
		{"b NOT IN ('x', 'abc')", false},
		{"missing IN ('x')", nil},
		{"missing NOT IN ('x')", nil},
		{"missing = 1", nil},
		{"missing <> 1", nil},
		{"NOT (missing = 1)", nil},
		{"missing IS NULL", true},
		{"a IS NULL", false},
		{"a IS NOT NULL", true},
		{"missing IS NOT NULL", false},
		{"missing = 1 OR a = 5", true},
		{"missing = 1 AND a = 5", nil},
		{"missing = 1 AND a = 4", false},
		{"missing = 1 OR a = 4", nil},
		{"TRUE", true},
		{"FALSE OR TRUE", true},
		{"flag", false}, // a property as a condition is TRUE only for a Boolean
		{"flag = TRUE", true},
		{"b = 'abc' AND NOT (a > 10)", true},
		{"b > 1", nil},    // "abc" is no number
		{"-a = -5", true}, // a string property does not negate
		{"a = 5 -- a comment\n", true},
		{"/* c */ a = 5", true},
		{"A = 5", nil}, // names are case-sensitive
		{"a = 5 and b = 'abc'", true},
	}
	for _, c := range cases {
		e, err := Compile(c.expr, Dialect4)
		require.NoError(t, err, c.expr)
		got, _ := e.Evaluate(msg)
		if c.expr == "-a = -5" {
			assert.Nil(t, got, c.expr)
			continue
		}
		assert.Equal(t, c.want, got, c.expr)
		assert.Equal(t, c.want == true, e.Match(msg), c.expr)
	}
}

func TestStringOperatorsAre5xOnly(t *testing.T) {
	msg := props(map[string]string{"s": "hello world"})
	_, err := Compile("s CONTAINS 'lo'", Dialect4)
	assert.ErrorIs(t, err, ErrParse, "4.9 has no CONTAINS")
	for expr, want := range map[string]bool{
		"s CONTAINS 'lo w'": true, "s NOT CONTAINS 'xyz'": true, "s STARTSWITH 'hell'": true,
		"s ENDSWITH 'world'": true, "s NOT ENDSWITH 'world'": false, "missing CONTAINS 'a'": false,
		"missing NOT CONTAINS 'a'": false, "s CONTAINS ''": false,
	} {
		e, err := Compile(expr, Dialect5)
		require.NoError(t, err, expr)
		got, err := e.Evaluate(msg)
		require.NoError(t, err, expr)
		assert.Equal(t, want, got, expr)
	}
}

// Expressions Java refuses to compile, with the exception it throws.
func TestRefusesWhatJavaRefuses(t *testing.T) {
	for expr, class := range map[string]string{
		"a >":                      "org.apache.rocketmq.filter.parser.ParseException",
		"a = ":                     "org.apache.rocketmq.filter.parser.ParseException",
		"5":                        "org.apache.rocketmq.filter.parser.ParseException",
		"'x'":                      "org.apache.rocketmq.filter.parser.ParseException",
		"a > 'x'":                  "java.lang.RuntimeException",
		"a = NULL":                 "java.lang.RuntimeException",
		"a BETWEEN 5 AND 1":        "java.lang.RuntimeException",
		"'x' IN ('x')":             "java.lang.RuntimeException",
		"a = 0.0":                  "java.lang.RuntimeException",
		"a = 'unterminated":        "org.apache.rocketmq.filter.parser.TokenMgrError",
		"a # 1":                    "org.apache.rocketmq.filter.parser.TokenMgrError",
		"a = 99999999999999999999": "java.lang.NumberFormatException",
		"(a = 1":                   "org.apache.rocketmq.filter.parser.ParseException",
		"a = 1 b = 2":              "org.apache.rocketmq.filter.parser.ParseException",
	} {
		_, err := Compile(expr, Dialect5)
		require.Error(t, err, expr)
		var e *Error
		require.True(t, errors.As(err, &e), expr)
		assert.Equal(t, class, e.JavaClass, expr)
		assert.ErrorIs(t, err, ErrParse, expr)
	}
}

// FuzzCompile: no input makes the parser or an evaluation panic, and an
// expression that compiled evaluates without a panic on any properties.
func FuzzCompile(f *testing.F) {
	for _, s := range []string{"a = 5", "a BETWEEN 1 AND 2 OR b IN ('x','y')", "NOT (a IS NULL) AND c CONTAINS 'z'",
		"a > 1.5E3 AND -b < .5", "x <> 'it''s' -- c\n", "/* */ TRUE"} {
		f.Add(s, "5", "abc")
	}
	f.Fuzz(func(t *testing.T, expr, av, bv string) {
		e, err := Compile(expr, Dialect5)
		if err != nil {
			return
		}
		_, _ = e.Evaluate(props(map[string]string{"a": av, "b": bv, "c": av + bv, "x": bv}))
		_ = e.Match(props(nil))
	})
}
