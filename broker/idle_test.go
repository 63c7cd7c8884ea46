package broker

import (
	"encoding/binary"
	"io"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// serverChannelMaxIdleTimeSeconds reaches the broker's server: a client
// that sent half a frame and went quiet is closed once it passes.
func TestIdleConnectionIsClosed(t *testing.T) {
	c := testConfigs(t.TempDir(), "")
	c.NettyServer.ServerChannelMaxIdleTimeSeconds = 1
	b := startBroker(t, c, nil)
	conn, err := net.Dial("tcp", b.Addr())
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	_, err = conn.Write(append(binary.BigEndian.AppendUint32(nil, 100), make([]byte, 10)...))
	require.NoError(t, err)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(testWait)))
	_, err = io.ReadAll(conn)
	assert.NoError(t, err, "the broker closes the connection (EOF) before the wait is over")
}

func TestIdleTimeoutFromSeconds(t *testing.T) {
	assert.Equal(t, 120*time.Second, idleTimeout(120))
	assert.Zero(t, idleTimeout(0))
	assert.Zero(t, idleTimeout(-1), "Netty's idle handler is off for 0 or less")
}
