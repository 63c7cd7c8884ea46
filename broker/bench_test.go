package broker

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/remoting"
)

// benchChannel is a live connection's channel, from a registered
// producer.
func benchChannel(b *testing.B, br *Broker) *remoting.Channel {
	cl := remoting.NewClient(remoting.ClientOptions{})
	b.Cleanup(cl.Close)
	hb := withBody(remoting.NewRequest(remoting.HeartBeat, nil), []byte(`{"clientID":"bench","producerDataSet":[{"groupName":"PG"}]}`))
	resp, err := cl.InvokeTimeout(br.Addr(), hb, testWait)
	require.NoError(b, err)
	require.Equal(b, int32(remoting.Success), resp.Code)
	ch := br.clients.producerChannel("PG")
	require.NotNil(b, ch)
	return ch
}

func benchBroker(b *testing.B) *Broker {
	c := testConfigs(b.TempDir(), "")
	c.Store.MappedFileSizeCommitLog = 256 << 20
	br, err := New(Options{Configs: c, ListenHost: "127.0.0.1"})
	require.NoError(b, err)
	require.NoError(b, br.Start())
	b.Cleanup(func() { _ = br.Close() })
	return br
}

// BenchmarkSendHandler is the broker's own work for one SEND_MESSAGE_V2 of
// a 1 KiB body: the frame decoded, the handler (checks, properties, the
// append) and the response encoded; no socket.
func BenchmarkSendHandler(b *testing.B) {
	br := benchBroker(b)
	ch := benchChannel(b, br)
	req := withBody(sendRequest("BenchTopic", 0, nil, map[string]string{"TAGS": "a", "UNIQ_KEY": "7F0000010000000000000000000001", "WAIT": "true"}), make([]byte, 1024))
	frame, err := req.AppendFrame(nil)
	require.NoError(b, err)
	var out []byte
	b.ReportAllocs()
	b.SetBytes(int64(len(frame)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cmd, _, err := remoting.DecodeFrame(frame, remoting.MaxFrameLength)
		if err != nil {
			b.Fatal(err)
		}
		resp := br.handlers.send.sendMessage(&remoting.Request{Ch: ch, Cmd: cmd, Arrived: time.Now()})
		if resp.Code != int32(remoting.Success) {
			b.Fatal(resp.Remark)
		}
		if out, err = resp.AppendFrame(out[:0]); err != nil {
			b.Fatal(err)
		}
	}
}
