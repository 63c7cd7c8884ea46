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
// it over (remoting.Diversion). With controllerType jRaft the Raft address
// is jRaftServerId's, a listener of its own.

import (
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
	addr   net.Addr
	shared bool
	conns  chan net.Conn
	ln     net.Listener // own listener, when not shared
	done   chan struct{}
	once   sync.Once
}

// sharedStream receives the connections a remoting server diverts to it
// (take); addr is this member's advertised Raft address.
func sharedStream(addr string) (*streamLayer, error) {
	a, err := net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("controller: raft address %q: %w", addr, err)
	}
	return &streamLayer{addr: a, shared: true, conns: make(chan net.Conn), done: make(chan struct{})}, nil
}

// ownStream listens on listen and advertises addr.
func ownStream(listen, addr string) (*streamLayer, error) {
	a, err := net.ResolveTCPAddr("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("controller: raft address %q: %w", addr, err)
	}
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return nil, fmt.Errorf("controller: raft listener: %w", err)
	}
	return &streamLayer{addr: a, ln: ln, done: make(chan struct{})}, nil
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

// Dial implements raft.StreamLayer: to a shared port, the head first.
func (s *streamLayer) Dial(address raft.ServerAddress, timeout time.Duration) (net.Conn, error) {
	conn, err := net.DialTimeout("tcp", string(address), timeout)
	if err != nil || !s.shared {
		return conn, err
	}
	_ = conn.SetWriteDeadline(time.Now().Add(timeout))
	if _, err := conn.Write([]byte(raftHead)); err != nil {
		_ = conn.Close()
		return nil, err
	}
	_ = conn.SetWriteDeadline(time.Time{})
	return conn, nil
}
