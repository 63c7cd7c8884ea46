package fastjson

import (
	"math"
	"strconv"
	"strings"
)

// FormatJavaFixed formats v as Java's String.format("%.Nf", v) with N =
// prec. Java's Formatter rounds the shortest decimal that reads back as v
// (the digits of Double.toString), HALF_UP: 2.675 gives "2.68" and 0.125
// "0.13", where Go's %.2f, rounding the exact binary value, gives "2.67"
// and "0.12".
func FormatJavaFixed(v float64, prec int) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "Infinity"
	case math.IsInf(v, -1):
		return "-Infinity"
	}
	sign := ""
	if math.Signbit(v) {
		sign, v = "-", -v
	}
	whole, frac, _ := strings.Cut(strconv.FormatFloat(v, 'f', -1, 64), ".")
	if len(frac) <= prec {
		frac += strings.Repeat("0", prec+1-len(frac))
	}
	digits := []byte(whole + frac[:prec])
	if frac[prec] >= '5' {
		digits = incrementDecimal(digits)
	}
	intLen := len(digits) - prec
	if prec == 0 {
		return sign + string(digits)
	}
	return sign + string(digits[:intLen]) + "." + string(digits[intLen:])
}

// incrementDecimal adds one to a string of decimal digits, growing it by
// a leading 1 when every digit was 9.
func incrementDecimal(d []byte) []byte {
	for i := len(d) - 1; i >= 0; i-- {
		if d[i] < '9' {
			d[i]++
			return d
		}
		d[i] = '0'
	}
	return append([]byte{'1'}, d...)
}

// AppendJavaDouble appends a double as fastjson writes it: always with a
// fraction ("0.0", "1.5").
func AppendJavaDouble(dst []byte, v float64) []byte {
	s := strconv.FormatFloat(v, 'f', -1, 64)
	if !strings.ContainsAny(s, ".eEnI") {
		s += ".0"
	}
	return append(dst, s...)
}
