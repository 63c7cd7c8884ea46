package main

// The JSON line that rmqbench produce, consume, java-result and proc print
// last, one object per line, and that broker-table reads back. Scripts add
// keys of their own (bench/broker-bench.sh adds "broker" and "at") by
// editing the line's opening brace.

import (
	"encoding/json"
	"fmt"
	"time"
)

// Values of benchLine.Kind and benchLine.Tool.
const (
	kindProduce = "produce" // send figures: latencies are send round trips
	kindConsume = "consume" // consume figures: latencies are end to end (now - born timestamp)
	kindProc    = "proc"    // a broker process's resources at one moment
	kindSkip    = "skip"    // a broker that was not measured, and why

	toolRmqbench = "rmqbench"
	toolJava     = "java" // org.apache.rocketmq.example.benchmark.Producer/Consumer or bench/benchtool
)

// benchLine is one result line (field names are read by scripts: do not
// change). Latency fields are milliseconds; a percentile the tool does not
// report is absent.
type benchLine struct {
	Kind   string `json:"kind"`
	Tool   string `json:"tool,omitempty"`
	Broker string `json:"broker,omitempty"`
	// At tells when a proc line was taken: boot, before, after.
	At     string `json:"at,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Curve, Point and LoadAvg are bench/curves-bench.sh's tags: the
	// curve and the point on it of the run the line came from, and the
	// 1-minute load average when that run ended.
	Curve   string `json:"curve,omitempty"`
	Point   string `json:"point,omitempty"`
	LoadAvg string `json:"loadavg,omitempty"`

	Topic     string `json:"topic,omitempty"`
	Group     string `json:"group,omitempty"`
	BodyBytes int    `json:"bodyBytes,omitempty"`
	Threads   int    `json:"threads,omitempty"`
	Queues    int    `json:"queues,omitempty"`

	ElapsedSec float64 `json:"elapsedSec,omitempty"`
	// ActiveSec is, for consume, the time from the first message
	// received to the last; TPS is over it.
	ActiveSec float64 `json:"activeSec,omitempty"`
	// Messages sent (SUCCESS answers) or received; estimated from the
	// periodic rates for the Java tools.
	Messages int64   `json:"messages"`
	Failed   int64   `json:"failed"`
	TPS      float64 `json:"tps"`
	AvgMs    float64 `json:"avgMs"`
	P50Ms    float64 `json:"p50Ms,omitempty"`
	P99Ms    float64 `json:"p99Ms,omitempty"`
	P999Ms   float64 `json:"p999Ms,omitempty"`
	MaxMs    float64 `json:"maxMs"`
	// DeliveryP50Ms and DeliveryP99Ms (consume) are percentiles of the
	// time from the broker's store timestamp to the arrival: the end to
	// end latency less the send.
	DeliveryP50Ms float64 `json:"deliveryP50Ms,omitempty"`
	DeliveryP99Ms float64 `json:"deliveryP99Ms,omitempty"`
	// ReceivedMB (consume) is the size of the pull bodies received: the
	// stored records, headers and properties included.
	ReceivedMB float64 `json:"receivedMB,omitempty"`
	// CaughtUpSec (consume -until-caught-up) is the time from the first
	// pull to the moment every queue had been read to its end;
	// CaughtUpMessages arrived by then, at CaughtUpTPS messages and
	// CaughtUpMBps megabytes (of pull bodies) a second.
	CaughtUpSec      float64 `json:"caughtUpSec,omitempty"`
	CaughtUpMessages int64   `json:"caughtUpMessages,omitempty"`
	CaughtUpTPS      float64 `json:"caughtUpTps,omitempty"`
	CaughtUpMBps     float64 `json:"caughtUpMBps,omitempty"`
	// Windows is how many periodic report lines of a Java tool were read.
	Windows int `json:"windows,omitempty"`

	// Process figures (kind proc).
	PID   int     `json:"pid,omitempty"`
	RssMB float64 `json:"rssMB,omitempty"`
	HwmMB float64 `json:"hwmMB,omitempty"`
	// AnonMB is RssAnon: the resident memory not backed by a file (heap,
	// stacks, buffers), without the mapped store files' pages that VmRSS
	// also counts. AnonPeakMB is the largest AnonMB a proc -watch saw.
	AnonMB     float64 `json:"anonMB,omitempty"`
	AnonPeakMB float64 `json:"anonPeakMB,omitempty"`
	CPUSec     float64 `json:"cpuSec,omitempty"`
	AgeSec     float64 `json:"ageSec,omitempty"`
}

func (b *benchLine) json() string {
	out, _ := json.Marshal(b)
	return string(out)
}

// human is the one-line summary of a produce or consume line.
func (b *benchLine) human() string {
	what, lat := "sent", "send latency"
	if b.Kind == kindConsume {
		what, lat = "received", "end-to-end latency"
	}
	line := fmt.Sprintf("%s: %s %d in %.1fs (%d failed): %.1f msg/s; %s avg %.3fms p50 %.3fms p99 %.3fms p999 %.3fms max %.3fms",
		b.Kind, what, b.Messages, b.ElapsedSec, b.Failed, b.TPS, lat, b.AvgMs, b.P50Ms, b.P99Ms, b.P999Ms, b.MaxMs)
	if b.Kind == kindConsume {
		line += fmt.Sprintf("; stored to received p50 %.3fms p99 %.3fms", b.DeliveryP50Ms, b.DeliveryP99Ms)
	}
	return line
}

// msFloat is d in milliseconds.
func msFloat(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
