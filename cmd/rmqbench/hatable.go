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
//     catchup);
//  3. per pair and phase, the CPU a message sent cost the master and the
//     slave (µs), from the proc lines ha-bench.sh takes of each broker
//     before and after a phase (at=before/after, broker=broker-a or
//     broker-a-slave): CPU seconds used over the phase ÷ messages sent.

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
	Messages float64 `json:"messages"`
	Broker   string  `json:"broker"`
	At       string  `json:"at"`
	CPUSec   float64 `json:"cpuSec"`
}

// haBrokers are the brokers whose CPU the third table shows.
var haBrokers = []string{"broker-a", "broker-a-slave"}

// haPair is everything measured against one pair, by phase.
type haPair struct {
	phases map[string]haLine
	// cpu holds the proc lines by phase, broker and at.
	cpu  map[[3]string]float64
	skip string
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
			p = &haPair{phases: map[string]haLine{}, cpu: map[[3]string]float64{}}
			pairs[l.Pair] = p
			order = append(order, l.Pair)
		}
		switch l.Kind {
		case "skip":
			p.skip = l.Reason
		case "catchup":
			p.phases["catchup"] = l
		case "proc":
			p.cpu[[3]string{l.Phase, l.Broker, l.At}] = l.CPUSec
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

// cpuFigures are the µs of CPU a message sent in phase cost the master,
// the slave and both: NaN when the phase was not measured, the slave's 0
// when it was stopped (no lines of it).
func (p *haPair) cpuFigures(phase string) []float64 {
	sent := p.phases[phase].Messages
	_, measured := p.cpu[[3]string{phase, haBrokers[0], "after"}]
	if !measured || sent <= 0 {
		return []float64{math.NaN(), math.NaN(), math.NaN()}
	}
	out := make([]float64, 0, 3)
	sum := 0.0
	for _, b := range haBrokers {
		before, ok1 := p.cpu[[3]string{phase, b, "before"}]
		after, ok2 := p.cpu[[3]string{phase, b, "after"}]
		us := 0.0 // a stopped slave
		if ok1 || ok2 {
			us = math.NaN()
		}
		if ok1 && ok2 {
			us = (after - before) * 1e6 / sent
		}
		out = append(out, us)
		sum += us
	}
	return append(out, sum)
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
	writeHACPUTable(w, pairs, order, both)
}

// writeHACPUTable is the third table, when some phase was measured.
func writeHACPUTable(w io.Writer, pairs map[string]*haPair, order []string, both bool) {
	measured := false
	for _, p := range pairs {
		measured = measured || len(p.cpu) > 0
	}
	if !measured {
		return
	}
	fmt.Fprintln(w, "\n| pair | phase | master CPU µs a message | slave | both |\n|---|---|---|---|---|")
	for _, name := range order {
		if p := pairs[name]; p.skip == "" {
			for _, ph := range haPhases {
				haRow(w, []string{name, ph}, p.cpuFigures(ph), []string{"%.1f", "%.1f", "%.1f"}, "")
			}
		}
	}
	if both {
		for _, ph := range haPhases {
			haRow(w, []string{"go ÷ java", ph}, ratios(pairs["go"].cpuFigures(ph), pairs["java"].cpuFigures(ph)), nil, "×")
		}
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
