package main

// rmqbench backlog-table: the JSON lines bench/backlog-bench.sh collects
// on stdin (produce, consume, proc, dropcache and load lines tagged
// "broker", "backlogMB" and "phase" or "at"; skip lines), as one markdown
// table: per backlog size and broker, how fast the backlog was written,
// how much of the commitlog was still cached when the consumer started,
// how long the catch-up took and at what pull rate, the live producer's
// send p99 alone and during the catch-up (and its failed sends then), the
// broker's CPU during the catch-up, its peak RssAnon and the machine's
// load average when the catch-up ended; a Go ÷ Java row where both
// brokers ran (its load ratio says how alike the conditions were).

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
)

// backlogLine is the part of a result line the table reads.
type backlogLine struct {
	Kind        string  `json:"kind"`
	Broker      string  `json:"broker"`
	BacklogMB   string  `json:"backlogMB"`
	Phase       string  `json:"phase"`
	At          string  `json:"at"`
	Reason      string  `json:"reason"`
	Failed      float64 `json:"failed"`
	TPS         float64 `json:"tps"`
	P99Ms       float64 `json:"p99Ms"`
	ElapsedSec  float64 `json:"elapsedSec"`
	CaughtUpSec float64 `json:"caughtUpSec"`
	CaughtUpTPS float64 `json:"caughtUpTps"`
	CaughtUpMBs float64 `json:"caughtUpMBps"`
	CachedMB    float64 `json:"cachedMB"`
	CPUSec      float64 `json:"cpuSec"`
	AnonPeakMB  float64 `json:"anonPeakMB"`
	Load1       float64 `json:"load1"`
}

// backlogColumns are the table's figures, in order, with their format.
var backlogColumns = []column{
	{"fill msg/s", "%.0f"},
	{"commitlog cached at start MB", "%.0f"},
	{"catch-up s", "%.1f"},
	{"pull msg/s", "%.0f"},
	{"pull MB/s", "%.1f"},
	{"send p99 alone ms", "%.2f"},
	{"send p99 during catch-up ms", "%.2f"},
	{"failed sends during catch-up", "%.0f"},
	{"broker CPU % during catch-up", "%.0f"},
	{"peak RssAnon MB", "%.0f"},
	{"load avg 1 min at catch-up end", "%.1f"},
}

// backlogPoint is what was measured of one broker at one backlog size.
type backlogPoint struct {
	lines map[string]backlogLine // by phase or at ("kind/phase+at")
	skip  string
}

func runBacklogTable(_ context.Context, _ []string, stdout, stderr io.Writer) int {
	points, sizes, err := readBacklogLines(os.Stdin)
	if err != nil {
		fmt.Fprintln(stderr, "rmqbench backlog-table:", err)
		return 1
	}
	writeBacklogTable(stdout, points, sizes)
	return 0
}

// readBacklogLines groups the lines by backlog size and broker.
func readBacklogLines(r io.Reader) (map[string]*backlogPoint, []string, error) {
	points := map[string]*backlogPoint{}
	var sizes []string
	err := decodeJSONLines(r, func(l backlogLine) {
		key := l.BacklogMB + "/" + l.Broker
		p := points[key]
		if p == nil {
			p = &backlogPoint{lines: map[string]backlogLine{}}
			points[key] = p
			if !contains(sizes, l.BacklogMB) {
				sizes = append(sizes, l.BacklogMB)
			}
		}
		if l.Kind == kindSkip {
			p.skip = l.Reason
			return
		}
		p.lines[l.Kind+"/"+l.Phase+l.At] = l
	})
	return points, sizes, err
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// figures are the point's values in backlogColumns order (NaN: missing).
func (p *backlogPoint) figures() []float64 {
	get := func(key string) (backlogLine, bool) { l, ok := p.lines[key]; return l, ok }
	fill, _ := get("produce/fill")
	cold, hasCold := get("dropcache/cold")
	cons, _ := get("consume/catchup")
	alone, _ := get("produce/alone")
	during, _ := get("produce/catchup")
	before, _ := get("proc/before")
	after, _ := get("proc/after")
	watch, _ := get("proc/watch")
	load, hasLoad := get("load/catchup")
	cached := math.NaN()
	if hasCold {
		cached = cold.CachedMB
	}
	cpu := math.NaN()
	if cons.ElapsedSec > 0 && after.CPUSec > 0 {
		cpu = 100 * (after.CPUSec - before.CPUSec) / cons.ElapsedSec
	}
	loadAvg := math.NaN()
	if hasLoad {
		loadAvg = load.Load1
	}
	return []float64{orNaN(fill.TPS), cached, orNaN(cons.CaughtUpSec), orNaN(cons.CaughtUpTPS), orNaN(cons.CaughtUpMBs),
		orNaN(alone.P99Ms), orNaN(during.P99Ms), failedOrNaN(during), cpu, orNaN(watch.AnonPeakMB), loadAvg}
}

// failedOrNaN is a produce line's failed sends, NaN when there is no line.
func failedOrNaN(l backlogLine) float64 {
	if l.Kind == "" {
		return math.NaN()
	}
	return l.Failed
}

func writeBacklogTable(w io.Writer, points map[string]*backlogPoint, sizes []string) {
	heads := []string{"backlog MiB", "broker"}
	for _, c := range backlogColumns {
		heads = append(heads, c.head)
	}
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(heads, " | "), strings.Repeat("---|", len(heads)))
	for _, size := range sizes {
		for _, b := range []string{"java", "go"} {
			p := points[size+"/"+b]
			switch {
			case p == nil:
			case p.skip != "":
				fmt.Fprintf(w, "| %s | %s | skipped: %s |%s\n", size, b, p.skip, strings.Repeat(" |", len(backlogColumns)-1))
			default:
				writeBacklogRow(w, size, b, p.figures(), "")
			}
		}
		j, g := points[size+"/java"], points[size+"/go"]
		if j != nil && g != nil && j.skip == "" && g.skip == "" {
			writeBacklogRow(w, size, "go ÷ java", ratios(g.figures(), j.figures()), "×")
		}
	}
}

// writeBacklogRow prints one row; prefix goes before each number (× for
// ratios).
func writeBacklogRow(w io.Writer, size, broker string, v []float64, prefix string) {
	writeFigures(w, []string{size, broker}, backlogColumns, v, prefix)
}
