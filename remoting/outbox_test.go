package remoting

import (
	"testing"

	"github.com/panjf2000/gnet/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recordingConn is the part of a gnet connection an outbox uses.
type recordingConn struct {
	gnet.Conn
	wakes   int
	writevs [][]byte // every buffer, in the order written
	calls   []int    // buffers per Writev call
}

func (c *recordingConn) Wake(gnet.AsyncCallback) error { c.wakes++; return nil }

func (c *recordingConn) Writev(bs [][]byte) (int, error) {
	n := 0
	for _, b := range bs {
		c.writevs = append(c.writevs, append([]byte(nil), b...))
		n += len(b)
	}
	c.calls = append(c.calls, len(bs))
	return n, nil
}

func TestOutboxWritesQueuedFramesInOrderWithOneWakeUp(t *testing.T) {
	conn := &recordingConn{}
	o := newOutbox(conn)
	released := 0
	const frames = 2500
	for i := range frames {
		frame := []byte{byte(i), byte(i >> 8)}
		if i%2 == 0 {
			require.NoError(t, o.writeFrame(frame))
		} else {
			require.NoError(t, o.writeFrameParts([][]byte{frame}, func() { released++ }))
		}
	}
	assert.Equal(t, 1, conn.wakes, "one wake-up for everything queued before the event loop ran")
	assert.Zero(t, released, "parts are kept until written")
	o.flush()
	assert.Equal(t, []int{1024, 1024, 452}, conn.calls, "at most IOV_MAX buffers per writev")
	require.Len(t, conn.writevs, frames)
	for i, b := range conn.writevs {
		require.Equal(t, []byte{byte(i), byte(i >> 8)}, b, "frame %d", i)
	}
	assert.Equal(t, frames/2, released)

	require.NoError(t, o.writeFrame([]byte("next")))
	assert.Equal(t, 2, conn.wakes, "a frame after a flush wakes the loop again")
}

func TestOutboxOfAClosedConnectionReleasesPartsAndRefuses(t *testing.T) {
	conn := &recordingConn{}
	o := newOutbox(conn)
	released := 0
	require.NoError(t, o.writeFrameParts([][]byte{[]byte("queued")}, func() { released++ }))
	o.drop()
	assert.Equal(t, 1, released, "queued parts are released when the connection goes")
	err := o.writeFrameParts([][]byte{[]byte("late")}, func() { released++ })
	assert.ErrorIs(t, err, ErrChannelClosed)
	assert.Equal(t, 2, released)
	o.flush()
	assert.Empty(t, conn.writevs, "nothing is written after the close")
}

// backedUpConn is a recordingConn whose socket takes socketRoom bytes and
// then no more: gnet would buffer the rest (OutboundBuffered).
type backedUpConn struct {
	recordingConn
	socketRoom, buffered int
}

func (c *backedUpConn) Writev(bs [][]byte) (int, error) {
	n, err := c.recordingConn.Writev(bs)
	taken := min(n, c.socketRoom)
	c.socketRoom -= taken
	c.buffered += n - taken
	return n, err
}

func (c *backedUpConn) OutboundBuffered() int { return c.buffered }

func TestSparingFlushHandsGnetWhatTheSocketTakesAndOneChunk(t *testing.T) {
	conn := &backedUpConn{socketRoom: 10 << 10}
	o := newOutbox(conn)
	released := 0
	for range 64 {
		require.NoError(t, o.writeFrameParts([][]byte{make([]byte, 1<<10)}, func() { released++ }))
	}
	wrote, left := o.flushSparingly(4 << 10)
	assert.True(t, wrote)
	assert.True(t, left, "what the socket did not take stays queued")
	assert.Len(t, conn.writevs, 12, "the socket's 10 KiB in 4 KiB chunks, then the chunk gnet buffers")
	assert.Equal(t, 2<<10, conn.buffered, "gnet buffers less than one chunk")
	assert.Zero(t, released, "parts are kept until all are written")

	wrote, left = o.flushSparingly(4 << 10)
	assert.False(t, wrote, "nothing more while gnet holds bytes")
	assert.True(t, left)

	conn.buffered, conn.socketRoom = 0, 1<<20 // the client read everything
	_, left = o.flushSparingly(4 << 10)
	assert.False(t, left)
	assert.Len(t, conn.writevs, 64, "every frame, in order")
	assert.Equal(t, 64, released)
}
