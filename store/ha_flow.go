package store

import (
	"sync"
	"time"
)

// flowMeter is Java's HA FlowMonitor as mqadmin haStatus reads it: the
// bytes a replication connection moved in the last whole second
// (transferredByteInSecond). Java's monitor thread swaps the count every
// second; here the count of each second is kept as it ends, on the next
// add or read.
type flowMeter struct {
	mu sync.Mutex
	// second is the Unix second being counted, count its bytes so far and
	// last the bytes of second-1.
	second, count, last int64
	now                 func() time.Time
}

func newFlowMeter() *flowMeter { return &flowMeter{now: time.Now} }

// add counts n bytes moved now.
func (f *flowMeter) add(n int) {
	f.mu.Lock()
	f.roll(f.now().Unix())
	f.count += int64(n)
	f.mu.Unlock()
}

// perSecond is the bytes moved in the last whole second.
func (f *flowMeter) perSecond() int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.roll(f.now().Unix())
	return f.last
}

// roll moves the count on to second sec.
func (f *flowMeter) roll(sec int64) {
	switch {
	case sec == f.second:
	case sec == f.second+1:
		f.second, f.last, f.count = sec, f.count, 0
	default:
		f.second, f.last, f.count = sec, 0, 0
	}
}
