package broker

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/promtext"
	"github.com/rmqgo/rmqgo/remoting"
)

// scrapeMetrics reads the exporter's text into series -> value (the
// sample line without its timestamp).
func scrapeMetrics(t *testing.T, b *Broker) map[string]string {
	t.Helper()
	resp, err := http.Get("http://" + b.MetricsAddr() + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, promContentType, resp.Header.Get("Content-Type"))
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		series, rest, ok := strings.Cut(line, "} ")
		require.True(t, ok, line)
		value, _, _ := strings.Cut(rest, " ")
		out[series+"}"] = value
	}
	return out
}

func metricsConfigs(t *testing.T) *conf.BrokerConfigs {
	c := testConfigs(t.TempDir(), "")
	c.Broker.MetricsExporterType = conf.MetricsProm
	c.Broker.MetricsPromExporterHost = "127.0.0.1"
	c.Broker.MetricsPromExporterPort = 0
	c.Broker.MetricsLabel = "instance_id:i-1,bad,env:test"
	return c
}

func TestMetricsCountWhatClientsDid(t *testing.T) {
	b := startBroker(t, metricsConfigs(t), nil)
	cl := newClient(t, nil)
	for range 3 {
		resp := invoke(t, cl, b.Addr(), withBody(sendRequest("MetricsTopic", 0, make([]byte, 100), map[string]string{"TAGS": "a"}), make([]byte, 100)))
		require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	}
	resp := invoke(t, cl, b.Addr(), withBody(sendRequest("MetricsTopic", 0, nil, map[string]string{"__SHARDINGKEY": "k"}), []byte("x")))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	dispatched(t, b)
	require.Equal(t, int32(remoting.Success), invoke(t, cl, b.Addr(), heartbeatRequest(t, "c1", "metrics_cg", "MetricsTopic", "*")).Code)
	pulled := invoke(t, cl, b.Addr(), pullRequest("metrics_cg", "MetricsTopic", 0, 0, "*", 0, 0))
	require.Equal(t, int32(remoting.Success), pulled.Code, pulled.Remark)
	records := decodeRecords(t, pulled.Body)
	require.Len(t, records, 4)

	m := scrapeMetrics(t, b)
	common := `otel_scope_name="broker-meter",cluster="TestCluster",env="test",instance_id="i-1",`
	in := `rocketmq_messages_in_total{` + common + `is_system="false",message_type="normal",node_id="broker-t",node_type="broker",topic="MetricsTopic"}`
	assert.Equal(t, "3.0", m[in])
	fifo := strings.Replace(in, "normal", "fifo", 1)
	assert.Equal(t, "1.0", m[fifo])
	out := `rocketmq_messages_out_total{otel_scope_name="broker-meter",cluster="TestCluster",consumer_group="metrics_cg",env="test",instance_id="i-1",is_system="false",node_id="broker-t",node_type="broker",topic="MetricsTopic"}`
	assert.Equal(t, "4.0", m[out], "%v", keysWith(m, "messages_out"))
	var total int
	for _, r := range records {
		total += int(r.Size)
	}
	assert.Equal(t, float64(total), parseJavaDouble(t, m[strings.Replace(out, "messages_out", "throughput_out", 1)]))
	size := `rocketmq_message_size_bucket{` + common + `is_system="false",message_type="normal",node_id="broker-t",node_type="broker",topic="MetricsTopic",le="1024.0"}`
	assert.Equal(t, "3.0", m[size])
	rpc := `rocketmq_rpc_latency_milliseconds_count{` + common + `is_long_polling="false",node_id="broker-t",node_type="broker",protocol_type="remoting",request_code="send_message_v2",response_code="success",result="success"}`
	assert.Equal(t, "4.0", m[rpc])
	pullRPC := strings.Replace(rpc, "send_message_v2", "pull_message", 1)
	assert.Equal(t, "1.0", m[pullRPC], "a pull answered from the handler's own writev is observed too")
	conn := `rocketmq_consumer_connections{otel_scope_name="broker-meter",cluster="TestCluster",consume_mode="push",consumer_group="metrics_cg",env="test",instance_id="i-1",is_system="false",language="java",node_id="broker-t",node_type="broker",protocol_type="remoting",version="v4_9_8"}`
	_, hasConn := m[conn]
	assert.True(t, hasConn, "the heartbeat's consumer is counted: %v", keysWith(m, "consumer_connections"))
	assert.Equal(t, "6.0", m[`rocketmq_broker_permission{`+common+`node_id="broker-t",node_type="broker"}`])
}

func TestMetricsConsumerLagFollowsOffsets(t *testing.T) {
	b := startBroker(t, metricsConfigs(t), nil)
	cl := newClient(t, nil)
	for range 5 {
		require.Equal(t, int32(remoting.Success), invoke(t, cl, b.Addr(), withBody(sendRequest("LagTopic", 0, nil, nil), []byte("x"))).Code)
	}
	dispatched(t, b)
	require.Equal(t, int32(remoting.Success), invoke(t, cl, b.Addr(), heartbeatRequest(t, "c1", "lag_cg", "LagTopic", "*")).Code)
	b.offsets.commit("lag_cg", "LagTopic", 0, 2)
	m := scrapeMetrics(t, b)
	series := `{otel_scope_name="broker-meter",cluster="TestCluster",consumer_group="lag_cg",env="test",instance_id="i-1",is_retry="false",is_system="false",node_id="broker-t",node_type="broker",topic="LagTopic"}`
	assert.Equal(t, "3.0", m["rocketmq_consumer_lag_messages"+series], "%v", keysWith(m, "lag_messages"))
	assert.Equal(t, "3.0", m["rocketmq_consumer_ready_messages"+series], "nothing pulled yet: ready from the committed offset")
	assert.Equal(t, "0.0", m["rocketmq_consumer_inflight_messages"+series])
}

func TestMetricsOffServeNothing(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	assert.Empty(t, b.MetricsAddr())
	assert.Nil(t, b.metrics)
}

func parseJavaDouble(t *testing.T, s string) float64 {
	t.Helper()
	var f float64
	_, err := fmt.Sscan(s, &f)
	require.NoError(t, err, s)
	return f
}

func keysWith(m map[string]string, part string) []string {
	var out []string
	for k := range m {
		if strings.Contains(k, part) {
			out = append(out, k)
		}
	}
	return out
}

// TestGrafanaDashboardReadsExportedNames keeps docs/grafana's dashboard
// on the names this broker exports.
func TestGrafanaDashboardReadsExportedNames(t *testing.T) {
	exported := map[string]bool{}
	for _, f := range []promtext.Family{famMessagesIn, famThroughputIn, famMessageSize, famMessagesOut, famThroughputOut,
		famSendToDLQ, famCommits, famRollbacks, famFinishLatency, famRPCLatency, famWatermark, famPermission, famTopicNumber,
		famGroupNumber, famProducerConns, famConsumerConns, famLagMessages, famLagLatency, famInflight, famQueueingLatency,
		famReady, famStorageSize, famFlushBehind, famDispatchBehind, famReserveTime, famTimerEnqLag, famTimerEnqLatency,
		famTimerDeqLag, famTimerDeqLatency, famTimerSnapshot, famPopOffsetBuffer, famPopCkBuffer, famPopReviveLag, famPopReviveLat} {
		name := f.Name
		if f.Unit != "" && !strings.HasSuffix(name, "_"+f.Unit) {
			name += "_" + strings.Replace(f.Unit, "ms", "milliseconds", 1)
		}
		exported[name] = true
	}
	data, err := os.ReadFile("../docs/grafana/rocketmq-broker.json")
	require.NoError(t, err)
	names := regexp.MustCompile(`rocketmq_[a-z_]+`).FindAllString(string(data), -1)
	require.NotEmpty(t, names)
	for _, n := range names {
		base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(n, "_bucket"), "_count"), "_sum")
		assert.True(t, exported[base], "the dashboard reads %s, which is not exported", n)
	}
}
