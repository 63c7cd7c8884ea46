package main

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTouchMemWritesWhatItSays(t *testing.T) {
	var out, errOut bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"touchmem", "-mb", "300"}, &out, &errOut), errOut.String())
	var line touchMemLine
	require.NoError(t, json.Unmarshal(out.Bytes(), &line))
	assert.Equal(t, touchMemLine{Kind: "touchmem", MB: 300, Seconds: line.Seconds}, line)
}
