package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/protocol"
)

// kv reads key's value from a "name: k=v k=v" summary line of out.
func kv(t *testing.T, out, key string) float64 {
	t.Helper()
	m := regexp.MustCompile(`\b` + key + `=([0-9.]+)`).FindStringSubmatch(out)
	require.NotNil(t, m, "no %s= in %s", key, out)
	f, err := strconv.ParseFloat(m[1], 64)
	require.NoError(t, err)
	return f
}

func TestClientsHeartbeatTheBroker(t *testing.T) {
	ns := startNameServer(t)
	b := startBroker(t, ns.Addr())

	var out bytes.Buffer
	code := run(context.Background(), []string{"clients", "-addr", b.Addr(), "-pid", strconv.Itoa(os.Getpid()),
		"-c", "30", "-group-size", "10", "-period", "50ms", "-warmup", "100ms", "-d", "1s"}, &out, &out)
	require.Equal(t, 0, code, out.String())
	assert.Contains(t, out.String(), "30 connections opened")
	assert.Equal(t, 30.0, kv(t, out.String(), "opened"))
	assert.Equal(t, 0.0, kv(t, out.String(), "failed"))
	assert.Positive(t, kv(t, out.String(), "heartbeats"))
	assert.Positive(t, kv(t, out.String(), "anonMB"))
}

func TestClientsNeedsABroker(t *testing.T) {
	var out bytes.Buffer
	assert.Equal(t, 2, run(context.Background(), []string{"clients", "-c", "0"}, &out, &out))
	out.Reset()
	assert.Equal(t, 1, run(context.Background(), []string{"clients", "-addr", "127.0.0.1:1", "-c", "2", "-timeout", "1s"}, &out, &out))
}

func TestRegisterReplaysATopicTable(t *testing.T) {
	ns := startNameServer(t)
	w := protocol.TopicConfigSerializeWrapper{TopicConfigTable: map[string]protocol.TopicConfig{}}
	for _, name := range []string{"ScaleA", "ScaleB", "ScaleC"} {
		w.TopicConfigTable[name] = protocol.NewTopicConfig(name)
	}
	path := filepath.Join(t.TempDir(), "topics.json")
	require.NoError(t, os.WriteFile(path, w.AppendJSONLine(nil, protocol.Line4), 0o644))

	var out bytes.Buffer
	code := run(context.Background(), []string{"register", "-n", ns.Addr(), "-topics", path, "-count", "5"}, &out, &out)
	require.Equal(t, 0, code, out.String())
	assert.Equal(t, 3.0, kv(t, out.String(), "topics"))
	assert.Equal(t, 5.0, kv(t, out.String(), "calls"))
	assert.Equal(t, 0.0, kv(t, out.String(), "failed"))
	assert.Positive(t, kv(t, out.String(), "bodyBytes"))

	assert.Contains(t, out.String(), "response SUCCESS (0): 5")
}

func TestRegisterReplaysABrokersTable(t *testing.T) {
	ns := startNameServer(t)
	b := startBroker(t, ns.Addr())
	createTopic(t, b.Addr(), "ScaleD", 4)

	var out bytes.Buffer
	code := run(context.Background(), []string{"register", "-n", ns.Addr(), "-b", b.Addr(), "-count", "3"}, &out, &out)
	require.Equal(t, 0, code, out.String())
	assert.Greater(t, kv(t, out.String(), "topics"), 1.0, "the created topic and the broker's system topics")
	assert.Positive(t, kv(t, out.String(), "brokerTableBytes"))
	assert.Contains(t, out.String(), "response SUCCESS (0): 3")
	assert.Equal(t, 2, run(context.Background(), []string{"register", "-n", ns.Addr()}, &out, &out), "-b or -topics")
}
