package store

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Pages handed back to the page cache read back the same: the flushed
// commitlog behind the resident window is released from the mapping, and
// every message is still served intact from it.
func TestReleasedCommitLogPagesStillServeEveryMessage(t *testing.T) {
	o := smallOptions(t.TempDir())
	o.ResidentCommitLogBytes = 8 << 10
	s := openStarted(t, o)
	const n = 400
	for i := range n {
		require.Equal(t, PutOK, s.PutMessage(ptr(testMessage("TR", 0, i))).Status)
	}
	require.NoError(t, s.flushCommitLog(0))
	waitDispatched(t, s)
	var released int64
	for _, f := range s.cl.files.snapshot() {
		released += f.released.Load()
	}
	assert.Greater(t, released, int64(0), "pages behind the window were released")
	got := 0
	for off := int64(0); off < n; {
		res := s.GetMessages("TR", 0, off, 32, nil)
		require.Equal(t, GetFound, res.Status)
		for _, m := range res.Messages {
			r, err := DecodeRecord(m.Data)
			require.NoError(t, err)
			want := testMessage("TR", 0, got)
			assert.Equal(t, want.Body, r.Body)
			got++
		}
		off = res.NextBeginOffset
		res.Release()
	}
	assert.Equal(t, n, got)
}

func ptr[T any](v T) *T { return &v }
