package broker

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/protocol"
)

// ErrInvalidOptions is returned by New for unusable options.
var ErrInvalidOptions = errors.New("broker: invalid options")

// Options configures a broker: the four Java configs a broker.conf binds
// (conf.BrokerConfigs) and what Java takes from its process instead.
type Options struct {
	// Configs are the broker's settings, as conf.LoadBroker returns them
	// (with RMQGO_LINE=5 in its Env for line 5's defaults).
	Configs *conf.BrokerConfigs
	// Line is the release line the broker speaks as: the version it
	// reports and the shapes of its config files.
	Line protocol.Line
	// Logger receives the broker's log; nil discards it.
	Logger *zap.Logger
	// StatsLogger receives the statistics Java writes to stats.log every
	// minute, hour and day; nil writes none.
	StatsLogger *zap.Logger
	// ListenHost is the address the servers bind (Java binds every
	// interface); "" means 0.0.0.0.
	ListenHost string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// line5 reports a broker that speaks as 5.3.3.
func (o *Options) line5() bool { return o.Line >= protocol.Line5 }

// version is the MQVersion ordinal the broker reports for its line.
func (o *Options) version() int32 {
	if o.line5() {
		return protocol.VersionV5_3_3
	}
	return protocol.VersionV4_9_8
}

// listenAddr is host:port of the main server.
func (o *Options) listenAddr(port int32) string {
	host := o.ListenHost
	if host == "" {
		host = "0.0.0.0"
	}
	return net.JoinHostPort(host, strconv.Itoa(int(port)))
}

// haServerAddr is brokerIP2:haListenPort, registered for slaves to find.
func (o *Options) haServerAddr() string {
	ip := o.Configs.Broker.BrokerIP2
	if ip == "" {
		ip = o.Configs.Broker.BrokerIP1
	}
	return net.JoinHostPort(ip, strconv.Itoa(int(o.Configs.Store.HaListenPort)))
}

// storeHost is the address stamped on every stored record.
func (o *Options) storeHost() (netip.AddrPort, error) {
	ap, err := netip.ParseAddrPort(net.JoinHostPort(o.Configs.Broker.BrokerIP1, strconv.Itoa(int(o.Configs.NettyServer.ListenPort))))
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("%w: brokerIP1 %q: %v", ErrInvalidOptions, o.Configs.Broker.BrokerIP1, err)
	}
	return ap, nil
}

func (o *Options) withDefaults() Options {
	c := *o
	if c.Logger == nil {
		c.Logger = zap.NewNop()
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.Line == 0 {
		c.Line = protocol.Line4
	}
	return c
}

func (o *Options) validate() error {
	if o.Configs == nil {
		return fmt.Errorf("%w: no configs", ErrInvalidOptions)
	}
	if _, err := o.storeHost(); err != nil {
		return err
	}
	return o.Configs.Validate()
}

// ms converts a Java millisecond setting.
func ms[T int32 | int64](v T) time.Duration { return time.Duration(v) * time.Millisecond }
