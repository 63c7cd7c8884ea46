package rocksdb

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// envRocksTool names compat/rocksdbtool/run.sh: the Java side, RocksDB of
// the 5.3.3 broker (make compat-acl2-rocksdb sets it).
const envRocksTool = "RMQGO_ROCKSDBTOOL"

func rocksTool(t *testing.T, args ...string) string {
	t.Helper()
	tool := os.Getenv(envRocksTool)
	if tool == "" {
		t.Skipf("%s is not set (make compat-acl2-rocksdb sets it to compat/rocksdbtool/run.sh)", envRocksTool)
	}
	var out, errOut bytes.Buffer
	cmd := exec.Command("sh", append([]string{tool}, args...)...)
	cmd.Stdout, cmd.Stderr = &out, &errOut
	require.NoError(t, cmd.Run(), "RocksTool %v: %s", args, errOut.String())
	return out.String()
}

// Java writes (clean shutdown, kill, kill after a flush); we read what it
// reads; we write the database anew in its place and Java reads the same.
func TestJavaAndUsAgreeOnJavaDatabases(t *testing.T) {
	for _, mode := range []string{"clean", "kill", "mixed"} {
		t.Run(mode, func(t *testing.T) {
			db := filepath.Join(t.TempDir(), "db")
			want := rocksTool(t, "gen", db, mode)
			fams, err := Read(db)
			require.NoError(t, err)
			require.Equal(t, want, dumpText(fams), "we read what Java wrote")

			require.NoError(t, Write(db, fams))
			assert.Equal(t, want, rocksTool(t, "dump", db), "Java reads what we wrote")
			fams, err = Read(db) // after Java opened, flushed and closed it
			require.NoError(t, err)
			assert.Equal(t, want, dumpText(fams), "we read what Java left")
			t.Logf("%s: %d keys agreed both ways", mode, len(fams[0].Entries))
		})
	}
}

// A new database of ours, a WriteBatch over several log blocks, opened by
// Java.
func TestJavaReadsANewDatabaseOfOurs(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	fams := sampleFamilies(500, 150)
	fams[2].Entries["group@topic"] = []byte(`{"forbidden":1}`)
	require.NoError(t, Write(db, fams))
	assert.Equal(t, dumpText(fams), rocksTool(t, "dump", db))
}

// A Write cut before CURRENT moved, over a database Java wrote and left
// (killed): RocksDB replays the WAL left and shows the new keys.
func TestJavaReplaysAWriteCutBeforeCURRENTMoved(t *testing.T) {
	db := filepath.Join(t.TempDir(), "db")
	rocksTool(t, "gen", db, "kill")
	next := sampleFamilies(20, 30)
	next[2].Entries["group@topic"] = []byte(`{"forbidden":2}`)
	cutWrite(t, db, next)
	assert.Equal(t, dumpText(next), rocksTool(t, "dump", db))
}
