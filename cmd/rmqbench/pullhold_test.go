package main

import (
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/remoting"
)

func TestPullholdFlags(t *testing.T) {
	var f pullholdFlags
	require.NoError(t, f.parse([]string{"-c", "3", "-p", "2", "-from", "first", "-read=false"}, io.Discard))
	assert.Equal(t, 3, f.conns)
	assert.False(t, f.read)
	assert.Error(t, (&pullholdFlags{}).parse([]string{"-from", "middle"}, io.Discard))
	assert.Error(t, (&pullholdFlags{}).parse([]string{"-c", "0"}, io.Discard))
}

// The pulls carry their subscription, so that a broker that never saw
// the group's heartbeat still parks or answers them with messages.
func TestPullFramesFromFirst(t *testing.T) {
	f := pullholdFlags{topic: "T", group: "G", queues: 2, from: "first", batch: 16, suspend: 30e9}
	frames, err := pullFrames(&f)
	require.NoError(t, err)
	require.Len(t, frames, 2)
	for q, frame := range frames {
		cmd, n, err := remoting.DecodeFrame(frame, remoting.MaxFrameLength)
		require.NoError(t, err)
		assert.Equal(t, len(frame), n)
		assert.Equal(t, int32(remoting.PullMessage), cmd.Code)
		assert.Equal(t, map[string]string{
			"consumerGroup": "G", "topic": "T", "queueId": []string{"0", "1"}[q], "queueOffset": "0",
			"maxMsgNums": "16", "sysFlag": "6", "subscription": "*", "commitOffset": "0",
			"suspendTimeoutMillis": "30000", "subVersion": "0", "expressionType": "TAG",
		}, cmd.ExtFields.Map())
	}
}
