package sql92

import (
	"fmt"
	"strings"
)

// tokenKind is a token of SelectorParser.jj.
type tokenKind int

const (
	tokEOF tokenKind = iota
	tokID
	tokString  // 'text' with '' for a quote
	tokDecimal // 0 | [1-9][0-9]* with an optional L
	tokFloat   // 5.5, 5., .5, 5E10, with an optional exponent
	tokPunct   // = <> > >= < <= ( ) , + -
	tokNot
	tokAnd
	tokOr
	tokBetween
	tokIn
	tokTrue
	tokFalse
	tokNull
	tokIs
	tokContains
	tokStartsWith
	tokEndsWith
)

// keywords are matched case-insensitively, as IGNORE_CASE tokens.
var keywords = map[string]tokenKind{
	"NOT": tokNot, "AND": tokAnd, "OR": tokOr, "BETWEEN": tokBetween, "IN": tokIn, "TRUE": tokTrue,
	"FALSE": tokFalse, "NULL": tokNull, "IS": tokIs,
}

// keywords5 are the 5.x grammar's string operators.
var keywords5 = map[string]tokenKind{"CONTAINS": tokContains, "STARTSWITH": tokStartsWith, "ENDSWITH": tokEndsWith}

// token is one lexeme with its 1-based column.
type token struct {
	kind   tokenKind
	text   string // the image; for a string literal, the unquoted value
	column int
}

// describe is how an error names a token, as JavaCC does.
func (t token) describe() string {
	if t.kind == tokEOF {
		return "<EOF>"
	}
	return t.text
}

// lexer splits an expression into tokens.
type lexer struct {
	src        string
	pos        int
	stringOps  bool // the 5.x keywords
	lastColumn int
}

// next returns the next token, skipping white space and comments.
func (l *lexer) next() (token, error) {
	if err := l.skip(); err != nil {
		return token{}, err
	}
	col := l.pos + 1
	l.lastColumn = col
	if l.pos >= len(l.src) {
		return token{kind: tokEOF, column: col}, nil
	}
	c := l.src[l.pos]
	switch {
	case c == '\'':
		return l.stringLiteral(col)
	case isDigit(c) || c == '.' && l.pos+1 < len(l.src) && isDigit(l.src[l.pos+1]):
		return l.number(col)
	case isIDStart(c):
		start := l.pos
		for l.pos < len(l.src) && isIDPart(l.src[l.pos]) {
			l.pos++
		}
		text := l.src[start:l.pos]
		upper := strings.ToUpper(text)
		if k, ok := keywords[upper]; ok {
			return token{kind: k, text: text, column: col}, nil
		}
		if k, ok := keywords5[upper]; ok && l.stringOps {
			return token{kind: k, text: text, column: col}, nil
		}
		return token{kind: tokID, text: text, column: col}, nil
	}
	for _, p := range []string{"<>", ">=", "<=", "=", ">", "<", "(", ")", ",", "+", "-"} {
		if strings.HasPrefix(l.src[l.pos:], p) {
			l.pos += len(p)
			return token{kind: tokPunct, text: p, column: col}, nil
		}
	}
	return token{}, lexicalError(fmt.Sprintf("Lexical error at line 1, column %d.  Encountered: %q (%d), after : \"\"", col, string(c), c))
}

// skip passes white space, -- line comments and /* */ block comments.
func (l *lexer) skip() error {
	for l.pos < len(l.src) {
		switch c := l.src[l.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			l.pos++
		case strings.HasPrefix(l.src[l.pos:], "--"):
			end := strings.IndexAny(l.src[l.pos:], "\r\n")
			if end < 0 {
				return lexicalError(fmt.Sprintf("Lexical error at line 1, column %d.  Encountered: <EOF> after : %q", len(l.src)+1, l.src[l.pos:]))
			}
			l.pos += end + 1
		case strings.HasPrefix(l.src[l.pos:], "/*"):
			end := strings.Index(l.src[l.pos+2:], "*/")
			if end < 0 {
				return lexicalError(fmt.Sprintf("Lexical error at line 1, column %d.  Encountered: <EOF> after : %q", len(l.src)+1, l.src[l.pos:]))
			}
			l.pos += end + 4
		default:
			return nil
		}
	}
	return nil
}

// stringLiteral reads 'text', ” standing for one quote.
func (l *lexer) stringLiteral(col int) (token, error) {
	var sb strings.Builder
	for i := l.pos + 1; i < len(l.src); i++ {
		if l.src[i] != '\'' {
			sb.WriteByte(l.src[i])
			continue
		}
		if i+1 < len(l.src) && l.src[i+1] == '\'' {
			sb.WriteByte('\'')
			i++
			continue
		}
		l.pos = i + 1
		return token{kind: tokString, text: sb.String(), column: col}, nil
	}
	return token{}, lexicalError(fmt.Sprintf("Lexical error at line 1, column %d.  Encountered: <EOF> after : %q", len(l.src)+1, l.src[l.pos:]))
}

// number reads a decimal or floating-point literal.
func (l *lexer) number(col int) (token, error) {
	start := l.pos
	digits := func() int {
		n := 0
		for l.pos < len(l.src) && isDigit(l.src[l.pos]) {
			l.pos++
			n++
		}
		return n
	}
	float := false
	if l.src[l.pos] == '0' && !(l.pos+1 < len(l.src) && (l.src[l.pos+1] == '.' || l.src[l.pos+1] == 'e' || l.src[l.pos+1] == 'E')) {
		l.pos++ // "0" is a literal of its own
	} else {
		digits()
	}
	if l.pos < len(l.src) && l.src[l.pos] == '.' {
		float = true
		l.pos++
		digits()
	}
	if l.pos < len(l.src) && (l.src[l.pos] == 'e' || l.src[l.pos] == 'E') {
		save := l.pos
		l.pos++
		if l.pos < len(l.src) && (l.src[l.pos] == '+' || l.src[l.pos] == '-') {
			l.pos++
		}
		if digits() == 0 {
			l.pos = save
		} else {
			float = true
		}
	}
	if float {
		return token{kind: tokFloat, text: l.src[start:l.pos], column: col}, nil
	}
	if l.pos < len(l.src) && (l.src[l.pos] == 'l' || l.src[l.pos] == 'L') {
		l.pos++
	}
	return token{kind: tokDecimal, text: l.src[start:l.pos], column: col}, nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isIDStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '$'
}
func isIDPart(c byte) bool { return isIDStart(c) || isDigit(c) }
