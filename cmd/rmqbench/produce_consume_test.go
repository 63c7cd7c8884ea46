package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// eventually polls cond every 10 ms until it holds or timeout passes.
func eventually(t *testing.T, timeout time.Duration, cond func() bool, msg func() string) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("condition not met within %v: %s", timeout, msg())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// resultLine decodes the JSON line of a produce or consume output.
func resultLine(t *testing.T, out string) benchLine {
	t.Helper()
	lines, err := readResultLines(strings.NewReader(out))
	require.NoError(t, err)
	require.Len(t, lines, 1, out)
	return lines[0]
}

// TestProduceConsume runs a consumer that long-polls an empty topic, then
// a producer, and checks every message went through, the offsets were
// committed and the messages carry what a Java producer puts in them.
func TestProduceConsume(t *testing.T) {
	ns := startNameServer(t)
	fb := startBroker(t, ns.Addr())
	const n = 300
	createTopic(t, fb.Addr(), "TopicTest", 4)

	var cout syncBuffer
	consumed := make(chan int, 1)
	go func() {
		consumed <- run(context.Background(), []string{"consume", "-n", ns.Addr(), "-t", "TopicTest", "-g", "g1",
			"-count", "300", "-d", "60s", "-suspend", "2s", "-progress", "50ms"}, &cout, &cout)
	}()
	eventually(t, 10*time.Second, func() bool { return strings.Contains(cout.String(), "consume: started") }, cout.String)

	var pout bytes.Buffer
	code := run(context.Background(), []string{"produce", "-n", ns.Addr(), "-t", "TopicTest", "-count", "300",
		"-w", "8", "-s", "64", "-rocketmq-header", "-progress", "50ms"}, &pout, &pout)
	require.Equal(t, 0, code, pout.String())
	p := resultLine(t, pout.String())
	assert.Equal(t, kindProduce, p.Kind)
	assert.Equal(t, int64(n), p.Messages)
	assert.Zero(t, p.Failed)
	assert.Equal(t, 64, p.BodyBytes)
	assert.Positive(t, p.TPS)
	assert.Positive(t, p.MaxMs)
	assert.Contains(t, pout.String(), "produce: sent 300 in ")

	select {
	case code = <-consumed:
	case <-time.After(60 * time.Second):
		t.Fatal("consume did not end:\n" + cout.String())
	}
	require.Equal(t, 0, code, cout.String())
	c := resultLine(t, cout.String())
	assert.Equal(t, kindConsume, c.Kind)
	assert.Equal(t, int64(n), c.Messages)
	assert.Zero(t, c.Failed)
	assert.Equal(t, 4, c.Queues)
	assert.GreaterOrEqual(t, c.MaxMs, c.AvgMs)
	assert.Equal(t, int64(n), fb.committed(t, "g1", "TopicTest", 4), "final UPDATE_CONSUMER_OFFSET")
	assert.Equal(t, int32(remoting.SystemError), fb.consumers(t, "g1"), "the consumer unregistered")
	checkStored(t, fb.stopAndOpenStore(t), "TopicTest", 64)
}

// createTopic creates a topic on the broker as mqadmin updateTopic does.
func createTopic(t *testing.T, addr, topic string, queues int) {
	c := remoting.NewClient(remoting.ClientOptions{})
	defer c.Close()
	n := strconv.Itoa(queues)
	req := remoting.NewRequest(remoting.UpdateAndCreateTopic, map[string]string{"topic": topic, "defaultTopic": "TBW102",
		"readQueueNums": n, "writeQueueNums": n, "perm": "6", "topicFilterType": "SINGLE_TAG", "topicSysFlag": "0", "order": "false"})
	resp, err := c.InvokeTimeout(addr, req, 5*time.Second)
	require.NoError(t, err)
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
}

// checkStored looks at the first message of queue 0 as a consumer would.
func checkStored(t *testing.T, st *store.Store, topic string, body int) {
	res := st.GetMessages(topic, 0, 0, 1, nil)
	defer res.Release()
	require.Equal(t, store.GetFound, res.Status)
	r, err := store.DecodeRecord(res.Messages[0].Data)
	require.NoError(t, err)
	assert.Len(t, r.Body, body)
	id, ok := r.Property("UNIQ_KEY")
	assert.True(t, ok)
	assert.Regexp(t, `^[0-9A-F]{32}$`, id)
	_, stored := r.Property("WAIT")
	assert.False(t, stored, "a 4.9.x broker does not store the client's WAIT property")
	assert.InDelta(t, time.Now().UnixMilli(), r.BornTimestamp, float64(time.Minute.Milliseconds()))
}

// TestProduceCreatesTopic sends to a topic the name server does not know:
// the producer uses TBW102's route capped at 4 queues, as Java's does.
func TestProduceCreatesTopic(t *testing.T) {
	ns := startNameServer(t)
	fb := startBroker(t, ns.Addr())
	var out bytes.Buffer
	code := run(context.Background(), []string{"produce", "-n", ns.Addr(), "-t", "AutoTopic", "-count", "20",
		"-w", "2", "-c", "2", "-rate", "10000"}, &out, &out)
	require.Equal(t, 0, code, out.String())
	assert.Contains(t, out.String(), "no route for AutoTopic yet")
	assert.Equal(t, int64(20), resultLine(t, out.String()).Messages)
	assert.ElementsMatch(t, []int32{0, 1, 2, 3}, fb.stopAndOpenStore(t).Topics()["AutoTopic"])
}

func TestProduceNoBroker(t *testing.T) {
	ns := startNameServer(t)
	var out bytes.Buffer
	assert.Equal(t, 1, run(context.Background(), []string{"produce", "-n", ns.Addr(), "-t", "T", "-count", "1"}, &out, &out))
	assert.Contains(t, out.String(), "no route")
}

func TestProduceConsumeFlags(t *testing.T) {
	for _, args := range [][]string{
		{"produce", "-w", "0"}, {"produce", "-rate", "-1"}, {"produce", "-d", "0"},
		{"consume", "-from", "middle"}, {"consume", "-batch", "0"}, {"consume", "-d", "0"},
	} {
		var out bytes.Buffer
		assert.Equal(t, 2, run(context.Background(), args, &out, &out), "%v", args)
	}
}

func TestDecodePullBodyRejectsBadBodies(t *testing.T) {
	for _, body := range [][]byte{{0, 0}, {0, 0, 0, 2, 1, 2}, {0, 0, 0, 9, 1, 2, 3}} {
		err := decodePullBody(body, func(*store.Record) { t.Fatal("no record expected") })
		assert.ErrorIs(t, err, errBadBody, "%v", body)
	}
	assert.NoError(t, decodePullBody(nil, func(*store.Record) { t.Fatal("no record expected") }))
}

func TestPacer(t *testing.T) {
	p := newPacer(100)
	assert.Equal(t, 30*time.Millisecond, p.slot(3).Sub(p.start))
	assert.Nil(t, newPacer(0))
	ctx, cancel := context.WithCancel(context.Background())
	assert.True(t, (*pacer)(nil).wait(ctx))
	cancel()
	assert.False(t, (*pacer)(nil).wait(ctx))
	slow := newPacer(0.001) // the second slot is 1000 s away
	assert.True(t, slow.wait(context.Background()))
	assert.False(t, slow.wait(ctx))
}

func TestUniqIDsAndClientID(t *testing.T) {
	u := newUniqIDs()
	a, b := u.next(), u.next()
	assert.Regexp(t, `^[0-9A-F]{32}$`, a)
	assert.NotEqual(t, a, b)
	assert.Equal(t, a[:20], b[:20])
	assert.Regexp(t, `^[0-9.]+@\d+#\d+$`, newClientID())
	var hb heartbeatData
	require.NoError(t, json.Unmarshal([]byte(`{"clientID":"x","consumerDataSet":[],"producerDataSet":[]}`), &hb))
	assert.Equal(t, "x", hb.ClientID)
}
