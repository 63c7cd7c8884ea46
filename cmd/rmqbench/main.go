package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/startup"
)

// subcommand is one kind of load.
type subcommand struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

var subcommands = map[string]subcommand{
	"route":         {summary: "GET_ROUTEINFO_BY_TOPIC against a name server", run: runRoute},
	"produce":       {summary: "SEND_MESSAGE_V2 from concurrent senders, as Java's benchmark Producer", run: runProduce},
	"consume":       {summary: "long-polling PULL_MESSAGE on every queue of a topic, as Java's benchmark Consumer", run: runConsume},
	"java-result":   {summary: "Java benchmark Producer/Consumer output on stdin to a JSON result line", run: runJavaResult},
	"proc":          {summary: "a process's RSS, peak RSS, CPU seconds and age from /proc as a JSON line", run: runProc},
	"broker-table":  {summary: "produce/consume/proc JSON lines on stdin to a markdown table with Go/Java ratios", run: runBrokerTable},
	"store":         {summary: "append and read this project's store in-process (as compat/storetool StoreBench does the Java one)", run: runStore},
	"store-table":   {summary: "StoreBench JSON lines on stdin to a markdown table with ratios", run: runStoreTable},
	"catchup":       {summary: "how fast a slave catches up with its master (commitLogMaxOffset of both, polled)", run: runCatchup},
	"ha-table":      {summary: "bench/ha-bench.sh's JSON lines on stdin to markdown tables with Go/Java ratios", run: runHATable},
	"pullhold":      {summary: "many connections holding long-polling pulls, parked or never read; broker RSS", run: runPullhold},
	"slowloris":     {summary: "thousands of connections trickling a frame while a normal client calls; server RSS", run: runSlowloris},
	"clients":       {summary: "thousands of client connections sending HEART_BEAT on a schedule; broker CPU and RssAnon", run: runClients},
	"register":      {summary: "REGISTER_BROKER with a topics.json's table replayed to a name server, timed", run: runRegister},
	"backlog-table": {summary: "bench/backlog-bench.sh's JSON lines on stdin to a markdown table with Go/Java ratios", run: runBacklogTable},
	"dropcache":     {summary: "drop a store's files from the OS page cache (fadvise DONTNEED), cached MB before and after", run: runDropCache},
	"touchmem":      {summary: "write once to most free memory and give it back, so no broker pays for memory never used (VMs)", run: runTouchMem},
	"null-broker":   {summary: "answer routes and sends without storing them: the remoting path's own CPU floor", run: runNullBroker},
	"curve-table":   {summary: "bench/curves-bench.sh's tagged JSON lines on stdin to a markdown table per curve", run: runCurveTable},
	"grpc-produce":  {summary: "unary SendMessage RPCs to a 5.x proxy's gRPC port from concurrent senders, as 5.x Producers", run: runGrpcProduce},
	"grpc-idle":     {summary: "thousands of 5.x clients holding Telemetry streams (and long polls) open, idle; proxy RSS", run: runGrpcIdle},
	"grpc-table":    {summary: "bench/grpc-bench.sh's JSON lines on stdin to a markdown table with Go/Java ratios", run: runGrpcTable},
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// RMQGO_PPROF profiles the load generator itself, whose CPU shares the
	// machine with the servers it measures.
	startup.ServeProfiles(conf.EnvFromOS(), zap.NewNop())
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "help" {
		usage(stderr)
		return 2
	}
	sub, ok := subcommands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "rmqbench: unknown subcommand %q\n", args[0])
		usage(stderr)
		return 2
	}
	return sub.run(ctx, args[1:], stdout, stderr)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: rmqbench <subcommand> [flags]   (rmqbench <subcommand> -h for its flags)")
	names := make([]string, 0, len(subcommands))
	for name := range subcommands {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		fmt.Fprintf(w, "  %-12s %s\n", name, subcommands[name].summary)
	}
}
