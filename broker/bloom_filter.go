package broker

// The bloom filter of consumerFilter.json
// (org.apache.rocketmq.filter.util.BloomFilter).
//
// Every registered SQL92 filter carries the bit positions of its key
// "group#topic" in an m-bit bloom filter with k hash functions, made from
// maxErrorRateOfBloomFilter (f, percent) and expectConsumerNumUseFilter
// (n). Java uses them for its optional consume-queue bitmap
// (enableCalcFilterBitMap); this broker always filters on the
// properties, but writes the same positions, because a Java broker that
// finds them missing or of another shape ignores every persisted filter.
//
// The positions are Guava's double hashing over MurmurHash3 x64 128-bit
// (seed 0) of the key's UTF-8 bytes: with h the hash's first 64-bit half,
// position i (1..k) is h1 + i*h2 in int32 arithmetic (h1 the low and h2
// the high 32 bits of h), bit-flipped when negative, modulo m.

import (
	"encoding/binary"
	"math"
	"math/bits"
	"slices"

	"github.com/rmqgo/rmqgo/internal/protocol"
)

// bloomFilter is BloomFilter.createByFn(f, n): k hash functions over m
// bits.
type bloomFilter struct {
	k int32 // hash functions
	m int32 // bits, a multiple of 8
}

// newBloomFilter is BloomFilter.createByFn; ok is false for the f and n
// Java's constructor rejects.
func newBloomFilter(f, n int32) (bf *bloomFilter, ok bool) {
	m, ok := bloomFilterBits(f, n)
	if !ok {
		return nil, false
	}
	return &bloomFilter{k: bloomHashCount(f), m: m}, true
}

// bloomHashCount is k, the hash functions of an error rate of f percent:
// ceil(log(f/100)/log(0.5)), at least 1 for 1 <= f < 100.
func bloomHashCount(f int32) int32 {
	rate := float64(f) / 100.0
	return int32(math.Ceil(math.Log(rate) / math.Log(0.5)))
}

// bloomFilterBits is the bit count m of the BloomFilter that Java's
// ConsumerFilterManager makes from maxErrorRateOfBloomFilter (f percent)
// and expectConsumerNumUseFilter (n): ceil(n*log2(1/f)*log2(e)) rounded
// up to a multiple of 8. Its constructor sets it as the store's
// bitMapLengthConsumeQueueExt (112 with the defaults 20 and 32, which is
// what GET_BROKER_CONFIG shows), whatever the file said. ok is false for
// the f and n the Java constructor rejects.
func bloomFilterBits(f, n int32) (m int32, ok bool) {
	if f < 1 || f >= 100 || n < 1 {
		return 0, false
	}
	rate := float64(f) / 100.0
	bits := math.Ceil(float64(n) * (math.Log(1/rate) / math.Log(2)) * (math.Log(math.E) / math.Log(2)))
	return int32(8 * math.Ceil(bits/8.0)), true
}

// generate is BloomFilter.generate: the positions of key and the bit
// count.
func (bf *bloomFilter) generate(key string) *protocol.BloomFilterData {
	return &protocol.BloomFilterData{BitPos: bf.bitPositions(key), BitNum: bf.m}
}

// bitPositions is BloomFilter.calcBitPositions: k positions in [0, m).
func (bf *bloomFilter) bitPositions(key string) []int32 {
	h := murmur3x64First([]byte(key))
	h1, h2 := int32(h), int32(h>>32)
	pos := make([]int32, bf.k)
	for i := range bf.k {
		combined := h1 + (i+1)*h2
		if combined < 0 {
			combined = ^combined
		}
		pos[i] = combined % bf.m
	}
	return pos
}

// valid is BloomFilter.isValid: d was made by a filter of this shape.
func (bf *bloomFilter) valid(d *protocol.BloomFilterData) bool {
	return d != nil && d.BitNum == bf.m && d.BitPos != nil && len(d.BitPos) == int(bf.k)
}

// bloomDataEqual is BloomFilterData.equals: the same bit count and
// positions (b nil is never equal).
func bloomDataEqual(a, b *protocol.BloomFilterData) bool {
	if b == nil {
		return false
	}
	return a.BitNum == b.BitNum && (a.BitPos == nil) == (b.BitPos == nil) && slices.Equal(a.BitPos, b.BitPos)
}

// MurmurHash3 x64 128-bit constants.
const (
	murmurC1 = 0x87c37b91114253d5
	murmurC2 = 0x4cf5ad432745937f
)

// murmur3x64First is the first 64-bit half (h1) of MurmurHash3 x64
// 128-bit with seed 0, which is what Guava's
// Hashing.murmur3_128().hashString(s, UTF_8).asLong() returns.
func murmur3x64First(data []byte) uint64 {
	var h1, h2 uint64
	n := len(data)
	for len(data) >= 16 {
		k1 := binary.LittleEndian.Uint64(data)
		k2 := binary.LittleEndian.Uint64(data[8:])
		h1 ^= murmurMixK1(k1)
		h1 = (bits.RotateLeft64(h1, 27)+h2)*5 + 0x52dce729
		h2 ^= murmurMixK2(k2)
		h2 = (bits.RotateLeft64(h2, 31)+h1)*5 + 0x38495ab5
		data = data[16:]
	}
	var k1, k2 uint64
	for i := len(data) - 1; i >= 8; i-- {
		k2 |= uint64(data[i]) << (8 * (i - 8))
	}
	for i := min(len(data), 8) - 1; i >= 0; i-- {
		k1 |= uint64(data[i]) << (8 * i)
	}
	h1 ^= murmurMixK1(k1)
	h2 ^= murmurMixK2(k2)
	h1 ^= uint64(n)
	h2 ^= uint64(n)
	h1 += h2
	h2 += h1
	h1, h2 = murmurFmix64(h1), murmurFmix64(h2)
	return h1 + h2
}

// murmurMixK1 mixes the first 8 bytes of a block.
func murmurMixK1(k uint64) uint64 {
	return bits.RotateLeft64(k*murmurC1, 31) * murmurC2
}

// murmurMixK2 mixes the second 8 bytes of a block.
func murmurMixK2(k uint64) uint64 {
	return bits.RotateLeft64(k*murmurC2, 33) * murmurC1
}

// murmurFmix64 is the finalisation mix.
func murmurFmix64(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}
