package main

import (
	"bytes"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// grpcBenchLines are the lines grpc-bench.sh collects for one broker, in
// its order: proc before, proc after, grpc-produce's output, grpc-idle's
// line; the sends used cpuAfter-10 CPU seconds.
func grpcBenchLines(broker string, tps, cpuAfter float64) string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	return strings.Join([]string{
		`{"broker":"` + broker + `","tool":"grpc","at":"before","kind":"proc","messages":0,"failed":0,"tps":0,"avgMs":0,"maxMs":0,"pid":7,"rssMB":300,"hwmMB":310,"cpuSec":10}`,
		`{"broker":"` + broker + `","tool":"grpc","at":"after","kind":"proc","messages":0,"failed":0,"tps":0,"avgMs":0,"maxMs":0,"pid":7,"rssMB":400,"hwmMB":450,"cpuSec":` + f(cpuAfter) + `}`,
		`grpc-produce: topic=GrpcBench body=128B (progress lines and summaries are skipped)`,
		`  status OK: 60000`,
		`{"broker":"` + broker + `","kind":"produce","tool":"grpc","topic":"GrpcBench","bodyBytes":128,"threads":64,"elapsedSec":30,"messages":60000,"failed":2,"tps":` + f(tps) + `,"avgMs":3,"p50Ms":2.5,"p99Ms":9,"p999Ms":12,"maxMs":20}`,
		`{"broker":"` + broker + `","kind":"grpc-idle","topic":"GrpcIdle","pid":7,"clients":2000,"conns":2000,"opened":2000,"openFailed":0,"openSec":2.5,"polls":200,"pollAnswers":400,"pollMessages":1,"pollErrors":0,"dropped":0,"holdSec":30,"holdCpuSec":0.5,"rssBeforeMB":400,"rssOpenMB":480,"rssEndMB":500,"rssClosedMB":450,"anonBeforeMB":100,"anonOpenMB":180,"anonEndMB":200,"holdAnonPeakMB":210,"anonClosedMB":150,"rssKBPerClient":51.2,"anonKBPerClient":51.2,"checkOk":true,"checkMs":3.5}`,
	}, "\n")
}

func readGrpcLines(t *testing.T, text string) []grpcLine {
	t.Helper()
	var lines []grpcLine
	require.NoError(t, decodeJSONLines(strings.NewReader(text), func(l grpcLine) { lines = append(lines, l) }))
	return lines
}

func TestGrpcLinesDecodeBothKinds(t *testing.T) {
	lines := readGrpcLines(t, grpcBenchLines("java", 2000, 40))
	require.Len(t, lines, 4)
	assert.Equal(t, kindProc, lines[0].Kind)
	assert.InDelta(t, 10, lines[0].CPUSec, 1e-9)
	assert.Equal(t, int64(60000), lines[2].Messages)
	assert.InDelta(t, 2.5, lines[2].P50Ms, 1e-9)
	idle := lines[3]
	assert.Equal(t, kindGrpcIdle, idle.Kind)
	assert.Equal(t, "java", idle.Broker)
	assert.Equal(t, "GrpcIdle", idle.Topic)
	assert.Equal(t, 2000, idle.Opened)
	assert.InDelta(t, 51.2, idle.AnonKBPerClient, 1e-9)
	assert.True(t, idle.CheckOK)
}

func TestGrpcTable(t *testing.T) {
	skip := `{"kind":"skip","broker":"go","reason":"no Go broker (RMQGO_BROKER_BIN is not set)"}`
	var out bytes.Buffer
	writeGrpcTable(&out, readGrpcLines(t, grpcBenchLines("java", 2000, 40)+"\n"+skip))
	table := out.String()
	assert.Contains(t, table, "| broker | send msg/s | send p50 ms | send p99 ms | failed sends | CPU ms/1000 msg | RSS MB |")
	// 30 CPU seconds over 60,000 messages: 500 ms per 1000
	assert.Contains(t, table, "| java | 2000 | 2.50 | 9.00 | 2 | 500.0 | 400 | 450 | 2000 | 100.0 | 51.2 | 51.2 | 0.50 | 50.0 |")
	assert.Contains(t, table, "| go | skipped: no Go broker (RMQGO_BROKER_BIN is not set) |")
	assert.NotContains(t, table, "÷")
	assert.Contains(t, table, "java: 2000 of 2000 idle clients opened in 2.5 s (2000 connections), 0 streams dropped")
	assert.Contains(t, table, "route, send, receive, ack ok (sent to received 3.5 ms)")

	// Ours after Java's in the input or not, Java's row comes first.
	goLines := strings.Replace(grpcBenchLines("go", 4000, 25), `"checkOk":true,"checkMs":3.5`, `"checkOk":false,"checkMs":0,"checkError":"receive: boom"`, 1)
	out.Reset()
	writeGrpcTable(&out, readGrpcLines(t, goLines+"\n"+grpcBenchLines("java", 2000, 40)))
	table = out.String()
	assert.Less(t, strings.Index(table, "| java |"), strings.Index(table, "| go |"))
	assert.Contains(t, table, "| go | 4000 | 2.50 | 9.00 | 2 | 250.0 |")
	assert.Contains(t, table, "| go ÷ java | ×2.00 | ×1.00 | ×1.00 | ×1.00 | ×0.50 | ×1.00 |")
	assert.Contains(t, table, "go: 2000 of 2000 idle clients")
	assert.Contains(t, table, "check with the clients open FAILED: receive: boom")
}

func TestGrpcTableMissingFigures(t *testing.T) {
	for _, v := range (&grpcRun{}).figures() {
		assert.True(t, math.IsNaN(v))
	}
	// an idle line without -pid has no memory figures
	run := &grpcRun{idle: &grpcLine{idleFigures: idleFigures{Opened: 10}}}
	v := run.figures()
	assert.InDelta(t, 10, v[7], 1e-9)
	assert.True(t, math.IsNaN(v[8]))
}

func TestIdleMemoryFigures(t *testing.T) {
	fig := idleFigures{Opened: 1024}
	before := &benchLine{RssMB: 100, AnonMB: 50, CPUSec: 1}
	opened := &benchLine{RssMB: 150, AnonMB: 90, CPUSec: 5}
	end := &benchLine{RssMB: 200, AnonMB: 100, AnonPeakMB: 120, CPUSec: 5.5}
	closed := &benchLine{RssMB: 120, AnonMB: 60}
	fig.memory(before, opened, end, nil)
	assert.Zero(t, fig.RssBeforeMB, "all four readings or none")
	fig.memory(before, opened, end, closed)
	assert.InDelta(t, 100, fig.RssKBPerClient, 1e-9) // 100 MB over 1024 clients
	assert.InDelta(t, 50, fig.AnonKBPerClient, 1e-9)
	assert.InDelta(t, 0.5, fig.HoldCPUSec, 1e-9)
	assert.InDelta(t, 120, fig.HoldAnonPeakMB, 1e-9)
	assert.Contains(t, fig.human(), "per client 100.0 KB RSS, 50.0 KB anon")
	assert.Contains(t, fig.human(), "check FAILED")
}

func TestMessageIDsAreThe5xShape(t *testing.T) {
	g := newMessageIDs()
	a, b := g.next(), g.next()
	assert.Regexp(t, `^01[0-9A-F]{32}$`, a)
	assert.NotEqual(t, a, b)
	assert.Equal(t, a[:18], b[:18], "the same MAC and pid")
}
