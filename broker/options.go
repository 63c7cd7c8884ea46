package broker

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"sync/atomic"
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
	// LocalProxyToken, when set, is the secret of the proxy in this
	// process (protocol.LocalProxyField): its requests pass ACL 2.0.
	LocalProxyToken string
}

// listenAddr is host:port of a server.
func (o *Options) listenAddr(port int32) string {
	host := o.ListenHost
	if host == "" {
		host = "0.0.0.0"
	}
	return net.JoinHostPort(host, strconv.Itoa(int(port)))
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
	if _, err := parseStoreHost(o.Configs.Broker.BrokerIP1, o.Configs.NettyServer.ListenPort); err != nil {
		return err
	}
	return o.Configs.Validate()
}

// identity is who the broker is to clients and name servers: its
// addresses, fixed at start. The port is the configured listenPort, or
// with listenPort 0 (tests) the one bound, set once the server is up.
type identity struct {
	brokerIP1, haServerAddr string
	host                    netip.Addr
	port                    atomic.Uint32
}

// newIdentity reads the addresses of c.
func newIdentity(c *conf.BrokerConfigs) *identity {
	ap, _ := parseStoreHost(c.Broker.BrokerIP1, c.NettyServer.ListenPort)
	ip2 := c.Broker.BrokerIP2
	if ip2 == "" {
		ip2 = c.Broker.BrokerIP1
	}
	id := &identity{brokerIP1: c.Broker.BrokerIP1, host: ap.Addr(),
		haServerAddr: net.JoinHostPort(ip2, strconv.Itoa(int(c.Store.HaListenPort)))}
	id.port.Store(uint32(ap.Port()))
	return id
}

// parseStoreHost is brokerIP1:listenPort as an address.
func parseStoreHost(ip string, port int32) (netip.AddrPort, error) {
	ap, err := netip.ParseAddrPort(net.JoinHostPort(ip, strconv.Itoa(int(port))))
	if err != nil {
		return netip.AddrPort{}, fmt.Errorf("%w: brokerIP1 %q: %v", ErrInvalidOptions, ip, err)
	}
	return ap, nil
}

// storeHost is the address stamped on every stored record.
func (id *identity) storeHost() netip.AddrPort {
	return netip.AddrPortFrom(id.host, uint16(id.port.Load()))
}

// brokerAddr is brokerIP1 + ":" + listenPort as Java joins them (no
// brackets around an IPv6 address): the address the broker registers with
// the name servers and clients connect to.
func (id *identity) brokerAddr() string {
	return id.brokerIP1 + ":" + strconv.Itoa(int(id.port.Load()))
}
