package logging

import (
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLogGoesToRocketmqlogs(t *testing.T) {
	home := t.TempDir()
	log, closeFn, err := New(Options{Dir: DefaultDir(home), Name: "namesrv"})
	require.NoError(t, err)
	BootLine(log, "The Name Server boot success. serializeType=JSON")
	require.NoError(t, closeFn())
	data, err := os.ReadFile(filepath.Join(home, "logs", "rocketmqlogs", "namesrv.log"))
	require.NoError(t, err)
	assert.Contains(t, string(data), "INFO")
	assert.Contains(t, string(data), "The Name Server boot success. serializeType=JSON")
}

func TestRollsIntoOtherdaysKeepingMaxIndex(t *testing.T) {
	dir := t.TempDir()
	r, err := openRolling(filepath.Join(dir, "broker.log"), 100, 3)
	require.NoError(t, err)
	for i := 0; i < 10; i++ {
		_, err := r.Write([]byte(strings.Repeat(string(rune('a'+i)), 60) + "\n"))
		require.NoError(t, err)
	}
	require.NoError(t, r.Close())
	entries, err := os.ReadDir(filepath.Join(dir, "otherdays"))
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Equal(t, []string{"broker.1.log.gz", "broker.2.log.gz", "broker.3.log.gz"}, names)

	// The newest roll holds the line written just before the current one.
	f, err := os.Open(filepath.Join(dir, "otherdays", "broker.1.log.gz"))
	require.NoError(t, err)
	defer f.Close()
	zr, err := gzip.NewReader(f)
	require.NoError(t, err)
	rolled, err := io.ReadAll(zr)
	require.NoError(t, err)
	assert.Equal(t, strings.Repeat("i", 60)+"\n", string(rolled))
	current, err := os.ReadFile(filepath.Join(dir, "broker.log"))
	require.NoError(t, err)
	assert.Equal(t, strings.Repeat("j", 60)+"\n", string(current))
}

func TestPlainLinesAreTimeLevelDashMessage(t *testing.T) {
	dir := t.TempDir()
	log, closeFn, err := New(Options{Dir: dir, Name: "stats", Plain: true})
	require.NoError(t, err)
	log.Info("[TOPIC_PUT_NUMS] [T] Stats In One Minute, SUM: 1 TPS: 0.02 AVGPT: 1.00")
	require.NoError(t, closeFn())
	data, err := os.ReadFile(filepath.Join(dir, "stats.log"))
	require.NoError(t, err)
	assert.Regexp(t, `^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} INFO - \[TOPIC_PUT_NUMS\] \[T\] Stats In One Minute, SUM: 1 TPS: 0.02 AVGPT: 1.00\n$`, string(data))
}
