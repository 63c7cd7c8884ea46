package proxy

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/rmqgo/rmqgo/store"
)

// A FIFO message group lands on the queue Guava's consistentHash of its
// String.hashCode picks, as through a Java proxy (values from Guava
// 32.0.1).
func TestConsistentHashIsGuavas(t *testing.T) {
	want := map[string][]int{
		"g1":           {0, 0, 6, 9, 41},
		"order-42":     {0, 3, 3, 10, 25},
		"":             {0, 0, 0, 0, 0},
		"abc":          {0, 0, 7, 8, 8},
		"FIFO_GROUP_7": {0, 0, 4, 4, 60},
	}
	for g, picks := range want {
		for i, buckets := range []int{1, 4, 8, 16, 100} {
			assert.Equal(t, picks[i], consistentHash(int64(store.JavaStringHash(g)), buckets), "%q over %d", g, buckets)
		}
	}
}
