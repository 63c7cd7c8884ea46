package testclock

import (
	"sync"
	"time"
)

// Clock is an injectable clock; its zero time is 2023-11-14 22:13:20 UTC.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// New returns a clock at 1700000000 s after the epoch.
func New() *Clock { return &Clock{t: time.Unix(1700000000, 0)} }

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}
