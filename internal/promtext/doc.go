// Package promtext writes metrics in the Prometheus text format as the
// OpenTelemetry Prometheus exporter of the Java 5.3.3 broker writes them,
// and holds the instruments behind them: counters and explicit-bucket
// histograms keyed by a label set, safe for concurrent use and cheap to
// record into.
//
// What a scrape of the Java broker looks like, and so what Write produces:
//
//	# TYPE target info
//	# HELP target Target metadata
//	target_info{} 1
//	# TYPE otel_scope_info info
//	# HELP otel_scope_info Scope metadata
//	otel_scope_info{otel_scope_name="broker-meter"} 1
//	# TYPE rocketmq_rpc_latency histogram
//	# HELP rocketmq_rpc_latency Rpc latency
//	rocketmq_rpc_latency_milliseconds_count{otel_scope_name="broker-meter",cluster="c",...} 32.0 1796348927078
//	rocketmq_rpc_latency_milliseconds_sum{...} 319.0 1796348927078
//	rocketmq_rpc_latency_milliseconds_bucket{...,le="1.0"} 1.0 1796348927078
//	...
//	# TYPE rocketmq_storage_size gauge
//	# HELP rocketmq_storage_size default view for gauge.
//	rocketmq_storage_size_bytes{...} 3.25586944E10 1796348927078
//
// The TYPE and HELP lines carry the instrument's name, the samples the
// name with its unit appended (unless it already ends with it); labels are
// sorted by name after otel_scope_name, and le comes last; values are
// written as Java's Double.toString writes them, each with the scrape's
// time in milliseconds. Counters and gauges carry the description of the
// broker's default views ("default view for counter." / "... gauge.").
//
// The files:
//
//	promtext.go  the instruments (counters, histograms keyed by labels) and Writer
package promtext
