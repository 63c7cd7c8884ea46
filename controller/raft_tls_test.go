package controller

import (
	"crypto/tls"
	"net"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/hashicorp/raft"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/tlsconf"
	"github.com/rmqgo/rmqgo/remoting"
)

// enforcingTLS is what Launch makes of -Dtls.server.mode=enforcing with
// the other TLS keys at their defaults (test mode: a self-signed
// certificate, any server trusted): the port serves TLS only, and, with
// tls.enable unset, the peers are dialled over TLS. It returns the
// settings for testController and the config of a TLS remoting client.
func enforcingTLS(t *testing.T) (func(*Options), *tls.Config) {
	t.Helper()
	env := conf.Env{SysProps: map[string]string{"tls.server.mode": "enforcing"}}
	c := conf.TLSConfig{Mode: conf.TLSModeEnforcing, TestModeEnable: true}
	log := zaptest.NewLogger(t)
	client, err := tlsconf.ForClient(c, env.TLSEnabled(), log)
	require.NoError(t, err)
	require.NotNil(t, client, "tls.enable unset follows the enforcing mode")
	return func(o *Options) {
		var err error
		o.TLSMode, o.TLSConfig, err = tlsconf.ForServer(c, log)
		require.NoError(t, err)
		o.ClientTLSConfig = client
	}, client
}

// hasBrokerSet tells whether a member's tables hold the broker set.
func hasBrokerSet(c *Controller, name string) bool {
	c.tables.mu.RLock()
	defer c.tables.mu.RUnlock()
	_, _, ok := c.tables.set(name)
	return ok
}

// commitOverTLS has the leader commit an event (CONTROLLER_APPLY_BROKER_ID
// of a new broker set) through a TLS client and waits until every member
// has applied it.
func commitOverTLS(t *testing.T, clientTLS *tls.Config, cs ...*Controller) {
	t.Helper()
	leader := leaderOf(t, cs...)
	cli := remoting.NewClient(remoting.ClientOptions{Logger: zaptest.NewLogger(t), TLSConfig: clientTLS})
	t.Cleanup(cli.Close)
	ext := map[string]string{"clusterName": "DefaultCluster", "brokerName": "broker-tls"}
	resp := call(t, cli, leader.Addr(), remoting.ControllerGetNextBrokerId, ext, nil)
	require.EqualValues(t, remoting.Success, resp.Code, resp.Remark)
	ext["appliedBrokerId"] = resp.ExtString("nextBrokerId")
	ext["registerCheckCode"] = "127.0.0.1:30911;1700000000000"
	resp = call(t, cli, leader.Addr(), remoting.ControllerApplyBrokerId, ext, nil)
	require.EqualValues(t, remoting.Success, resp.Code, resp.Remark)
	for _, c := range cs {
		require.Eventually(t, func() bool { return hasBrokerSet(c, "broker-tls") }, 20*time.Second, 10*time.Millisecond,
			"every member applies the committed event")
	}
}

func TestAGroupWhosePortsEnforceTLSElectsAndCommits(t *testing.T) {
	tune, clientTLS := enforcingTLS(t)
	addrs := freeAddrs(t, 3)
	members := groupOf(addrs)
	base := t.TempDir()
	cs := make([]*Controller, 3)
	for i := range cs {
		cs[i] = testController(t, members, i, filepath.Join(base, strconv.Itoa(i)), tune)
	}
	commitOverTLS(t, clientTLS, cs...)

	// a peer dialling in plaintext is refused by the enforcing port
	plain, err := sharedStream(addrs[0], nil)
	require.NoError(t, err)
	conn, err := plain.Dial(raft.ServerAddress(addrs[1]), 5*time.Second)
	if err == nil {
		t.Cleanup(func() { _ = conn.Close() })
		require.NoError(t, conn.SetReadDeadline(time.Now().Add(20*time.Second)))
		n, err := conn.Read(make([]byte, 16))
		assert.Zero(t, n)
		assert.Error(t, err, "the enforcing port closed the plaintext Raft connection")
	}
}

func TestAJRaftGroupWithEnforcingTLSElectsAndCommits(t *testing.T) {
	tune, clientTLS := enforcingTLS(t)
	addrs := freeAddrs(t, 6)
	var members []Member
	for i := range 3 {
		members = append(members, Member{ID: addrs[3+i], RaftAddr: addrs[3+i], ControllerAddr: addrs[i]})
	}
	base := t.TempDir()
	cs := make([]*Controller, 3)
	for i := range cs {
		cs[i] = testController(t, members, i, filepath.Join(base, strconv.Itoa(i)), func(o *Options) {
			tune(o)
			o.JRaft = true
		})
	}
	commitOverTLS(t, clientTLS, cs...)

	// the Raft listener of its own serves TLS
	conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 5 * time.Second}, "tcp", addrs[3], clientTLS)
	require.NoError(t, err, "a TLS handshake with the Raft listener")
	_ = conn.Close()
}
