package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lastDropCacheLine decodes the JSON line dropcache printed last.
func lastDropCacheLine(t *testing.T, out string) dropCacheLine {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var res dropCacheLine
	require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &res))
	return res
}

func TestDropCacheCountsAndDropsTheFilesOfADirectory(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "commitlog"), 0o755))
	data := bytes.Repeat([]byte("r"), 1<<20)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "commitlog", "00000000000000000000"), data, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "checkpoint"), data[:4096], 0o644))

	var out, errOut bytes.Buffer
	require.Equal(t, 0, runDropCache(context.Background(), []string{"-dir", dir, "-report"}, &out, &errOut), errOut.String())
	report := lastDropCacheLine(t, out.String())
	assert.Equal(t, 2, report.Files)
	assert.InDelta(t, 1.0+4096.0/(1<<20), report.MB, 0.001)
	assert.Equal(t, report.CachedMB, report.AfterMB, "-report drops nothing")
	assert.Zero(t, report.Failed)

	out.Reset()
	require.Equal(t, 0, runDropCache(context.Background(), []string{"-dir", dir}, &out, &errOut), errOut.String())
	dropped := lastDropCacheLine(t, out.String())
	assert.Zero(t, dropped.Failed, dropped.LastErr)
	assert.LessOrEqual(t, dropped.AfterMB, dropped.CachedMB)
	got, err := os.ReadFile(filepath.Join(dir, "commitlog", "00000000000000000000"))
	require.NoError(t, err)
	assert.Equal(t, data, got, "the files are unchanged")
}

func TestDropCacheNeedsADirectory(t *testing.T) {
	var out, errOut bytes.Buffer
	assert.Equal(t, 2, runDropCache(context.Background(), nil, &out, &errOut))
	assert.Contains(t, errOut.String(), "need -dir")
}
