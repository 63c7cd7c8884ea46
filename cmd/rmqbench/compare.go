package main

// rmqbench store-table: reads StoreBench JSON lines (from rmqbench store
// and compat/storetool StoreBench) on stdin and prints them as one
// markdown table, with rmqgo's append and read throughput as a ratio of
// each Java line's on the same load.

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
)

type storeLoad struct {
	flush                       string
	threads, messages, bodySize int
}

func runStoreTable(_ context.Context, _ []string, stdout, stderr io.Writer) int {
	rows, err := readBenchLines(os.Stdin)
	if err != nil {
		fmt.Fprintln(stderr, "rmqbench store-table:", err)
		return 1
	}
	writeStoreTable(stdout, rows)
	return 0
}

func readBenchLines(r io.Reader) ([]storeBenchResult, error) {
	var rows []storeBenchResult
	err := decodeJSONLines(r, func(res storeBenchResult) { rows = append(rows, res) })
	return rows, err
}

func writeStoreTable(w io.Writer, rows []storeBenchResult) {
	byLoad := map[storeLoad][]storeBenchResult{}
	var loads []storeLoad
	for _, r := range rows {
		l := storeLoad{r.Flush, r.Threads, r.Messages, r.BodyBytes}
		if byLoad[l] == nil {
			loads = append(loads, l)
		}
		byLoad[l] = append(byLoad[l], r)
	}
	sort.SliceStable(loads, func(i, j int) bool {
		if loads[i].flush != loads[j].flush {
			return loads[i].flush < loads[j].flush
		}
		return loads[i].threads < loads[j].threads
	})
	fmt.Fprintln(w, "| flush | writers | messages | store | append msg/s | MB/s | p50 µs | p99 µs | read msg/s | RSS MB | append × | read × |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|")
	for _, l := range loads {
		group := byLoad[l]
		var ours *storeBenchResult
		for i := range group {
			if group[i].Impl == "rmqgo" {
				ours = &group[i]
			}
		}
		for _, r := range group {
			ratioA, ratioR := "", ""
			if ours != nil && r.Impl != "rmqgo" {
				ratioA = fmt.Sprintf("%.1f", ours.AppendMsgsPerSec/r.AppendMsgsPerSec)
				ratioR = fmt.Sprintf("%.1f", ours.ReadMsgsPerSec/r.ReadMsgsPerSec)
			}
			fmt.Fprintf(w, "| %s | %d | %d | %s | %.0f | %.1f | %.0f | %.0f | %.0f | %.0f | %s | %s |\n",
				l.flush, l.threads, l.messages, r.Impl, r.AppendMsgsPerSec, r.AppendMBPerSec,
				r.AppendP50Us, r.AppendP99Us, r.ReadMsgsPerSec, r.RssMB, ratioA, ratioR)
		}
	}
	fmt.Fprintln(w, "\n(× = rmqgo ÷ that Java store on the same load; RSS includes the mapped commitlog pages touched.)")
}
