package main

// --enable-proxy: the 5.x proxy in the broker's process, as bin/mqbroker
// runs ProxyStartup -pm local. The proxy's own options are taken out of
// the command line before the broker's are parsed: --enable-proxy,
// -pc/--proxyConfigPath <rmq-proxy.json>, -pm/--proxyMode (always local
// here), -bc/--brokerConfigPath <broker.conf> (the broker's -c).

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/broker"
	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/tlsconf"
	"github.com/rmqgo/rmqgo/proxy"
)

// proxyArgs are the proxy's options of a broker command line.
type proxyArgs struct {
	enabled    bool
	configPath string
}

// splitProxyArgs takes the proxy's options out of args.
func splitProxyArgs(args []string) (proxyArgs, []string) {
	var pa proxyArgs
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, inline := strings.Cut(a, "=")
		takeValue := func() string {
			if inline {
				return value
			}
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch name {
		case "--enable-proxy":
			pa.enabled = true
		case "-pc", "--proxyConfigPath":
			pa.configPath = takeValue()
		case "-pm", "--proxyMode":
			takeValue()
		case "-bc", "--brokerConfigPath":
			rest = append(rest, "-c", takeValue())
		default:
			rest = append(rest, a)
		}
	}
	return pa, rest
}

// proxyConfig reads rmq-proxy.json: -pc's, else $ROCKETMQ_HOME/conf's
// when there is one, else the defaults; the name servers default to the
// broker's.
func proxyConfig(pa proxyArgs, cfg *conf.BrokerConfigs) (proxy.Config, error) {
	path := pa.configPath
	if path == "" {
		path = filepath.Join(cfg.Broker.RocketmqHome, "conf", "rmq-proxy.json")
		if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
			path = ""
		}
	}
	pc := proxy.DefaultConfig()
	if path != "" {
		var err error
		if pc, err = proxy.LoadConfig(path); err != nil {
			return pc, err
		}
	}
	if pc.NamesrvAddr == "" {
		pc.NamesrvAddr = cfg.Broker.NamesrvAddr
	}
	return pc, nil
}

// startLocalProxy starts the proxy in front of b.
func startLocalProxy(pa proxyArgs, cfg *conf.BrokerConfigs, b *broker.Broker, token string, log *zap.Logger) (*proxy.Server, error) {
	pc, err := proxyConfig(pa, cfg)
	if err != nil {
		return nil, err
	}
	local := proxy.LocalBroker{Addr: b.Addr(), Name: cfg.Broker.BrokerName, Cluster: cfg.Broker.BrokerClusterName,
		IP: cfg.Broker.BrokerIP1, Token: token, Server: b.Server()}
	mode, tlsCfg, err := tlsconf.ForServer(cfg.TLS, log)
	if err != nil {
		return nil, err
	}
	p, err := proxy.New(proxy.Options{Config: pc, Local: local, Logger: log.Named("proxy"), TLSMode: mode, TLSConfig: tlsCfg})
	if err != nil {
		return nil, err
	}
	p.Serve()
	return p, nil
}

// newProxyToken is the secret with which the proxy's requests pass the
// broker's ACL 2.0 (protocol.LocalProxyField): 128 random bits, in memory
// only.
func newProxyToken() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on the systems Go supports
	}
	return hex.EncodeToString(b[:])
}

// proxyBootMessage is the line ProxyStartup prints once serving.
func proxyBootMessage(now time.Time) string {
	return now.Format("Mon Jan 02 15:04:05 MST 2006") + " rocketmq-proxy startup successfully"
}
