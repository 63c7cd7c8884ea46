package broker

import (
	"container/heap"
)

// timerSlots indexes the wheel's slots that hold units at or after the
// read time: a min-heap of their times, and each one's count (the slot's
// num). It is read from the wheel at start and kept as units go in and
// slots are delivered.
type timerSlots struct {
	times timeHeap
	num   map[int64]int64
}

func newTimerSlots() timerSlots { return timerSlots{num: map[int64]int64{}} }

// set records that slot t holds n units.
func (s *timerSlots) set(t, n int64) {
	if _, ok := s.num[t]; !ok {
		heap.Push(&s.times, t)
	}
	s.num[t] = n
}

// first is the earliest slot's time.
func (s *timerSlots) first() (int64, bool) {
	if len(s.times) == 0 {
		return 0, false
	}
	return s.times[0], true
}

// dropFirst forgets the earliest slot.
func (s *timerSlots) dropFirst() {
	t := heap.Pop(&s.times).(int64)
	delete(s.num, t)
}

// total counts the units of every slot (getAllCongestNum).
func (s *timerSlots) total() int64 {
	var n int64
	for _, c := range s.num {
		n += c
	}
	return n
}

// timeHeap is a min-heap of slot times.
type timeHeap []int64

func (h timeHeap) Len() int           { return len(h) }
func (h timeHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h timeHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *timeHeap) Push(x any)        { *h = append(*h, x.(int64)) }
func (h *timeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// timerView is what the metrics read of the timer (the timer gauges of
// 5.3.3's store metrics).
type timerView struct {
	// scanned is how far the timer queue was read into the wheel.
	scanned int64
	// due is how many messages are due but not yet delivered, oldestDue
	// the earliest slot time among them (0 when none is).
	due, oldestDue int64
	// within[i] counts the messages due from bounds[i-1] (0 for the
	// first) up to bounds[i] seconds from now.
	within []int64
}

// view reads the timer's state at nowMs for the bounds given in seconds:
// a message is due once its slot's second has passed, as the wheel
// delivers it.
func (s *timerService) view(nowMs int64, bounds []int64) timerView {
	s.mu.Lock()
	defer s.mu.Unlock()
	v := timerView{scanned: s.queueOffset, within: make([]int64, len(bounds))}
	base := s.formatTime(nowMs)
	for t, n := range s.slots.num {
		if t < base {
			v.due += n
			if v.oldestDue == 0 || t < v.oldestDue {
				v.oldestDue = t
			}
			continue
		}
		for i, b := range bounds {
			if t < base+b*1000 {
				v.within[i] += n
				break
			}
		}
	}
	return v
}

// caughtUp tells whether the timer has read its whole queue and holds
// nothing due (Java's timer has neither enqueue nor dequeue backlog).
func (s *timerService) caughtUp(nowMs int64) bool {
	v := s.view(nowMs, nil)
	return v.due == 0 && v.scanned >= s.store.MaxOffset(timerTopic, 0)
}

// timerRuntime is the runtime info's timer keys: timerReadBehind (s),
// timerOffsetBehind and timerCongestNum, as getDequeueBehind,
// getEnqueueBehindMessages and getAllCongestNum count them; zero where
// the timer does not run.
func (s *timerService) runtime(nowMs int64) (readBehind, offsetBehind, congest int64) {
	s.mu.Lock()
	running, read, offset, congest := s.readTime > 0, s.readTime, s.queueOffset, s.slots.total()
	s.mu.Unlock()
	if !running {
		return 0, 0, 0
	}
	return (nowMs - read) / 1000, s.store.MaxOffset(timerTopic, 0) - offset, congest
}
