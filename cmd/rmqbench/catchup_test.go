package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A broker that has taken messages, asked about as both master and slave:
// the slave is level at its first answer, and the line says so.
func TestCatchupLevelAtFirstAnswer(t *testing.T) {
	ns := startNameServer(t)
	fb := startBroker(t, ns.Addr())
	var out bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"produce", "-n", ns.Addr(), "-t", "CatchupTopic", "-count", "20",
		"-w", "2", "-progress", "0"}, &out, &out), out.String())

	out.Reset()
	require.Equal(t, 0, run(context.Background(), []string{"catchup", "-master", fb.Addr(), "-slave", fb.Addr()}, &out, &out), out.String())
	var res catchupLine
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &res))
	assert.Equal(t, "catchup", res.Kind)
	assert.True(t, res.CaughtUpNow)
	assert.Zero(t, res.Bytes)
	assert.Positive(t, res.MasterOffset)
	assert.Equal(t, res.MasterOffset, res.FirstSlaveOffset)
}

// A slave that never answers ends the run with an error once -timeout passed.
func TestCatchupSlaveNeverAnswers(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close()) // nothing listens there now

	var out bytes.Buffer
	code := run(context.Background(), []string{"catchup", "-master", addr, "-slave", addr, "-timeout", "200ms"}, &out, &out)
	assert.Equal(t, 1, code)
	assert.Contains(t, out.String(), "did not answer")
}

// Flags are checked before anything is dialled.
func TestCatchupFlags(t *testing.T) {
	var out bytes.Buffer
	assert.Equal(t, 2, run(context.Background(), []string{"catchup", "-master", "127.0.0.1:1"}, &out, &out))
}
