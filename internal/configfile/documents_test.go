package configfile

import (
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/protocol"
)

// goldenDir holds files the real Java classes wrote with encode(true), as
// ConfigManager.persist does (compat/configgen; README there). Their map
// keys were chosen so Java's hash order is the sorted order we write.
const goldenDir = "../../internal/protocol/testdata/config"

var lines = []struct {
	dir  string
	line protocol.Line
}{
	{"java-4.9.7", protocol.Line4},
	{"java-5.3.3", protocol.Line5},
}

// roundTrip loads name from src with d's line and persists it into dst:
// one Load and one Persist of a typed document.
type roundTrip func(src, dst Dir) (Result, error)

func documents() map[string]roundTrip {
	return map[string]roundTrip{
		TopicsFile: func(src, dst Dir) (Result, error) {
			w, res, err := src.LoadTopics()
			if err != nil {
				return res, err
			}
			return res, dst.PersistTopics(w)
		},
		ConsumerOffsetFile: func(src, dst Dir) (Result, error) {
			w, res, err := src.LoadConsumerOffsets()
			if err != nil {
				return res, err
			}
			return res, dst.PersistConsumerOffsets(w)
		},
		DelayOffsetFile: func(src, dst Dir) (Result, error) {
			w, res, err := src.LoadDelayOffsets()
			if err != nil {
				return res, err
			}
			return res, dst.PersistDelayOffsets(w)
		},
		SubscriptionGroupFile: func(src, dst Dir) (Result, error) {
			w, res, err := src.LoadSubscriptionGroups()
			if err != nil {
				return res, err
			}
			return res, dst.PersistSubscriptionGroups(w)
		},
		ConsumerFilterFile: func(src, dst Dir) (Result, error) {
			w, res, err := src.LoadConsumerFilters()
			if err != nil {
				return res, err
			}
			return res, dst.PersistConsumerFilters(w)
		},
	}
}

// documents5 are the documents only 5.x has (with Java-written files
// in goldenDir).
func documents5() map[string]roundTrip {
	return map[string]roundTrip{
		ConsumerOrderInfoFile: func(src, dst Dir) (Result, error) {
			w, res, err := src.LoadConsumerOrderInfo()
			if err != nil {
				return res, err
			}
			return res, dst.PersistConsumerOrderInfo(w)
		},
	}
}

// lineDocuments are the documents of a line.
func lineDocuments(line protocol.Line) map[string]roundTrip {
	docs := documents()
	if line == protocol.Line5 {
		maps.Copy(docs, documents5())
	}
	return docs
}

// TestJavaFilesRoundTrip: a file Java wrote, loaded and persisted again
// for the same line, has Java's bytes.
func TestJavaFilesRoundTrip(t *testing.T) {
	for _, l := range lines {
		for _, sub := range []string{"", "empty"} {
			for name, rt := range lineDocuments(l.line) {
				golden := filepath.Join(goldenDir, l.dir, sub, name)
				t.Run(golden, func(t *testing.T) {
					want, err := os.ReadFile(golden)
					require.NoError(t, err)
					src := Dir{Path: t.TempDir(), Line: l.line}
					require.NoError(t, os.WriteFile(src.File(name), want, 0o644))
					dst := Dir{Path: filepath.Join(t.TempDir(), "config"), Line: l.line}
					res, err := rt(src, dst)
					require.NoError(t, err)
					assert.Equal(t, SourceMain, res.Source)
					assertFile(t, dst.File(name), string(want))
					assert.NoFileExists(t, dst.File(name)+BackupSuffix)
				})
			}
		}
	}
}

// TestJavaBackupRead: Java's file as the backup of a corrupt main file.
func TestJavaBackupRead(t *testing.T) {
	for _, l := range lines {
		for name, rt := range lineDocuments(l.line) {
			want, err := os.ReadFile(filepath.Join(goldenDir, l.dir, name))
			require.NoError(t, err)
			src := Dir{Path: t.TempDir(), Line: l.line}
			require.NoError(t, os.WriteFile(src.File(name), []byte("{\n\t\"half"), 0o644))
			require.NoError(t, os.WriteFile(src.File(name)+BackupSuffix, want, 0o644))
			dst := Dir{Path: t.TempDir(), Line: l.line}
			res, err := rt(src, dst)
			require.NoError(t, err, name)
			assert.Equal(t, SourceBackup, res.Source, name)
			assert.Error(t, res.Fallback, name)
			assertFile(t, dst.File(name), string(want))
		}
	}
}

// TestPersistKeepsPreviousGeneration: persisting a document over Java's
// file moves Java's file to .bak.
func TestPersistKeepsPreviousGeneration(t *testing.T) {
	d := Dir{Path: t.TempDir(), Line: protocol.Line5}
	java, err := os.ReadFile(filepath.Join(goldenDir, "java-5.3.3", ConsumerOffsetFile))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(d.File(ConsumerOffsetFile), java, 0o644))
	w, _, err := d.LoadConsumerOffsets()
	require.NoError(t, err)
	w.OffsetTable["TopicTest@group_g"][0] = 13
	w.DataVersion.Counter++
	require.NoError(t, d.PersistConsumerOffsets(w))
	assertFile(t, d.File(ConsumerOffsetFile)+BackupSuffix, string(java))
	back, res, err := d.LoadConsumerOffsets()
	require.NoError(t, err)
	assert.Equal(t, SourceMain, res.Source)
	assert.Equal(t, w, back)
	assert.NoFileExists(t, d.File(ConsumerOffsetFile)+TempSuffix)
}

// TestLoadNothing: a fresh store has no config files; every document is
// empty with usable maps.
func TestLoadNothing(t *testing.T) {
	d := Dir{Path: filepath.Join(t.TempDir(), "missing"), Line: protocol.Line4}
	topics, res, err := d.LoadTopics()
	require.NoError(t, err)
	assert.Equal(t, SourceNone, res.Source)
	assert.NotNil(t, topics.TopicConfigTable)
	offsets, _, err := d.LoadConsumerOffsets()
	require.NoError(t, err)
	assert.NotNil(t, offsets.OffsetTable)
	delay, _, err := d.LoadDelayOffsets()
	require.NoError(t, err)
	assert.NotNil(t, delay.OffsetTable)
	groups, _, err := d.LoadSubscriptionGroups()
	require.NoError(t, err)
	assert.NotNil(t, groups.SubscriptionGroupTable)
	filters, _, err := d.LoadConsumerFilters()
	require.NoError(t, err)
	assert.NotNil(t, filters.FilterDataByTopic)
	orders, _, err := d.LoadConsumerOrderInfo()
	require.NoError(t, err)
	assert.NotNil(t, orders.Table)
	assert.NoDirExists(t, d.Path, "loading creates nothing")
}

// TestLoadCorruptBackupFails: Java's broker exits when the backup of an
// unusable file does not parse; Load reports it, naming the file.
func TestLoadCorruptBackupFails(t *testing.T) {
	d := Dir{Path: t.TempDir(), Line: protocol.Line5}
	for name := range lineDocuments(d.Line) {
		require.NoError(t, os.WriteFile(d.File(name), []byte("{"), 0o644))
		require.NoError(t, os.WriteFile(d.File(name)+BackupSuffix, []byte("[1]"), 0o644))
	}
	_, _, err := d.LoadTopics()
	assert.ErrorIs(t, err, ErrLoad)
	_, _, err = d.LoadConsumerOffsets()
	assert.ErrorIs(t, err, ErrLoad)
	_, _, err = d.LoadDelayOffsets()
	assert.ErrorIs(t, err, ErrLoad)
	_, _, err = d.LoadSubscriptionGroups()
	assert.ErrorIs(t, err, ErrLoad)
	_, _, err = d.LoadConsumerOrderInfo()
	assert.ErrorIs(t, err, ErrLoad)
	_, _, err = d.LoadConsumerFilters()
	require.ErrorIs(t, err, ErrLoad)
	assert.Contains(t, err.Error(), d.File(ConsumerFilterFile)+BackupSuffix)
}

// TestLoadJavaBrokerStores loads every config file a real Java broker
// wrote under testdata/store/java-*/store/config (produced by the store
// fixtures generator), the .bak files included. Files of features this
// package does not cover (lmqConsumerOffset.json, 5.x timer files) are
// skipped.
func TestLoadJavaBrokerStores(t *testing.T) {
	files, err := filepath.Glob("../../testdata/store/java-*/store/config/*.json*")
	require.NoError(t, err)
	require.NotEmpty(t, files, "no Java broker store under testdata/store")
	loaded := 0
	for _, f := range files {
		base := strings.TrimSuffix(filepath.Base(f), BackupSuffix)
		if strings.HasSuffix(f, TempSuffix) {
			continue
		}
		line := protocol.Line4
		if strings.Contains(f, "/java-5.") {
			line = protocol.Line5
		}
		rt, ok := lineDocuments(line)[base]
		if !ok {
			t.Logf("skipped %s", f)
			continue
		}
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		if len(data) == 0 {
			continue // Java reads an empty file as absent, so do we
		}
		src := Dir{Path: t.TempDir(), Line: line}
		require.NoError(t, os.WriteFile(src.File(base), data, 0o644))
		dst := Dir{Path: t.TempDir(), Line: line}
		res, err := rt(src, dst)
		require.NoError(t, err, f)
		assert.Equal(t, SourceMain, res.Source, f)
		// Java's map order is hash order and ours sorted: the same bytes,
		// maybe in another order.
		ours, err := os.ReadFile(dst.File(base))
		require.NoError(t, err)
		assert.Equal(t, sortedBytes(data), sortedBytes(ours), f)
		loaded++
	}
	assert.Positive(t, loaded)
}

// sortedBytes is the multiset of a file's lines.
func sortedBytes(data []byte) []string {
	ls := strings.Split(string(data), "\n")
	for i, l := range ls {
		ls[i] = strings.TrimSuffix(l, ",")
	}
	sort.Strings(ls)
	return ls
}

func TestDirEncode(t *testing.T) {
	w := &protocol.DelayOffsetSerializeWrapper{OffsetTable: map[int32]int64{1: 0, 2: 4}}
	got, err := Dir{Line: protocol.Line4}.Encode(w.AppendJSON)
	require.NoError(t, err)
	assert.Equal(t, "{\n\t\"offsetTable\":{1:0,2:4\n\t}\n}", string(got))
	got, err = Dir{Line: protocol.Line5}.Encode(w.AppendJSON)
	require.NoError(t, err)
	assert.Equal(t, "{\n\t\"dataVersion\":{\n\t\t\"counter\":0,\n\t\t\"stateVersion\":0,\n\t\t\"timestamp\":0\n\t},\n"+
		"\t\"offsetTable\":{1:0,2:4\n\t}\n}", string(got))
	_, err = Dir{}.Encode(func(dst []byte, _ protocol.Line) []byte { return append(dst, '{') })
	assert.ErrorIs(t, err, ErrPersist)
	assert.Equal(t, filepath.Join("a", TopicsFile), Dir{Path: "a"}.File(TopicsFile))
}
