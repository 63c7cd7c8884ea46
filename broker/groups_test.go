package broker

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/rmqgo/rmqgo/internal/configfile"
	"github.com/rmqgo/rmqgo/internal/protocol"
)

// TestBuiltinGroupsAreJavas: a broker on an empty store has the groups a
// fresh Java broker of its line writes (5.x adds CID_RMQ_SYS_TRANS), each
// with Java's broadcast flag.
func TestBuiltinGroupsAreJavas(t *testing.T) {
	for line, dir := range map[protocol.Line]string{protocol.Line4: "java-4.9.7", protocol.Line5: "java-5.3.3"} {
		t.Run(line.String(), func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "internal", "protocol", "testdata", "config", dir, "builtin", "subscriptionGroup.json"))
			require.NoError(t, err)
			java, err := protocol.DecodeSubscriptionGroupWrapper(data)
			require.NoError(t, err)
			g, err := newGroupTable(configfile.Dir{Path: t.TempDir(), Line: line}, false, zaptest.NewLogger(t), time.Now)
			require.NoError(t, err)
			ours, _ := g.snapshot()
			require.Equal(t, slices.Sorted(maps.Keys(java.SubscriptionGroupTable)), slices.Sorted(maps.Keys(ours)))
			for name, c := range java.SubscriptionGroupTable {
				assert.Equal(t, c.ConsumeBroadcastEnable, ours[name].ConsumeBroadcastEnable, name)
			}
		})
	}
}
