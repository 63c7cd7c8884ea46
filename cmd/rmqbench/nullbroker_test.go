package main

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProduceAgainstTheNullBroker sends through the null broker, served by
// a pool and on the event loop: every send is answered SUCCESS.
func TestProduceAgainstTheNullBroker(t *testing.T) {
	for _, inline := range []bool{false, true} {
		s, err := startNullBroker("127.0.0.1:0", 1, inline)
		require.NoError(t, err)
		var out bytes.Buffer
		code := run(context.Background(), []string{"produce", "-n", s.Addr(), "-t", "TopicTest", "-count", "500",
			"-w", "8", "-s", "64", "-rocketmq-header", "-progress", "0"}, &out, &out)
		require.NoError(t, s.Shutdown())
		require.Equal(t, 0, code, out.String())
		p := resultLine(t, out.String())
		assert.Equal(t, int64(500), p.Messages, "inline=%v", inline)
		assert.Zero(t, p.Failed, "inline=%v", inline)
	}
}

func TestNullBrokerRefusesABadAddress(t *testing.T) {
	var out bytes.Buffer
	assert.Equal(t, 1, run(context.Background(), []string{"null-broker", "-addr", "256.0.0.1:1"}, &out, &out))
	assert.Contains(t, out.String(), "rmqbench null-broker:")
}
