package fastjson

import (
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
)

// isDecimal is the hand-written ^[+-]?[0-9]+$.
func TestIsDecimalIsTheRegexp(t *testing.T) {
	re := regexp.MustCompile(`^[+-]?[0-9]+$`)
	for _, s := range []string{"", "+", "-", "0", "7", "-12", "+12", "1.0", "1e3", "12a", "a12", " 1", "1 ", "--1",
		"+-1", "99999999999999999999999", "١٢", "0x10", "1\n"} {
		assert.Equal(t, re.MatchString(s), isDecimal(s), "%q", s)
		assert.Equal(t, re.MatchString(s), isDecimal([]byte(s)), "%q as bytes", s)
	}
}
