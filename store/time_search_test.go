package store

import (
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/testclock"
)

// putAt stores one message of topic's queue 0 at each of the times
// (milliseconds after the clock's start), in order.
func putAt(t *testing.T, s *Store, clock *testclock.Clock, topic string, times ...int64) {
	t.Helper()
	start := clock.Now()
	for i, at := range times {
		clock.Advance(start.Add(time.Duration(at) * time.Millisecond).Sub(clock.Now()))
		m := testMessage(topic, 0, i)
		require.Equal(t, PutOK, s.PutMessage(&m).Status)
	}
	waitDispatched(t, s)
}

// clockedStore opens a store whose store times come from a test clock.
func clockedStore(t *testing.T, o Options) (*Store, *testclock.Clock, int64) {
	clock := testclock.New()
	o.Now = clock.Now
	return openStarted(t, o), clock, clock.Now().UnixMilli()
}

// TestOffsetByTimeAsEachLineAnswers walks one queue stored at times
// 100, 100, 100, 300, 300, 500 through every boundary of the three rules
// (the figures are Java's, worked through its getOffsetInQueueByTime).
func TestOffsetByTimeAsEachLineAnswers(t *testing.T) {
	s, clock, t0 := clockedStore(t, smallOptions(t.TempDir()))
	putAt(t, s, clock, "TopicT", 100, 100, 100, 300, 300, 500)
	for _, c := range []struct {
		name                  string
		at                    int64
		nearest, lower, upper int64
	}{
		{"before the first", 50, 0, 0, 0},
		{"exactly the first time, three messages", 100, 2, 0, 2},
		{"between, nearer neither (the earlier wins)", 200, 2, 3, 2},
		{"between, nearer the later", 260, 3, 3, 2},
		{"between, nearer the earlier", 140, 2, 3, 2},
		{"exactly a time of two messages", 300, 4, 3, 4},
		{"exactly the last time", 500, 5, 5, 5},
		{"after the last", 600, 5, 6, 5},
	} {
		ts := t0 + c.at
		assert.Equal(t, c.nearest, s.OffsetByTime("TopicT", 0, ts, Nearest), "4.x: %s", c.name)
		assert.Equal(t, c.lower, s.OffsetByTime("TopicT", 0, ts, Lower), "5.x LOWER: %s", c.name)
		assert.Equal(t, c.upper, s.OffsetByTime("TopicT", 0, ts, Upper), "5.x UPPER: %s", c.name)
	}
	for _, rule := range []TimeSearch{Nearest, Lower, Upper} {
		assert.Zero(t, s.OffsetByTime("Nothing", 0, t0, rule), "a queue that does not exist")
		assert.Zero(t, s.OffsetByTime("TopicT", 7, t0, rule), "a queue of the topic that has no messages")
	}
}

// TestOffsetByTimePicksTheFileAsEachLineDoes: 4.x picks the consume-queue
// file by its modification time, 5.x by the store times of its units.
func TestOffsetByTimePicksTheFileAsEachLineDoes(t *testing.T) {
	o := smallOptions(t.TempDir())
	o.ConsumeQueueFileSize = 4 * cqUnitSize
	s, clock, t0 := clockedStore(t, o)
	putAt(t, s, clock, "TopicT", 10, 20, 30, 40, 50, 60, 70, 80, 90, 100) // files of 4, 4 and 2 units
	files := s.cqs.find("TopicT", 0).files.snapshot()
	require.Len(t, files, 3)
	for i, f := range files { // modified as the last unit of each was written
		mtime := time.UnixMilli(t0 + []int64{40, 80, 100}[i])
		require.NoError(t, os.Chtimes(f.path, mtime, mtime))
	}
	assert.EqualValues(t, 4, s.OffsetByTime("TopicT", 0, t0+55, Nearest), "second file, nearest of 50 and 60")
	assert.EqualValues(t, 3, s.OffsetByTime("TopicT", 0, t0+40, Nearest), "first file, its last unit")
	assert.EqualValues(t, 4, s.OffsetByTime("TopicT", 0, t0+45, Nearest), "second file (first modified after 45): 50, not the tie's earlier 40, which is in the first")
	assert.EqualValues(t, 8, s.OffsetByTime("TopicT", 0, t0+85, Nearest), "third file, its first")
	assert.EqualValues(t, 5, s.OffsetByTime("TopicT", 0, t0+55, Lower))
	assert.EqualValues(t, 4, s.OffsetByTime("TopicT", 0, t0+55, Upper))
	assert.EqualValues(t, 8, s.OffsetByTime("TopicT", 0, t0+85, Lower), "third file's first unit")
	assert.EqualValues(t, 7, s.OffsetByTime("TopicT", 0, t0+85, Upper))
	assert.EqualValues(t, 10, s.OffsetByTime("TopicT", 0, t0+999, Lower))
	assert.EqualValues(t, 9, s.OffsetByTime("TopicT", 0, t0+999, Upper))
	assert.EqualValues(t, 9, s.OffsetByTime("TopicT", 0, t0+999, Nearest))
}

// TestOffsetByTimeAfterRetentionDeletedTheHead: messages whose commitlog
// is gone are never an answer.
func TestOffsetByTimeAfterRetentionDeletedTheHead(t *testing.T) {
	o := smallOptions(t.TempDir())
	o.ConsumeQueueFileSize = 1000 * cqUnitSize
	o.Retention.FileReservedTime = 0
	o.Retention.DeleteCommitLogFilesInterval = 0
	o.Retention.CleanResourceInterval = time.Hour // driven by hand below
	s, clock, t0 := clockedStore(t, o)
	times := make([]int64, 300)
	for i := range times {
		times[i] = int64(10 * (i + 1))
	}
	putAt(t, s, clock, "TopicT", times...)
	s.DeleteExpiredFilesNow()
	require.NoError(t, s.cleanOnce(t.Context(), time.Now()))
	first := s.MinOffset("TopicT", 0)
	require.Positive(t, first, "the head was deleted")
	last := s.MaxOffset("TopicT", 0) - 1
	for _, rule := range []TimeSearch{Nearest, Lower, Upper} {
		assert.Equal(t, first, s.OffsetByTime("TopicT", 0, t0, rule), "before every message: the first that is left (%d)", rule)
		assert.Equal(t, first, s.OffsetByTime("TopicT", 0, t0+times[first-1], rule), "the time of a deleted one (%d)", rule)
		assert.Equal(t, first+1, s.OffsetByTime("TopicT", 0, t0+times[first+1], rule), "a time left (%d)", rule)
	}
	assert.Equal(t, last, s.OffsetByTime("TopicT", 0, t0+99999, Nearest))
	assert.Equal(t, last+1, s.OffsetByTime("TopicT", 0, t0+99999, Lower))
	assert.Equal(t, last, s.OffsetByTime("TopicT", 0, t0+99999, Upper))
}
