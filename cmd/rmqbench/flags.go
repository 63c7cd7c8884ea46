package main

import (
	"flag"
	"fmt"
	"io"
)

// flagsOf is a subcommand's flag set: its parse errors and -h's usage go
// to stderr.
func flagsOf(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

// parseChecked parses args into fs, then runs check (nil: none). It
// reports false when the subcommand is to exit with status 2, having told
// stderr why (a check's reason as "rmqbench <name>: reason").
func parseChecked(fs *flag.FlagSet, args []string, stderr io.Writer, check func() error) bool {
	if err := fs.Parse(args); err != nil {
		return false
	}
	if check == nil {
		return true
	}
	if err := check(); err != nil {
		fmt.Fprintln(stderr, "rmqbench "+fs.Name()+":", err)
		return false
	}
	return true
}
