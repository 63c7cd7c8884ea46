package promtext

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAppendJavaDoubleWritesAsDoubleToString(t *testing.T) {
	for v, want := range map[float64]string{
		0: "0.0", 800: "800.0", 1.5: "1.5", 276000: "276000.0", 9999999: "9999999.0",
		1e7: "1.0E7", 3.25586944e10: "3.25586944E10", 0.001: "0.001", 0.0001: "1.0E-4", -2.5e-5: "-2.5E-5",
	} {
		assert.Equal(t, want, string(AppendJavaDouble(nil, v)), "%v", v)
	}
}

func TestWriterWritesTheJavaExportersText(t *testing.T) {
	w := NewWriter("broker-meter", []Label{{"node_type", "broker"}, {"cluster", "c"}}, 42)
	f := Family{Name: "rocketmq_rpc_latency", Kind: Histogram, Unit: "milliseconds", Help: "Rpc latency"}
	h := NewHist(Buckets{1, 3})
	h.Record(0)
	h.Record(2)
	h.Record(5)
	w.Family(f)
	w.Hist(f, []Label{{"request_code", `a"b`}}, h)
	g := Family{Name: "rocketmq_storage_size", Kind: Gauge, Unit: "bytes"}
	w.Family(g)
	w.Sample(g, nil, 1e10)
	want := `# TYPE target info
# HELP target Target metadata
target_info{} 1
# TYPE otel_scope_info info
# HELP otel_scope_info Scope metadata
otel_scope_info{otel_scope_name="broker-meter"} 1
# TYPE rocketmq_rpc_latency histogram
# HELP rocketmq_rpc_latency Rpc latency
rocketmq_rpc_latency_milliseconds_count{otel_scope_name="broker-meter",cluster="c",node_type="broker",request_code="a\"b"} 3.0 42
rocketmq_rpc_latency_milliseconds_sum{otel_scope_name="broker-meter",cluster="c",node_type="broker",request_code="a\"b"} 7.0 42
rocketmq_rpc_latency_milliseconds_bucket{otel_scope_name="broker-meter",cluster="c",node_type="broker",request_code="a\"b",le="1.0"} 1.0 42
rocketmq_rpc_latency_milliseconds_bucket{otel_scope_name="broker-meter",cluster="c",node_type="broker",request_code="a\"b",le="3.0"} 2.0 42
rocketmq_rpc_latency_milliseconds_bucket{otel_scope_name="broker-meter",cluster="c",node_type="broker",request_code="a\"b",le="+Inf"} 3.0 42
# TYPE rocketmq_storage_size gauge
# HELP rocketmq_storage_size default view for gauge.
rocketmq_storage_size_bytes{otel_scope_name="broker-meter",cluster="c",node_type="broker"} 1.0E10 42
`
	assert.Equal(t, want, string(w.Bytes()))
}

func TestVecFoldsLabelSetsPastTheLimit(t *testing.T) {
	type key struct {
		name     string
		overflow bool
	}
	v := NewVec(func() *Count { return new(Count) }, 3, key{overflow: true})
	for _, n := range []string{"a", "b", "c", "d", "a"} {
		v.Get(key{name: n}).Add(1)
	}
	got := map[string]int64{}
	v.Each(func(k key, c *Count) {
		if k.overflow {
			k.name = "overflow"
		}
		got[k.name] = c.Load()
	})
	assert.Equal(t, map[string]int64{"a": 2, "b": 1, "overflow": 2}, got, "the limit counts the overflow series")
	assert.True(t, strings.HasPrefix(Overflow[0].Name, "otel_metric_overflow"))
}
