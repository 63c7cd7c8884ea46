package proxycmd

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/startup"
	"github.com/rmqgo/rmqgo/internal/tlsconf"
	"github.com/rmqgo/rmqgo/proxy"
)

// Name is the command's binary name, by which rmqgo-broker knows it is
// to run the proxy.
const Name = "rmqgo-proxy"

// Main runs the proxy with the process's arguments and exits.
func Main() {
	os.Exit(Run(os.Args[1:], conf.EnvFromOS(), os.Stdout, os.Stderr))
}

// options are ProxyStartup's.
type options struct {
	configPath, namesrv, mode string
}

func parse(args []string, stderr io.Writer) (options, error) {
	var o options
	fs := flag.NewFlagSet("mqproxy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	for _, n := range []string{"pc", "proxyConfigPath"} {
		fs.StringVar(&o.configPath, n, "", "Proxy config file path")
	}
	for _, n := range []string{"n", "namesrvAddr"} {
		fs.StringVar(&o.namesrv, n, "", "Name server address list, eg: '192.168.0.1:9876;192.168.0.2:9876'")
	}
	for _, n := range []string{"pm", "proxyMode"} {
		fs.StringVar(&o.mode, n, "", "Proxy run in local or cluster mode")
	}
	var bc string
	for _, n := range []string{"bc", "brokerConfigPath"} {
		fs.StringVar(&bc, n, "", "Broker config file path for local mode")
	}
	return o, fs.Parse(args)
}

// Run starts the proxy and blocks until SIGTERM or SIGINT; it returns the
// process's exit status.
func Run(args []string, env conf.Env, stdout, stderr io.Writer) int {
	o, err := parse(args, stderr)
	if err != nil {
		return 1
	}
	if strings.EqualFold(o.mode, proxy.ModeLocal) {
		fmt.Fprintln(stderr, "mqproxy runs in cluster mode; local mode is mqbroker --enable-proxy")
		return 1
	}
	startup.DefaultRocketmqHome(&env)
	cfg := proxy.DefaultConfig()
	path := o.configPath
	if path == "" {
		if home := env.Vars["ROCKETMQ_HOME"]; home != "" {
			if _, err := os.Stat(home + "/conf/rmq-proxy.json"); err == nil {
				path = home + "/conf/rmq-proxy.json"
			}
		}
	}
	if path != "" {
		if cfg, err = proxy.LoadConfig(path); err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
	}
	if o.namesrv != "" {
		cfg.NamesrvAddr = o.namesrv
	}
	cfg.ProxyMode = proxy.ModeCluster
	return serve(cfg, env, stdout, stderr)
}

// serve runs the proxy until a signal asks it to stop.
func serve(cfg proxy.Config, env conf.Env, stdout, stderr io.Writer) int {
	sig := startup.NotifySignals()
	log, closeLog, err := startup.OpenLog(env, "proxy", nil)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	defer closeLog()
	tlsCfg, err := conf.LoadTLS(env, false)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	mode, tc, err := tlsconf.ForServer(tlsCfg, log)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	p, err := proxy.New(proxy.Options{Config: cfg, Logger: log, TLSMode: mode, TLSConfig: tc, Home: env.Vars["ROCKETMQ_HOME"]})
	if err != nil {
		log.Error("proxy failed to start", zap.Error(err))
		fmt.Fprintln(stderr, err)
		return 1
	}
	p.Serve()
	msg := time.Now().Format("Mon Jan 02 15:04:05 MST 2006") + " rocketmq-proxy startup successfully"
	fmt.Fprintln(stdout, msg)
	log.Info(msg)
	startup.WaitForSignal(log, sig)
	p.Close()
	return 0
}
