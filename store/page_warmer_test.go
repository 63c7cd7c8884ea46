package store

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"
)

func TestTheWarmerKeepsPagesMappedAheadOfTheCommitLogsWriter(t *testing.T) {
	o := smallOptions(t.TempDir())
	o.CommitLogFileSize = 4 * warmAhead
	s := openStarted(t, o)
	f := s.cl.files.last()
	for i := 0; f == nil || f.wrotePosition() < 3*warmAhead/2; i++ {
		m := testMessage("T", 0, i)
		require.Equal(t, PutOK, s.PutMessage(&m).Status)
		f = s.cl.files.last()
		end := f.wrotePosition()
		if i%500 == 0 {
			require.Eventually(t, func() bool { return f.warmed.Load() >= end+warmAhead/2 },
				10*time.Second, time.Millisecond, "warmed to %d, written to %d", f.warmed.Load(), end)
		}
	}
	require.False(t, s.cl.warm.off.Load(), "the warmer turned itself off")
	require.Zero(t, f.warmed.Load()%osPageSize, "warmed to %d, not a page boundary", f.warmed.Load())
}

func TestACutBackFileCountsAsColdPastTheCut(t *testing.T) {
	q := newFileQueue(t.TempDir(), 4*warmAhead, zaptest.NewLogger(t), false)
	f, _, err := q.lastWritable(0)
	require.NoError(t, err)
	t.Cleanup(q.closeAll)
	f.wrote.Store(3 * warmAhead)
	f.warmed.Store(4 * warmAhead)
	require.NoError(t, q.truncate(warmAhead))
	require.Equal(t, int64(warmAhead), f.warmed.Load(),
		"clearing the tail unmapped its pages: the warmer must map them again")
}
