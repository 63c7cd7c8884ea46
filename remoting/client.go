package remoting

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"
)

// ErrClientClosed is returned by calls on a closed client.
var ErrClientClosed = errors.New("remoting: client closed")

// ClientOptions configures a Client.
type ClientOptions struct {
	Logger *zap.Logger
	// Router serves requests the peers send to this client (a broker's
	// CHECK_TRANSACTION_STATE to a producer); nil answers them
	// REQUEST_CODE_NOT_SUPPORTED.
	Router      *Router
	DialTimeout time.Duration
	// WriteTimeout bounds one frame write.
	WriteTimeout time.Duration
	MaxFrame     int
	// OnClose, when set, is told when a dialled connection goes.
	OnClose func(*Channel)
	// TLSConfig, when set, makes every connection TLS, as Java's
	// NettyClientConfig.useTLS does; the handshake is bounded by
	// DialTimeout.
	TLSConfig *tls.Config
	// Stamp, when set, may add to every request before it is sent to
	// addr (as a Java RPCHook's doBeforeRequest).
	Stamp func(addr string, req *Command)
	// InProcess, when set, is a server of this process reached at its
	// Addr without a socket (inprocess.go).
	InProcess *InProcess
}

// Client keeps one connection per address and makes calls over them.
type Client struct {
	opts   ClientOptions
	log    *zap.Logger
	mu     sync.Mutex
	conns  map[string]*Channel
	dials  map[string]*dial
	closed bool
	// readers counts the reading goroutines, which dispatch to the router:
	// Close waits for them before it stops the router's pools.
	readers sync.WaitGroup
	nextCh  atomic.Uint64
	nextID  atomic.Int32
}

// dial is a connection attempt others wait on.
type dial struct {
	done chan struct{}
	ch   *Channel
	err  error
}

// NewClient returns a client with no connections yet.
func NewClient(opts ClientOptions) *Client {
	if opts.Logger == nil {
		opts.Logger = zap.NewNop()
	}
	if opts.Router == nil {
		opts.Router = NewRouter(opts.Logger)
	}
	if opts.DialTimeout <= 0 {
		opts.DialTimeout = 3 * time.Second
	}
	if opts.WriteTimeout <= 0 {
		opts.WriteTimeout = 10 * time.Second
	}
	if opts.MaxFrame <= 0 {
		opts.MaxFrame = MaxFrameLength
	}
	opts.Router.Start()
	return &Client{opts: opts, log: opts.Logger, conns: make(map[string]*Channel), dials: make(map[string]*dial)}
}

// Channel returns the open connection to addr, dialling it when there is
// none; concurrent callers share one dial.
func (c *Client) Channel(addr string) (*Channel, error) {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil, ErrClientClosed
	}
	if ch := c.conns[addr]; ch != nil && !ch.Closed() {
		c.mu.Unlock()
		return ch, nil
	}
	d := c.dials[addr]
	if d == nil {
		d = &dial{done: make(chan struct{})}
		c.dials[addr] = d
		go c.dial(addr, d)
	}
	c.mu.Unlock()
	<-d.done
	return d.ch, d.err
}

func (c *Client) dial(addr string, d *dial) {
	if ip := c.opts.InProcess; ip != nil && ip.Addr == addr {
		c.dialInProcess(ip, d)
		return
	}
	conn, err := c.connect(addr)
	c.mu.Lock()
	delete(c.dials, addr)
	switch {
	case err != nil:
		d.err = fmt.Errorf("remoting: connect to %s: %w", addr, err)
	case c.closed:
		_ = conn.Close()
		d.err = ErrClientClosed
	default:
		w := &connWriter{conn: conn, timeout: c.opts.WriteTimeout}
		d.ch = newChannel(c.nextCh.Add(1), addrString(conn.LocalAddr()), addr, w, &c.nextID)
		c.conns[addr] = d.ch
		c.readers.Add(1)
		go c.read(conn, d.ch)
	}
	c.mu.Unlock()
	close(d.done)
}

// dialInProcess opens the in-process connection to ip.
func (c *Client) dialInProcess(ip *InProcess, d *dial) {
	c.mu.Lock()
	delete(c.dials, ip.Addr)
	if c.closed {
		d.err = ErrClientClosed
	} else {
		d.ch = c.connectInProcess(ip)
		c.conns[ip.Addr] = d.ch
	}
	c.mu.Unlock()
	close(d.done)
}

// connect dials addr and, with a TLSConfig, runs the TLS handshake, both
// within DialTimeout.
func (c *Client) connect(addr string) (net.Conn, error) {
	conn, err := net.DialTimeout("tcp", addr, c.opts.DialTimeout)
	if err != nil || c.opts.TLSConfig == nil {
		return conn, err
	}
	tc := tls.Client(conn, c.opts.TLSConfig)
	if err := handshake(tc, c.opts.DialTimeout); err != nil {
		_ = conn.Close()
		return nil, fmt.Errorf("TLS handshake: %w", err)
	}
	return tc, nil
}

// read decodes frames from conn until it fails, then forgets the channel.
func (c *Client) read(conn net.Conn, ch *Channel) {
	defer c.readers.Done()
	r := bufio.NewReaderSize(conn, 64<<10)
	err := readFrames(r, c.opts.MaxFrame, ch, c.route)
	_ = conn.Close()
	if errors.Is(err, net.ErrClosed) || errors.Is(err, io.EOF) {
		err = nil
	}
	c.lost(ch, err)
}

// lost forgets a connection that went (err says why, nil when it was
// closed) and tells the owner.
func (c *Client) lost(ch *Channel, err error) {
	ch.markClosed()
	c.mu.Lock()
	if c.conns[ch.remote] == ch {
		delete(c.conns, ch.remote)
	}
	c.mu.Unlock()
	if err != nil {
		c.log.Warn("connection lost", zap.String("remote", ch.remote), zap.Error(err))
	}
	if c.opts.OnClose != nil {
		c.opts.OnClose(ch)
	}
}

// route hands a response to its waiting call, and a request to the
// router.
func (c *Client) route(ch *Channel, cmd *Command) {
	if cmd.IsResponse() {
		ch.deliverResponse(cmd)
		return
	}
	c.opts.Router.dispatch(ch, cmd)
}

// readFrames decodes frames from r, bounded by maxFrame, and hands each
// to route, until r fails or a frame is bad, and returns that error (never
// nil). It serves the connections read by a goroutine: the client's and
// the server's TLS ones.
func readFrames(r *bufio.Reader, maxFrame int, ch *Channel, route func(*Channel, *Command)) error {
	var head [lengthFieldSize]byte
	for {
		if _, err := io.ReadFull(r, head[:]); err != nil {
			return err
		}
		n, err := FrameLength(head[:], maxFrame)
		if err != nil {
			return err
		}
		frame := make([]byte, n-lengthFieldSize)
		if _, err := io.ReadFull(r, frame); err != nil {
			return err
		}
		cmd, err := decodeFrameBody(frame)
		if err != nil {
			return err
		}
		route(ch, cmd)
	}
}

// Invoke sends req to addr and waits for the response until ctx ends.
func (c *Client) Invoke(ctx context.Context, addr string, req *Command) (*Command, error) {
	ch, err := c.Channel(addr)
	if err != nil {
		return nil, err
	}
	c.stamp(addr, req)
	return ch.Invoke(ctx, req)
}

// InvokeTimeout sends req to addr and waits at most timeout.
func (c *Client) InvokeTimeout(addr string, req *Command, timeout time.Duration) (*Command, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	return c.Invoke(ctx, addr, req)
}

// InvokeAsync sends req to addr and calls cb once with the outcome.
func (c *Client) InvokeAsync(addr string, req *Command, timeout time.Duration, cb func(*Command, error)) {
	ch, err := c.Channel(addr)
	if err != nil {
		cb(nil, err)
		return
	}
	c.stamp(addr, req)
	ch.InvokeAsync(req, timeout, cb)
}

// InvokeOneway sends req to addr expecting no answer.
func (c *Client) InvokeOneway(addr string, req *Command) error {
	ch, err := c.Channel(addr)
	if err != nil {
		return err
	}
	c.stamp(addr, req)
	return ch.InvokeOneway(req)
}

// stamp runs the Stamp option on a request.
func (c *Client) stamp(addr string, req *Command) {
	if c.opts.Stamp != nil {
		c.opts.Stamp(addr, req)
	}
}

// CloseChannel closes the connection to addr, if there is one.
func (c *Client) CloseChannel(addr string) {
	c.mu.Lock()
	ch := c.conns[addr]
	c.mu.Unlock()
	if ch != nil {
		_ = ch.Close()
	}
}

// Close closes every connection and stops the router's pools.
func (c *Client) Close() {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return
	}
	c.closed = true
	conns := c.conns
	c.conns = map[string]*Channel{}
	c.mu.Unlock()
	for _, ch := range conns {
		_ = ch.Close()
	}
	c.readers.Wait()
	c.opts.Router.Stop()
}
