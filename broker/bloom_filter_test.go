package broker

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/protocol"
)

// TestBloomFilterPositionsMatchJava: k, m and the bit positions are those
// the real BloomFilter (rocketmq-filter 4.9.7 with Guava's murmur3_128)
// printed for the same f, n and key.
func TestBloomFilterPositionsMatchJava(t *testing.T) {
	const long = "a-much-longer-consumer-group-name-for-several-blocks#SomeTopic_123"
	for _, c := range []struct {
		f, n, k, m int32
		key        string
		pos        []int32
	}{
		{20, 32, 3, 112, "g#T", []int32{90, 68, 28}},
		{20, 32, 3, 112, "cg-sql#TopicSql", []int32{8, 98, 61}},
		{20, 32, 3, 112, "", []int32{0, 0, 0}},
		{20, 32, 3, 112, "消费组#主题", []int32{101, 21, 111}},
		{20, 32, 3, 112, long, []int32{54, 106, 46}},
		{20, 64, 3, 216, "g#T", []int32{162, 52, 132}},
		{20, 64, 3, 216, "cg-sql#TopicSql", []int32{128, 90, 125}},
		{20, 64, 3, 216, "消费组#主题", []int32{101, 141, 15}},
		{20, 64, 3, 216, long, []int32{134, 186, 22}},
		{1, 1, 7, 16, "g#T", []int32{10, 4, 12, 13, 1, 15, 15}},
		{1, 1, 7, 16, "cg-sql#TopicSql", []int32{8, 2, 13, 7, 3, 1, 6}},
		{1, 1, 7, 16, "消费组#主题", []int32{5, 5, 15, 11, 9, 1, 3}},
		{50, 10, 1, 16, "g#T", []int32{10}},
		{10, 100, 4, 480, "g#T", []int32{138, 148, 300, 13}},
		{10, 100, 4, 480, "cg-sql#TopicSql", []int32{200, 66, 77, 391}},
		{10, 100, 4, 480, long, []int32{326, 138, 430, 242}},
	} {
		bf, ok := newBloomFilter(c.f, c.n)
		require.True(t, ok, "f=%d n=%d", c.f, c.n)
		assert.Equal(t, c.k, bf.k, "k of f=%d n=%d", c.f, c.n)
		assert.Equal(t, c.m, bf.m, "m of f=%d n=%d", c.f, c.n)
		d := bf.generate(c.key)
		assert.Equal(t, &protocol.BloomFilterData{BitPos: c.pos, BitNum: c.m}, d, "f=%d n=%d key %q", c.f, c.n, c.key)
		assert.True(t, bf.valid(d))
	}
}

// TestBloomFilterRejectsJavasBadParameters: Java's constructor throws for
// f outside [1, 100) or n < 1.
func TestBloomFilterRejectsJavasBadParameters(t *testing.T) {
	for _, c := range [][2]int32{{0, 32}, {100, 32}, {20, 0}} {
		_, ok := newBloomFilter(c[0], c[1])
		assert.False(t, ok, "f=%d n=%d", c[0], c[1])
	}
}

// TestBloomFilterValid is BloomFilter.isValid: data of this filter's bit
// count and hash count only.
func TestBloomFilterValid(t *testing.T) {
	bf, ok := newBloomFilter(20, 32)
	require.True(t, ok)
	assert.True(t, bf.valid(&protocol.BloomFilterData{BitNum: 112, BitPos: []int32{1, 2, 3}}))
	for _, d := range []*protocol.BloomFilterData{
		nil,
		{BitNum: 216, BitPos: []int32{1, 2, 3}},
		{BitNum: 112},
		{BitNum: 112, BitPos: []int32{1, 2}},
	} {
		assert.False(t, bf.valid(d), "%+v", d)
	}
}
