package main

import (
	"bytes"
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/proxy"
	"github.com/rmqgo/rmqgo/remoting"
)

// stored sums the max offsets of a topic's queues: the messages stored.
func stored(t *testing.T, addr, topic string, queues int) int64 {
	c := remoting.NewClient(remoting.ClientOptions{})
	defer c.Close()
	var sum int64
	for q := range queues {
		req := remoting.NewRequest(remoting.GetMaxOffset, map[string]string{"topic": topic, "queueId": strconv.Itoa(q)})
		resp, err := c.InvokeTimeout(addr, req, 5*time.Second)
		require.NoError(t, err)
		n, _ := strconv.ParseInt(resp.ExtString("offset"), 10, 64)
		sum += n
	}
	return sum
}

// startProxy runs a local-mode proxy in front of b on a free port.
func startProxy(t *testing.T, nsAddr string, b *testBroker) string {
	cfg := proxy.DefaultConfig()
	cfg.GrpcServerPort, cfg.RemotingListenPort, cfg.NamesrvAddr = 0, 0, nsAddr
	p, err := proxy.New(proxy.Options{Config: cfg, ListenHost: "127.0.0.1", Logger: zap.NewNop(),
		Local: proxy.LocalBroker{Addr: b.Addr(), Name: "broker-a", Cluster: "DefaultCluster", IP: "127.0.0.1"}})
	require.NoError(t, err)
	p.Serve()
	t.Cleanup(p.Close)
	return p.Addr()
}

func TestGrpcProduceSends(t *testing.T) {
	ns := startNameServer(t)
	b := startBrokerOfLine(t, ns.Addr(), protocol.Line5)
	addr := startProxy(t, ns.Addr(), b)
	createTopic(t, b.Addr(), "GrpcBench", 4)

	var out bytes.Buffer
	code := run(context.Background(), []string{"grpc-produce", "-proxy", addr, "-t", "GrpcBench", "-s", "64", "-w", "4",
		"-conns", "2", "-count", "200", "-progress", "0"}, &out, &out)
	require.Equal(t, 0, code, out.String())
	res := resultLine(t, out.String())
	assert.Equal(t, kindProduce, res.Kind)
	assert.Equal(t, toolGrpc, res.Tool)
	assert.Equal(t, int64(200), res.Messages, out.String())
	assert.Zero(t, res.Failed)
	assert.Contains(t, out.String(), "status OK: 200")
	assert.Equal(t, int64(200), stored(t, b.Addr(), "GrpcBench", 4))

	out.Reset()
	code = run(context.Background(), []string{"grpc-produce", "-proxy", addr, "-t", "NoSuchTopic", "-count", "1"}, &out, &out)
	assert.Equal(t, 1, code)
	assert.Contains(t, out.String(), "TOPIC_NOT_FOUND")
}

func TestGrpcIdleHoldsStreamsAndPolls(t *testing.T) {
	ns := startNameServer(t)
	b := startBrokerOfLine(t, ns.Addr(), protocol.Line5)
	addr := startProxy(t, ns.Addr(), b)
	createTopic(t, b.Addr(), "GrpcIdle", 2)

	var out bytes.Buffer
	code := run(context.Background(), []string{"grpc-idle", "-proxy", addr, "-pid", "0", "-t", "GrpcIdle", "-c", "30",
		"-per-conn", "2", "-group-size", "10", "-polls", "5", "-d", "1s", "-settle", "100ms"}, &out, &out)
	require.Equal(t, 0, code, out.String())
	var lines []grpcLine
	require.NoError(t, decodeJSONLines(strings.NewReader(out.String()), func(l grpcLine) { lines = append(lines, l) }))
	require.Len(t, lines, 1, out.String())
	l := lines[0]
	assert.Equal(t, kindGrpcIdle, l.Kind)
	assert.Equal(t, 30, l.Opened)
	assert.Equal(t, 15, l.Conns)
	assert.Zero(t, l.Dropped)
	assert.True(t, l.CheckOK, l.CheckError)
	assert.Zero(t, l.PollErrors, l.LastError)
	assert.Contains(t, out.String(), "check ok")
}
