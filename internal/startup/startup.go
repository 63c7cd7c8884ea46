package startup

import (
	"errors"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/logging"
)

// DefaultRocketmqHome sets ROCKETMQ_HOME to the binary's distribution
// directory (the parent of bin/) when neither the variable nor
// -Drocketmq.home.dir is set, where Java would refuse to start: the bin
// scripts always set it, and running the binary alone should still work.
func DefaultRocketmqHome(env *conf.Env) {
	if _, ok := env.Var("ROCKETMQ_HOME"); ok {
		return
	}
	if _, ok := env.SysProp("rocketmq.home.dir"); ok {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		return
	}
	if env.Vars == nil {
		env.Vars = map[string]string{}
	}
	env.Vars["ROCKETMQ_HOME"] = filepath.Dir(filepath.Dir(exe))
}

// NotifySignals starts catching SIGTERM and SIGINT, as Java installs its
// shutdown hook before it starts: a signal that comes while the server
// starts is kept for WaitForSignal instead of killing the process.
func NotifySignals() <-chan os.Signal {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	return sig
}

// WaitForSignal blocks until a signal NotifySignals caught and logs
// Java's shutdown hook line.
func WaitForSignal(log *zap.Logger, sig <-chan os.Signal) {
	s := <-sig
	log.Info("Shutdown hook was invoked, signal " + s.String())
}

// ExitStatus is Java's exit status for err, as a process exit code.
func ExitStatus(err error) int {
	if err == nil {
		return 0
	}
	if errors.Is(err, conf.ErrUsage) {
		return 1
	}
	return conf.ExitCode(err) & 0xff
}

// OpenLog opens ${user.home}/logs/rocketmqlogs/<name>.log and writes what
// the Java startups log first: the config warnings, then every setting.
func OpenLog(env conf.Env, name string, warnings []conf.Warning, objs ...conf.Object) (*zap.Logger, func() error, error) {
	log, closeLog, err := logging.New(logging.Options{Dir: logging.DefaultDir(env.UserHome()), Name: name})
	if err != nil {
		return nil, nil, err
	}
	for _, w := range warnings {
		log.Warn("config", zap.String("warning", w.String()))
	}
	for _, line := range conf.ConfigLines(false, objs...) {
		log.Info(line)
	}
	return log, closeLog, nil
}
