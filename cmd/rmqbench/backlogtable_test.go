package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBacklogTableHasARowPerBrokerAndARatio(t *testing.T) {
	in := strings.Join([]string{
		`{"broker":"java","backlogMB":"1024","phase":"fill","kind":"produce","messages":10,"failed":0,"tps":40000,"avgMs":1,"maxMs":2}`,
		`{"broker":"java","backlogMB":"1024","at":"cold","kind":"dropcache","cachedMB":12}`,
		`{"broker":"java","backlogMB":"1024","phase":"alone","kind":"produce","messages":10,"failed":0,"tps":2000,"avgMs":1,"p99Ms":4,"maxMs":2}`,
		`{"broker":"java","backlogMB":"1024","at":"before","kind":"proc","messages":0,"failed":0,"tps":0,"avgMs":0,"maxMs":0,"cpuSec":10}`,
		`{"broker":"java","backlogMB":"1024","at":"after","kind":"proc","messages":0,"failed":0,"tps":0,"avgMs":0,"maxMs":0,"cpuSec":20}`,
		`{"broker":"java","backlogMB":"1024","at":"watch","kind":"proc","messages":0,"failed":0,"tps":0,"avgMs":0,"maxMs":0,"anonPeakMB":300}`,
		`{"broker":"java","backlogMB":"1024","phase":"catchup","kind":"consume","messages":10,"failed":0,"tps":1,"avgMs":1,"maxMs":1,"elapsedSec":20,"caughtUpSec":20,"caughtUpTps":50000,"caughtUpMBps":50}`,
		`{"broker":"java","backlogMB":"1024","phase":"catchup","kind":"produce","messages":10,"failed":0,"tps":2000,"avgMs":1,"p99Ms":8,"maxMs":2,"failed":3}`,
		`{"broker":"go","backlogMB":"1024","phase":"catchup","kind":"consume","messages":10,"failed":0,"tps":1,"avgMs":1,"maxMs":1,"elapsedSec":10,"caughtUpSec":10,"caughtUpTps":100000,"caughtUpMBps":100}`,
		`{"kind":"load","broker":"java","backlogMB":"1024","at":"catchup","load1":1.5,"load5":2,"load15":3}`,
		`{"kind":"skip","broker":"go","backlogMB":"4096","reason":"failed"}`,
	}, "\n")
	points, sizes, err := readBacklogLines(strings.NewReader(in))
	require.NoError(t, err)
	var out bytes.Buffer
	writeBacklogTable(&out, points, sizes)
	table := out.String()

	assert.Contains(t, table, "| 1024 | java | 40000 | 12 | 20.0 | 50000 | 50.0 | 4.00 | 8.00 | 3 | 50 | 300 | 1.5 |")
	assert.Contains(t, table, "| 1024 | go | – | – | 10.0 | 100000 | 100.0 | – | – | – | – | – | – |")
	assert.Contains(t, table, "| 1024 | go ÷ java | – | – | ×0.50 | ×2.00 | ×2.00 |")
	assert.Contains(t, table, "| 4096 | go | skipped: failed |")
}
