package remoting

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tcpPair is a connected loopback pair: the dialled end and the accepted one.
func tcpPair(t *testing.T) (net.Conn, net.Conn) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, _ := ln.Accept()
		accepted <- c
	}()
	d, err := net.Dial("tcp", ln.Addr().String())
	require.NoError(t, err)
	a := <-accepted
	require.NotNil(t, a)
	t.Cleanup(func() { d.Close(); a.Close() })
	return d, a
}

func TestConcurrentCallersFramesArriveWholeAndInEachCallersOrder(t *testing.T) {
	d, a := tcpPair(t)
	w := &connWriter{conn: d, timeout: 10 * time.Second}
	const callers, each = 32, 300
	var wg sync.WaitGroup
	var doneRuns sync.WaitGroup
	for c := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				body := fmt.Sprintf("caller %d frame %d %s", c, i, make([]byte, c*7))
				frame := binary.BigEndian.AppendUint32(nil, uint32(len(body)))
				if i%2 == 0 {
					assert.NoError(t, w.writeFrame(append(frame, body...)))
					continue
				}
				doneRuns.Add(1)
				assert.NoError(t, w.writeFrameParts([][]byte{frame, []byte(body)}, doneRuns.Done))
			}
		}()
	}
	next := make([]int, callers)
	require.NoError(t, a.SetReadDeadline(time.Now().Add(time.Minute))) // a frame left unwritten fails, not hangs
	r := bufio.NewReader(a)
	for range callers * each {
		var n uint32
		require.NoError(t, binary.Read(r, binary.BigEndian, &n))
		body := make([]byte, n)
		_, err := io.ReadFull(r, body)
		require.NoError(t, err)
		var c, i int
		_, err = fmt.Sscanf(string(body), "caller %d frame %d", &c, &i)
		require.NoError(t, err, "a frame arrived torn: %q", body)
		require.Equal(t, fmt.Sprintf("caller %d frame %d %s", c, i, make([]byte, c*7)), string(body))
		require.Equal(t, next[c], i, "caller %d's frames out of order", c)
		next[c]++
	}
	wg.Wait()
	doneRuns.Wait() // every done ran
}

func TestAFailedWriteClosesTheConnectionAndRefusesLaterFrames(t *testing.T) {
	d, _ := tcpPair(t)
	w := &connWriter{conn: d, timeout: time.Second}
	require.NoError(t, d.Close()) // the next write fails
	ran := 0
	err := w.writeFrameParts([][]byte{[]byte("x")}, func() { ran++ })
	require.Error(t, err)
	assert.Equal(t, 1, ran, "the done of a frame that failed runs")
	err2 := w.writeFrameParts([][]byte{[]byte("y")}, func() { ran++ })
	assert.Equal(t, err, err2, "later frames get the error that broke the connection")
	assert.Equal(t, 2, ran, "the done of a refused frame runs")
}
