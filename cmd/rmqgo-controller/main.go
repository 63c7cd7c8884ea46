package main

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/controller"
	"github.com/rmqgo/rmqgo/internal/startup"
)

func main() {
	os.Exit(run(os.Args[1:], conf.EnvFromOS(), os.Stdout, os.Stderr))
}

// run starts the controller and blocks until SIGTERM or SIGINT; it returns
// the process's exit status, Java's for the same failures.
func run(args []string, env conf.Env, stdout, stderr io.Writer) int {
	cl, err := conf.ParseControllerArgs(args)
	if err != nil || cl.Help() {
		fmt.Fprint(stdout, usageText(cl))
		return startup.ExitStatus(err)
	}
	startup.DefaultRocketmqHome(&env)
	cfg, warnings, err := conf.LoadController(cl, env)
	for _, w := range warnings {
		fmt.Fprintln(stderr, "WARN", w.String())
	}
	if cl.PrintConfigItem() && cfg != nil {
		_ = conf.PrintConfig(stdout, false, cfg.Objects()...)
		return 0
	}
	if cl.ConfigFile() != "" && err == nil {
		fmt.Fprintln(stdout, "load config properties file OK, "+cl.ConfigFile())
	}
	if err == nil {
		err = cfg.Validate()
	}
	if err != nil {
		fmt.Fprintln(stderr, err)
		return startup.ExitStatus(err)
	}
	return serve(cfg, warnings, env, stdout, stderr)
}

// serve runs the controller until a signal asks it to stop.
func serve(cfg *conf.ControllerConfigs, warnings []conf.Warning, env conf.Env, stdout, stderr io.Writer) int {
	sig := startup.NotifySignals()
	log, closeLog, err := startup.OpenLog(env, "controller", warnings, cfg.Objects()...)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return -1
	}
	defer closeLog()
	startup.TuneGC(env)
	c, err := start(cfg, env, log)
	if err != nil {
		log.Error("controller failed to start", zap.Error(err))
		fmt.Fprintln(stderr, err)
		return -1
	}
	fmt.Fprintln(stdout, c.BootMessage())
	log.Info(c.BootMessage())
	startup.WaitForSignal(log, sig)
	begin := time.Now()
	if err := c.Close(); err != nil {
		log.Warn("shutdown", zap.Error(err))
	}
	log.Info("Shutdown hook over, consuming total time(ms): " + strconv.FormatInt(time.Since(begin).Milliseconds(), 10))
	return 0
}

func start(cfg *conf.ControllerConfigs, env conf.Env, log *zap.Logger) (*controller.Controller, error) {
	return controller.Launch(cfg.Controller, cfg.Jraft, cfg.NettyServer, cfg.File, cfg.TLS, env, log)
}

func usageText(cl *conf.CommandLine) string {
	if cl == nil {
		cl, _ = conf.ParseControllerArgs(nil)
	}
	return cl.Usage()
}
