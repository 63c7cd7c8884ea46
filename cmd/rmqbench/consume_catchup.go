package main

import (
	"sync"
	"time"
)

// catchUp follows, for rmqbench consume -until-caught-up, how far each
// queue is behind: a queue has caught up once a pull answer's
// nextBeginOffset reached that answer's maxOffset (the queue's end when
// the broker answered). The run has caught up once every queue has.
type catchUp struct {
	mu     sync.Mutex
	start  time.Time
	caught map[messageQueue]bool
	left   int
	// at is the time from start to the moment the last queue caught up
	// (zero until then); messages and bytes are what had arrived by then.
	at       time.Duration
	messages uint64
	bytes    int64
}

func newCatchUp(queues []messageQueue, start time.Time) *catchUp {
	return &catchUp{start: start, caught: make(map[messageQueue]bool, len(queues)), left: len(queues)}
}

// answered records a pull answer of q; received and bytes are the run's
// totals so far. It reports whether every queue has now caught up (true
// once only).
func (c *catchUp) answered(q messageQueue, next, max int64, received uint64, bytes int64) bool {
	if next < max {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.caught[q] || c.left == 0 {
		return false
	}
	c.caught[q] = true
	c.left--
	if c.left > 0 {
		return false
	}
	c.at, c.messages, c.bytes = time.Since(c.start), received, bytes
	return true
}

// fill puts the catch-up figures in b (nothing when the run did not
// catch up).
func (c *catchUp) fill(b *benchLine) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.at == 0 {
		return
	}
	secs := c.at.Seconds()
	b.CaughtUpSec = round3(secs)
	b.CaughtUpMessages = int64(c.messages)
	b.CaughtUpTPS = round3(float64(c.messages) / secs)
	b.CaughtUpMBps = round3(float64(c.bytes) / (1 << 20) / secs)
}
