package main

// rmqbench broker-table: the JSON lines bench/broker-bench.sh collects
// (rmqbench produce/consume, java-result and proc lines, each tagged with
// "broker" and, for proc, "at" and "tool") on stdin, as one markdown table:
// a row per broker and load tool, then a Go ÷ Java row per tool where both
// brokers ran it. A "skip" line puts a "skipped: <reason>" row instead.
//
// Broker CPU is the broker's CPU seconds between the "before" and "after"
// proc lines of the tool's phase (producer and consumer ran together);
// CPU per message divides it by the messages sent. RSS is the broker's
// resident memory after the phase, peak RSS its VmHWM so far (so a later
// phase's peak includes the earlier ones'); both count the pages of the
// mapped store files the broker touched. Peak anon MB is the largest
// RssAnon (memory not backed by a file: heap, stacks, buffers) sampled
// during the phase (the "watch" proc line). Start-to-ready is the broker
// process's age when its boot line was first seen.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strings"
)

// tableColumns are the table's figures after the broker and tool columns.
var tableColumns = []column{
	{"send TPS", "%.0f"}, {"send avg ms", "%.2f"}, {"send p99 ms", "%.2f"}, {"send max ms", "%.1f"},
	{"consume TPS", "%.0f"}, {"e2e avg ms", "%.2f"}, {"e2e p99 ms", "%.2f"}, {"e2e max ms", "%.1f"},
	{"broker RSS MB", "%.0f"}, {"peak RSS MB", "%.0f"}, {"peak anon MB", "%.0f"},
	{"broker CPU s", "%.1f"}, {"CPU µs/msg", "%.0f"}, {"start-to-ready s", "%.2f"},
}

// phase is what one load tool measured against one broker.
type phase struct {
	produce, consume, before, after, watch *benchLine
}

// brokerRun is everything measured against one broker.
type brokerRun struct {
	boot   *benchLine
	skip   *benchLine
	phases map[string]*phase
}

func runBrokerTable(_ context.Context, _ []string, stdout, stderr io.Writer) int {
	lines, err := readResultLines(os.Stdin)
	if err != nil {
		fmt.Fprintln(stderr, "rmqbench broker-table:", err)
		return 1
	}
	writeBrokerTable(stdout, lines)
	return 0
}

// readResultLines decodes the lines of r that start with '{'; others
// (progress, summaries) are skipped.
func readResultLines(r io.Reader) ([]benchLine, error) {
	var lines []benchLine
	err := decodeJSONLines(r, func(b benchLine) { lines = append(lines, b) })
	return lines, err
}

// decodeJSONLines decodes each line of r that starts with '{' (after
// blanks) as a T and hands it to fn; other lines (progress, summaries) are
// skipped. Lines may be up to 1 MiB long.
func decodeJSONLines[T any](r io.Reader, fn func(T)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		text := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(text, "{") {
			continue
		}
		var v T
		if err := json.Unmarshal([]byte(text), &v); err != nil {
			return fmt.Errorf("%q: %w", text, err)
		}
		fn(v)
	}
	return sc.Err()
}

// groupRuns files each line under its broker and tool.
func groupRuns(lines []benchLine) (map[string]*brokerRun, []string) {
	runs := map[string]*brokerRun{}
	var order []string
	for i := range lines {
		l := &lines[i]
		run := runs[l.Broker]
		if run == nil {
			run = &brokerRun{phases: map[string]*phase{}}
			runs[l.Broker] = run
			order = append(order, l.Broker)
		}
		if l.Kind == kindSkip {
			run.skip = l
			continue
		}
		if l.Kind == kindProc && l.At == "boot" {
			run.boot = l
			continue
		}
		ph := run.phases[l.Tool]
		if ph == nil {
			ph = &phase{}
			run.phases[l.Tool] = ph
		}
		ph.file(l)
	}
	sort.SliceStable(order, func(i, j int) bool { return brokerRank(order[i]) < brokerRank(order[j]) })
	return runs, order
}

// file puts l in its slot of the phase.
func (ph *phase) file(l *benchLine) {
	switch {
	case l.Kind == kindProduce:
		ph.produce = l
	case l.Kind == kindConsume:
		ph.consume = l
	case l.Kind == kindProc && l.At == "before":
		ph.before = l
	case l.Kind == kindProc && l.At == "after":
		ph.after = l
	case l.Kind == kindProc && l.At == "watch":
		ph.watch = l
	}
}

// brokerRank puts the Java broker first, then ours, then any other.
func brokerRank(name string) int {
	switch name {
	case "java":
		return 0
	case "go":
		return 1
	}
	return 2
}

// toolOrder lists the tools seen, Java's first.
func toolOrder(runs map[string]*brokerRun) []string {
	seen := map[string]bool{}
	var tools []string
	for _, run := range runs {
		for tool := range run.phases {
			if !seen[tool] {
				seen[tool] = true
				tools = append(tools, tool)
			}
		}
	}
	sort.Slice(tools, func(i, j int) bool {
		if (tools[i] == toolJava) != (tools[j] == toolJava) {
			return tools[i] == toolJava
		}
		return tools[i] < tools[j]
	})
	return tools
}

// figures are a row's numbers in tableColumns order; NaN is "not measured".
func (run *brokerRun) figures(tool string) []float64 {
	v := make([]float64, len(tableColumns))
	for i := range v {
		v[i] = math.NaN()
	}
	ph := run.phases[tool]
	if ph == nil {
		return v
	}
	if p := ph.produce; p != nil {
		v[0], v[1], v[2], v[3] = p.TPS, p.AvgMs, orNaN(p.P99Ms), p.MaxMs
	}
	if c := ph.consume; c != nil {
		v[4], v[5], v[6], v[7] = c.TPS, c.AvgMs, orNaN(c.P99Ms), c.MaxMs
	}
	if a := ph.after; a != nil {
		v[8], v[9] = a.RssMB, a.HwmMB
		if ph.before != nil {
			v[11] = a.CPUSec - ph.before.CPUSec
			if ph.produce != nil && ph.produce.Messages > 0 {
				v[12] = v[11] * 1e6 / float64(ph.produce.Messages)
			}
		}
	}
	if ph.watch != nil {
		v[10] = ph.watch.AnonPeakMB
	}
	if run.boot != nil {
		v[13] = run.boot.AgeSec
	}
	return v
}

func orNaN(f float64) float64 {
	if f == 0 {
		return math.NaN()
	}
	return f
}

func writeBrokerTable(w io.Writer, lines []benchLine) {
	runs, brokers := groupRuns(lines)
	tools := toolOrder(runs)
	heads := []string{"broker", "load tool"}
	for _, c := range tableColumns {
		heads = append(heads, c.head)
	}
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(heads, " | "), strings.Repeat("---|", len(heads)))
	for _, b := range brokers {
		run := runs[b]
		if run.skip != nil {
			fmt.Fprintf(w, "| %s | – | skipped: %s |%s\n", b, run.skip.Reason, strings.Repeat(" |", len(tableColumns)-1))
			continue
		}
		for _, tool := range tools {
			writeRow(w, b, tool, run.figures(tool), "")
		}
	}
	java, goRun := runs["java"], runs["go"]
	if java == nil || goRun == nil || goRun.skip != nil || java.skip != nil {
		return
	}
	for _, tool := range tools {
		j, g := java.figures(tool), goRun.figures(tool)
		ratio := make([]float64, len(j))
		for i := range j {
			ratio[i] = g[i] / j[i]
		}
		writeRow(w, "go ÷ java", tool, ratio, "×")
	}
}

// column is a table's figure: its heading and the format of its value.
type column struct{ head, format string }

// writeRow prints one row of the broker table; prefix goes before each
// number (× for ratios).
func writeRow(w io.Writer, broker, tool string, v []float64, prefix string) {
	writeFigures(w, []string{broker, tool}, tableColumns, v, prefix)
}

// writeFigures prints a markdown row: the lead cells, then v in cols'
// formats, or with prefix and two decimals when prefix is set (ratios);
// NaN and infinities print "–".
func writeFigures(w io.Writer, lead []string, cols []column, v []float64, prefix string) {
	cells := lead
	for i, c := range cols {
		switch {
		case math.IsNaN(v[i]) || math.IsInf(v[i], 0):
			cells = append(cells, "–")
		case prefix != "":
			cells = append(cells, fmt.Sprintf("%s%.2f", prefix, v[i]))
		default:
			cells = append(cells, fmt.Sprintf(c.format, v[i]))
		}
	}
	fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
}
