package main

import (
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/controller"
	"github.com/rmqgo/rmqgo/internal/startup"
	"github.com/rmqgo/rmqgo/internal/tlsconf"
	"github.com/rmqgo/rmqgo/namesrv"
)

func main() {
	os.Exit(run(os.Args[1:], conf.EnvFromOS(), os.Stdout, os.Stderr))
}

// run starts the name server and blocks until SIGTERM or SIGINT; it returns
// the process's exit status, Java's for the same failures.
func run(args []string, env conf.Env, stdout, stderr io.Writer) int {
	cl, err := conf.ParseNamesrvArgs(args)
	if err != nil || cl.Help() {
		fmt.Fprint(stdout, usageText(cl))
		return startup.ExitStatus(err)
	}
	startup.DefaultRocketmqHome(&env)
	cfg, warnings, err := conf.LoadNamesrv(cl, env)
	for _, w := range warnings {
		fmt.Fprintln(stderr, "WARN", w.String())
	}
	if cl.PrintConfigItem() && cfg != nil {
		_ = conf.PrintConfig(stdout, false, cfg.Objects()...)
		return 0
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

// serve runs the server until a signal asks it to stop.
func serve(cfg *conf.NamesrvConfigs, warnings []conf.Warning, env conf.Env, stdout, stderr io.Writer) int {
	sig := startup.NotifySignals()
	log, closeLog, err := startup.OpenLog(env, "namesrv", warnings, cfg.Objects()...)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return -1
	}
	defer closeLog()
	startup.ServeProfiles(env, log)
	startup.TuneGC(env)
	o, err := options(cfg, log)
	var ns *namesrv.NameServer
	if err == nil {
		ns, err = namesrv.New(o)
	}
	if err == nil {
		err = ns.Start()
	}
	if err != nil {
		log.Error("name server failed to start", zap.Error(err))
		fmt.Fprintln(stderr, err)
		return -1
	}
	fmt.Fprintln(stdout, ns.BootMessage())
	log.Info(ns.BootMessage())
	var ctl *controller.Controller
	if cfg.Namesrv.EnableControllerInNamesrv {
		if ctl, err = startController(cfg, env, log); err != nil {
			log.Error("controller failed to start", zap.Error(err))
			fmt.Fprintln(stderr, err)
			_ = ns.Close()
			return -1
		}
		fmt.Fprintln(stdout, ctl.EmbeddedBootMessage())
		log.Info(ctl.EmbeddedBootMessage())
	}
	startup.WaitForSignal(log, sig)
	start := time.Now()
	if ctl != nil {
		if err := ctl.Close(); err != nil {
			log.Warn("controller shutdown", zap.Error(err))
		}
	}
	if err := ns.Close(); err != nil {
		log.Warn("shutdown", zap.Error(err))
	}
	log.Info("Shutdown hook over, consuming total time(ms): " + strconv.FormatInt(time.Since(start).Milliseconds(), 10))
	return 0
}

// options maps the Java configs onto the name server's options; it fails
// on TLS settings Java's server does not start with.
func options(cfg *conf.NamesrvConfigs, log *zap.Logger) (namesrv.Options, error) {
	n, s := cfg.Namesrv, cfg.NettyServer
	o := namesrv.DefaultOptions()
	host := s.BindAddress
	if host == "" {
		host = "0.0.0.0"
	}
	o.ListenAddr = net.JoinHostPort(host, strconv.Itoa(int(s.ListenPort)))
	o.KVConfigPath = n.KvConfigPath
	o.OrderMessageEnable = n.OrderMessageEnable
	o.ReturnOrderTopicConfigToBroker = n.ReturnOrderTopicConfigToBroker
	o.EnableAllTopicList = n.EnableAllTopicList
	o.EnableTopicList = n.EnableTopicList
	o.NeedWaitForService = n.NeedWaitForService
	o.WaitSecondsForService = int(n.WaitSecondsForService)
	o.DeleteTopicWithBrokerRegistration = n.DeleteTopicWithBrokerRegistration
	o.SupportActingMaster = n.SupportActingMaster
	o.ConfigBlackList = n.ConfigBlackList
	o.ClusterTest = n.ClusterTest
	o.ProductEnvName = n.ProductEnvName
	o.ClientRequestThreadPoolNums = int(n.ClientRequestThreadPoolNums)
	o.ClientRequestThreadPoolQueueCapacity = int(n.ClientRequestThreadPoolQueueCapacity)
	o.DefaultThreadPoolNums = int(n.DefaultThreadPoolNums)
	o.DefaultThreadPoolQueueCapacity = int(n.DefaultThreadPoolQueueCapacity)
	o.ServerChannelMaxIdleTime = time.Duration(max(s.ServerChannelMaxIdleTimeSeconds, 0)) * time.Second
	if n.ScanNotActiveBrokerInterval > 0 {
		o.ScanNotActiveBrokerInterval = time.Duration(n.ScanNotActiveBrokerInterval) * time.Millisecond
	}
	o.Config = configSource{cfg.NewConfiguration()}
	o.Logger = log
	var err error
	o.TLSMode, o.TLSConfig, err = tlsconf.ForServer(cfg.TLS, log)
	return o, err
}

// startController starts the controller NamesrvStartup runs beside the
// name server with enableControllerInNamesrv=true: configured from the
// same file, on its own port (controllerDLegerPeers' entry for it), with
// a copy of the name server's server settings.
func startController(cfg *conf.NamesrvConfigs, env conf.Env, log *zap.Logger) (*controller.Controller, error) {
	netty := *cfg.NettyServer
	return controller.Launch(cfg.Controller, cfg.Jraft, &netty, cfg.File, cfg.TLS, env, log.Named("controller"))
}

// configSource serves GET/UPDATE_NAMESRV_CONFIG from the Java configs.
type configSource struct{ c *conf.Configuration }

func (s configSource) PropertiesText() string { return s.c.PropertiesString() }

func (s configSource) Update(props map[string]string) error {
	_, err := s.c.Update(props)
	return err
}

func usageText(cl *conf.CommandLine) string {
	if cl == nil {
		cl, _ = conf.ParseNamesrvArgs(nil)
	}
	return cl.Usage()
}
