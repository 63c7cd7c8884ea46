package remoting

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTaskQueueKeepsOrderAcrossGrowthAndHoldsAtMostMax(t *testing.T) {
	q := newTaskQueue(100)
	reqs := make([]*routedRequest, 100)
	for round := 0; round < 3; round++ { // wraps the ring around its end
		for i := range reqs {
			reqs[i] = &routedRequest{}
			require.True(t, q.push(reqs[i]), "push %d", i)
		}
		assert.False(t, q.push(&routedRequest{}), "a full queue refuses")
		assert.Equal(t, 100, q.len())
		for i := range 60 {
			got, ok := q.pop()
			require.True(t, ok)
			require.Same(t, reqs[i], got, "pop %d", i)
		}
		for i := range 60 {
			require.True(t, q.push(&routedRequest{}), "room again after pops, %d", i)
		}
		for range 100 {
			_, ok := q.pop()
			require.True(t, ok)
		}
		assert.Equal(t, 0, q.len())
	}
}

func TestTaskQueueCloseLetsWorkersDrainThenStop(t *testing.T) {
	q := newTaskQueue(10)
	first := &routedRequest{}
	require.True(t, q.push(first))
	q.close()
	assert.False(t, q.push(&routedRequest{}), "a closed queue refuses")
	got, ok := q.pop()
	require.True(t, ok)
	assert.Same(t, first, got)
	_, ok = q.pop()
	assert.False(t, ok, "closed and empty")
}

func TestTaskQueuePopWaitsForPush(t *testing.T) {
	q := newTaskQueue(10)
	popped := make(chan *routedRequest)
	go func() {
		r, _ := q.pop()
		popped <- r
	}()
	r := &routedRequest{}
	require.True(t, q.push(r))
	assert.Same(t, r, <-popped)
}
