package broker

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// TestLine5StoresRegionAndTraceSwitchInEveryMessage: a 5.x broker writes
// its regionId and traceOn into each sent message (single and batch) as
// MSG_REGION and TRACE_ON, replacing what the client sent, and answers the
// message's (or the batch's) UNIQ_KEY as the send's transactionId; a 4.x
// broker stores the message's own properties only and answers no
// transactionId.
func TestLine5StoresRegionAndTraceSwitchInEveryMessage(t *testing.T) {
	for _, line := range []protocol.Line{protocol.Line4, protocol.Line5} {
		t.Run(line.String(), func(t *testing.T) {
			cfg := testConfigs(t.TempDir(), "")
			cfg.Broker.RegionId, cfg.Broker.TraceOn = "RegionX", false
			var b *Broker
			if line >= protocol.Line5 {
				b = startLine5Broker(t, cfg)
			} else {
				b = startBroker(t, cfg, nil)
			}
			c := newClient(t, nil)
			resp := invoke(t, c, b.Addr(), withBody(sendRequest("TR", 0, []byte("one"),
				map[string]string{"UNIQ_KEY": "u1", "TRACE_ON": "true"}), []byte("one")))
			require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
			assert.Equal(t, "RegionX", resp.ExtString(propMsgRegion))
			assert.Equal(t, "false", resp.ExtString(propTraceSwitch))
			txID, hasTxID := resp.Ext("transactionId")

			batch := appendBatchEntry(nil, []byte("two"), "UNIQ_KEY\x01u2")
			req := sendRequest("TR", 0, nil, map[string]string{"WAIT": "true", "UNIQ_KEY": "ub"})
			req.Code = int32(remoting.SendBatchMessage)
			req.SetExt("m", "true")
			resp = invoke(t, c, b.Addr(), withBody(req, batch))
			require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
			batchTxID, batchHasTxID := resp.Ext("transactionId")
			if line >= protocol.Line5 {
				assert.Equal(t, "u1", txID, "transactionId of the single send")
				assert.Equal(t, "ub", batchTxID, "transactionId of the batch")
			} else {
				assert.False(t, hasTxID || batchHasTxID, "no transactionId on 4.x: %q %q", txID, batchTxID)
			}

			dispatched(t, b)
			pull := invoke(t, c, b.Addr(), pullRequest("GTR", "TR", 0, 0, "*", protocol.PullFlagSubscription, 0))
			require.Equal(t, int32(remoting.Success), pull.Code, pull.Remark)
			recs := decodeRecords(t, pull.Body)
			require.Len(t, recs, 2)
			for i, r := range recs {
				props := store.ParseProperties(string(r.Properties))
				region, hasRegion := props[propMsgRegion]
				if line >= protocol.Line5 {
					assert.Equal(t, "RegionX", region, "message %d", i)
					assert.Equal(t, "false", props[propTraceSwitch], "message %d", i)
				} else {
					assert.False(t, hasRegion, "message %d: %v", i, props)
					if i == 1 {
						assert.NotContains(t, props, propTraceSwitch)
					}
				}
			}
			if line < protocol.Line5 {
				assert.Equal(t, "true", store.ParseProperties(string(recs[0].Properties))[propTraceSwitch], "the client's own")
			}
		})
	}
}
