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
