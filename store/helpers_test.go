package store

import (
	"context"
	"fmt"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"
)

// smallOptions keeps files small so tests cross file boundaries often.
func smallOptions(dir string) Options {
	o := DefaultOptions()
	o.RootDir = dir
	o.CommitLogFileSize = 64 * 1024
	o.ConsumeQueueFileSize = 50 * cqUnitSize
	o.MaxMessageSize = 16 * 1024
	o.MaxHashSlotNum = 64
	o.MaxIndexNum = 40
	o.FlushIntervalCommitLog = 20 * time.Millisecond
	o.FlushIntervalConsumeQueue = 20 * time.Millisecond
	return o
}

// openStarted opens and starts a store, closing it at cleanup.
func openStarted(t *testing.T, o Options) *Store {
	t.Helper()
	s, err := Open(o, zaptest.NewLogger(t))
	require.NoError(t, err)
	require.NoError(t, s.Start())
	t.Cleanup(func() { s.Close() })
	return s
}

// testMessage is message i of a deterministic stream.
func testMessage(topic string, queueID int32, i int) Message {
	body := make([]byte, 50+(i*37)%900)
	for j := range body {
		body[j] = byte(i + j)
	}
	tag := []string{"TagA", "TagB", ""}[i%3]
	props := map[string]string{"UNIQ_KEY": fmt.Sprintf("UNIQ%08d", i), "KEYS": fmt.Sprintf("k%d order-%d", i, i%7)}
	if tag != "" {
		props["TAGS"] = tag
	}
	return Message{
		Topic: topic, QueueID: queueID, Body: body, Flag: int32(i % 5),
		Properties:    EncodeProperties(props),
		BornTimestamp: 1700000000000 + int64(i),
		BornHost:      netip.MustParseAddrPort("127.0.0.1:50000"),
		StoreHost:     netip.MustParseAddrPort("127.0.0.1:10911"),
	}
}

func waitDispatched(t *testing.T, s *Store) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	require.NoError(t, s.WaitDispatched(ctx))
}

// copyDir copies a store directory as it is on disk right now, which is
// what a crash leaves behind (the page cache survives a killed process).
func copyDir(t *testing.T, from string) string {
	t.Helper()
	to := filepath.Join(t.TempDir(), "crashed")
	require.NoError(t, exec.Command("cp", "-a", from, to).Run())
	return to
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
