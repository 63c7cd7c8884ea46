package store

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"
	"golang.org/x/sys/unix"
)

// sent remembers what a test put, by topic and queue.
type sent map[queueRef][]Message

func putAll(t *testing.T, s *Store, n int, topics ...string) sent {
	t.Helper()
	out := sent{}
	for i := 0; i < n; i++ {
		topic := topics[i%len(topics)]
		qid := int32(i % 3)
		m := testMessage(topic, qid, i)
		res := s.PutMessage(&m)
		require.Equal(t, PutOK, res.Status, res.Reason)
		key := queueRef{topic, qid}
		require.EqualValues(t, len(out[key]), res.QueueOffset)
		out[key] = append(out[key], m)
	}
	return out
}

// checkAll reads every queue back and compares with what was sent.
func checkAll(t *testing.T, s *Store, want sent) {
	t.Helper()
	for _, msgs := range want {
		topic, qid := msgs[0].Topic, msgs[0].QueueID
		require.EqualValues(t, len(msgs), s.MaxOffset(topic, qid))
		got := readQueue(t, s, topic, qid, nil)
		require.Len(t, got, len(msgs))
		for i, r := range got {
			assert.Equal(t, msgs[i].Body, r.Body, "%s %d body", topic, i)
			assert.Equal(t, msgs[i].Properties, string(r.Properties))
			assert.EqualValues(t, i, r.QueueOffset)
			assert.Equal(t, msgs[i].Flag, r.Flag)
		}
	}
}

// readQueue pulls a whole queue the way a consumer does.
func readQueue(t *testing.T, s *Store, topic string, qid int32, filter TagFilter) []Record {
	t.Helper()
	var out []Record
	offset := s.MinOffset(topic, qid)
	for {
		res := s.GetMessages(topic, qid, offset, 32, filter)
		for _, m := range res.Messages {
			r, err := DecodeRecord(m.Data)
			require.NoError(t, err)
			r.Body = append([]byte(nil), r.Body...)
			r.Properties = append([]byte(nil), r.Properties...)
			require.Equal(t, m.CommitLogOffset, r.PhysicalOffset)
			out = append(out, r)
		}
		res.Release()
		if res.Status != GetFound && res.Status != GetNoMatchedMessage {
			require.Equal(t, GetOffsetOverflowOne, res.Status)
			return out
		}
		offset = res.NextBeginOffset
	}
}

func TestPutGetAcrossFilesAndRestart(t *testing.T) {
	o := smallOptions(t.TempDir())
	s := openStarted(t, o)
	want := putAll(t, s, 600, "TopicA", "TopicB")
	waitDispatched(t, s)
	require.Greater(t, len(s.cl.files.snapshot()), 3, "the test must cross commitlog files")
	checkAll(t, s, want)
	require.NoError(t, s.Close())
	assert.False(t, fileExists(filepath.Join(o.RootDir, "abort")), "a clean stop removes abort")

	s2 := openStarted(t, o)
	assert.True(t, s2.LastExitOK())
	checkAll(t, s2, want)
	m := testMessage("TopicA", 0, 9999)
	res := s2.PutMessage(&m)
	require.Equal(t, PutOK, res.Status)
	assert.EqualValues(t, len(want[queueRef{"TopicA", 0}]), res.QueueOffset, "queue offsets continue after a restart")
}

func TestTagFilterAndIndexQueries(t *testing.T) {
	s := openStarted(t, smallOptions(t.TempDir()))
	want := putAll(t, s, 120, "TopicA")
	waitDispatched(t, s)
	tagA := TagsCode("TagA")
	got := readQueue(t, s, "TopicA", 0, func(tc int64) bool { return tc == tagA })
	n := 0
	for _, m := range want[queueRef{"TopicA", 0}] {
		if ParseProperties(m.Properties)["TAGS"] == "TagA" {
			assert.Equal(t, m.Body, got[n].Body)
			n++
		}
	}
	assert.Equal(t, n, len(got))
	assert.Positive(t, n)

	// Every message can be found by each of its keys and by its UNIQ_KEY.
	for _, msgs := range want {
		for _, m := range msgs {
			p := ParseProperties(m.Properties)
			ownKey := strings.Fields(p["KEYS"])[0]
			for _, key := range []string{p["UNIQ_KEY"], ownKey} {
				res := s.QueryMessages("TopicA", key, 32, 0, time.Now().UnixMilli()+1000)
				require.Len(t, res.Messages, 1, "key %s", key)
				r, err := DecodeRecord(res.Messages[0].Data)
				require.NoError(t, err)
				assert.Equal(t, m.Body, r.Body)
				res.Release()
			}
		}
	}
	// order-3 is a key shared by every 7th message.
	offs := s.IndexedOffsets("TopicA", "order-3", 64, 0, time.Now().UnixMilli()+1000)
	assert.Len(t, offs, 120/7+boolInt(120%7 > 3))
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func TestEarliestMessageTime(t *testing.T) {
	s := openStarted(t, smallOptions(t.TempDir()))
	putAll(t, s, 30, "TopicA")
	waitDispatched(t, s)
	first := s.StoreTimeAt("TopicA", 0, 0)
	require.Positive(t, first)
	assert.Equal(t, first, s.EarliestMessageTime("TopicA", 0))
}

func TestGetStatuses(t *testing.T) {
	s := openStarted(t, smallOptions(t.TempDir()))
	res := s.GetMessages("Nothing", 0, 5, 32, nil)
	assert.Equal(t, GetNoMessageInQueue, res.Status)
	assert.EqualValues(t, 0, res.NextBeginOffset)
	putAll(t, s, 6, "TopicA")
	waitDispatched(t, s)
	res = s.GetMessages("TopicA", 0, 2, 32, nil)
	assert.Equal(t, GetOffsetOverflowOne, res.Status)
	res = s.GetMessages("TopicA", 0, 9, 32, nil)
	assert.Equal(t, GetOffsetOverflowBadly, res.Status)
	assert.EqualValues(t, 2, res.NextBeginOffset)
	res = s.GetMessages("TopicA", 0, 0, 1, nil)
	assert.Equal(t, GetFound, res.Status)
	assert.Len(t, res.Messages, 1)
	assert.EqualValues(t, 1, res.NextBeginOffset)
	res.Release()
}

func TestSyncFlushConcurrentPuts(t *testing.T) {
	o := smallOptions(t.TempDir())
	o.Flush = SyncFlush
	s := openStarted(t, o)
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 100; i++ {
				m := testMessage("Sync", int32(w), i)
				res := s.PutMessage(&m)
				assert.Equal(t, PutOK, res.Status, res.Reason)
			}
		}()
	}
	wg.Wait()
	assert.GreaterOrEqual(t, s.cl.files.flushedOffset(), s.CommitLogMaxOffset())
	waitDispatched(t, s)
	for w := int32(0); w < 8; w++ {
		assert.EqualValues(t, 100, s.MaxOffset("Sync", w))
	}
}

func TestBatchPut(t *testing.T) {
	s := openStarted(t, smallOptions(t.TempDir()))
	var batch []Message
	for i := 0; i < 10; i++ {
		batch = append(batch, testMessage("Batch", 2, i))
	}
	res := s.PutMessages(batch)
	require.Equal(t, PutOK, res.Status, res.Reason)
	assert.Equal(t, 10, res.MsgNum)
	waitDispatched(t, s)
	got := readQueue(t, s, "Batch", 2, nil)
	require.Len(t, got, 10)
	for i, r := range got {
		assert.Equal(t, batch[i].Body, r.Body)
		assert.EqualValues(t, i, r.QueueOffset)
	}
	bad := append(batch[:1:1], testMessage("Other", 2, 1))
	assert.Equal(t, PutMessageIllegal, s.PutMessages(bad).Status)
}

func TestSecondOpenIsLocked(t *testing.T) {
	o := smallOptions(t.TempDir())
	openStarted(t, o)
	_, err := Open(o, zaptest.NewLogger(t))
	assert.ErrorIs(t, err, ErrLocked)
}

func TestRefusals(t *testing.T) {
	s := openStarted(t, smallOptions(t.TempDir()))
	m := testMessage("T", 0, 1)
	m.Body = make([]byte, 17*1024)
	assert.Equal(t, PutMessageIllegal, s.PutMessage(&m).Status)
	m = testMessage("T", 0, 1)
	m.Properties = string(make([]byte, 40000))
	assert.Equal(t, PutPropertiesSizeExceeded, s.PutMessage(&m).Status)
	s.checkDiskFull(0.99)
	m = testMessage("T", 0, 1)
	res := s.PutMessage(&m)
	assert.Equal(t, PutServiceNotAvailable, res.Status)
	assert.Contains(t, res.Reason, "disk is full")
	s.checkDiskFull(0.10)
	assert.Equal(t, PutOK, s.PutMessage(&m).Status)
}

func TestRetentionDeletesExpiredFiles(t *testing.T) {
	o := smallOptions(t.TempDir())
	o.Retention.FileReservedTime = 0
	o.Retention.DeleteCommitLogFilesInterval = 0
	o.Retention.CleanResourceInterval = time.Hour // driven by hand below
	s := openStarted(t, o)
	putAll(t, s, 400, "TopicA")
	waitDispatched(t, s)
	files := len(s.cl.files.snapshot())
	require.Greater(t, files, 2)
	s.DeleteExpiredFilesNow()
	require.NoError(t, s.cleanOnce(t.Context(), time.Now()))
	assert.Equal(t, 1, len(s.cl.files.snapshot()), "all but the newest file are expired")
	minPhy := s.CommitLogMinOffset()
	for q := int32(0); q < 3; q++ {
		res := s.GetMessages("TopicA", q, 0, 32, nil)
		if s.MinOffset("TopicA", q) > 0 {
			assert.Equal(t, GetOffsetTooSmall, res.Status)
		}
		for _, r := range readQueue(t, s, "TopicA", q, nil) {
			assert.GreaterOrEqual(t, r.PhysicalOffset, minPhy)
		}
	}
	entries, err := os.ReadDir(filepath.Join(o.RootDir, "commitlog"))
	require.NoError(t, err)
	assert.LessOrEqual(t, len(entries), 2, "the newest file, and the next one made ahead")
	assert.Equal(t, fileName(s.cl.files.last().start), entries[0].Name())
}

// TestRetentionKeepsUndispatchedFiles: a file holding records the
// dispatcher has not put into the consume queues yet is not deleted, even
// forcibly (a full disk can hold the dispatcher up).
func TestRetentionKeepsUndispatchedFiles(t *testing.T) {
	o := smallOptions(t.TempDir())
	o.Retention.FileReservedTime = 0
	o.Retention.CleanResourceInterval = time.Hour // driven by hand below
	s := openStarted(t, o)
	putAll(t, s, 400, "TopicA")
	waitDispatched(t, s)
	files := s.cl.files.snapshot()
	require.Greater(t, len(files), 3)
	now := time.Now()
	deletable := func(dispatched int64, force bool) int {
		n, _ := s.deletableCommitLogFiles(files, dispatched, now, force)
		return n
	}
	for _, force := range []bool{false, true} {
		assert.Equal(t, len(files)-1, deletable(s.DispatchedOffset(), force),
			"all dispatched: every file but the newest")
		assert.Equal(t, 1, deletable(files[1].start+1, force),
			"dispatched into the second file: only the first")
		assert.Equal(t, 2, deletable(files[2].start, force),
			"dispatched to the end of the second file: the first two")
		assert.Equal(t, 0, deletable(0, force), "nothing dispatched: none")
	}
	_, held := s.deletableCommitLogFiles(files, files[1].start+1, now, true)
	assert.Same(t, files[1], held, "the file kept for its undispatched records is named")
}

// TestDiskFullRefusesPuts fills a small file system: when the next
// commitlog file cannot be created, puts are refused with
// CREATE_MAPEDFILE_FAILED and a reason, nothing already stored is harmed,
// and the store opens cleanly afterwards. It needs to mount a tmpfs (root).
func TestDiskFullRefusesPuts(t *testing.T) {
	dir := t.TempDir()
	if err := unix.Mount("tmpfs", dir, "tmpfs", 0, "size=400k"); err != nil {
		t.Skipf("cannot mount a small tmpfs here (%v); the disk-full case needs root", err)
	}
	t.Cleanup(func() { _ = unix.Unmount(dir, unix.MNT_DETACH) })
	o := smallOptions(dir)
	o.MessageIndexEnable = false
	s := openStarted(t, o)
	var acked []Message
	var refused PutResult
	for i := 0; i < 5000; i++ {
		m := testMessage("Full", 0, i)
		res := s.PutMessage(&m)
		if res.Status != PutOK {
			refused = res
			break
		}
		acked = append(acked, m)
		// In step with the dispatcher: the consume queue takes its files
		// as the messages come, so the commitlog is what finds the disk
		// full (a dispatcher left behind would find it instead).
		waitDispatched(t, s)
	}
	require.Equal(t, PutCreateMappedFileFailed, refused.Status, refused.Reason)
	assert.Contains(t, refused.Reason, "no space left")
	t.Logf("%d messages stored, then: %s (%s)", len(acked), refused.Status, refused.Reason)
	waitDispatched(t, s)
	require.NoError(t, s.Close())

	o.ReadOnly = true
	ro, err := Open(o, zaptest.NewLogger(t))
	require.NoError(t, err)
	defer ro.Close()
	assert.Empty(t, ro.Recovery().Stop)
	got := readQueue(t, ro, "Full", 0, nil)
	require.Len(t, got, len(acked))
	for i, r := range got {
		assert.Equal(t, acked[i].Body, r.Body)
	}
}
