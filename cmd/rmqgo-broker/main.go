package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/broker"
	"github.com/rmqgo/rmqgo/cmd/internal/proxycmd"
	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/logging"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/internal/startup"
	"github.com/rmqgo/rmqgo/proxy"
)

func main() {
	if filepath.Base(os.Args[0]) == proxycmd.Name {
		proxycmd.Main() // a link named rmqgo-proxy: the stand-alone proxy
	}
	os.Exit(run(os.Args[1:], conf.EnvFromOS(), os.Stdout, os.Stderr))
}

// run starts the broker and blocks until SIGTERM or SIGINT; it returns
// the process's exit status, Java's for the same failures.
func run(args []string, env conf.Env, stdout, stderr io.Writer) int {
	pa, args := splitProxyArgs(args)
	cl, err := conf.ParseBrokerArgs(args)
	if err != nil || cl.Help() {
		if cl == nil {
			cl, _ = conf.ParseBrokerArgs(nil)
		}
		fmt.Fprint(stdout, cl.Usage())
		return startup.ExitStatus(err)
	}
	startup.DefaultRocketmqHome(&env)
	cfg, warnings, err := conf.LoadBroker(cl, env)
	for _, w := range warnings {
		fmt.Fprintln(stderr, "WARN", w.String())
	}
	if cfg != nil && (cl.PrintConfigItem() || cl.PrintImportantConfig()) {
		_ = conf.PrintConfig(stdout, cl.PrintImportantConfig(), cfg.Objects()...)
		return 0
	}
	if err == nil {
		err = cfg.Validate()
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return startup.ExitStatus(err)
	}
	return serve(cfg, warnings, pa, env, stdout, stderr)
}

// serve runs the broker until a signal asks it to stop.
func serve(cfg *conf.BrokerConfigs, warnings []conf.Warning, pa proxyArgs, env conf.Env, stdout, stderr io.Writer) int {
	sig := startup.NotifySignals()
	log, closeLog, err := startup.OpenLog(env, "broker", warnings, cfg.Objects()...)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return -1
	}
	defer closeLog()
	startup.ServeProfiles(env, log)
	startup.TuneGC(env)
	statsLog, closeStats := openStatsLog(env, log)
	defer closeStats()
	var proxyToken string
	if pa.enabled {
		proxyToken = newProxyToken()
	}
	b, err := broker.New(broker.Options{Configs: cfg, Line: line(env), Logger: log, StatsLogger: statsLog, LocalProxyToken: proxyToken})
	if err == nil {
		err = b.Start()
	}
	if err != nil {
		log.Error("broker failed to start", zap.Error(err))
		fmt.Fprintln(stderr, err)
		if b != nil {
			_ = b.Close()
		}
		return -1
	}
	fmt.Fprintln(stdout, b.BootMessage())
	log.Info(b.BootMessage())
	var p *proxy.Server
	if pa.enabled {
		if p, err = startLocalProxy(pa, cfg, b, proxyToken, log); err != nil {
			log.Error("proxy failed to start", zap.Error(err))
			fmt.Fprintln(stderr, err)
			_ = b.Close()
			return 1
		}
		fmt.Fprintln(stdout, proxyBootMessage(time.Now()))
		log.Info(proxyBootMessage(time.Now()))
	}
	startup.WaitForSignal(log, sig)
	start := time.Now()
	if p != nil {
		p.Close()
	}
	if err := b.Close(); err != nil {
		log.Warn("shutdown", zap.Error(err))
	}
	log.Info("Shutdown hook over, consuming total time(ms): " + strconv.FormatInt(time.Since(start).Milliseconds(), 10))
	return 0
}

// openStatsLog opens ${user.home}/logs/rocketmqlogs/stats.log, where Java
// brokers write their statistics; a broker that cannot open it runs
// without it.
func openStatsLog(env conf.Env, log *zap.Logger) (*zap.Logger, func()) {
	statsLog, closeFn, err := logging.New(logging.Options{Dir: logging.DefaultDir(env.UserHome()), Name: "stats", Plain: true})
	if err != nil {
		log.Warn("stats.log not written", zap.Error(err))
		return nil, func() {}
	}
	return statsLog, func() { _ = closeFn() }
}

// line reads RMQGO_LINE (4 or 5).
func line(env conf.Env) protocol.Line {
	if env.Line5() {
		return protocol.Line5
	}
	return protocol.Line4
}
