package main

import (
	"math/bits"
	"time"
)

// histogram counts latencies in log-linear buckets: exact below 256 ns,
// then 128 buckets per power of two (under 1% error), like HdrHistogram.
type histogram struct {
	counts [histBuckets]uint64
	total  uint64
	sum    time.Duration
	max    time.Duration
}

const (
	subBits     = 7
	histBuckets = (64 - subBits + 1) << subBits
)

func bucketOf(v uint64) int {
	exp := bits.Len64(v) - 1
	if exp <= subBits {
		return int(v)
	}
	shift := exp - subBits
	return (shift+1)<<subBits + int(v>>shift) - 1<<subBits
}

// lowerBound is the smallest value of bucket i.
func lowerBound(i int) uint64 {
	if i < 2<<subBits {
		return uint64(i)
	}
	shift := i>>subBits - 1
	return (uint64(i&(1<<subBits-1)) + 1<<subBits) << shift
}

func (h *histogram) record(d time.Duration) {
	if d < 0 {
		d = 0
	}
	h.counts[bucketOf(uint64(d))]++
	h.total++
	h.sum += d
	if d > h.max {
		h.max = d
	}
}

// merge adds o's counts to h.
func (h *histogram) merge(o *histogram) {
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.total += o.total
	h.sum += o.sum
	if o.max > h.max {
		h.max = o.max
	}
}

func (h *histogram) reset() { *h = histogram{} }

// mean is the average latency, 0 when empty.
func (h *histogram) mean() time.Duration {
	if h.total == 0 {
		return 0
	}
	return h.sum / time.Duration(h.total)
}

// percentile returns the latency at quantile q (0..1), 0 when empty.
func (h *histogram) percentile(q float64) time.Duration {
	if h.total == 0 {
		return 0
	}
	rank := uint64(q*float64(h.total) + 0.5)
	if rank < 1 {
		rank = 1
	}
	var seen uint64
	for i, c := range h.counts {
		if seen += c; seen >= rank {
			return time.Duration(lowerBound(i))
		}
	}
	return h.max
}
