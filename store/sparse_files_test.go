package store

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"
	"golang.org/x/sys/unix"
)

// allocated is how many bytes of disk the file at path holds.
func allocated(t *testing.T, path string) int64 {
	t.Helper()
	var st unix.Stat_t
	require.NoError(t, unix.Stat(path, &st))
	return st.Blocks * 512
}

// Consume queue and index files are sparse, as Java's are: a store of 40
// queues with a message or two each holds a few pages of each queue's
// 6 MB file and about the slots of its 40 MB index file (reserving them
// whole held 240 MB and 40 MB), before and after a restart (whose
// recovery cuts every queue back), and every message reads back.
func TestConsumeQueueAndIndexFilesAreSparse(t *testing.T) {
	dir := t.TempDir()
	o := DefaultOptions()
	o.RootDir = dir
	o.CommitLogFileSize = 1 << 20
	o.MaxHashSlotNum = 1 << 20 // 4 MB of slots
	o.MaxIndexNum = 2 << 20    // 40 MB of entries
	const queues = 40
	for round := range 2 {
		s := openStarted(t, o)
		for q := range int32(queues) {
			m := testMessage("Sparse", q, round*queues+int(q))
			require.Equal(t, PutOK, s.PutMessage(&m).Status)
		}
		waitDispatched(t, s)
		require.NoError(t, s.Close())
		assertSparse(t, dir, queues, o)
	}

	s := openStarted(t, o)
	for q := range int32(queues) {
		res := s.GetMessages("Sparse", q, 0, 8, nil)
		assert.Len(t, res.Messages, 2, "queue %d", q)
		res.Release()
	}
	for i := range 2 * queues {
		found := s.QueryMessages("Sparse", fmt.Sprintf("UNIQ%08d", i), 4, 0, math.MaxInt64)
		assert.Len(t, found.Messages, 1, "message %d by its key", i)
		found.Release()
	}
}

// assertSparse checks the disk held by the store's queue and index files.
func assertSparse(t *testing.T, dir string, queues int, o Options) {
	t.Helper()
	cqFiles, err := filepath.Glob(filepath.Join(dir, "consumequeue", "Sparse", "*", "*"))
	require.NoError(t, err)
	require.Len(t, cqFiles, queues)
	for _, f := range cqFiles {
		st, err := os.Stat(f)
		require.NoError(t, err)
		require.Equal(t, o.ConsumeQueueFileSize, st.Size(), f)
		assert.LessOrEqual(t, allocated(t, f), int64(64<<10), "%s holds its pages, not its 6 MB", f)
	}
	ixFiles, err := filepath.Glob(filepath.Join(dir, "index", "*"))
	require.NoError(t, err)
	require.Len(t, ixFiles, 1)
	slots := int64(indexHeaderSize + o.MaxHashSlotNum*indexSlotSize)
	got := allocated(t, ixFiles[0])
	assert.GreaterOrEqual(t, got, slots, "the header and slots are reserved")
	assert.LessOrEqual(t, got, slots+(256<<10), "the entries hold their pages, not 40 MB")
}

// A sparse file cut back becomes holes again past the cut's page, keeps
// the bytes before the cut and reads zero after it; a reserved file keeps
// its blocks.
func TestZeroFromPunchesASparseFilesTail(t *testing.T) {
	const size = 16 * osPageSize
	for _, sparse := range []bool{true, false} {
		path := filepath.Join(t.TempDir(), fileName(0))
		mf, err := openMapped(path, 0, size, mapping{create: true, sparse: sparse})
		require.NoError(t, err)
		data := make([]byte, 8*osPageSize)
		for i := range data {
			data[i] = byte(i%251 + 1)
		}
		require.NoError(t, mf.writeThrough(data, 0))
		const cut = 2*osPageSize + 100
		require.NoError(t, mf.zeroFrom(cut))
		assert.Equal(t, data[:cut], mf.data[:cut], "sparse %v: the bytes before the cut", sparse)
		assert.True(t, allZero(mf.data[cut:]), "sparse %v: zero after the cut", sparse)
		if sparse {
			assert.LessOrEqual(t, allocated(t, path), int64(3*osPageSize), "holes past the cut's page")
		} else {
			assert.GreaterOrEqual(t, allocated(t, path), int64(size), "a reserved file keeps its blocks")
		}
		mf.close()
		onDisk, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Equal(t, data[:cut], onDisk[:cut], "sparse %v: on disk", sparse)
		assert.True(t, allZero(onDisk[cut:]), "sparse %v: zero on disk after the cut", sparse)
	}
}

// A queue whose first file starts inside it is pre-filled with blank
// units through the file, then its first unit follows.
func TestAQueueStartingInsideAFileIsPrefilledWithBlanks(t *testing.T) {
	cq := newConsumeQueue("T", 0, t.TempDir(), 1000*cqUnitSize, zaptest.NewLogger(t), false)
	const first = 300 // units 0..299 are blanks, across pages
	require.NoError(t, cq.put(cqUnit{offset: 7, size: 100, tagsCode: 1}, first, 1))
	f := cq.files.last()
	for i := range int64(first) {
		require.True(t, readUnit(f.data[i*cqUnitSize:]).blank(), "unit %d is a blank", i)
	}
	assert.Equal(t, int64(first), cq.minOffset())
	u, ok := cq.unitAt(first)
	require.True(t, ok)
	assert.Equal(t, cqUnit{offset: 7, size: 100, tagsCode: 1}, u)
	cq.files.closeAll()
}
