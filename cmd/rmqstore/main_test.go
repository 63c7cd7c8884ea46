package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/conf"
)

const smallConf = "mappedFileSizeCommitLog=131072\nmappedFileSizeConsumeQueue=1000\nmaxHashSlotNum=512\nmaxIndexNum=256\n"

func rmqstore(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, conf.Env{}, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestGenVerifyPrintDump(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "broker.conf")
	require.NoError(t, os.WriteFile(cfg, []byte(smallConf), 0o644))
	root := filepath.Join(dir, "store")

	code, out, errOut := rmqstore(t, "gen", "-c", cfg, "-dir", root, "-n", "300")
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "wrote")

	code, out, _ = rmqstore(t, "verify", "-c", cfg, "-dir", root, "-index")
	require.Equal(t, 0, code, out)
	assert.Contains(t, out, "OK")

	code, out, _ = rmqstore(t, "ls", "-c", cfg, "-dir", root)
	require.Equal(t, 0, code)
	assert.Contains(t, out, "consumequeue/GenTopicA/0/00000000000000000000")
	assert.Contains(t, out, "index")

	code, out, _ = rmqstore(t, "print", "-c", cfg, "-dir", root, "-topic", "GenTopicA", "-n", "2")
	require.Equal(t, 0, code)
	assert.Equal(t, 2, strings.Count(out, "offset="))
	assert.Contains(t, out, "message 0 — ünïcödé")

	out2 := filepath.Join(dir, "dump")
	code, _, errOut = rmqstore(t, "dump", "-c", cfg, "-dir", root, "-o", out2)
	require.Equal(t, 0, code, errOut)
	for _, f := range []string{"dump.jsonl", "keys.jsonl", "queues.jsonl"} {
		st, err := os.Stat(filepath.Join(out2, f))
		require.NoError(t, err)
		assert.Positive(t, st.Size(), f)
	}
}

func TestVerifyReportsDamage(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "broker.conf")
	require.NoError(t, os.WriteFile(cfg, []byte(smallConf), 0o644))
	root := filepath.Join(dir, "store")
	code, _, errOut := rmqstore(t, "gen", "-c", cfg, "-dir", root, "-n", "50")
	require.Equal(t, 0, code, errOut)
	// Flip a byte in the middle of the first record's body.
	cl := filepath.Join(root, "commitlog", "00000000000000000000")
	f, err := os.OpenFile(cl, os.O_RDWR, 0)
	require.NoError(t, err)
	_, err = f.WriteAt([]byte{0xEE}, 100)
	require.NoError(t, err)
	require.NoError(t, f.Close())

	code, out, _ := rmqstore(t, "verify", "-c", cfg, "-dir", root)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "PROBLEM")
}

func TestUsage(t *testing.T) {
	code, _, errOut := rmqstore(t)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "usage: rmqstore")
	code, _, errOut = rmqstore(t, "frobnicate")
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, "unknown command")
}
