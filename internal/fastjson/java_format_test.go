package fastjson

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The expected strings were printed by Java 17's String.format("%.2f", v).
func TestFormatJavaFixedRoundsTheShortestDigitsHalfUp(t *testing.T) {
	cases := []struct {
		v    float64
		want string
	}{
		{0, "0.00"},
		{0.125, "0.13"}, // exactly half: Java rounds up, Go's %.2f to even
		{0.375, "0.38"}, // likewise
		{2.675, "2.68"}, // really 2.67499999..., but Java rounds the digits "2.675"
		{0.005, "0.01"},
		{9.995, "10.00"}, // really 9.99499999...
		{99.999, "100.00"},
		{-1.125, "-1.13"}, // HALF_UP is away from zero
		{1234567.891, "1234567.89"},
		{242.25, "242.25"},
		{math.NaN(), "NaN"},
		{math.Inf(1), "Infinity"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, FormatJavaFixed(c.v, 2), "%v", c.v)
	}
	assert.Equal(t, "3", FormatJavaFixed(2.5, 0))
}
