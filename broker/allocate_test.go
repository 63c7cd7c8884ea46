package broker

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/protocol"
)

func testQueues(n int) []protocol.MessageQueue {
	qs := make([]protocol.MessageQueue, n)
	for i := range qs {
		qs[i] = protocol.MessageQueue{Topic: "T", BrokerName: "b", QueueID: int32(i)}
	}
	return qs
}

func testClients(n int) []string {
	cs := make([]string, n)
	for i := range cs {
		cs[i] = fmt.Sprintf("c%d", i)
	}
	return cs
}

func ids(qs []protocol.MessageQueue) []int32 {
	out := []int32{}
	for _, q := range qs {
		out = append(out, q.QueueID)
	}
	return out
}

// The shares of AllocateMessageQueueAveragely and ...ByCircle for 4
// clients over 10 queues, as Java's give them.
func TestAllocationStrategiesShareAsJavasDo(t *testing.T) {
	mqs, cids := testQueues(10), testClients(4)
	want := map[string][][]int32{
		"AVG":           {{0, 1, 2}, {3, 4, 5}, {6, 7}, {8, 9}},
		"AVG_BY_CIRCLE": {{0, 4, 8}, {1, 5, 9}, {2, 6}, {3, 7}},
	}
	for name, shares := range want {
		for i, share := range shares {
			got, err := allocateStrategies[name](cids[i], mqs, cids)
			require.NoError(t, err)
			assert.Equal(t, share, ids(got), "%s, client %d", name, i)
		}
		got, err := allocateStrategies[name]("stranger", mqs, cids)
		require.NoError(t, err)
		assert.Empty(t, got, "%s: a client not in the list gets nothing", name)
		_, err = allocateStrategies[name]("", mqs, cids)
		assert.ErrorIs(t, err, errEmptyClientID)
		_, err = allocateStrategies[name]("c0", nil, cids)
		assert.ErrorIs(t, err, errNoQueues)
		_, err = allocateStrategies[name]("c0", mqs, nil)
		assert.ErrorIs(t, err, errNoClients)
	}
}

// Whatever the counts, each strategy gives every queue to exactly one
// client, and no client more than one above another.
func TestAllocationStrategiesCoverEveryQueueOnce(t *testing.T) {
	for name, strategy := range allocateStrategies {
		for q := 1; q <= 12; q++ {
			for c := 1; c <= 12; c++ {
				mqs, cids := testQueues(q), testClients(c)
				owners := make([]int, q)
				least, most := q, 0
				for _, cid := range cids {
					got, err := strategy(cid, mqs, cids)
					require.NoError(t, err)
					for _, mq := range got {
						owners[mq.QueueID]++
					}
					least, most = min(least, len(got)), max(most, len(got))
				}
				for i, n := range owners {
					assert.Equal(t, 1, n, "%s, %d queues, %d clients: queue %d", name, q, c, i)
				}
				assert.LessOrEqual(t, most-least, 1, "%s, %d queues, %d clients", name, q, c)
			}
		}
	}
}

// allocate4Pop: a share of n adds the next n clients' queues; a share of
// 0 or one that covers every other client gives every broker whole
// (queue id -1); more clients than queues give each client one queue.
func TestPopAllocationShares(t *testing.T) {
	mqs, cids := testQueues(8), testClients(4)
	got, err := allocateForPop(allocateAveragely, "c0", mqs, cids, 1)
	require.NoError(t, err)
	assert.Equal(t, []int32{0, 1, 2, 3}, ids(got), "c0's share and c1's")
	got, err = allocateForPop(allocateAveragely, "c3", mqs, cids, 1)
	require.NoError(t, err)
	assert.Equal(t, []int32{6, 7, 0, 1}, ids(got), "c3's share and, wrapping, c0's")
	for _, n := range []int32{0, -1, 3} {
		got, err = allocateForPop(allocateAveragely, "c0", mqs, cids, n)
		require.NoError(t, err)
		assert.Equal(t, []protocol.MessageQueue{{Topic: "T", BrokerName: "b", QueueID: -1}}, queueSet(got), "share %d", n)
	}
	got, err = allocateForPop(allocateAveragely, "c5", testQueues(3), testClients(6), 2)
	require.NoError(t, err)
	assert.Equal(t, []int32{2}, ids(got), "six clients, three queues: client 5 gets queue 5 % 3")
}
