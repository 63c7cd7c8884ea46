package store

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"
	"go.uber.org/zap/zaptest"
	"go.uber.org/zap/zaptest/observer"

	"github.com/rmqgo/rmqgo/internal/testclock"
)

// quietOptions are smallOptions with background flushes that never come
// during a test: the test flushes by hand, so the checkpoint says exactly
// what the test made durable.
func quietOptions(dir string) Options {
	o := smallOptions(dir)
	o.FlushIntervalCommitLog = time.Hour
	o.FlushIntervalConsumeQueue = time.Hour
	o.CheckpointInterval = 0
	return o
}

// onDiskCheckpoint reads the three timestamps from the checkpoint file.
func onDiskCheckpoint(t *testing.T, root string) (physic, logics, index int64) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "checkpoint"))
	require.NoError(t, err)
	require.Len(t, b, checkpointSize)
	be := binary.BigEndian
	return int64(be.Uint64(b)), int64(be.Uint64(b[8:])), int64(be.Uint64(b[16:]))
}

// crashedCopy copies a running store's directory, as a SIGKILL leaves it,
// and opens and starts the copy.
func crashedCopy(t *testing.T, s *Store, o Options) *Store {
	t.Helper()
	waitDispatched(t, s)
	o.RootDir = copyDir(t, o.RootDir)
	require.FileExists(t, filepath.Join(o.RootDir, "abort"))
	return openStarted(t, o)
}

// lastOffsetOf returns the commitlog offset of a queue's last message.
func lastOffsetOf(t *testing.T, s *Store, topic string, qid int32) int64 {
	t.Helper()
	u, ok := s.cqs.find(topic, qid).lastUnit()
	require.True(t, ok)
	return u.offset
}

// checkIndexedOnce checks that every message's UNIQ_KEY is in the index
// exactly once.
func checkIndexedOnce(t *testing.T, s *Store, want sent) {
	t.Helper()
	for _, msgs := range want {
		for _, m := range msgs {
			uniq := ParseProperties(m.Properties)[PropertyUniqKey]
			assert.Len(t, s.IndexedOffsets(m.Topic, uniq, 4, 0, math.MaxInt64), 1, "%s %s", m.Topic, uniq)
		}
	}
}

// TestCrashRecoveryReadsOnlyWhatTheCheckpointDoesNotCover: messages
// stored before the checkpoint's time (less its 3 s margin) are not read
// again; the scan starts at the last of them, in the middle of a file,
// and still serves and indexes everything, acknowledged or torn.
func TestCrashRecoveryReadsOnlyWhatTheCheckpointDoesNotCover(t *testing.T) {
	o := quietOptions(t.TempDir())
	clock := testclock.New()
	o.Now = clock.Now
	s := openStarted(t, o)
	old := putAll(t, s, 2400, "TopicA") // ~25 commitlog files of 64 KiB
	waitDispatched(t, s)
	lastOld := lastOffsetOf(t, s, "TopicA", 2)
	clock.Advance(10 * time.Second)
	covered := putAll(t, s, 90, "TopicB")
	waitDispatched(t, s)
	require.NoError(t, s.flushAll())
	physic, logics, index := onDiskCheckpoint(t, o.RootDir)
	require.Equal(t, clock.Now().UnixMilli(), physic)
	require.Equal(t, clock.Now().UnixMilli(), logics)
	require.Equal(t, clock.Now().UnixMilli(), index)
	clock.Advance(10 * time.Second)
	unflushed := putAll(t, s, 90, "TopicC")
	end := s.CommitLogMaxOffset()
	require.Greater(t, end/o.CommitLogFileSize, int64(20))

	s2 := crashedCopy(t, s, o)
	rec := s2.Recovery()
	assert.False(t, rec.LastExitOK)
	assert.Equal(t, lastOld, rec.From, "the scan starts at the last record stored 3 s before the checkpoint")
	assert.Equal(t, end, rec.End)
	assert.Equal(t, end-lastOld, rec.Scanned)
	assert.LessOrEqual(t, rec.Files, 4, "a few files of the store, not all")
	for _, want := range []sent{old, covered, unflushed} {
		checkAll(t, s2, want)
		checkIndexedOnce(t, s2, want)
	}
}

// TestCrashRecoveryTruncatesATornTailAfterACheckpointStart: a record torn
// by the crash after the last checkpoint is cut off, its bytes zeroed,
// and the next message takes its offset.
func TestCrashRecoveryTruncatesATornTailAfterACheckpointStart(t *testing.T) {
	o := quietOptions(t.TempDir())
	clock := testclock.New()
	o.Now = clock.Now
	s := openStarted(t, o)
	first := putAll(t, s, 300, "TopicA")
	clock.Advance(10 * time.Second)
	second := putAll(t, s, 30, "TopicB")
	waitDispatched(t, s)
	require.NoError(t, s.flushAll())
	clock.Advance(10 * time.Second)
	third := putAll(t, s, 30, "TopicC")
	end := s.CommitLogMaxOffset()
	waitDispatched(t, s)
	crashed := copyDir(t, o.RootDir)
	// The next record, written whole but for a byte of its body.
	m := testMessage("TopicC", 0, 999)
	rec := appendRecord(nil, &m, false)
	patchRecord(rec, 10, end, clock.Now().UnixMilli())
	rec[len(rec)-len(m.Properties)-20] ^= 0xFF
	last := filepath.Join(crashed, "commitlog", filepath.Base(commitLogFileAt(o, end)))
	writeAt(t, last, end%o.CommitLogFileSize, rec)

	o.RootDir = crashed
	s2 := openStarted(t, o)
	assert.Positive(t, s2.Recovery().From, "recovery started from the checkpoint")
	assert.Equal(t, end, s2.CommitLogMaxOffset(), "the torn record is cut off")
	assert.Contains(t, s2.Recovery().Stop, "CRC")
	for _, want := range []sent{first, second, third} {
		checkAll(t, s2, want)
	}
	data, err := os.ReadFile(last)
	require.NoError(t, err)
	assert.True(t, allZero(data[end%o.CommitLogFileSize:]), "the tail after the cut is zeroed")
	res := s2.PutMessage(&m)
	require.Equal(t, PutOK, res.Status)
	assert.Equal(t, end, res.WroteOffset)
}

// TestCrashRecoveryKeepsTheCheckpointedIndexFile: the newest index file,
// synced up to the checkpoint, is kept after a crash (Java would delete
// it) and only the records after the checkpoint are indexed again.
func TestCrashRecoveryKeepsTheCheckpointedIndexFile(t *testing.T) {
	o := quietOptions(t.TempDir())
	o.MaxHashSlotNum, o.MaxIndexNum = 1024, 100000 // one index file
	clock := testclock.New()
	o.Now = clock.Now
	s := openStarted(t, o)
	first := putAll(t, s, 300, "TopicA")
	clock.Advance(10 * time.Second)
	second := putAll(t, s, 30, "TopicB")
	waitDispatched(t, s)
	require.NoError(t, s.flushAll())
	clock.Advance(10 * time.Second)
	third := putAll(t, s, 100, "TopicC")
	files, err := os.ReadDir(filepath.Join(o.RootDir, "index"))
	require.NoError(t, err)
	require.Len(t, files, 1)

	s2 := crashedCopy(t, s, o)
	after, err := os.ReadDir(filepath.Join(s2.opts.RootDir, "index"))
	require.NoError(t, err)
	require.Len(t, after, 1)
	assert.Equal(t, files[0].Name(), after[0].Name(), "the index file is kept")
	assert.Positive(t, s2.Recovery().From)
	for _, want := range []sent{first, second, third} {
		checkIndexedOnce(t, s2, want)
	}
}

// TestCrashRecoveryOfAJavaCheckpoint: with the index time Java leaves
// (only a full index file moves it: here none), the newest index file is
// deleted and rebuilt from its first record, as before.
func TestCrashRecoveryOfAJavaCheckpoint(t *testing.T) {
	o := quietOptions(t.TempDir())
	o.MaxHashSlotNum, o.MaxIndexNum = 1024, 100000
	clock := testclock.New()
	o.Now = clock.Now
	s := openStarted(t, o)
	want := putAll(t, s, 300, "TopicA")
	clock.Advance(10 * time.Second)
	require.NoError(t, s.flushAll())
	waitDispatched(t, s)
	crashed := copyDir(t, o.RootDir)
	cp, err := openCheckpoint(filepath.Join(crashed, "checkpoint"), false)
	require.NoError(t, err)
	cp.indexMsgTimestamp.Store(0)
	require.NoError(t, cp.flush())
	require.NoError(t, cp.close())

	o.RootDir = crashed
	s2 := openStarted(t, o)
	assert.Zero(t, s2.Recovery().From, "the index file is rebuilt from the first record")
	checkAll(t, s2, want)
	checkIndexedOnce(t, s2, want)
}

// TestCheckpointFollowsEveryFlush: the checkpoint file moves with flushes
// that are not thorough (Java moves it only with the thorough ones), never
// claims a unit that a flush with least pages left in memory, and a unit
// that waited CheckpointInterval is flushed whatever its queue's dirty
// pages.
func TestCheckpointFollowsEveryFlush(t *testing.T) {
	o := quietOptions(t.TempDir())
	o.CheckpointInterval = time.Hour
	clock := testclock.New()
	o.Now = clock.Now
	s := openStarted(t, o)
	putAll(t, s, 100, "TopicA") // ~50 KiB of commitlog, ~700 B per queue
	t1 := clock.Now().UnixMilli()
	waitDispatched(t, s)
	require.NoError(t, s.flushCommitLog(1))
	require.NoError(t, s.flushConsumeQueues(1))
	physic, logics, _ := onDiskCheckpoint(t, o.RootDir)
	assert.Equal(t, t1, physic, "a flush with least pages that reached the end")
	assert.Less(t, logics, t1, "the queues' units are still in memory only")

	pending, err := s.cqs.flush(100, t1, 0)
	require.NoError(t, err)
	assert.Zero(t, pending, "units that waited their time are flushed whatever their number")
	require.NoError(t, s.flushConsumeQueues(1))
	_, logics, _ = onDiskCheckpoint(t, o.RootDir)
	assert.Equal(t, t1, logics)

	require.NoError(t, s.flushConsumeQueues(0))
	_, _, index := onDiskCheckpoint(t, o.RootDir)
	assert.Equal(t, t1, index, "a full flush syncs the newest index file")
}

// TestCleanRestartKeepsItsRecovery: the scan after a clean stop is
// untouched (the third-last file on, nothing dispatched).
func TestCleanRestartKeepsItsRecovery(t *testing.T) {
	o := quietOptions(t.TempDir())
	s, err := Open(o, zaptest.NewLogger(t))
	require.NoError(t, err)
	require.NoError(t, s.Start())
	want := putAll(t, s, 300, "TopicA")
	require.NoError(t, s.Close())
	s2 := openStarted(t, o)
	rec := s2.Recovery()
	assert.True(t, rec.LastExitOK)
	assert.Zero(t, rec.From%o.CommitLogFileSize, "from a file's start")
	assert.LessOrEqual(t, rec.End-rec.From, 3*o.CommitLogFileSize, "the last three files (the last may be the empty one made ahead)")
	checkAll(t, s2, want)
}

// TestRecoveryScanLogsProgress: a long scan says how far it got.
func TestRecoveryScanLogsProgress(t *testing.T) {
	o := quietOptions(t.TempDir())
	s := openStarted(t, o)
	putAll(t, s, 300, "TopicA")
	waitDispatched(t, s)
	core, logs := observer.New(zapcore.InfoLevel)
	files := s.cl.files.snapshot()
	p := newScanProgress(zap.New(core), s.CommitLogMaxOffset(), 64<<10)
	var res scanResult
	for _, f := range files {
		if _, _, err := s.scanFile(f, 0, false, &res, p); err != nil {
			t.Fatal(err)
		}
	}
	lines := logs.FilterMessage("recovering commitlog: progress").All()
	require.NotEmpty(t, lines)
	assert.EqualValues(t, s.CommitLogMaxOffset()>>20, lines[0].ContextMap()["atMostMB"])
	assert.GreaterOrEqual(t, len(lines), int(s.CommitLogMaxOffset()/(64<<10))-1, "a line every 64 KiB")
}

// TestTruncateAboveReadsOnlyTheLastFiles: units pointing at or past the
// commitlog end are cut, in the middle of the queue's third file, and the
// queue's high-water mark is that of the last unit kept.
func TestTruncateAboveReadsOnlyTheLastFiles(t *testing.T) {
	cq := newConsumeQueue("T", 0, t.TempDir(), 10*cqUnitSize, zaptest.NewLogger(t), false)
	defer cq.files.closeAll()
	for i := int64(0); i < 45; i++ {
		require.NoError(t, cq.put(cqUnit{offset: i * 100, size: 100}, i, 1))
	}
	require.NoError(t, cq.truncateAbove(2550)) // units 0..25 point below
	assert.EqualValues(t, 26, cq.maxOffset())
	assert.EqualValues(t, 2600, cq.maxPhysicOffset.Load())
	require.NoError(t, cq.truncateAbove(2000)) // a file boundary
	assert.EqualValues(t, 20, cq.maxOffset())
	assert.EqualValues(t, 2000, cq.maxPhysicOffset.Load())
	require.NoError(t, cq.truncateAbove(0))
	assert.EqualValues(t, 0, cq.maxOffset())
}
