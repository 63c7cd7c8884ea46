package store

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
)

// As Java's IndexFile.putKey: the first entry of a file rolled after a full
// one stores its time relative to the file's begin time as it stood (the
// previous file's end), then the file's begin time becomes the entry's
// store time, so the entry reads as that gap later. The bytes are Java's;
// a lookup from before the store time with an open end (the client's
// viewMessage) finds it, a window closing a second after does not.
func TestTheFirstEntryOfARolledIndexFileReadsLaterByTheGap(t *testing.T) {
	dir := t.TempDir()
	cp, err := openCheckpoint(filepath.Join(dir, "checkpoint"), false)
	require.NoError(t, err)
	s := newIndexService(filepath.Join(dir, "index"), 4, 3, cp, zap.NewNop(), false)
	t.Cleanup(s.closeAll)
	const t0 = 1_796_590_895_985
	for i, key := range []string{"a", "b"} { // entries 1 and 2 fill a file of 3
		require.NoError(t, s.build(&dispatchRequest{topic: "T", offset: int64(100 * (i + 1)), storeTimestamp: t0, uniqKey: key}))
	}
	const later = t0 + 2329 // the next message 2.3 s later, into a new file
	require.NoError(t, s.build(&dispatchRequest{topic: "T", offset: 300, storeTimestamp: later, uniqKey: "c"}))
	require.Len(t, s.files, 2)
	ix := s.files[1]
	assert.Equal(t, int64(later), ix.beginTimestamp())
	assert.Equal(t, int32(2), ix.u32(ix.entryPos(1)+12), "timeDiff against the previous file's end, in seconds")

	assert.Equal(t, []int64{300}, s.query("T", "c", 8, later-1000, math.MaxInt64).Offsets)
	assert.Empty(t, s.query("T", "c", 8, later-1000, later+1000).Offsets)
}
