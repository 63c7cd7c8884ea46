package store

import (
	"encoding/binary"
	"encoding/hex"
	"io"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// unhex reads hex with spaces between the fields.
func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	require.NoError(t, err)
	return b
}

func TestAutoSwitchFramesByteTables(t *testing.T) {
	// slave handshake: state 1, syncFromLastFile 1, asyncLearner 0, id 2
	hs := unhex(t, "00000001 0001 0000 0000000000000002")
	require.Equal(t, hs, appendSlaveHandshake(nil, slaveHandshake{SyncFromLastFile: true, SlaveID: 2}))
	require.Equal(t, slaveHandshake{SyncFromLastFile: true, SlaveID: 2}, decodeSlaveHandshake(hs))
	// a flag other than 1 is false
	require.Equal(t, slaveHandshake{AsyncLearner: true, SlaveID: 7},
		decodeSlaveHandshake(unhex(t, "00000001 0002 0001 0000000000000007")))

	// slave report: state 2, offset 1580
	require.Equal(t, unhex(t, "00000002 000000000000062c"), appendSlaveReport(nil, 1580))

	// master handshake: state 1, body 24, max offset 3000, last epoch 2,
	// then (1, 0) and (2, 1580)
	mh := unhex(t, "00000001 00000018 0000000000000bb8 00000002"+
		"00000001 0000000000000000 00000002 000000000000062c")
	require.Equal(t, mh, appendMasterHandshake(nil, masterHandshake{MaxOffset: 3000, LastEpoch: 2,
		Entries: []EpochEntry{{1, 0, 1580}, {2, 1580, 0}}}))
	h := decodeMasterHeader(mh)
	require.Equal(t, masterHeader{State: haHandshake, BodySize: 24, Offset: 3000, Epoch: 2}, h)
	require.Equal(t, []EpochEntry{{Epoch: 1}, {Epoch: 2, StartOffset: 1580}}, decodeEpochEntries(mh[20:]))
	// an empty epoch list: last epoch -1
	require.Equal(t, unhex(t, "00000001 00000000 0000000000000000 ffffffff"),
		appendMasterHandshake(nil, masterHandshake{LastEpoch: -1}))

	// transfer header: state 2, size 100, offset 4096, epoch 3, epoch
	// start 4000, confirm 4196
	th := unhex(t, "00000002 00000064 0000000000001000 00000003 0000000000000fa0 0000000000001064")
	got := make([]byte, asMasterTransferLen)
	want := masterHeader{State: haTransfer, BodySize: 100, Offset: 4096, Epoch: 3, EpochStart: 4000, ConfirmOffset: 4196}
	putTransferHeader(got, want)
	require.Equal(t, th, got)
	dec := decodeMasterHeader(th)
	dec.decodeTransferTail(th)
	require.Equal(t, want, dec)
}

// rawASSlave is a hand-driven slave connection.
type rawASSlave struct {
	t  *testing.T
	nc net.Conn
}

func dialAS(t *testing.T, h *AutoSwitchHA) *rawASSlave {
	nc, err := net.Dial("tcp", h.Addr())
	require.NoError(t, err)
	t.Cleanup(func() { nc.Close() })
	return &rawASSlave{t: t, nc: nc}
}

func (r *rawASSlave) send(b []byte) {
	_, err := r.nc.Write(b)
	require.NoError(r.t, err)
}

func (r *rawASSlave) read(n int) []byte {
	require.NoError(r.t, r.nc.SetReadDeadline(time.Now().Add(10*time.Second)))
	b := make([]byte, n)
	_, err := io.ReadFull(r.nc, b)
	require.NoError(r.t, err)
	return b
}

// frame reads one transfer frame, skipping heartbeats when asked.
func (r *rawASSlave) frame(skipEmpty bool) (masterHeader, []byte) {
	for {
		hb := r.read(asMasterTransferLen)
		h := decodeMasterHeader(hb)
		h.decodeTransferTail(hb)
		require.Equal(r.t, haTransfer, h.State)
		body := r.read(int(h.BodySize))
		if h.BodySize > 0 || !skipEmpty {
			return h, body
		}
	}
}

func commitLogBytes(t *testing.T, s *Store, from, to int64) []byte {
	data, release, ok := s.cl.dataFrom(from)
	require.True(t, ok)
	defer release()
	require.GreaterOrEqual(t, int64(len(data)), to-from)
	return append([]byte(nil), data[:to-from]...)
}

// TestAutoSwitchMasterOnTheWire drives a master with hand-built slave
// frames: its handshake answer, its first transfer frame, and the frame
// that completes an epoch, sent with the next epoch in its header.
func TestAutoSwitchMasterOnTheWire(t *testing.T) {
	n := startAS(t, asOptions(t.TempDir()), 1)
	n.becomeMaster(1)
	n.put(0, 2)
	a := n.s.CommitLogMaxOffset()
	require.True(t, n.h.ChangeToMasterWhenLastRoleIsMaster(2))
	n.put(2, 4)
	end := n.s.CommitLogMaxOffset()

	r := dialAS(t, n.h)
	r.send(unhex(t, "00000001 0000 0000 0000000000000009"))
	ans := r.read(asMasterHandshakeLen + 2*asEpochEntryLen)
	want := binary.BigEndian.AppendUint32(nil, 1)
	want = binary.BigEndian.AppendUint32(want, 24)
	want = binary.BigEndian.AppendUint64(want, uint64(end))
	want = binary.BigEndian.AppendUint32(want, 2)
	want = append(want, unhex(t, "00000001 0000000000000000 00000002")...)
	want = binary.BigEndian.AppendUint64(want, uint64(a))
	require.Equal(t, want, ans)

	r.send(appendSlaveReport(nil, 0)) // empty slave: from the first file
	h, body := r.frame(true)
	require.Equal(t, masterHeader{State: haTransfer, BodySize: int32(a), Offset: 0, Epoch: 2, EpochStart: a, ConfirmOffset: end}, h,
		"the frame that ends epoch 1 carries epoch 2")
	require.Equal(t, commitLogBytes(t, n.s, 0, a), body)
	h, body = r.frame(true)
	require.Equal(t, masterHeader{State: haTransfer, BodySize: int32(end - a), Offset: a, Epoch: 2, EpochStart: a, ConfirmOffset: end}, h)
	require.Equal(t, commitLogBytes(t, n.s, a, end), body)

	// Caught up: the report expands the set, and heartbeats follow.
	r.send(appendSlaveReport(nil, end))
	eventuallyHA(t, func() bool { return slices.Equal(n.lastProposal(), []int64{1, 9}) }, "expansion proposed")
	h, _ = r.frame(false)
	require.Equal(t, masterHeader{State: haTransfer, Offset: end, Epoch: 2, EpochStart: a, ConfirmOffset: end}, h)

	// A state other than 1 or 2 closes the connection.
	r.send(unhex(t, "00000003 000000000000000000000000"))
	require.NoError(t, r.nc.SetReadDeadline(time.Now().Add(10*time.Second)))
	for {
		if _, err := r.nc.Read(make([]byte, 64)); err != nil {
			break
		}
	}
	eventuallyHA(t, func() bool { return len(n.h.Connections()) == 0 }, "connection closed")
}

// TestAutoSwitchSlaveRefusesFrameNotAtItsEnd: a frame that does not
// start at the slave's end drops the connection (Java's "master pushed
// offset not equal the max phy offset in slave").
func TestAutoSwitchSlaveRefusesFrameNotAtItsEnd(t *testing.T) {
	n := startAS(t, asOptions(t.TempDir()), 2)
	n.becomeMaster(1)
	n.put(0, 1)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer ln.Close()
	require.True(t, n.h.ChangeToSlave(1, 2))
	n.h.SetMasterHAAddress(ln.Addr().String())
	nc, err := ln.Accept()
	require.NoError(t, err)
	defer nc.Close()
	m := &rawASSlave{t: t, nc: nc}
	require.Equal(t, unhex(t, "00000001 0000 0000 0000000000000002"), m.read(asSlaveHandshakeLen))
	end := n.s.CommitLogMaxOffset()
	m.send(appendMasterHandshake(nil, masterHandshake{MaxOffset: end, LastEpoch: 1, Entries: []EpochEntry{{Epoch: 1}}}))
	require.Equal(t, appendSlaveReport(nil, end), m.read(asSlaveReportLen), "nothing to cut; reports its end")
	hdr := make([]byte, asMasterTransferLen)
	putTransferHeader(hdr, masterHeader{Offset: end + 100, Epoch: 1, ConfirmOffset: end})
	m.send(hdr)
	require.NoError(t, nc.SetReadDeadline(time.Now().Add(10*time.Second)))
	_, err = io.ReadAll(nc)
	require.NoError(t, err, "the slave closed the connection")
}
