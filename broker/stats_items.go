package broker

// StatsItem and StatsItemSet, as RocketMQ's common/stats package keeps
// them: per key a running sum of values and a count of calls (atomic
// adds on the hot path), sampled into three windows:
//
//	minute: a sample every 10 s, the last 7 kept (60 s)
//	hour:   a sample every 10 min, the last 7 kept (60 min)
//	day:    a sample every hour, the last 25 kept (24 h)
//
// A window's first sample of a new item is preceded by a synthetic zero
// sample one period earlier, so a key's first values show at once. Over
// a window, sum = last.value - first.value, tps = sum * 1000 / (last.at
// - first.at) in ms, avgpt = sum / (last.times - first.times) (0 when no
// calls). An empty window (not yet sampled) is all zeros.

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rmqgo/rmqgo/internal/protocol"
)

// statsWindowKind names the three windows.
type statsWindowKind int

const (
	windowMinute statsWindowKind = iota
	windowHour
	windowDay
)

// windowSpecs are each window's sampling period and length.
var windowSpecs = [3]struct {
	period time.Duration
	keep   int
}{
	windowMinute: {10 * time.Second, 7},
	windowHour:   {10 * time.Minute, 7},
	windowDay:    {time.Hour, 25},
}

// callSnapshot is CallSnapshot: an item's counters at one moment (ms).
type callSnapshot struct {
	at, times, value int64
}

// statsItem is StatsItem: the counters of one key and their samples.
type statsItem struct {
	value, times atomic.Int64

	mu      sync.Mutex
	windows [3][]callSnapshot
}

// add records value over times calls.
func (it *statsItem) add(value, times int64) {
	it.value.Add(value)
	if times != 0 {
		it.times.Add(times)
	}
}

// sample appends the counters at nowMs to a window.
func (it *statsItem) sample(w statsWindowKind, nowMs int64) {
	spec := windowSpecs[w]
	it.mu.Lock()
	defer it.mu.Unlock()
	list := it.windows[w]
	if len(list) == 0 {
		list = append(list, callSnapshot{at: nowMs - spec.period.Milliseconds()})
	}
	list = append(list, callSnapshot{at: nowMs, times: it.times.Load(), value: it.value.Load()})
	if len(list) > spec.keep {
		list = append(list[:0], list[len(list)-spec.keep:]...)
	}
	it.windows[w] = list
}

// snapshot is StatsItem.computeStatsData of a window.
func (it *statsItem) snapshot(w statsWindowKind) protocol.BrokerStatsItem {
	it.mu.Lock()
	defer it.mu.Unlock()
	list := it.windows[w]
	if len(list) == 0 {
		return protocol.BrokerStatsItem{}
	}
	first, last := list[0], list[len(list)-1]
	s := protocol.BrokerStatsItem{Sum: last.value - first.value}
	s.Tps = float64(s.Sum) * 1000 / float64(last.at-first.at)
	if calls := last.times - first.times; calls > 0 {
		s.Avgpt = float64(s.Sum) / float64(calls)
	}
	return s
}

// data is the three windows as VIEW_BROKER_STATS_DATA answers them.
func (it *statsItem) data() protocol.BrokerStatsData {
	return protocol.BrokerStatsData{StatsMinute: it.snapshot(windowMinute),
		StatsHour: it.snapshot(windowHour), StatsDay: it.snapshot(windowDay)}
}

// statsItemSet is StatsItemSet: the items of one statistic by key.
// Items are created on first use and never removed except with their
// topic.
type statsItemSet struct {
	name string

	mu    sync.RWMutex
	items map[string]*statsItem
}

func newStatsItemSet(name string) *statsItemSet {
	return &statsItemSet{name: name, items: map[string]*statsItem{}}
}

// get returns a key's item, or nil. Looking up with a byte slice does not
// allocate.
func (s *statsItemSet) get(key []byte) *statsItem {
	s.mu.RLock()
	it := s.items[string(key)]
	s.mu.RUnlock()
	return it
}

// getOrCreate is getAndCreateStatsItem.
func (s *statsItemSet) getOrCreate(key []byte) *statsItem {
	if it := s.get(key); it != nil {
		return it
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	it := s.items[string(key)]
	if it == nil {
		it = &statsItem{}
		s.items[string(key)] = it
	}
	return it
}

// add is addValue: value over times calls on a key.
func (s *statsItemSet) add(key []byte, value, times int64) {
	s.getOrCreate(key).add(value, times)
}

// item returns a key's item, or nil.
func (s *statsItemSet) item(key string) *statsItem {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.items[key]
}

// keys lists the set's keys, sorted.
func (s *statsItemSet) keys() []string {
	s.mu.RLock()
	keys := make([]string, 0, len(s.items))
	for k := range s.items {
		keys = append(keys, k)
	}
	s.mu.RUnlock()
	slices.Sort(keys)
	return keys
}

// sample samples every item's window at nowMs.
func (s *statsItemSet) sample(w statsWindowKind, nowMs int64) {
	s.mu.RLock()
	items := make([]*statsItem, 0, len(s.items))
	for _, it := range s.items {
		items = append(items, it)
	}
	s.mu.RUnlock()
	for _, it := range items {
		it.sample(w, nowMs)
	}
}

// removeIf drops the items whose key matches (delValueByPrefixKey and
// friends).
func (s *statsItemSet) removeIf(match func(key string) bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k := range s.items {
		if match(k) {
			delete(s.items, k)
		}
	}
}
