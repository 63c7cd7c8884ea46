package store

import (
	"io"
	"net"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tcpPair is a connected pair on loopback: the accepted end in blocking
// mode, and the dialled end as Go makes it.
func tcpPair(t *testing.T) (*blockingConn, net.Conn) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	peer, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	t.Cleanup(func() { peer.Close() })
	nc, err := ln.Accept()
	require.NoError(t, err)
	bc, err := newBlockingConn(nc)
	require.NoError(t, err)
	t.Cleanup(func() { bc.Close() })
	return bc, peer
}

// A blocking connection carries frames both ways (a header and a body in
// one writev), and a peer's close reads as EOF.
func TestBlockingConnReadsWritesAndSeesTheEnd(t *testing.T) {
	bc, peer := tcpPair(t)
	n, err := writeParts(bc, []byte("head:"), []byte("body"))
	require.NoError(t, err)
	assert.EqualValues(t, 9, n)
	got := make([]byte, 9)
	_, err = io.ReadFull(peer, got)
	require.NoError(t, err)
	assert.Equal(t, "head:body", string(got))

	_, err = peer.Write([]byte("ack"))
	require.NoError(t, err)
	_, err = io.ReadFull(bc, got[:3])
	require.NoError(t, err)
	assert.Equal(t, "ack", string(got[:3]))

	require.NoError(t, peer.Close())
	_, err = bc.Read(got)
	assert.ErrorIs(t, err, io.EOF)
}

// A read deadline is the time one read may block: a silent peer makes it
// fail with os.ErrDeadlineExceeded, as a poller-driven connection does.
func TestBlockingConnReadTimesOut(t *testing.T) {
	bc, _ := tcpPair(t)
	require.NoError(t, bc.SetReadDeadline(time.Now().Add(50*time.Millisecond)))
	_, err := bc.Read(make([]byte, 8))
	assert.ErrorIs(t, err, os.ErrDeadlineExceeded)
}

// Close wakes a read blocked in the kernel: the HA services' Close waits
// for their readers, so a read that slept on would hang it.
func TestBlockingConnCloseWakesABlockedRead(t *testing.T) {
	bc, _ := tcpPair(t)
	read := make(chan error, 1)
	go func() {
		_, err := bc.Read(make([]byte, 8))
		read <- err
	}()
	waitInSyscall(t, "(*blockingConn).Read")
	require.NoError(t, bc.Close())
	select {
	case err := <-read:
		assert.Error(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("a read blocked in the kernel outlived Close")
	}
}

// waitInSyscall waits until a goroutine whose stack holds fn is in a
// system call.
func waitInSyscall(t *testing.T, fn string) {
	t.Helper()
	buf := make([]byte, 1<<20)
	eventuallyHA(t, func() bool {
		for _, g := range strings.Split(string(buf[:runtime.Stack(buf, true)]), "\n\n") {
			if strings.Contains(g, "[syscall") && strings.Contains(g, fn) {
				return true
			}
		}
		return false
	}, "a goroutine in a system call in "+fn)
}
