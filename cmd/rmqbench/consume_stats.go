package main

import (
	"fmt"
	"io"
	"net/netip"
	"sync"
	"time"
)

// consumeStats is what the pullers of rmqbench consume record: the end to
// end latency of every message and the outcome of every pull.
type consumeStats struct {
	mu sync.Mutex
	// interval holds the latencies since the last progress line, total
	// those of the whole run.
	interval, total histogram
	// delivery holds the time from the broker storing each message to its
	// arrival here: the end-to-end latency without the send.
	delivery    histogram
	codes       map[int32]uint64
	bytes       int64 // pull body bytes received
	errs        uint64
	lastErr     error
	pulls       uint64 // pulls answered or failed since the last progress line
	first, last time.Time
	// next is the queue offset each queue is expected to deliver next:
	// a message below it arrived a second time.
	next  map[queueOf]int64
	again uint64
	slow  []string // the first slowDetails slow or repeated messages
}

// slowAfter is the end-to-end latency above which a message is described
// at the end of the run (queue, offset, born, stored, received), to tell a
// slow store from a slow or repeated delivery.
const (
	slowAfter   = time.Second
	slowDetails = 10
)

func newConsumeStats() *consumeStats {
	return &consumeStats{codes: map[int32]uint64{}, next: map[queueOf]int64{}}
}

// queueOf names a queue by its broker (the records' store host) and id.
type queueOf struct {
	broker  netip.AddrPort
	queueID int32
}

// arrival is what the stats keep of one message received.
type arrival struct {
	broker                   netip.AddrPort
	queueID                  int32
	queueOffset              int64
	bornMillis, storedMillis int64
}

// received records messages that arrived at now, and returns how many
// arrived in all.
func (s *consumeStats) received(now time.Time, msgs []arrival) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	nowNs := now.UnixNano()
	for _, m := range msgs {
		d := time.Duration(nowNs - m.bornMillis*int64(time.Millisecond))
		s.interval.record(d)
		s.total.record(d)
		s.delivery.record(time.Duration(nowNs - m.storedMillis*int64(time.Millisecond)))
		repeated := false
		q := queueOf{m.broker, m.queueID}
		if next, ok := s.next[q]; ok && m.queueOffset < next {
			s.again++
			repeated = true
		} else {
			s.next[q] = m.queueOffset + 1
		}
		if (d > slowAfter || repeated) && len(s.slow) < slowDetails {
			s.slow = append(s.slow, fmt.Sprintf("queue %d offset %d: born %d, stored +%d ms, received +%d ms, again=%t",
				m.queueID, m.queueOffset, m.bornMillis, m.storedMillis-m.bornMillis, now.UnixMilli()-m.bornMillis, repeated))
		}
	}
	if len(msgs) > 0 {
		if s.first.IsZero() {
			s.first = now
		}
		s.last = now
	}
	return s.total.total
}

// receivedBytes counts the size of a pull body.
func (s *consumeStats) receivedBytes(n int) {
	s.mu.Lock()
	s.bytes += int64(n)
	s.mu.Unlock()
}

// totals is how many messages and pull body bytes arrived so far.
func (s *consumeStats) totals() (uint64, int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.total.total, s.bytes
}

// answered counts a pull answer by its code.
func (s *consumeStats) answered(code int32) {
	s.mu.Lock()
	s.codes[code]++
	s.pulls++
	s.mu.Unlock()
}

// failed counts a pull that got no usable answer.
func (s *consumeStats) failed(err error) {
	s.mu.Lock()
	s.errs++
	s.lastErr = err
	s.pulls++
	s.mu.Unlock()
}

// reportEvery prints a progress line every interval until the returned
// function is called.
func (s *consumeStats) reportEvery(every time.Duration, start time.Time, out io.Writer) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		ticks, stopTicks := progressTicks(every)
		defer stopTicks()
		last := start
		for {
			select {
			case <-done:
				return
			case now := <-ticks:
				fmt.Fprintf(out, "[%6s] %s\n", now.Sub(start).Round(time.Second), s.progressLine(now.Sub(last)))
				last = now
			}
		}
	}()
	return func() { close(done); <-finished }
}

// progressLine describes the interval and starts a new one.
func (s *consumeStats) progressLine(elapsed time.Duration) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := &s.interval
	line := fmt.Sprintf("received %d  %.1f msg/s  end-to-end avg %s p50 %s p99 %s max %s  pulls %d",
		h.total, float64(h.total)/elapsed.Seconds(), ms(h.mean()), ms(h.percentile(0.50)),
		ms(h.percentile(0.99)), ms(h.max), s.pulls)
	h.reset()
	s.pulls = 0
	return line
}

// codeResults gives the pull answers in the shape printCodes prints.
// printSlow writes how many messages arrived a second time and the
// details of the first slow or repeated ones.
func (s *consumeStats) printSlow(out io.Writer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.again > 0 {
		fmt.Fprintf(out, "  received again (below an offset already received on its queue): %d\n", s.again)
	}
	for _, line := range s.slow {
		fmt.Fprintf(out, "  slow or repeated: %s\n", line)
	}
}

func (s *consumeStats) codeResults() *results {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := newResults()
	for code, n := range s.codes {
		r.codes[code] = n
	}
	r.errs, r.lastErr = s.errs, s.lastErr
	return r
}

// result sums the run up. TPS is over the span from the first message to
// the last (over the whole run when that span is empty).
func (s *consumeStats) result(f *consumeFlags, queues int, elapsed time.Duration) *benchLine {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := &s.total
	b := &benchLine{Kind: kindConsume, Tool: toolRmqbench, Topic: f.topic, Group: f.group, Queues: queues,
		ElapsedSec: elapsed.Seconds(), ActiveSec: s.last.Sub(s.first).Seconds(), Messages: int64(h.total),
		Failed: int64(s.errs + s.failedAnswersLocked()), AvgMs: msFloat(h.mean()), P50Ms: msFloat(h.percentile(0.50)),
		P99Ms: msFloat(h.percentile(0.99)), P999Ms: msFloat(h.percentile(0.999)), MaxMs: msFloat(h.max),
		DeliveryP50Ms: msFloat(s.delivery.percentile(0.50)), DeliveryP99Ms: msFloat(s.delivery.percentile(0.99)),
		ReceivedMB: round3(float64(s.bytes) / (1 << 20))}
	span := b.ActiveSec
	if span <= 0 {
		span = b.ElapsedSec
	}
	b.TPS = float64(h.total) / span
	return b
}

// failedAnswersLocked counts the pull answers that were errors (anything
// but FOUND, NOT_FOUND, RETRY_IMMEDIATELY and OFFSET_MOVED).
func (s *consumeStats) failedAnswersLocked() uint64 {
	var n uint64
	for code, c := range s.codes {
		if code != 0 && (code < 19 || code > 21) {
			n += c
		}
	}
	return n
}
