package store

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
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
