package broker

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// A 4.9.x broker does not store the WAIT property every producer sends
// (SendMessageProcessor removes it before encoding the properties, found
// by mqadmin queryMsgByOffset against 4.9.7: storeSize 220 there, 230
// here); 5.3.3 stores it.
func TestSendStoresWaitPropertyOnlyOnLine5(t *testing.T) {
	for _, line := range []protocol.Line{protocol.Line4, protocol.Line5} {
		b, err := New(Options{Configs: testConfigs(t.TempDir(), ""), Logger: zaptest.NewLogger(t), ListenHost: "127.0.0.1", Line: line})
		require.NoError(t, err)
		require.NoError(t, b.Start())
		t.Cleanup(func() { _ = b.Close() })
		c := newClient(t, nil)
		props := map[string]string{"WAIT": "true", "KEYS": "k1", "TAGS": "TagA"}
		resp := invoke(t, c, b.Addr(), withBody(sendRequest("TW", 0, nil, props), []byte("m")))
		require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
		rec, err := b.store.LookMessage(0)
		require.NoError(t, err)
		stored := store.ParseProperties(string(rec.Properties))
		_, hasWait := stored["WAIT"]
		assert.Equal(t, line >= protocol.Line5, hasWait, "line %d stored %q", line, rec.Properties)
		assert.Equal(t, "k1", stored["KEYS"])
		assert.Equal(t, "TestCluster", stored["CLUSTER"])
	}
}
