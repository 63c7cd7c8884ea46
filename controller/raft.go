package controller

// Consensus among controllers: hashicorp/raft with its log and stable
// store in a bbolt file and its snapshots in files, all under
// controllerStorePath/rmqgo-raft-<selfId>/ (Java's DLedger store beside it,
// dledger-<selfId>/, is neither read nor touched):
//
//	raft.db      the log and the current term and vote (raft-boltdb)
//	snapshots/   the tables as of a log index (snapshot.go), two kept
//
// Every member starts with the whole group as its first configuration
// (members from controllerDLegerPeers or jRaftInitConf); a member with a
// log keeps what its log says.
//
// The peers reach each other on the controller's own port, as DLedger's
// do: a Raft connection opens with raftHead and the remoting server hands
// it over (remoting.Diversion). A member with Options.ClientTLSConfig (by
// tls.enable's rule, as DLedger's peers follow the global TLS settings)
// dials its peers over TLS and writes raftHead inside it; the port finds
// the head in the decrypted bytes, so TLS peers reach a permissive or
// enforcing port, plaintext ones a disabled or permissive port (an
// enforcing port closes a plaintext connection before looking at it).
// With controllerType jRaft the Raft address is jRaftServerId's, a
// listener of its own, which serves TLS in enforcing mode (with the
// controller port's TLS config, its peers dialling with ClientTLSConfig)
// and plaintext in the other modes.

import (
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/raft"
	raftboltdb "github.com/hashicorp/raft-boltdb/v2"
	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/remoting"
)

// raftHead opens every Raft connection to a shared port.
const raftHead = "RAFT"

// Member is one controller of the group (conf.ControllerMember).
type Member struct {
	// ID is the DLedger id (n0) or, with jRaft keys, the Raft endpoint.
	ID string
	// RaftAddr is where the peers reach its Raft; ControllerAddr is where
	// brokers and mqadmin reach it. They are equal when the port is shared.
	RaftAddr, ControllerAddr string
}

// consensus is the running Raft member.
type consensus struct {
	raft      *raft.Raft
	transport *raft.NetworkTransport
	store     *raftboltdb.BoltStore
	stream    *streamLayer
}

// raftTimings are hashicorp/raft's defaults for a LAN, which elect within a
// couple of seconds of a leader's loss.
func raftConfig(id string, logger hclog.Logger) *raft.Config {
	c := raft.DefaultConfig()
	c.LocalID = raft.ServerID(id)
	c.Logger = logger
	c.SnapshotThreshold = 1024
	c.SnapshotInterval = 30 * time.Second
	c.TrailingLogs = 1024
	return c
}

// startConsensus opens the store under dir and joins the group.
func startConsensus(dir string, members []Member, self int, fsm raft.FSM, stream *streamLayer, log *zap.Logger) (*consensus, error) {
	dir = filepath.Join(dir, "rmqgo-raft-"+members[self].ID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("controller: raft store: %w", err)
	}
	logger := hclog.NewInterceptLogger(&hclog.LoggerOptions{Name: "raft", Output: io.Discard, Level: hclog.Info})
	logger.RegisterSink(zapSink{log.Named("raft")})
	store, err := raftboltdb.NewBoltStore(filepath.Join(dir, "raft.db"))
	if err != nil {
		return nil, fmt.Errorf("controller: raft log %s: %w", dir, err)
	}
	snaps, err := raft.NewFileSnapshotStoreWithLogger(dir, 2, logger)
	if err != nil {
		_ = store.Close()
		return nil, fmt.Errorf("controller: raft snapshots %s: %w", dir, err)
	}
	transport := raft.NewNetworkTransportWithConfig(&raft.NetworkTransportConfig{
		Stream: stream, MaxPool: 3, Timeout: 5 * time.Second, Logger: logger,
	})
	c := &consensus{transport: transport, store: store, stream: stream}
	cfg := raftConfig(members[self].ID, logger)
	has, err := raft.HasExistingState(store, store, snaps)
	if err == nil && !has {
		err = raft.BootstrapCluster(cfg, store, store, snaps, transport, configuration(members))
	}
	if err == nil {
		c.raft, err = raft.NewRaft(cfg, fsm, store, store, snaps, transport)
	}
	if err != nil {
		c.close()
		return nil, fmt.Errorf("controller: raft: %w", err)
	}
	return c, nil
}

func configuration(members []Member) raft.Configuration {
	var cfg raft.Configuration
	for _, m := range members {
		cfg.Servers = append(cfg.Servers, raft.Server{
			Suffrage: raft.Voter, ID: raft.ServerID(m.ID), Address: raft.ServerAddress(m.RaftAddr),
		})
	}
	return cfg
}

func (c *consensus) close() {
	if c.raft != nil {
		_ = c.raft.Shutdown().Error()
	}
	_ = c.transport.Close()
	_ = c.store.Close()
}

// zapSink writes hashicorp/raft's log lines to the controller's log at
// their own levels.
type zapSink struct{ log *zap.Logger }

func (s zapSink) Accept(_ string, level hclog.Level, msg string, args ...any) {
	fields := make([]zap.Field, 0, len(args)/2)
	for i := 0; i+1 < len(args); i += 2 {
		fields = append(fields, zap.Any(fmt.Sprint(args[i]), args[i+1]))
	}
	switch {
	case level >= hclog.Error:
		s.log.Error(msg, fields...)
	case level == hclog.Warn:
		s.log.Warn(msg, fields...)
	case level == hclog.Info:
		s.log.Info(msg, fields...)
	default:
		s.log.Debug(msg, fields...)
	}
}

// streamLayer is raft.StreamLayer over connections handed over by the
// remoting server (shared) or accepted by a listener of its own.
type streamLayer struct {
	addr    net.Addr
	shared  bool
	dialTLS *tls.Config // nil: the peers are dialled in plaintext
	conns   chan net.Conn
	ln      net.Listener // own listener, when not shared
	done    chan struct{}
	once    sync.Once
}

// sharedStream receives the connections a remoting server diverts to it
// (take); addr is this member's advertised Raft address. It dials its
// peers over TLS with dialTLS, when set.
func sharedStream(addr string, dialTLS *tls.Config) (*streamLayer, error) {
	a, err := net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("controller: raft address %q: %w", addr, err)
	}
	return &streamLayer{addr: a, shared: true, dialTLS: dialTLS, conns: make(chan net.Conn), done: make(chan struct{})}, nil
}

// ownTLS is the TLS of a listener of its own: the config it serves with
// and the one its peers are dialled with; nil serve: plaintext both ways.
type ownTLS struct{ serve, dial *tls.Config }

// ownStreamTLS is a jRaft-keyed member's Raft TLS: the controller port's
// config when its mode is enforcing, otherwise none (a listener of its
// own does not tell TLS from plaintext as the port does).
func ownStreamTLS(o *Options) ownTLS {
	if o.TLSMode != remoting.TLSEnforcing || o.TLSConfig == nil {
		return ownTLS{}
	}
	return ownTLS{serve: o.TLSConfig, dial: o.ClientTLSConfig}
}

// ownStream listens on listen and advertises addr.
func ownStream(listen, addr string, t ownTLS) (*streamLayer, error) {
	a, err := net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("controller: raft address %q: %w", addr, err)
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return nil, fmt.Errorf("controller: raft listener: %w", err)
	}
	var dial *tls.Config
	if t.serve != nil {
		ln, dial = tls.NewListener(ln, t.serve), t.dial
	}
	return &streamLayer{addr: a, ln: ln, dialTLS: dial, done: make(chan struct{})}, nil
}

// take is the remoting.Diversion target: the head is read off, the rest is
// Raft's.
func (s *streamLayer) take(conn net.Conn) {
	head := make([]byte, len(raftHead))
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.ReadFull(conn, head); err != nil || string(head) != raftHead {
		_ = conn.Close()
		return
	}
	_ = conn.SetReadDeadline(time.Time{})
	select {
	case s.conns <- conn:
	case <-s.done:
		_ = conn.Close()
	}
}

// Accept implements net.Listener.
func (s *streamLayer) Accept() (net.Conn, error) {
	if s.ln != nil {
		return s.ln.Accept()
	}
	select {
	case c := <-s.conns:
		return c, nil
	case <-s.done:
		return nil, net.ErrClosed
	}
}

// Close implements net.Listener.
func (s *streamLayer) Close() error {
	s.once.Do(func() { close(s.done) })
	if s.ln != nil {
		return s.ln.Close()
	}
	return nil
}

// Addr implements net.Listener.
func (s *streamLayer) Addr() net.Addr { return s.addr }

// Dial implements raft.StreamLayer: over TLS with dialTLS, as the
// remoting client does (no host name checked; tlsconf.Client), and to a
// shared port with the head first (inside TLS), all within timeout.
func (s *streamLayer) Dial(address raft.ServerAddress, timeout time.Duration) (net.Conn, error) {
	conn, err := net.DialTimeout("tcp", string(address), timeout)
	if err != nil || (s.dialTLS == nil && !s.shared) {
		return conn, err
	}
	raw := conn
	_ = raw.SetDeadline(time.Now().Add(timeout))
	if s.dialTLS != nil {
		tc := tls.Client(raw, s.dialTLS)
		if err := tc.Handshake(); err != nil {
			_ = raw.Close()
			return nil, fmt.Errorf("controller: raft TLS handshake with %s: %w", address, err)
		}
		conn = tc
	}
	if s.shared {
		if _, err := conn.Write([]byte(raftHead)); err != nil {
			_ = raw.Close()
			return nil, err
		}
	}
	_ = raw.SetDeadline(time.Time{})
	return conn, nil
}
