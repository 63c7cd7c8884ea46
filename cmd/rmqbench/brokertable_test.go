package main

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The report lines below have the exact shapes of the printf formats of
// org.apache.rocketmq.example.benchmark.Producer and Consumer at
// rocketmq-all-4.9.7 and rocketmq-all-5.3.3 (the Consume Total line is
// bench/benchtool's).
const (
	producer497 = `topic: BenchmarkTest threadCount: 64 messageSize: 128 keyEnable: false propertySize: 0 tagCount: 0 traceEnable: false aclEnable: false messageQuantity: 0
delayEnable: false delayLevel: 1
asyncEnable: false
Current Time: 2026-12-03 02:10:36,123 Send TPS: 1000 Max RT(ms): 40 Average RT(ms):   2.000 Send Failed: 0 Response Failed: 0
Current Time: 2026-12-03 02:10:46,123 Send TPS: 3000 Max RT(ms): 90 Average RT(ms):   4.000 Send Failed: 1 Response Failed: 2
`
	producer533 = `Current Time: 2026-12-03 02:10:36,123 | Send TPS: 0 | Max RT(ms): 0 | Average RT(ms):     NaN | Send Failed: 0 | Response Failed: 0
Current Time: 2026-12-03 02:10:46,123 | Send TPS: 2000 | Max RT(ms): 12 | Average RT(ms):   1.500 | Send Failed: 0 | Response Failed: 0
[Complete] Send Total: 25000 | Send TPS: 2000 | Max RT(ms): 12 | Average RT(ms):   1.500 | Send Failed: 0 | Response Failed: 0
`
	consumer497 = `topic: BenchmarkTest, threadCount 20, group: benchmark_consumer, suffix: false, filterType: null, expression: null, msgTraceEnable: false, aclEnable: false
Consumer Started.
Current Time: 1764727836123 TPS: 1000 FAIL: 0 AVG(B2C) RT(ms):   5.000 AVG(S2C) RT(ms):   4.000 MAX(B2C) RT(ms): 50 MAX(S2C) RT(ms): 45
Current Time: 1764727846123 TPS: 3000 FAIL: 2 AVG(B2C) RT(ms):   1.000 AVG(S2C) RT(ms):   0.500 MAX(B2C) RT(ms): 20 MAX(S2C) RT(ms): 19
[Complete] Consume Total: 41234
`
	consumer533 = `Current Time: 2026-12-03 02:10:46,123 | Consume TPS: 500 | AVG(B2C) RT(ms):   7.000 | AVG(S2C) RT(ms):   6.000 | MAX(B2C) RT(ms): 70 | MAX(S2C) RT(ms): 60 | Consume Fail: 0
`
)

func TestParseJavaOutput(t *testing.T) {
	b, err := parseJavaOutput(strings.NewReader(producer497), kindProduce, 10*time.Second)
	require.NoError(t, err)
	assert.Equal(t, toolJava, b.Tool)
	assert.InDelta(t, 2000, b.TPS, 1e-9)
	assert.InDelta(t, 3.5, b.AvgMs, 1e-9) // (2*1000 + 4*3000) / 4000
	assert.InDelta(t, 90, b.MaxMs, 1e-9)
	assert.Equal(t, int64(3), b.Failed) // the last line's counts are cumulative
	assert.Equal(t, int64(40000), b.Messages)
	assert.Equal(t, 2, b.Windows)

	b, err = parseJavaOutput(strings.NewReader(producer533), kindProduce, 10*time.Second)
	require.NoError(t, err)
	assert.InDelta(t, 2000, b.TPS, 1e-9, "idle windows are left out")
	assert.InDelta(t, 1.5, b.AvgMs, 1e-9)
	assert.Equal(t, int64(25000), b.Messages, "[Complete] Send Total wins")
	assert.InDelta(t, 10, b.ActiveSec, 1e-9)

	b, err = parseJavaOutput(strings.NewReader(consumer497), kindConsume, 10*time.Second)
	require.NoError(t, err)
	assert.InDelta(t, 2000, b.TPS, 1e-9)
	assert.InDelta(t, 2, b.AvgMs, 1e-9) // (5*1000 + 1*3000) / 4000
	assert.InDelta(t, 50, b.MaxMs, 1e-9)
	assert.Equal(t, int64(2), b.Failed)
	assert.Equal(t, int64(41234), b.Messages, "bench/benchtool's final total")

	b, err = parseJavaOutput(strings.NewReader(consumer533), kindConsume, 10*time.Second)
	require.NoError(t, err)
	assert.InDelta(t, 500, b.TPS, 1e-9)
	assert.InDelta(t, 70, b.MaxMs, 1e-9)

	_, err = parseJavaOutput(strings.NewReader(producer497), kindConsume, 10*time.Second)
	assert.ErrorIs(t, err, errNoReport, "producer lines are not consumer lines")
}

func TestReadProc(t *testing.T) {
	b, err := readProc("/proc", os.Getpid(), 100)
	require.NoError(t, err)
	assert.Positive(t, b.RssMB)
	assert.GreaterOrEqual(t, b.HwmMB, b.RssMB)
	assert.GreaterOrEqual(t, b.CPUSec, 0.0)
	// /proc counts in clock ticks: a process younger than one is 0 s old
	assert.GreaterOrEqual(t, b.AgeSec, 0.0)

	root := t.TempDir()
	dir := filepath.Join(root, "42")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	write := func(name, text string) {
		require.NoError(t, os.WriteFile(filepath.Join(root, name), []byte(text), 0o644))
	}
	write("42/status", "Name:\tjava\nVmHWM:\t  204800 kB\nVmRSS:\t  102400 kB\nRssAnon:\t   51200 kB\n")
	// A command name with spaces and a parenthesis, as /proc shows it.
	write("42/stat", "42 (my (odd) prog) S 1 42 42 0 -1 4194560 100 0 0 0 250 150 0 0 20 0 30 0 1000 0 0\n")
	write("uptime", "110.50 200.00\n")
	b, err = readProc(root, 42, 100)
	require.NoError(t, err)
	assert.InDelta(t, 100, b.RssMB, 1e-9)
	assert.InDelta(t, 200, b.HwmMB, 1e-9)
	assert.InDelta(t, 50, b.AnonMB, 1e-9)
	assert.InDelta(t, 4, b.CPUSec, 1e-9)
	assert.InDelta(t, 100.5, b.AgeSec, 1e-9)

	ctx, cancel := context.WithCancel(context.Background())
	cancel() // a watch stopped at once still reports what it read first
	b, err = watchProc(ctx, root, 42, 100, time.Millisecond)
	require.NoError(t, err)
	assert.InDelta(t, 50, b.AnonPeakMB, 1e-9)

	write("42/stat", "42 (x) S 1 2\n")
	_, err = readProc(root, 42, 100)
	assert.ErrorIs(t, err, errProcFormat)
}

func TestBrokerTable(t *testing.T) {
	javaRun := strings.Join([]string{
		`{"kind":"proc","broker":"java","at":"boot","ageSec":4.5,"messages":0,"failed":0,"tps":0,"avgMs":0,"maxMs":0}`,
		`{"kind":"proc","broker":"java","tool":"java","at":"before","cpuSec":10}`,
		`{"broker":"java","kind":"produce","tool":"java","messages":30000,"tps":1000,"avgMs":2,"maxMs":50}`,
		`{"broker":"java","kind":"consume","tool":"java","messages":30000,"tps":990,"avgMs":5,"maxMs":80}`,
		`{"kind":"proc","broker":"java","tool":"java","at":"watch","anonMB":300,"anonPeakMB":380}`,
		`{"kind":"proc","broker":"java","tool":"java","at":"after","cpuSec":16,"rssMB":400,"hwmMB":450}`,
		`progress lines and summaries are skipped`,
		`{"kind":"proc","broker":"java","tool":"rmqbench","at":"before","cpuSec":16}`,
		`{"broker":"java","kind":"produce","tool":"rmqbench","messages":60000,"tps":2000,"avgMs":1,"p99Ms":4,"maxMs":20}`,
		`{"broker":"java","kind":"consume","tool":"rmqbench","messages":60000,"tps":2000,"avgMs":3,"p99Ms":9,"maxMs":30}`,
		`{"kind":"proc","broker":"java","tool":"rmqbench","at":"after","cpuSec":28,"rssMB":420,"hwmMB":460}`,
	}, "\n")
	skip := `{"kind":"skip","broker":"go","reason":"no Go broker (RMQGO_BROKER_BIN not set)"}`
	lines, err := readResultLines(strings.NewReader(javaRun + "\n" + skip))
	require.NoError(t, err)
	var out bytes.Buffer
	writeBrokerTable(&out, lines)
	table := out.String()
	assert.Contains(t, table, "| broker | load tool | send TPS | send avg ms | send p99 ms |")
	assert.Contains(t, table, "| java | java | 1000 | 2.00 | – | 50.0 | 990 | 5.00 | – | 80.0 | 400 | 450 | 380 | 6.0 | 200 | 4.50 |")
	assert.Contains(t, table, "| java | rmqbench | 2000 | 1.00 | 4.00 | 20.0 | 2000 | 3.00 | 9.00 | 30.0 | 420 | 460 | – | 12.0 | 200 | 4.50 |")
	assert.Contains(t, table, "| go | – | skipped: no Go broker (RMQGO_BROKER_BIN not set) |")
	assert.NotContains(t, table, "÷")

	goRun := strings.ReplaceAll(strings.ReplaceAll(javaRun, `"broker":"java"`, `"broker":"go"`), `"tps":1000`, `"tps":3000`)
	lines, err = readResultLines(strings.NewReader(javaRun + "\n" + goRun))
	require.NoError(t, err)
	out.Reset()
	writeBrokerTable(&out, lines)
	assert.Contains(t, out.String(), "| go ÷ java | java | ×3.00 | ×1.00 | – |")
	assert.Contains(t, out.String(), "| go ÷ java | rmqbench | ×1.00 |")
}

func TestBrokerTableMissingFigures(t *testing.T) {
	run := &brokerRun{phases: map[string]*phase{}}
	for _, v := range run.figures(toolJava) {
		assert.True(t, math.IsNaN(v))
	}
}
