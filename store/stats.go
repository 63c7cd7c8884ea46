package store

// The store's counters, as StoreStatsService keeps them: messages put
// (and their bytes, failures, and how long each put took, in Java's
// distribution buckets), reads that found or missed messages and how many
// messages they handed out. The broker samples them every second for its
// TPS figures and runtime info.

import (
	"sync/atomic"
	"time"
)

// PutTimeBuckets are the names of the put-time distribution buckets
// (StoreStatsService.PUT_MESSAGE_ENTIRE_TIME_MAX_DESC); bucket i counts
// puts that took at most putBucketLimitsMs[i] ms (the last: longer).
var PutTimeBuckets = [...]string{"[<=0ms]", "[0~10ms]", "[10~50ms]", "[50~100ms]", "[100~200ms]", "[200~500ms]",
	"[500ms~1s]", "[1~2s]", "[2~3s]", "[3~4s]", "[4~5s]", "[5~10s]", "[10s~]"}

var putBucketLimitsMs = [...]int64{0, 10, 50, 100, 200, 500, 1000, 2000, 3000, 4000, 5000, 10000}

// latencyMsSlots is the resolution of the put-latency percentiles: one
// slot per millisecond up to a second, then one for everything slower.
const latencyMsSlots = 1001

// storeStats are the live counters.
type storeStats struct {
	boot           time.Time
	putTimes       atomic.Int64
	putBytes       atomic.Int64
	putFailed      atomic.Int64
	putMaxMs       atomic.Int64
	putBuckets     [len(PutTimeBuckets)]atomic.Int64
	putLatencyMs   [latencyMsSlots]atomic.Int64
	getFound       atomic.Int64
	getMiss        atomic.Int64
	getTransferred atomic.Int64
	getMaxMs       atomic.Int64
}

// Stats is a copy of the counters.
type Stats struct {
	Boot           time.Time
	PutTimes       int64 // messages stored
	PutBytes       int64
	PutFailed      int64
	PutMaxMs       int64
	PutBuckets     [len(PutTimeBuckets)]int64
	GetFound       int64 // reads that found messages
	GetMiss        int64 // reads that found none
	GetTransferred int64 // messages handed out
	GetMaxMs       int64
	// PutLatencyP99 and PutLatencyP999 are in ms.
	PutLatencyP99, PutLatencyP999 float64
}

// recordPut counts a put of n messages (bytes long) that took d.
func (st *storeStats) recordPut(n, bytes int, ok bool, d time.Duration) {
	if !ok {
		st.putFailed.Add(1)
		return
	}
	st.putTimes.Add(int64(n))
	st.putBytes.Add(int64(bytes))
	ms := d.Milliseconds()
	storeMax(&st.putMaxMs, ms)
	b := len(putBucketLimitsMs)
	for i, lim := range putBucketLimitsMs {
		if ms <= lim {
			b = i
			break
		}
	}
	st.putBuckets[b].Add(1)
	st.putLatencyMs[min(ms, latencyMsSlots-1)].Add(1)
}

// recordReplicated counts a record a slave received from its master as
// a put (Java's reput adds the slave's dispatched records to the put
// totals), without a put time.
func (st *storeStats) recordReplicated(bytes int) {
	st.putTimes.Add(1)
	st.putBytes.Add(int64(bytes))
}

// recordGet counts a read.
func (st *storeStats) recordGet(found bool, n int, d time.Duration) {
	if found {
		st.getFound.Add(1)
	} else {
		st.getMiss.Add(1)
	}
	st.getTransferred.Add(int64(n))
	storeMax(&st.getMaxMs, d.Milliseconds())
}

func storeMax(v *atomic.Int64, x int64) {
	for {
		old := v.Load()
		if x <= old || v.CompareAndSwap(old, x) {
			return
		}
	}
}

// Stats returns the store's counters.
func (s *Store) Stats() Stats {
	st := &s.stats
	out := Stats{Boot: st.boot, PutTimes: st.putTimes.Load(), PutBytes: st.putBytes.Load(), PutFailed: st.putFailed.Load(),
		PutMaxMs: st.putMaxMs.Load(), GetFound: st.getFound.Load(), GetMiss: st.getMiss.Load(),
		GetTransferred: st.getTransferred.Load(), GetMaxMs: st.getMaxMs.Load()}
	for i := range out.PutBuckets {
		out.PutBuckets[i] = st.putBuckets[i].Load()
	}
	var hist [latencyMsSlots]int64
	var total int64
	for i := range hist {
		hist[i] = st.putLatencyMs[i].Load()
		total += hist[i]
	}
	out.PutLatencyP99 = percentileMs(hist[:], total, 0.99)
	out.PutLatencyP999 = percentileMs(hist[:], total, 0.999)
	return out
}

// percentileMs is the smallest latency (ms) at or under which a share px
// of the puts fell.
func percentileMs(hist []int64, total int64, px float64) float64 {
	if total == 0 {
		return 0
	}
	want := int64(float64(total) * px)
	var seen int64
	for ms, n := range hist {
		seen += n
		if seen >= want && seen > 0 {
			return float64(ms)
		}
	}
	return float64(len(hist) - 1)
}
