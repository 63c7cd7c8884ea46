package main

// rmqbench ha-table: the JSON lines bench/ha-bench.sh collects (produce
// lines tagged "pair" and "phase", catchup lines, skip lines) on stdin, as
// two markdown tables with Go ÷ Java rows where both pairs ran:
//
//  1. per pair and phase (async-alone: ASYNC_MASTER with its slave
//     stopped; async-slave: with the slave attached; sync-slave:
//     SYNC_MASTER, every send waits for the slave), send TPS, average and
//     p99 latency, failed sends;
//  2. per pair, what replication costs: the latency SYNC_MASTER adds to a
//     lone master's (sync-slave less async-alone, average and p99), the
//     latency the wait for the ack adds with the slave running in both
//     (sync-slave less async-slave, average), the share of the lone
//     master's TPS it keeps, and the slave's catch-up rate (MB/s, rmqbench
//     catchup).

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
)

// haPhases are the produce phases of ha-bench.sh, in table order.
var haPhases = []string{"async-alone", "async-slave", "sync-slave"}

// haLine is the part of a result line the table reads.
type haLine struct {
	Kind     string  `json:"kind"`
	Pair     string  `json:"pair"`
	Phase    string  `json:"phase"`
	Reason   string  `json:"reason"`
	TPS      float64 `json:"tps"`
	AvgMs    float64 `json:"avgMs"`
	P99Ms    float64 `json:"p99Ms"`
	Failed   float64 `json:"failed"`
	MBPerSec float64 `json:"mbPerSec"`
}

// haPair is everything measured against one pair, by phase.
type haPair struct {
	phases map[string]haLine
	skip   string
}

func runHATable(_ context.Context, _ []string, stdout, stderr io.Writer) int {
	pairs, order, err := readHALines(os.Stdin)
	if err != nil {
		fmt.Fprintln(stderr, "rmqbench ha-table:", err)
		return 1
	}
	writeHATables(stdout, pairs, order)
	return 0
}

func readHALines(r io.Reader) (map[string]*haPair, []string, error) {
	pairs := map[string]*haPair{}
	var order []string
	err := decodeJSONLines(r, func(l haLine) {
		p := pairs[l.Pair]
		if p == nil {
			p = &haPair{phases: map[string]haLine{}}
			pairs[l.Pair] = p
			order = append(order, l.Pair)
		}
		switch l.Kind {
		case "skip":
			p.skip = l.Reason
		case "catchup":
			p.phases["catchup"] = l
		default:
			p.phases[l.Phase] = l
		}
	})
	return pairs, order, err
}

// phaseFigures are TPS, avg, p99 and failed of one phase (NaN when absent).
func (p *haPair) phaseFigures(phase string) []float64 {
	l, ok := p.phases[phase]
	if !ok {
		return []float64{math.NaN(), math.NaN(), math.NaN(), math.NaN()}
	}
	return []float64{l.TPS, l.AvgMs, l.P99Ms, l.Failed}
}

// costFigures are the avg and p99 added to a lone master's, the avg the
// wait adds beside async-slave, the kept TPS share and the catch-up MB/s.
func (p *haPair) costFigures() []float64 {
	alone, slave, sync := p.phaseFigures("async-alone"), p.phaseFigures("async-slave"), p.phaseFigures("sync-slave")
	mb := math.NaN()
	if c, ok := p.phases["catchup"]; ok && c.MBPerSec > 0 {
		mb = c.MBPerSec
	}
	return []float64{sync[1] - alone[1], sync[2] - alone[2], sync[1] - slave[1], sync[0] / alone[0], mb}
}

func writeHATables(w io.Writer, pairs map[string]*haPair, order []string) {
	java, goPair := pairs["java"], pairs["go"]
	both := java != nil && goPair != nil && java.skip == "" && goPair.skip == ""
	fmt.Fprintln(w, "| pair | phase | send TPS | avg ms | p99 ms | failed |\n|---|---|---|---|---|---|")
	for _, name := range order {
		if p := pairs[name]; p.skip != "" {
			fmt.Fprintf(w, "| %s | skipped: %s | | | | |\n", name, p.skip)
			continue
		}
		for _, ph := range haPhases {
			haRow(w, []string{name, ph}, pairs[name].phaseFigures(ph), []string{"%.0f", "%.2f", "%.2f", "%.0f"}, "")
		}
	}
	if both {
		for _, ph := range haPhases {
			haRow(w, []string{"go ÷ java", ph}, ratios(goPair.phaseFigures(ph)[:3], java.phaseFigures(ph)[:3]), nil, "×")
		}
	}
	fmt.Fprintln(w, "\n| pair | SYNC_MASTER adds, avg ms | adds, p99 ms | the wait adds (sync − async-slave), avg ms | SYNC TPS ÷ lone TPS | slave catch-up MB/s |\n|---|---|---|---|---|---|")
	for _, name := range order {
		if p := pairs[name]; p.skip == "" {
			haRow(w, []string{name}, p.costFigures(), []string{"%+.2f", "%+.2f", "%+.2f", "%.2f", "%.0f"}, "")
		}
	}
	if both {
		haRow(w, []string{"go ÷ java"}, ratios(goPair.costFigures(), java.costFigures()), nil, "×")
	}
}

// ratios is g[i] / j[i].
func ratios(g, j []float64) []float64 {
	out := make([]float64, len(g))
	for i := range g {
		out[i] = g[i] / j[i]
	}
	return out
}

// haRow prints one row: the label cells, then v formatted (prefix and two
// decimals for ratios); NaN and infinities print as –.
func haRow(w io.Writer, labels []string, v []float64, formats []string, prefix string) {
	cells := append([]string{}, labels...)
	for i, f := range v {
		switch {
		case math.IsNaN(f) || math.IsInf(f, 0):
			cells = append(cells, "–")
		case prefix != "":
			cells = append(cells, fmt.Sprintf("%s%.2f", prefix, f))
		default:
			cells = append(cells, fmt.Sprintf(formats[i], f))
		}
	}
	fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
}
