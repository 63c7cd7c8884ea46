package protocol

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// TestPrettyJSONIdempotent: the pretty files Java wrote come back
// unchanged.
func TestPrettyJSONIdempotent(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "config", "*", "*.json"))
	require.NoError(t, err)
	more, err := filepath.Glob(filepath.Join("testdata", "config", "*", "*", "*.json"))
	require.NoError(t, err)
	files = append(files, more...)
	require.NotEmpty(t, files)
	for _, f := range files {
		data := fixture(t, f[len("testdata/"):])
		if bytes.HasSuffix([]byte(f), []byte(".compact.json")) {
			continue
		}
		var lists []string
		if strings.HasPrefix(filepath.Base(f), "consumerOrderInfo.") {
			lists = OrderInfoLists
		}
		got, err := fastjson.PrettyLists(nil, data, lists...)
		require.NoError(t, err, f)
		assert.Equal(t, string(data), string(got), f)
	}
}
