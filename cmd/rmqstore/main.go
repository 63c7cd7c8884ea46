package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/storeconf"
	"github.com/rmqgo/rmqgo/store"
)

func main() {
	os.Exit(run(os.Args[1:], conf.EnvFromOS(), os.Stdout, os.Stderr))
}

const usage = `usage: rmqstore <command> [flags]

commands:
  ls       list the commitlog, consume-queue and index files
  verify   check every record's CRC, every queue unit and (-index) every key
  print    print messages by commitlog offset or by topic and queue
  dump     write dump.jsonl, keys.jsonl and queues.jsonl (-o dir) or the messages to stdout
  gen      write a sample store (for the compatibility checks with the Java store)

common flags:
  -c file    broker.conf whose store keys (sizes, paths) apply
  -dir dir   the store root (storePathRootDir); overrides the file's
  -recover   open read-write: take the lock and recover as a broker start would
`

// command is one subcommand.
type command struct {
	run   func(s *store.Store, f *flags, stdout io.Writer) error
	write bool // opens the store read-write
}

var commands = map[string]command{
	"ls":     {run: runLs},
	"verify": {run: runVerify},
	"print":  {run: runPrint},
	"dump":   {run: runDump},
	"gen":    {run: runGen, write: true},
}

// flags are every subcommand's flags; each uses some.
type flags struct {
	config, dir, out string
	recover, index   bool
	offset, from     int64
	topic            string
	queue            int
	n                int
	line5            bool
	// hasProblem makes the exit status 1 (verify found problems).
	hasProblem bool
}

func parseFlags(name string, args []string, stderr io.Writer) (*flags, error) {
	f := &flags{}
	fs := flag.NewFlagSet("rmqstore "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&f.config, "c", "", "broker.conf whose store keys apply")
	fs.StringVar(&f.dir, "dir", "", "store root directory (storePathRootDir)")
	fs.StringVar(&f.out, "o", "", "dump: output directory")
	fs.BoolVar(&f.recover, "recover", false, "open read-write and recover as a broker start would")
	fs.BoolVar(&f.index, "index", false, "verify: also check every key against the index")
	fs.Int64Var(&f.offset, "offset", -1, "print: the commitlog offset of a message")
	fs.StringVar(&f.topic, "topic", "", "print: topic")
	fs.IntVar(&f.queue, "queue", 0, "print: queue id")
	fs.Int64Var(&f.from, "from", -1, "print: first queue offset (default: the queue's minimum)")
	fs.IntVar(&f.n, "n", 20, "print: messages to print; gen: messages to write")
	fs.BoolVar(&f.line5, "5", false, "use the 5.x record rules (v2 records for long topics)")
	return f, fs.Parse(args)
}

func run(args []string, env conf.Env, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "rmqstore: unknown command %q\n%s", args[0], usage)
		return 2
	}
	f, err := parseFlags(args[0], args[1:], stderr)
	if err != nil {
		return 2
	}
	s, err := openStore(f, env, cmd.write || f.recover, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "rmqstore:", err)
		return 1
	}
	defer s.Close()
	if err := cmd.run(s, f, stdout); err != nil {
		fmt.Fprintln(stderr, "rmqstore:", err)
		return 1
	}
	if f.hasProblem {
		return 1
	}
	return 0
}

// openStore reads the store keys of -c, applies -dir and opens the store.
func openStore(f *flags, env conf.Env, write bool, stderr io.Writer) (*store.Store, error) {
	b := conf.DefaultBrokerConfigs(env)
	if f.config != "" {
		props, err := conf.LoadPropertiesFile(f.config)
		if err != nil {
			return nil, err
		}
		for _, w := range conf.Bind(props, b.Objects()...) {
			fmt.Fprintln(stderr, "WARN", w.String())
		}
	}
	if f.dir != "" {
		b.Store.StorePathRootDir = f.dir
	}
	opts, err := storeconf.Options(b.Store, f.line5)
	if err != nil {
		return nil, err
	}
	opts.ReadOnly = !write
	// Recovery of a large store logs its progress, file by file.
	enc := zapcore.NewConsoleEncoder(zap.NewDevelopmentEncoderConfig())
	log := zap.New(zapcore.NewCore(enc, zapcore.AddSync(stderr), zap.InfoLevel))
	s, err := store.Open(opts, log)
	if err != nil {
		return nil, err
	}
	if write {
		if err := s.Start(); err != nil {
			s.Close()
			return nil, err
		}
	}
	return s, nil
}
