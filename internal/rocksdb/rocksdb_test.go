package rocksdb

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// configFamilyNames are ConfigRocksDBStorage's column families, by id.
var configFamilyNames = []string{DefaultFamily, "kvDataVersion", "forbidden"}

// dumpText prints families as compat/rocksdbtool's RocksTool does:
// "<family>\t<key>\t<value>" lines, default, kvDataVersion, forbidden.
func dumpText(fams []Family) string {
	var b strings.Builder
	for _, name := range configFamilyNames {
		for _, f := range fams {
			if f.Name != name {
				continue
			}
			keys := make([]string, 0, len(f.Entries))
			for k := range f.Entries {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				fmt.Fprintf(&b, "%s\t%s\t%s\n", name, k, f.Entries[k])
			}
		}
	}
	return b.String()
}

func sampleFamilies(n, valueSize int) []Family {
	def := map[string][]byte{}
	for i := range n {
		def[fmt.Sprintf("user%05d", i)] = bytes.Repeat([]byte{byte('a' + i%26)}, valueSize)
	}
	return []Family{
		{Name: DefaultFamily, Entries: def},
		{Name: "kvDataVersion", Entries: map[string][]byte{"kvDataVersionKey": []byte(`{"stateVersion":7}`)}},
		{Name: "forbidden", Entries: map[string][]byte{}},
	}
}

func TestLogRecordsSpanBlocks(t *testing.T) {
	sizes := []int{10, 40000, logBlockSize - logHeaderSize - 10 - logHeaderSize - 3, 0, 70000, 5}
	var file []byte
	var want [][]byte
	for i, n := range sizes {
		rec := bytes.Repeat([]byte{byte(i + 1)}, n)
		want = append(want, rec)
		file = appendLogRecord(file, rec)
	}
	got := readLog(file)
	require.Len(t, got, len(want))
	for i := range want {
		assert.Equal(t, len(want[i]), len(got[i]), "record %d", i)
		assert.True(t, bytes.Equal(want[i], got[i]), "record %d", i)
	}
}

func TestLogDropsACorruptBlockAndATornTail(t *testing.T) {
	var file []byte
	for i := range 3 {
		file = appendLogRecord(file, bytes.Repeat([]byte{byte(i + 1)}, 20000))
	}
	file[logHeaderSize+5] ^= 0xff // record 0's payload: its block is dropped
	torn := appendLogRecord(append([]byte(nil), file...), bytes.Repeat([]byte{9}, 50000))
	torn = torn[:len(torn)-100]
	got := readLog(torn)
	// Record 1 starts in block 0 (dropped); record 2 starts in block 1.
	require.Len(t, got, 1)
	assert.Equal(t, byte(3), got[0][0])
}

func TestBatchRoundTrip(t *testing.T) {
	puts := []entry{{cf: 0, key: []byte("a"), value: []byte("1")}, {cf: 2, key: []byte("b"), value: []byte("2")}}
	rec := appendBatch(nil, 41, puts)
	rec = append(rec, typeCFDeletion, 2, 1, 'b')
	var got []entry
	require.NoError(t, decodeBatch(rec, func(e entry) { got = append(got, e) }))
	require.Len(t, got, 3)
	assert.Equal(t, entry{cf: 0, key: []byte("a"), value: []byte("1"), seq: 41}, got[0])
	assert.Equal(t, entry{cf: 2, key: []byte("b"), value: []byte("2"), seq: 42}, got[1])
	assert.Equal(t, entry{cf: 2, key: []byte("b"), seq: 43, deleted: true}, got[2])
	assert.ErrorIs(t, decodeBatch(append(appendBatch(nil, 1, nil), typeMerge, 1, 'k', 1, 'v'), func(entry) {}), ErrUnsupported)
}

func TestWriteThenReadReplacesTheDatabase(t *testing.T) {
	dir := t.TempDir()
	_, err := Read(dir)
	require.ErrorIs(t, err, ErrNotFound)
	assert.False(t, Exists(dir))

	big := sampleFamilies(300, 200) // one WriteBatch of ~70 KiB: three log blocks
	require.NoError(t, Write(dir, big))
	got, err := Read(dir)
	require.NoError(t, err)
	assert.Equal(t, dumpText(big), dumpText(got))

	small := sampleFamilies(3, 10)
	require.NoError(t, Write(dir, small))
	got, err = Read(dir)
	require.NoError(t, err)
	assert.Equal(t, dumpText(small), dumpText(got))
	assert.Equal(t, []string{"000003.log", "CURRENT", "MANIFEST-000004"}, names(t, dir))
}

func TestWriteWantsTheDefaultFamilyFirst(t *testing.T) {
	assert.Error(t, Write(t.TempDir(), []Family{{Name: "forbidden"}}))
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, de := range des {
		out = append(out, de.Name())
	}
	return out
}

// The fixtures of testdata/java-*/ (compat/rocksdbtool/gen.sh): databases
// the 5.3.3 ConfigRocksDBStorage wrote, after a clean shutdown (SST files),
// a kill (WAL only) and a kill after a flush (both), with what Java read
// back from each (expected.txt).
func javaFixtures(t *testing.T) []string {
	dirs, err := filepath.Glob("testdata/java-*")
	require.NoError(t, err)
	require.NotEmpty(t, dirs, "no fixtures: sh compat/rocksdbtool/gen.sh")
	return dirs
}

func TestReadsWhatJavaWrote(t *testing.T) {
	for _, dir := range javaFixtures(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(dir, "expected.txt"))
			require.NoError(t, err)
			got, err := Read(filepath.Join(dir, "db"))
			require.NoError(t, err)
			assert.Equal(t, string(want), dumpText(got))
		})
	}
}

func TestRewritesWhatJavaWrote(t *testing.T) {
	for _, dir := range javaFixtures(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "db")
			require.NoError(t, exec.Command("cp", "-a", filepath.Join(dir, "db"), db).Run())
			fams, err := Read(db)
			require.NoError(t, err)
			require.NoError(t, Write(db, fams))
			again, err := Read(db)
			require.NoError(t, err)
			assert.Equal(t, dumpText(fams), dumpText(again))
			for _, n := range names(t, db) {
				assert.False(t, strings.HasSuffix(n, ".sst"), "old table %s left", n)
			}
		})
	}
}

// cutWrite writes next over a copy of the database in dir and puts the
// copy's new WAL into dir: dir is then as a Write of next cut before
// CURRENT moved would leave it.
func cutWrite(t *testing.T, dir string, next []Family) {
	t.Helper()
	cp := filepath.Join(t.TempDir(), "db")
	require.NoError(t, exec.Command("cp", "-a", dir, cp).Run())
	require.NoError(t, Write(cp, next))
	logs, err := fileNumbers(cp, ".log")
	require.NoError(t, err)
	name := fmt.Sprintf("%06d.log", logs[len(logs)-1])
	data, err := os.ReadFile(filepath.Join(cp, name))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, name), data, 0o644))
}

func TestAWriteCutBeforeCURRENTMovedReadsAsTheNewDatabase(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, Write(dir, sampleFamilies(5, 10)))
	next := sampleFamilies(3, 20) // other values; user00003 and user00004 gone
	cutWrite(t, dir, next)
	got, err := Read(dir)
	require.NoError(t, err)
	assert.Equal(t, dumpText(next), dumpText(got))
}
