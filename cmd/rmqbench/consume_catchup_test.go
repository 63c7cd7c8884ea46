package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestCatchUpWhenEveryQueueReachedItsEnd(t *testing.T) {
	q0 := messageQueue{broker: "broker-a", addr: "127.0.0.1:1", id: 0}
	q1 := messageQueue{broker: "broker-a", addr: "127.0.0.1:1", id: 1}
	c := newCatchUp([]messageQueue{q0, q1}, time.Now().Add(-2*time.Second))

	assert.False(t, c.answered(q0, 10, 20, 10, 1000), "q0 still behind")
	assert.False(t, c.answered(q0, 20, 20, 20, 2000), "q1 not yet at its end")
	assert.False(t, c.answered(q0, 25, 25, 25, 2500), "q0 counted once")
	assert.True(t, c.answered(q1, 30, 30, 55, 5500), "both queues at their end")
	assert.False(t, c.answered(q1, 31, 31, 56, 5600), "reported once")

	var b benchLine
	c.fill(&b)
	assert.Equal(t, int64(55), b.CaughtUpMessages)
	assert.Greater(t, b.CaughtUpSec, 0.0)
	assert.Greater(t, b.CaughtUpTPS, 0.0)
}

func TestCatchUpNotReachedLeavesTheResultAlone(t *testing.T) {
	q0 := messageQueue{broker: "broker-a", id: 0}
	c := newCatchUp([]messageQueue{q0}, time.Now())
	c.answered(q0, 1, 2, 1, 100)
	var b benchLine
	c.fill(&b)
	assert.Zero(t, b.CaughtUpSec)
}
