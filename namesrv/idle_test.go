package namesrv

import (
	"encoding/binary"
	"io"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ServerChannelMaxIdleTime reaches the name server's remoting server: a
// client that sent half a frame and went quiet is closed once it passes.
func TestIdleConnectionIsClosed(t *testing.T) {
	o := testOptions(t, t.TempDir())
	o.ServerChannelMaxIdleTime = time.Second
	ns := startNameServer(t, o)
	conn, err := net.Dial("tcp", ns.Addr())
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	_, err = conn.Write(append(binary.BigEndian.AppendUint32(nil, 100), make([]byte, 10)...))
	require.NoError(t, err)
	require.NoError(t, conn.SetReadDeadline(time.Now().Add(30*time.Second)))
	_, err = io.ReadAll(conn)
	assert.NoError(t, err, "the name server closes the connection (EOF) before the wait is over")
}

func TestNegativeIdleTimeIsInvalid(t *testing.T) {
	o := testOptions(t, t.TempDir())
	o.ServerChannelMaxIdleTime = -time.Second
	assert.ErrorIs(t, o.Validate(), ErrInvalidOptions)
	assert.Equal(t, 120*time.Second, DefaultOptions().ServerChannelMaxIdleTime)
}
