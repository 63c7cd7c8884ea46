package store

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestEpochFileFormatMatchesJavaCRCs(t *testing.T) {
	require.Equal(t, "2\n1302340025\n1-0\n2-1580\n", formatEpochFile([]EpochEntry{{1, 0, 0}, {2, 1580, 0}}))
	require.Equal(t, "1\n1725254278\n1-0\n", formatEpochFile([]EpochEntry{{1, 0, 0}}))
	require.Equal(t, "3\n453994644\n1-100\n2-300\n3-500\n", formatEpochFile([]EpochEntry{{1, 100, 0}, {2, 300, 0}, {3, 500, 0}}))
}

// TestEpochFileCache mirrors Java's EpochFileCacheTest.
func TestEpochFileCache(t *testing.T) {
	path := filepath.Join(t.TempDir(), "epochFileCheckpoint")
	f, err := OpenEpochFile(path)
	require.NoError(t, err)
	require.Equal(t, int32(-1), f.LastEpoch())
	require.True(t, f.Append(1, 100))
	require.True(t, f.Append(2, 300))
	require.True(t, f.Append(3, 500))
	e, ok := f.Entry(2)
	require.True(t, ok)
	require.Equal(t, EpochEntry{2, 300, 500}, e)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, "3\n453994644\n1-100\n2-300\n3-500\n", string(data))

	g, err := OpenEpochFile(path)
	require.NoError(t, err)
	require.Equal(t, f.Entries(), g.Entries())
	last, _ := g.LastEntry()
	require.Equal(t, EpochEntry{3, 500, math.MaxInt64}, last)

	e, ok = g.FindEntryByOffset(350)
	require.True(t, ok)
	require.Equal(t, int32(2), e.Epoch)

	g.TruncateSuffixByOffset(150)
	require.Equal(t, []EpochEntry{{1, 100, math.MaxInt64}}, g.Entries())
}

func TestEpochFileAppendRules(t *testing.T) {
	f, err := OpenEpochFile(filepath.Join(t.TempDir(), "epoch"))
	require.NoError(t, err)
	require.True(t, f.Append(1, 0))
	require.False(t, f.Append(1, 10), "same epoch")
	require.False(t, f.Append(2, 0), "same start")
	require.False(t, f.Append(0, 10), "lower epoch")
	require.True(t, f.Append(3, 10))
	require.Equal(t, []EpochEntry{{1, 0, 10}, {3, 10, math.MaxInt64}}, f.Entries())
	n, ok := f.NextEntry(1)
	require.True(t, ok)
	require.Equal(t, int32(3), n.Epoch)

	f.TruncateSuffixByEpoch(3)
	require.Equal(t, []EpochEntry{{1, 0, math.MaxInt64}}, f.Entries())
}

func TestEpochFileTruncatePrefix(t *testing.T) {
	f, err := OpenEpochFile(filepath.Join(t.TempDir(), "epoch"))
	require.NoError(t, err)
	f.Append(1, 0)
	f.Append(2, 1570)
	f.Append(3, 3000)
	f.TruncatePrefixByOffset(1570)
	require.Equal(t, []EpochEntry{{2, 1570, 3000}, {3, 3000, math.MaxInt64}}, f.Entries())
	f.TruncatePrefixByOffset(1 << 40)
	require.Equal(t, []EpochEntry{{3, 3000, math.MaxInt64}}, f.Entries(), "the last entry never goes")
}

func TestEpochFileBackupAndEmptyWrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "epoch")
	f, err := OpenEpochFile(path)
	require.NoError(t, err)
	f.Append(7, 7000)
	f.Append(8, 8000)
	bak, err := os.ReadFile(path + ".bak")
	require.NoError(t, err)
	require.Equal(t, formatEpochFile([]EpochEntry{{7, 7000, 0}}), string(bak), "the previous content")

	// Damaged main file: the backup is read.
	require.NoError(t, os.WriteFile(path, []byte("2\n12345\n7-7000\n8-8000\n"), 0o644))
	g, err := OpenEpochFile(path)
	require.NoError(t, err)
	require.Equal(t, []EpochEntry{{7, 7000, math.MaxInt64}}, g.Entries())

	// Missing main file: the backup too.
	require.NoError(t, os.Remove(path))
	g, err = OpenEpochFile(path)
	require.NoError(t, err)
	require.Len(t, g.Entries(), 1)

	// Truncated to nothing: the file keeps the old content.
	h, err := OpenEpochFile(filepath.Join(t.TempDir(), "e"))
	require.NoError(t, err)
	h.Append(1, 0)
	h.TruncateSuffixByEpoch(1)
	require.Empty(t, h.Entries())
	again, err := OpenEpochFile(h.Path())
	require.NoError(t, err)
	require.Len(t, again.Entries(), 1)

	// A crc of 0 is not checked; lines that are not a-b are skipped.
	require.NoError(t, os.WriteFile(path, []byte("1\n0\nnoise\n4-40\n"), 0o644))
	g, err = OpenEpochFile(path)
	require.NoError(t, err)
	require.Equal(t, []EpochEntry{{4, 40, math.MaxInt64}}, g.Entries())
}

// TestFindConsistentPoint is EpochFileCacheTest's four cases.
func TestFindConsistentPoint(t *testing.T) {
	chain := func(end int64, es ...EpochEntry) []EpochEntry { return chainEpochs(es, end) }
	inf := int64(math.MaxInt64)
	for _, tc := range []struct {
		name          string
		local, master []EpochEntry
		want          int64
	}{
		{"third epoch starts differ", chain(inf, EpochEntry{1, 100, 0}, EpochEntry{2, 300, 0}, EpochEntry{3, 500, 0}),
			chain(inf, EpochEntry{1, 100, 0}, EpochEntry{2, 300, 0}, EpochEntry{3, 450, 0}), 450},
		{"same epochs, shorter master", chain(700, EpochEntry{1, 100, 0}, EpochEntry{2, 300, 0}, EpochEntry{3, 500, 0}),
			chain(600, EpochEntry{1, 100, 0}, EpochEntry{2, 300, 0}, EpochEntry{3, 500, 0}), 600},
		{"nothing shared", chain(inf, EpochEntry{1, 100, 0}, EpochEntry{2, 300, 0}, EpochEntry{3, 500, 0}),
			chain(inf, EpochEntry{1, 200, 0}, EpochEntry{2, 500, 0}), -1},
		{"epoch unknown to the master", chain(inf, EpochEntry{1, 100, 0}, EpochEntry{2, 300, 0}, EpochEntry{3, 500, 0}, EpochEntry{4, 800, 0}),
			chain(700, EpochEntry{1, 100, 0}, EpochEntry{2, 300, 0}, EpochEntry{3, 500, 0}), 700},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.Equal(t, tc.want, FindConsistentPoint(tc.local, tc.master))
		})
	}
}
