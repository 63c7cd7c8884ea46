package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// curveLines are two points of a "queues" curve as bench/curves-bench.sh
// tags them (point 16 first, to check the numeric order), plus a line of
// another curve that must be left out.
const curveLines = `{"curve":"queues","point":"16","loadavg":"2.50","kind":"proc","broker":"java","tool":"rmqbench","at":"before","cpuSec":10}
{"curve":"queues","point":"16","loadavg":"2.50","kind":"proc","broker":"java","tool":"rmqbench","at":"after","cpuSec":12}
{"curve":"queues","point":"16","loadavg":"2.50","kind":"produce","broker":"java","tool":"rmqbench","messages":20000,"failed":0,"tps":1000,"avgMs":1,"maxMs":5}
{"curve":"queues","point":"16","loadavg":"2.50","kind":"consume","broker":"java","tool":"rmqbench","messages":19000,"failed":0,"tps":950,"avgMs":1,"maxMs":5}
{"curve":"queues","point":"16","loadavg":"2.50","kind":"proc","broker":"go","tool":"rmqbench","at":"before","cpuSec":1}
{"curve":"queues","point":"16","loadavg":"2.50","kind":"proc","broker":"go","tool":"rmqbench","at":"after","cpuSec":2}
{"curve":"queues","point":"16","loadavg":"2.50","kind":"produce","broker":"go","tool":"rmqbench","messages":40000,"failed":0,"tps":2000,"avgMs":1,"maxMs":5}
{"curve":"queues","point":"16","loadavg":"2.50","kind":"consume","broker":"go","tool":"rmqbench","messages":40000,"failed":0,"tps":2000,"avgMs":1,"maxMs":5}
{"curve":"queues","point":"1","loadavg":"1.00","kind":"produce","broker":"java","tool":"rmqbench","messages":100,"failed":0,"tps":10,"avgMs":1,"maxMs":5}
{"curve":"queues","point":"1","loadavg":"1.00","kind":"skip","broker":"go","reason":"no Go broker"}
{"curve":"syncflush","point":"4","loadavg":"3.00","kind":"produce","broker":"go","tool":"rmqbench","messages":1,"failed":7,"tps":99999,"avgMs":1,"maxMs":5}
`

func TestCurveTable(t *testing.T) {
	lines, err := readResultLines(strings.NewReader(curveLines))
	require.NoError(t, err)
	var out bytes.Buffer
	writeCurveTable(&out, lines, "queues", []string{"send TPS", metricConsumedShare, "CPU µs/msg"})
	rows := strings.Split(strings.TrimSpace(out.String()), "\n")
	require.Len(t, rows, 4, out.String())
	assert.Equal(t, "| queues | load tool | send TPS java | send TPS go | go ÷ java | consumed ÷ sent java | consumed ÷ sent go | go ÷ java | CPU µs/msg java | CPU µs/msg go | go ÷ java | load avg |", rows[0])
	assert.Equal(t, "| 1 | rmqbench | 10 | – | – | – | – | – | – | – | – | 1.00 |", rows[2], "a skipped broker shows dashes")
	// java: 2 CPU s over 20000 messages = 100 µs; go: 1 s over 40000 = 25 µs.
	assert.Equal(t, "| 16 | rmqbench | 1000 | 2000 | ×2.00 | 0.95 | 1.00 | ×1.05 | 100 | 25 | ×0.25 | 2.50 |", rows[3])
	assert.NotContains(t, out.String(), "99999", "another curve's lines are left out")
}

func TestCurveTableSendFailed(t *testing.T) {
	lines, err := readResultLines(strings.NewReader(curveLines))
	require.NoError(t, err)
	var out bytes.Buffer
	writeCurveTable(&out, lines, "syncflush", []string{metricSendFailed})
	assert.Contains(t, out.String(), "| 4 | rmqbench | – | 7 | – | 3.00 |")
}

func TestCurveTableRejectsUnknownMetric(t *testing.T) {
	var out bytes.Buffer
	code := runCurveTable(t.Context(), []string{"-curve", "queues", "-metrics", "send TPS,bogus"}, &out, &out)
	assert.Equal(t, 2, code)
	assert.Contains(t, out.String(), `unknown metric "bogus"`)
}
