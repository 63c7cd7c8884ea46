package inspect

import (
	"context"
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"go.uber.org/zap/zaptest"

	"github.com/rmqgo/rmqgo/store"
)

// envStoreTool names compat/storetool/run.sh; `make compat` sets it. The
// test needs Java and Maven, so a plain `go test` skips it.
const envStoreTool = "RMQGO_STORETOOL"

// sampleProperties are the store keys of the sample, for the Java side.
const sampleProperties = `mappedFileSizeCommitLog=131072
mappedFileSizeConsumeQueue=1000
maxHashSlotNum=512
maxIndexNum=256
messageDelayLevel=1s 5s 10s 30s 1m 2m 3m 4m 5m 6m 7m 8m 9m 10m 20m 30m 1h 2h
`

// TestJavaReadsOurStore: the Java broker's own store code
// (DefaultMessageStore from rocketmq-store 4.9.7 and 5.3.3, through
// compat/storetool StoreDump) loads, recovers and starts on a directory
// this store wrote, and reads back every message, queue and index entry
// exactly as this store does.
func TestJavaReadsOurStore(t *testing.T) {
	tool := os.Getenv(envStoreTool)
	if tool == "" {
		t.Skipf("%s is not set (make compat sets it to compat/storetool/run.sh)", envStoreTool)
	}
	tool, err := filepath.Abs(tool)
	require.NoError(t, err)
	o := sampleOptions(t.TempDir())
	s, err := store.Open(o, zaptest.NewLogger(t, zaptest.Level(zap.WarnLevel)))
	require.NoError(t, err)
	require.NoError(t, s.Start())
	require.NoError(t, WriteSample(s, 600))
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	require.NoError(t, s.WaitDispatched(ctx))
	require.NoError(t, s.Close())

	ours := openReadOnly(t, o)
	msgs := dumpLines[MessageLine](t, ours, DumpMessages)
	keys := dumpLines[KeyLine](t, ours, DumpKeys)
	queues := dumpLines[QueueLine](t, ours, DumpQueues)
	props := filepath.Join(t.TempDir(), "store.properties")
	require.NoError(t, os.WriteFile(props, []byte(sampleProperties), 0o644))
	for _, line := range []string{"4", "5"} {
		t.Run("java-line-"+line, func(t *testing.T) {
			// Java's start() writes to the store: give it a copy.
			root := filepath.Join(t.TempDir(), "store")
			require.NoError(t, exec.Command("cp", "-a", o.RootDir, root).Run())
			out := t.TempDir()
			cmd := exec.Command("sh", tool, line, "StoreDump", root, props, out)
			cmd.Stderr = &testWriter{t}
			require.NoError(t, cmd.Run(), "StoreDump %s", line)
			javaMsgs := readFileLines[MessageLine](t, filepath.Join(out, "dump.jsonl"))
			assert.Equal(t, msgs, javaMsgs)
			assert.Equal(t, keys, dedupeOffsets(readFileLines[KeyLine](t, filepath.Join(out, "keys.jsonl"))))
			assert.Equal(t, queueLines(queues), queueLines(readFileLines[QueueLine](t, filepath.Join(out, "queues.jsonl"))))
			t.Logf("Java %s read %d messages (%d outside queues), %d index keys, %d queues of a store rmqgo wrote",
				line, len(javaMsgs), countNotInQueue(javaMsgs), len(keys), len(queues))
		})
	}
}

// TestJavaRecoversOurCrashedStore: the Java store code recovers, as after
// a crash of its own broker, a directory this store was writing when it
// was copied (abort file present, the checkpoint as this store keeps it:
// current to the last flush), and finds every message and queue unit that
// this store finds on the same copy. Java deletes the newest index file
// when its end is past the checkpoint's index time (its own rule; this
// store keeps it), so its keys are a subset of ours.
func TestJavaRecoversOurCrashedStore(t *testing.T) {
	tool := os.Getenv(envStoreTool)
	if tool == "" {
		t.Skipf("%s is not set (make compat sets it to compat/storetool/run.sh)", envStoreTool)
	}
	tool, err := filepath.Abs(tool)
	require.NoError(t, err)
	o := sampleOptions(t.TempDir())
	o.FlushIntervalCommitLog, o.FlushIntervalConsumeQueue, o.CheckpointInterval = 10*time.Millisecond, 10*time.Millisecond, 0
	// Every file stays, however full the machine's disk is.
	o.Retention.DeleteWhen, o.Retention.CleanFileForciblyEnable = "", false
	o.Retention.DiskMaxUsedSpaceRatio, o.Retention.DiskSpaceWarningLevelRatio, o.Retention.DiskSpaceCleanForciblyRatio = 95, 100, 100
	// Store times 50 ms apart, so that the checkpoint's limit (3 s before
	// its times) falls inside the commitlog and not before its start.
	var stamps atomic.Int64
	base := time.Now().Add(-time.Hour)
	o.Now = func() time.Time { return base.Add(time.Duration(stamps.Add(1)) * 50 * time.Millisecond) }
	s, err := store.Open(o, zaptest.NewLogger(t, zaptest.Level(zap.WarnLevel)))
	require.NoError(t, err)
	require.NoError(t, s.Start())
	defer s.Close()
	require.NoError(t, WriteSample(s, 600))
	require.NoError(t, s.WaitDispatched(t.Context()))
	last := base.Add(time.Duration(stamps.Load()) * 50 * time.Millisecond).UnixMilli()
	require.Eventually(t, func() bool {
		physic, logics, _ := readCheckpoint(t, o.RootDir)
		return physic >= last-1000 && logics >= last-1000
	}, 30*time.Second, 10*time.Millisecond, "the checkpoint follows the flushes")
	crashed := filepath.Join(t.TempDir(), "crashed")
	require.NoError(t, exec.Command("cp", "-a", o.RootDir, crashed).Run())
	require.FileExists(t, filepath.Join(crashed, "abort"))

	mine := o
	mine.RootDir = filepath.Join(t.TempDir(), "store")
	require.NoError(t, exec.Command("cp", "-a", crashed, mine.RootDir).Run())
	recovered, err := store.Open(mine, zaptest.NewLogger(t, zaptest.Level(zap.WarnLevel)))
	require.NoError(t, err)
	require.Positive(t, recovered.Recovery().From, "recovery started from the checkpoint")
	require.NoError(t, recovered.Close())
	ours := openReadOnly(t, mine)
	msgs := dumpLines[MessageLine](t, ours, DumpMessages)
	keys := dumpLines[KeyLine](t, ours, DumpKeys)
	queues := dumpLines[QueueLine](t, ours, DumpQueues)
	props := filepath.Join(t.TempDir(), "store.properties")
	require.NoError(t, os.WriteFile(props, []byte(sampleProperties), 0o644))
	for _, line := range []string{"4", "5"} {
		t.Run("java-line-"+line, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "store")
			require.NoError(t, exec.Command("cp", "-a", crashed, root).Run())
			out := t.TempDir()
			cmd := exec.Command("sh", tool, line, "StoreDump", root, props, out)
			cmd.Stderr = &testWriter{t}
			require.NoError(t, cmd.Run(), "StoreDump %s", line)
			javaMsgs := readFileLines[MessageLine](t, filepath.Join(out, "dump.jsonl"))
			assert.Equal(t, msgs, javaMsgs)
			assert.Equal(t, queueLines(queues), queueLines(readFileLines[QueueLine](t, filepath.Join(out, "queues.jsonl"))))
			javaKeys := dedupeOffsets(readFileLines[KeyLine](t, filepath.Join(out, "keys.jsonl")))
			assert.Subset(t, keys, javaKeys)
			t.Logf("Java %s recovered %d messages, %d queues, %d of our %d index keys from a crashed store rmqgo wrote",
				line, len(javaMsgs), len(queues), len(javaKeys), len(keys))
		})
	}
}

// readCheckpoint reads the checkpoint file's commitlog, queue and index
// times.
func readCheckpoint(t *testing.T, root string) (physic, logics, index int64) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, "checkpoint"))
	require.NoError(t, err)
	return int64(binary.BigEndian.Uint64(b)), int64(binary.BigEndian.Uint64(b[8:])), int64(binary.BigEndian.Uint64(b[16:]))
}

// dedupeOffsets drops repeated offsets of a key. Java's reput starts again
// at the end of the last consume-queue unit, so after every restart it
// dispatches once more a last record that no queue holds (here the
// prepared transaction record), and its index dedup (offset < end of the
// index) lets the record's keys in a second time.
func dedupeOffsets(lines []KeyLine) []KeyLine {
	for i := range lines {
		lines[i].Offsets = slices.Compact(lines[i].Offsets)
	}
	return lines
}

// queueLines keeps the queues with messages (and the commitlog line,
// which decodes as an empty topic).
func queueLines(lines []QueueLine) []QueueLine {
	var out []QueueLine
	for _, l := range lines {
		if l.MaxOffset > 0 {
			out = append(out, l)
		}
	}
	return out
}

func countNotInQueue(lines []MessageLine) int {
	n := 0
	for _, l := range lines {
		if !l.InQueue {
			n++
		}
	}
	return n
}

// testWriter sends a child's stderr to the test log.
type testWriter struct{ t *testing.T }

func (w *testWriter) Write(p []byte) (int, error) {
	w.t.Log(string(p))
	return len(p), nil
}
