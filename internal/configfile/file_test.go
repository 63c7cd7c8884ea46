package configfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/fastjson"
	"github.com/rmqgo/rmqgo/internal/protocol"
)

const (
	goodMain = `{"offsetTable":{1:10}}`
	goodBak  = `{"offsetTable":{1:5}}`
	corrupt  = `{"offsetTable":{1:`
)

// decodeDelay is a real document decoder: Load hands it the content.
func decodeDelay(got *map[int32]int64) func([]byte) error {
	return func(data []byte) error {
		w, err := protocol.DecodeDelayOffsetSerializeWrapper(data)
		if err == nil {
			*got = w.OffsetTable
		}
		return err
	}
}

// file is a file's state before a test: absent (""), content, or a
// directory in its place (unreadable as a file).
type file string

const asDir file = "\x00dir"

func setup(t *testing.T, path string, f file) {
	t.Helper()
	switch f {
	case "":
	case asDir:
		require.NoError(t, os.MkdirAll(path, 0o755))
	case "empty":
		require.NoError(t, os.WriteFile(path, nil, 0o644))
	default:
		require.NoError(t, os.WriteFile(path, []byte(f), 0o644))
	}
}

func TestLoad(t *testing.T) {
	cases := []struct {
		name         string
		main, bak    file
		source       Source
		want         map[int32]int64
		fallback     bool   // Result.Fallback set
		errSubstring string // a Load error naming this
	}{
		{name: "main", main: goodMain, bak: goodBak, source: SourceMain, want: map[int32]int64{1: 10}},
		{name: "main missing", bak: goodBak, source: SourceBackup, want: map[int32]int64{1: 5}},
		{name: "main empty", main: "empty", bak: goodBak, source: SourceBackup, want: map[int32]int64{1: 5}},
		{name: "main corrupt", main: corrupt, bak: goodBak, source: SourceBackup, want: map[int32]int64{1: 5}, fallback: true},
		{name: "main unreadable", main: asDir, bak: goodBak, source: SourceBackup, want: map[int32]int64{1: 5}, fallback: true},
		{name: "both missing", source: SourceNone},
		{name: "both empty", main: "empty", bak: "empty", source: SourceNone},
		{name: "main corrupt, no backup", main: corrupt, source: SourceNone, fallback: true},
		{name: "both corrupt", main: corrupt, bak: corrupt, errSubstring: "x.json.bak", fallback: true},
		{name: "main missing, backup corrupt", bak: corrupt, errSubstring: "x.json.bak"},
		{name: "backup unreadable", main: "empty", bak: asDir, errSubstring: "x.json.bak"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "x.json")
			setup(t, path, c.main)
			setup(t, path+BackupSuffix, c.bak)
			setup(t, path+TempSuffix, `{"offsetTable":{1:99}}`) // stale, never read
			var got map[int32]int64
			res, err := Load(path, decodeDelay(&got))
			if c.errSubstring != "" {
				require.ErrorIs(t, err, ErrLoad)
				assert.Contains(t, err.Error(), c.errSubstring)
				if c.bak == corrupt {
					assert.ErrorIs(t, err, fastjson.ErrMalformed)
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.source, res.Source)
			assert.Equal(t, c.want, got)
			assert.Equal(t, c.fallback, res.Fallback != nil, "fallback %v", res.Fallback)
			switch c.source {
			case SourceMain:
				assert.Equal(t, path, res.Path)
			case SourceBackup:
				assert.Equal(t, path+BackupSuffix, res.Path)
			default:
				assert.Empty(t, res.Path)
			}
		})
	}
}

func TestLoadErrorNamesBothFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "topics.json")
	setup(t, path, corrupt)
	setup(t, path+BackupSuffix, "garbage")
	_, err := Load(path, decodeDelay(new(map[int32]int64)))
	require.ErrorIs(t, err, ErrLoad)
	msg := err.Error()
	assert.True(t, strings.HasPrefix(msg, "configfile: load failed: "+path+".bak: fastjson: malformed JSON"), msg)
	assert.Contains(t, msg, "(after "+path+": fastjson: malformed JSON")
}

func TestPersist(t *testing.T) {
	cases := []struct {
		name      string
		main, bak file
		wantBak   string // "" = no backup file
	}{
		{name: "first write", wantBak: ""},
		{name: "previous content kept", main: goodMain, wantBak: goodMain},
		{name: "backup replaced", main: goodMain, bak: goodBak, wantBak: goodMain},
		{name: "empty main keeps the backup", main: "empty", bak: goodBak, wantBak: goodBak},
		{name: "corrupt main is still backed up", main: corrupt, bak: goodBak, wantBak: corrupt},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "x.json")
			setup(t, path, c.main)
			setup(t, path+BackupSuffix, c.bak)
			setup(t, path+TempSuffix, "stale")
			require.NoError(t, Persist(path, []byte("new")))
			assertFile(t, path, "new")
			if c.wantBak == "" {
				assert.NoFileExists(t, path+BackupSuffix)
			} else {
				assertFile(t, path+BackupSuffix, c.wantBak)
			}
			assert.NoFileExists(t, path+TempSuffix)
		})
	}
}

func TestPersistTwiceThenLoadBackup(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config", "x.json") // directory created
	require.NoError(t, Persist(path, []byte(goodBak)))
	require.NoError(t, Persist(path, []byte(goodMain)))
	assertFile(t, path+BackupSuffix, goodBak)
	// A torn main file (what Java 5.x's in-place write leaves after a
	// crash) falls back to the previous generation.
	require.NoError(t, os.WriteFile(path, []byte(goodMain[:7]), 0o644))
	var got map[int32]int64
	res, err := Load(path, decodeDelay(&got))
	require.NoError(t, err)
	assert.Equal(t, SourceBackup, res.Source)
	assert.Equal(t, map[int32]int64{1: 5}, got)
}

func TestPersistFailureLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.json")
	require.NoError(t, os.MkdirAll(filepath.Join(path, "child"), 0o755)) // a directory where the file goes
	err := Persist(path, []byte("new"))
	require.ErrorIs(t, err, ErrPersist)
	assert.Contains(t, err.Error(), path)
	assert.NoFileExists(t, path+TempSuffix)
	assert.NoFileExists(t, path+BackupSuffix)

	// The parent is a file: nothing can be created.
	parent := filepath.Join(dir, "plain")
	require.NoError(t, os.WriteFile(parent, nil, 0o644))
	err = Persist(filepath.Join(parent, "x.json"), []byte("new"))
	require.ErrorIs(t, err, ErrPersist)
}

func TestSourceString(t *testing.T) {
	assert.Equal(t, "none", SourceNone.String())
	assert.Equal(t, "main", SourceMain.String())
	assert.Equal(t, "backup", SourceBackup.String())
}

func assertFile(t *testing.T, path, want string) {
	t.Helper()
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, want, string(got), path)
}
