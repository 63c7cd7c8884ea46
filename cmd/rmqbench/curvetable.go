package main

// rmqbench curve-table: bench/curves-bench.sh's JSON lines on stdin (each
// broker-bench.sh run's results.jsonl lines, tagged with "curve", "point"
// and "loadavg") as one markdown table for one curve:
//
//	rmqbench curve-table -curve queues -metrics "send TPS,consume TPS,CPU µs/msg" <curves.jsonl
//
// A row per point (in numeric order) and load tool; for each metric three
// columns: the Java broker's figure, ours and ours ÷ Java's. A metric is a
// broker-table column head (tableColumns) or "consumed ÷ sent" (messages
// the consumer received over those the producer had acknowledged) or "send
// failed" (sends answered with an error, such as SYSTEM_BUSY). The
// last column is the 1-minute load average when the point's run ended.

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
)

// The curve-table metrics that are no broker-table column.
const (
	metricConsumedShare = "consumed ÷ sent"
	metricSendFailed    = "send failed" // sends answered with an error (e.g. SYSTEM_BUSY)
)

func runCurveTable(_ context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flagsOf("curve-table", stderr)
	curve := fs.String("curve", "", "the curve whose lines to tabulate (the lines' \"curve\" key)")
	metrics := fs.String("metrics", "send TPS,consume TPS,CPU µs/msg", "comma-separated broker-table column heads, or "+metricConsumedShare)
	if !parseChecked(fs, args, stderr, nil) {
		return 2
	}
	names := strings.Split(*metrics, ",")
	for _, m := range names {
		if metricIndex(m) < 0 && m != metricConsumedShare && m != metricSendFailed {
			fmt.Fprintf(stderr, "rmqbench curve-table: unknown metric %q\n", m)
			return 2
		}
	}
	lines, err := readResultLines(os.Stdin)
	if err != nil {
		fmt.Fprintln(stderr, "rmqbench curve-table:", err)
		return 1
	}
	writeCurveTable(stdout, lines, *curve, names)
	return 0
}

// metricIndex is the position of the broker-table column headed name, or -1.
func metricIndex(name string) int {
	for i, c := range tableColumns {
		if c.head == name {
			return i
		}
	}
	return -1
}

// curvePoint is one broker-bench.sh run of a curve.
type curvePoint struct {
	name    string
	loadAvg string
	lines   []benchLine
}

// curvePoints groups the lines of curve by point, in numeric order.
func curvePoints(lines []benchLine, curve string) []*curvePoint {
	byName := map[string]*curvePoint{}
	var points []*curvePoint
	for _, l := range lines {
		if l.Curve != curve {
			continue
		}
		p := byName[l.Point]
		if p == nil {
			p = &curvePoint{name: l.Point}
			byName[l.Point] = p
			points = append(points, p)
		}
		p.loadAvg = l.LoadAvg
		p.lines = append(p.lines, l)
	}
	sort.SliceStable(points, func(i, j int) bool {
		a, errA := strconv.ParseFloat(points[i].name, 64)
		b, errB := strconv.ParseFloat(points[j].name, 64)
		if errA != nil || errB != nil {
			return points[i].name < points[j].name
		}
		return a < b
	})
	return points
}

func writeCurveTable(w io.Writer, lines []benchLine, curve string, metrics []string) {
	heads := []string{curve, "load tool"}
	for _, m := range metrics {
		heads = append(heads, m+" java", m+" go", "go ÷ java")
	}
	heads = append(heads, "load avg")
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(heads, " | "), strings.Repeat("---|", len(heads)))
	for _, p := range curvePoints(lines, curve) {
		runs, _ := groupRuns(p.lines)
		for _, tool := range toolOrder(runs) {
			cells := []string{p.name, tool}
			for _, m := range metrics {
				j, g := metricValue(runs["java"], tool, m), metricValue(runs["go"], tool, m)
				cells = append(cells, formatMetric(m, j), formatMetric(m, g), formatRatio(g/j))
			}
			cells = append(cells, orDash(p.loadAvg))
			fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
		}
	}
}

// metricValue is one figure of tool's phase against run; NaN when the
// broker did not run, was skipped or the figure was not measured.
func metricValue(run *brokerRun, tool, metric string) float64 {
	if run == nil || run.skip != nil {
		return math.NaN()
	}
	if metric == metricSendFailed {
		if ph := run.phases[tool]; ph != nil && ph.produce != nil {
			return float64(ph.produce.Failed)
		}
		return math.NaN()
	}
	if metric == metricConsumedShare {
		ph := run.phases[tool]
		if ph == nil || ph.produce == nil || ph.consume == nil || ph.produce.Messages == 0 {
			return math.NaN()
		}
		return float64(ph.consume.Messages) / float64(ph.produce.Messages)
	}
	return run.figures(tool)[metricIndex(metric)]
}

// formatMetric prints v in its broker-table column's format, "–" for NaN.
func formatMetric(metric string, v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "–"
	}
	if i := metricIndex(metric); i >= 0 {
		return fmt.Sprintf(tableColumns[i].format, v)
	}
	if metric == metricSendFailed {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.2f", v)
}

func formatRatio(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "–"
	}
	return fmt.Sprintf("×%.2f", v)
}

func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}
