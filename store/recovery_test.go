package store

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// commitLogFileAt returns the path of the commitlog file holding offset
// (the directory may also hold the empty file created ahead).
func commitLogFileAt(o Options, offset int64) string {
	return filepath.Join(o.RootDir, "commitlog", fileName(offset-offset%o.CommitLogFileSize))
}

// writeAt overwrites bytes of a file.
func writeAt(t *testing.T, path string, off int64, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteAt(b, off)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

func TestRecoveryCutsAPartialRecord(t *testing.T) {
	o := smallOptions(t.TempDir())
	s := openStarted(t, o)
	want := putAll(t, s, 200, "TopicA")
	end := s.CommitLogMaxOffset()
	require.NoError(t, s.Close())

	// Half of a record that was being written when the process died.
	m := testMessage("TopicA", 0, 777)
	rec := appendRecord(nil, &m, false)
	patchRecord(rec, 999, end, 1)
	last := commitLogFileAt(o, end)
	writeAt(t, last, end%o.CommitLogFileSize, rec[:len(rec)/2])

	s2 := openStarted(t, o)
	assert.Equal(t, end, s2.CommitLogMaxOffset(), "the partial record is cut off")
	checkAll(t, s2, want)
	data, err := os.ReadFile(last)
	require.NoError(t, err)
	assert.True(t, allZero(data[end%o.CommitLogFileSize:]), "the tail after the cut is zeroed")
	m2 := testMessage("TopicA", 0, 1000)
	res := s2.PutMessage(&m2)
	require.Equal(t, PutOK, res.Status)
	assert.Equal(t, end, res.WroteOffset)
}

func TestRecoveryStopsAtACorruptRecord(t *testing.T) {
	o := smallOptions(t.TempDir())
	s := openStarted(t, o)
	putAll(t, s, 300, "TopicA")
	waitDispatched(t, s)
	// Corrupt the body of a record in the last file.
	last := s.cl.files.last()
	victim, err := DecodeRecord(last.data[:last.wrotePosition()])
	require.NoError(t, err)
	victimOffset := victim.PhysicalOffset
	victimQueue, victimQueueOffset := victim.QueueID, victim.QueueOffset
	require.NoError(t, s.Close())
	writeAt(t, commitLogFileAt(o, victimOffset), victimOffset%o.CommitLogFileSize+100, []byte{0xFF, 0xFE})

	s2 := openStarted(t, o)
	assert.Equal(t, victimOffset, s2.CommitLogMaxOffset(), "recovery ends before the corrupt record")
	assert.Equal(t, victimQueueOffset, s2.MaxOffset("TopicA", victimQueue), "its queue units are removed")
	for q := int32(0); q < 3; q++ {
		for _, r := range readQueue(t, s2, "TopicA", q, nil) {
			assert.Less(t, r.PhysicalOffset, victimOffset, "nothing at or after the corrupt record is served")
		}
	}
}

func TestCrashRecoveryRebuildsQueuesAndIndex(t *testing.T) {
	o := smallOptions(t.TempDir())
	s := openStarted(t, o)
	want := putAll(t, s, 300, "TopicA", "TopicB")
	waitDispatched(t, s)
	crashed := copyDir(t, o.RootDir)
	require.True(t, fileExists(filepath.Join(crashed, "abort")))
	// The queues and the index were never flushed before the crash.
	require.NoError(t, os.RemoveAll(filepath.Join(crashed, "consumequeue")))
	require.NoError(t, os.RemoveAll(filepath.Join(crashed, "index")))

	o2 := o
	o2.RootDir = crashed
	s2 := openStarted(t, o2)
	assert.False(t, s2.LastExitOK())
	checkAll(t, s2, want)
	for _, msgs := range want {
		for _, m := range msgs {
			uniq := ParseProperties(m.Properties)["UNIQ_KEY"]
			assert.Len(t, s2.IndexedOffsets(m.Topic, uniq, 4, 0, 1<<62), 1, uniq)
		}
	}
}

func TestCrashRecoveryFromCheckpoint(t *testing.T) {
	o := smallOptions(t.TempDir())
	s := openStarted(t, o)
	first := putAll(t, s, 300, "TopicA")
	waitDispatched(t, s)
	require.NoError(t, s.flushAll()) // checkpoint now covers the first 300
	require.Positive(t, s.cp.logicsMsgTimestamp.Load())
	second := putAll(t, s, 300, "TopicB")
	waitDispatched(t, s)
	crashed := copyDir(t, o.RootDir)
	// TopicB's queues were not flushed: lose them.
	require.NoError(t, os.RemoveAll(filepath.Join(crashed, "consumequeue", "TopicB")))
	o2 := o
	o2.RootDir = crashed
	last := commitLogFileAt(o2, s.CommitLogMaxOffset())
	// And a torn write at the end.
	writeAt(t, last, s.CommitLogMaxOffset()%o.CommitLogFileSize, []byte{0, 0, 1, 0, 0xDA, 0xA3, 0x20, 0xA7, 1, 2, 3})

	s2 := openStarted(t, o2)
	assert.Equal(t, s.CommitLogMaxOffset(), s2.CommitLogMaxOffset())
	checkAll(t, s2, first)
	checkAll(t, s2, second)
}

func TestReadOnlyOpenChangesNothing(t *testing.T) {
	o := smallOptions(t.TempDir())
	s := openStarted(t, o)
	want := putAll(t, s, 100, "TopicA")
	waitDispatched(t, s)
	crashed := copyDir(t, o.RootDir)
	o2 := o
	o2.RootDir = crashed
	o2.ReadOnly = true
	last := commitLogFileAt(o2, s.CommitLogMaxOffset())
	garbage := []byte("garbage after the end")
	writeAt(t, last, s.CommitLogMaxOffset()%o.CommitLogFileSize, garbage)
	before, err := os.ReadFile(last)
	require.NoError(t, err)

	ro, err := Open(o2, nil)
	require.NoError(t, err)
	defer ro.Close()
	assert.Equal(t, s.CommitLogMaxOffset(), ro.CommitLogMaxOffset())
	checkAll(t, ro, want)
	assert.Equal(t, PutServiceNotAvailable, ro.PutMessage(&want[queueRef{"TopicA", 0}][0]).Status)
	after, err := os.ReadFile(last)
	require.NoError(t, err)
	assert.Equal(t, before, after)
}
