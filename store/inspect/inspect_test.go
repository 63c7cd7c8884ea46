package inspect

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/rmqgo/rmqgo/store"
)

func sampleOptions(dir string) store.Options {
	o := store.DefaultOptions()
	o.RootDir = dir
	o.CommitLogFileSize = 128 * 1024
	o.ConsumeQueueFileSize = 1000
	o.MaxHashSlotNum = 512
	o.MaxIndexNum = 256
	return o
}

// writeSampleStore writes a sample store and closes it cleanly.
func writeSampleStore(t *testing.T, n int) store.Options {
	t.Helper()
	o := sampleOptions(t.TempDir())
	s, err := store.Open(o, zaptest.NewLogger(t))
	require.NoError(t, err)
	require.NoError(t, s.Start())
	require.NoError(t, WriteSample(s, n))
	require.NoError(t, s.WaitDispatched(t.Context()))
	require.NoError(t, s.Close())
	return o
}

func openReadOnly(t *testing.T, o store.Options) *store.Store {
	t.Helper()
	o.ReadOnly = true
	s, err := store.Open(o, zaptest.NewLogger(t))
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

func TestVerifySampleStore(t *testing.T) {
	o := writeSampleStore(t, 400)
	s := openReadOnly(t, o)
	rep, err := Verify(s, true)
	require.NoError(t, err)
	assert.True(t, rep.OK(), "%v", rep.Problems)
	assert.EqualValues(t, 400+1+1+10+1+1+1+1+1, rep.Records)
	assert.Greater(t, len(s.Files()), 10, "the sample spans several files")
}

func TestVerifyFindsABadUnit(t *testing.T) {
	o := writeSampleStore(t, 100)
	// Point unit 3 of GenTopicA/0 at another record.
	path := filepath.Join(o.RootDir, "consumequeue", SampleTopicA, "0", "00000000000000000000")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	other := binary.BigEndian.Uint64(data[4*20:])
	binary.BigEndian.PutUint64(data[3*20:], other)
	require.NoError(t, os.WriteFile(path, data, 0o644))

	rep, err := Verify(openReadOnly(t, o), false)
	require.NoError(t, err)
	require.False(t, rep.OK())
	assert.Contains(t, rep.Problems[0], "GenTopicA/0@3")
}

func TestDumpCoversEveryRecord(t *testing.T) {
	o := writeSampleStore(t, 200)
	s := openReadOnly(t, o)
	var buf bytes.Buffer
	require.NoError(t, DumpMessages(s, &buf))
	var lines []MessageLine
	sc := bufio.NewScanner(&buf)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l MessageLine
		require.NoError(t, json.Unmarshal(sc.Bytes(), &l))
		lines = append(lines, l)
	}
	rep, err := Verify(s, false)
	require.NoError(t, err)
	assert.EqualValues(t, rep.Records, len(lines))
	last := lines[len(lines)-1]
	assert.False(t, last.InQueue, "the prepared record comes last")
	assert.Equal(t, store.SysFlagTxPrepared, last.SysFlag)
	for _, l := range lines {
		if l.Topic == store.ScheduleTopic {
			assert.Equal(t, l.StoreTimestamp+5000, l.TagsCode, "level 2 is delivered 5 s after its store time")
		}
	}
}
