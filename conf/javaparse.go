package conf

import (
	"errors"
	"strconv"
)

// errJavaNumber is the cause of a value Integer.parseInt / Long.parseLong
// would reject with NumberFormatException.
var errJavaNumber = errors.New("not a decimal number")

// errJavaRange is the cause of a value outside the Java type's range.
var errJavaRange = errors.New("out of range")

// parseJavaInt parses s like Integer.parseInt (bits 32) or Long.parseLong
// (bits 64): an optional '+' or '-', then one or more decimal digits, nothing
// else (no blanks, no "0x", no '_'), within the type's range. Leading zeros
// are fine ("010" is 10). Java also accepts non-ASCII Unicode digits; a
// properties file can only hold them through \u escapes, and they are
// rejected here.
func parseJavaInt(s string, bits int) (int64, error) {
	digits := s
	if len(digits) > 0 && (digits[0] == '+' || digits[0] == '-') {
		digits = digits[1:]
	}
	if digits == "" {
		return 0, errJavaNumber
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, errJavaNumber
		}
	}
	// Only sign and ASCII digits remain, which strconv reads the same way.
	v, err := strconv.ParseInt(s, 10, bits)
	if err != nil {
		return 0, errJavaRange
	}
	return v, nil
}

// parseJavaBoolean is Boolean.parseBoolean: true exactly when s equals
// "true" ignoring case; anything else, "true " and "yes" included, is false.
func parseJavaBoolean(s string) bool {
	return equalFoldASCII(s, "true")
}

// equalFoldASCII compares s with the lower-case ASCII word w ignoring case.
func equalFoldASCII(s, w string) bool {
	if len(s) != len(w) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[i] {
			return false
		}
	}
	return true
}

// javaTrim is String.trim: it removes every character <= U+0020 (all ASCII
// control characters, not only blanks) from both ends.
func javaTrim(s string) string {
	start, end := 0, len(s)
	for start < end && s[start] <= ' ' {
		start++
	}
	for end > start && s[end-1] <= ' ' {
		end--
	}
	return s[start:end]
}
