package main

// rmqbench grpc-table: the JSON lines bench/grpc-bench.sh collects, each
// tagged with "broker" (java, go): grpc-produce's line (kind produce, tool
// grpc), the proc lines of the broker process before and after it ("at"
// before, after), grpc-idle's line (kind grpc-idle), or a skip line; on
// stdin, as one markdown table, a row per broker and a Go ÷ Java row,
// then a line per broker on its idle clients and check.
//
// CPU ms/1000 msg is the broker process's CPU (the broker and its proxy:
// one process in local mode, Java's and ours) between the before and after
// lines, per thousand messages sent. RSS MB is its VmRSS after the sends,
// peak RSS MB its VmHWM then. The idle columns are grpc-idle's: clients
// opened, VmRSS growth from before they opened to the end of their idle
// time, that growth per client in VmRSS and in RssAnon, the CPU seconds
// the process used while they sat idle, and VmRSS growth left a few
// seconds after they all closed.

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
)

// grpcColumns are the table's figures after the broker column.
var grpcColumns = []column{
	{"send msg/s", "%.0f"}, {"send p50 ms", "%.2f"}, {"send p99 ms", "%.2f"}, {"failed sends", "%.0f"},
	{"CPU ms/1000 msg", "%.1f"}, {"RSS MB", "%.0f"}, {"peak RSS MB", "%.0f"},
	{"idle clients", "%.0f"}, {"idle RSS +MB", "%.1f"}, {"RSS KB/client", "%.1f"}, {"anon KB/client", "%.1f"},
	{"idle CPU s", "%.2f"}, {"RSS +MB after close", "%.1f"},
}

// grpcLine is any line grpc-bench.sh collects.
type grpcLine struct {
	benchLine
	idleFigures
}

// grpcRun is what was measured on one broker.
type grpcRun struct {
	produce, before, after, idle, skip *grpcLine
}

func runGrpcTable(_ context.Context, _ []string, stdout, stderr io.Writer) int {
	var lines []grpcLine
	if err := decodeJSONLines(os.Stdin, func(l grpcLine) { lines = append(lines, l) }); err != nil {
		fmt.Fprintln(stderr, "rmqbench grpc-table:", err)
		return 1
	}
	writeGrpcTable(stdout, lines)
	return 0
}

// groupGrpcRuns files the lines by broker, Java's first.
func groupGrpcRuns(lines []grpcLine) (map[string]*grpcRun, []string) {
	runs := map[string]*grpcRun{}
	var order []string
	for i := range lines {
		l := &lines[i]
		run := runs[l.Broker]
		if run == nil {
			run = &grpcRun{}
			runs[l.Broker] = run
			order = append(order, l.Broker)
		}
		switch {
		case l.Kind == kindSkip:
			run.skip = l
		case l.Kind == kindProduce:
			run.produce = l
		case l.Kind == kindGrpcIdle:
			run.idle = l
		case l.Kind == kindProc && l.At == "before":
			run.before = l
		case l.Kind == kindProc && l.At == "after":
			run.after = l
		}
	}
	for i := 1; i < len(order); i++ { // few brokers: insertion sort by rank
		for j := i; j > 0 && brokerRank(order[j]) < brokerRank(order[j-1]); j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	return runs, order
}

// figures are the run's numbers in grpcColumns order; NaN is "not measured".
func (run *grpcRun) figures() []float64 {
	v := make([]float64, len(grpcColumns))
	for i := range v {
		v[i] = math.NaN()
	}
	if p := run.produce; p != nil {
		v[0], v[1], v[2], v[3] = p.TPS, p.P50Ms, p.P99Ms, float64(p.Failed)
		if run.before != nil && run.after != nil && p.Messages > 0 {
			v[4] = (run.after.CPUSec - run.before.CPUSec) * 1e6 / float64(p.Messages)
		}
	}
	if a := run.after; a != nil {
		v[5], v[6] = a.RssMB, a.HwmMB
	}
	if d := run.idle; d != nil {
		v[7] = float64(d.Opened)
		if d.RssBeforeMB > 0 {
			v[8], v[9], v[10] = d.RssEndMB-d.RssBeforeMB, d.RssKBPerClient, d.AnonKBPerClient
			v[11], v[12] = d.HoldCPUSec, d.RssClosedMB-d.RssBeforeMB
		}
	}
	return v
}

func writeGrpcTable(w io.Writer, lines []grpcLine) {
	runs, brokers := groupGrpcRuns(lines)
	heads := []string{"broker"}
	for _, c := range grpcColumns {
		heads = append(heads, c.head)
	}
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(heads, " | "), strings.Repeat("---|", len(heads)))
	for _, b := range brokers {
		run := runs[b]
		if run.skip != nil {
			fmt.Fprintf(w, "| %s | skipped: %s |%s\n", b, run.skip.Reason, strings.Repeat(" |", len(grpcColumns)-1))
			continue
		}
		writeFigures(w, []string{b}, grpcColumns, run.figures(), "")
	}
	java, goRun := runs["java"], runs["go"]
	if java != nil && goRun != nil && java.skip == nil && goRun.skip == nil {
		j, g := java.figures(), goRun.figures()
		ratio := make([]float64, len(j))
		for i := range j {
			ratio[i] = g[i] / j[i]
		}
		writeFigures(w, []string{"go ÷ java"}, grpcColumns, ratio, "×")
	}
	fmt.Fprintln(w)
	for _, b := range brokers {
		if d := runs[b].idle; d != nil && runs[b].skip == nil {
			fmt.Fprintf(w, "%s: %s\n", b, idleNote(&d.idleFigures))
		}
	}
}

// idleNote is a broker's idle phase in a sentence.
func idleNote(d *idleFigures) string {
	s := fmt.Sprintf("%d of %d idle clients opened in %.1f s (%d connections), %d streams dropped by the server; %d long polls answered empty %d times, %d errors",
		d.Opened, d.Clients, d.OpenSec, d.Conns, d.Dropped, d.Polls, d.PollAnswers, d.PollErrors)
	if d.RssBeforeMB > 0 {
		s += fmt.Sprintf("; RSS MB %.0f before, %.0f opened, %.0f after %.0f s idle, %.0f closed (RssAnon %.0f, %.0f, %.0f, %.0f)",
			d.RssBeforeMB, d.RssOpenMB, d.RssEndMB, d.HoldSec, d.RssClosedMB, d.AnonBeforeMB, d.AnonOpenMB, d.AnonEndMB, d.AnonClosedMB)
	}
	if d.CheckOK {
		return s + fmt.Sprintf("; check with the clients open: route, send, receive, ack ok (sent to received %.1f ms)", d.CheckMs)
	}
	return s + "; check with the clients open FAILED: " + d.CheckError
}
