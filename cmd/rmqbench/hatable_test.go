package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const haLines = `{"pair":"java","phase":"async-alone","kind":"produce","tps":10000,"avgMs":2,"p99Ms":8,"failed":0}
{"pair":"java","phase":"catchup","kind":"catchup","bytes":100000000,"seconds":1,"mbPerSec":100}
{"pair":"java","phase":"async-slave","kind":"produce","tps":9000,"avgMs":2.5,"p99Ms":9,"failed":0}
{"pair":"java","phase":"sync-slave","kind":"produce","tps":5000,"avgMs":4,"p99Ms":12,"failed":1}
{"pair":"go","phase":"async-alone","kind":"produce","tps":20000,"avgMs":1,"p99Ms":4,"failed":0}
{"pair":"go","phase":"catchup","kind":"catchup","bytes":100000000,"seconds":0.5,"mbPerSec":200}
{"pair":"go","phase":"async-slave","kind":"produce","tps":18000,"avgMs":1.2,"p99Ms":5,"failed":0}
{"pair":"go","phase":"sync-slave","kind":"produce","tps":15000,"avgMs":2,"p99Ms":6,"failed":0}
`

func TestHATableRatios(t *testing.T) {
	pairs, order, err := readHALines(strings.NewReader(haLines))
	require.NoError(t, err)
	assert.Equal(t, []string{"java", "go"}, order)
	var out bytes.Buffer
	writeHATables(&out, pairs, order)
	s := out.String()
	assert.Contains(t, s, "| java | sync-slave | 5000 | 4.00 | 12.00 | 1 |")
	assert.Contains(t, s, "| go ÷ java | async-alone | ×2.00 | ×0.50 | ×0.50 |")
	// java: SYNC adds 2 ms avg, 4 ms p99, the wait 1.5 ms beside
	// async-slave, keeps half the TPS; go: 1, 2, 0.8, 0.75.
	assert.Contains(t, s, "| java | +2.00 | +4.00 | +1.50 | 0.50 | 100 |")
	assert.Contains(t, s, "| go | +1.00 | +2.00 | +0.80 | 0.75 | 200 |")
	assert.Contains(t, s, "| go ÷ java | ×0.50 | ×0.50 | ×0.53 | ×1.50 | ×2.00 |")
}

func TestHATableSkippedPair(t *testing.T) {
	in := haLines[:strings.Index(haLines, `{"pair":"go"`)] + `{"kind":"skip","pair":"go","reason":"the run failed"}` + "\n"
	pairs, order, err := readHALines(strings.NewReader(in))
	require.NoError(t, err)
	var out bytes.Buffer
	writeHATables(&out, pairs, order)
	assert.Contains(t, out.String(), "| go | skipped: the run failed |")
	assert.NotContains(t, out.String(), "go ÷ java")
}

func TestHATableCPUAMessageFromTheBrokersProcLines(t *testing.T) {
	procs := `{"pair":"java","phase":"sync-slave","kind":"produce","tps":5000,"messages":100000,"avgMs":4}
{"pair":"java","phase":"sync-slave","kind":"proc","broker":"broker-a","at":"before","cpuSec":10}
{"pair":"java","phase":"sync-slave","kind":"proc","broker":"broker-a","at":"after","cpuSec":16}
{"pair":"java","phase":"sync-slave","kind":"proc","broker":"broker-a-slave","at":"before","cpuSec":3}
{"pair":"java","phase":"sync-slave","kind":"proc","broker":"broker-a-slave","at":"after","cpuSec":5}
{"pair":"java","phase":"async-alone","kind":"produce","tps":10000,"messages":200000,"avgMs":2}
{"pair":"java","phase":"async-alone","kind":"proc","broker":"broker-a","at":"before","cpuSec":1}
{"pair":"java","phase":"async-alone","kind":"proc","broker":"broker-a","at":"after","cpuSec":9}
{"pair":"go","phase":"sync-slave","kind":"produce","tps":15000,"messages":300000,"avgMs":2}
{"pair":"go","phase":"sync-slave","kind":"proc","broker":"broker-a","at":"before","cpuSec":0}
{"pair":"go","phase":"sync-slave","kind":"proc","broker":"broker-a","at":"after","cpuSec":6}
{"pair":"go","phase":"sync-slave","kind":"proc","broker":"broker-a-slave","at":"before","cpuSec":1}
{"pair":"go","phase":"sync-slave","kind":"proc","broker":"broker-a-slave","at":"after","cpuSec":2.5}
`
	pairs, order, err := readHALines(strings.NewReader(procs))
	require.NoError(t, err)
	var out bytes.Buffer
	writeHATables(&out, pairs, order)
	s := out.String()
	// java sync: 6 s and 2 s over 100000 messages; go: 6 s and 1.5 s over 300000
	assert.Contains(t, s, "| java | sync-slave | 60.0 | 20.0 | 80.0 |\n")
	assert.Contains(t, s, "| go | sync-slave | 20.0 | 5.0 | 25.0 |\n")
	assert.Contains(t, s, "| go ÷ java | sync-slave | ×0.33 | ×0.25 | ×0.31 |\n")
	assert.Contains(t, s, "| java | async-alone | 40.0 | 0.0 | 40.0 |\n", "the slave stopped costs nothing")
	assert.Contains(t, s, "| go | async-alone | – | – | – |\n", "not measured")
}
