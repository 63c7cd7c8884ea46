// Command rmqbench generates load against a RocketMQ name server or
// broker, the Java ones or this project's, over the remoting protocol
// (JSON headers, version 409, as a 4.9.8 Java client sends them).
//
//	rmqbench route -n 127.0.0.1:9876 -t TopicTest -c 16 -d 20s
//	rmqbench store -dir /tmp/bench -flush SYNC_FLUSH -threads 4 -messages 20000
//
// Each subcommand lives in its own file and drives the shared load runner
// (load.go), which prints progress every 5 s and a summary at the end.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"
)

// subcommand is one kind of load.
type subcommand struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

var subcommands = map[string]subcommand{
	"route":       {summary: "GET_ROUTEINFO_BY_TOPIC against a name server", run: runRoute},
	"store":       {summary: "append and read this project's store in-process (as compat/storetool StoreBench does the Java one)", run: runStore},
	"store-table": {summary: "StoreBench JSON lines on stdin to a markdown table with ratios", run: runStoreTable},
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
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
		fmt.Fprintf(w, "  %-8s %s\n", name, subcommands[name].summary)
	}
}
