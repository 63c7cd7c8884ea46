package store

import (
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// eventuallyHA polls cond until it holds or 20 s pass.
func eventuallyHA(t *testing.T, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting: " + what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func startHAMaster(t *testing.T, s *Store) *HAMaster {
	t.Helper()
	m := NewHAMaster(s, "127.0.0.1:0")
	require.NoError(t, m.Start())
	t.Cleanup(func() { m.Close() })
	return m
}

func startHAClient(t *testing.T, s *Store, master string) *HAClient {
	t.Helper()
	c := NewHAClient(s, master)
	c.Start()
	t.Cleanup(c.Close)
	return c
}

// requireSameCommitLog compares every written commitlog file of both
// stores.
func requireSameCommitLog(t *testing.T, master, slave *Store) {
	t.Helper()
	require.NoError(t, master.flushCommitLog(0))
	require.NoError(t, slave.flushCommitLog(0))
	names, err := os.ReadDir(master.opts.commitLogDir())
	require.NoError(t, err)
	for _, n := range names {
		if start, err := parseFileName(n.Name()); err != nil || start >= master.CommitLogMaxOffset() {
			continue // a file made ahead, not written yet
		}
		a, err := os.ReadFile(filepath.Join(master.opts.commitLogDir(), n.Name()))
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(slave.opts.commitLogDir(), n.Name()))
		require.NoError(t, err)
		require.True(t, bytes.Equal(a, b), "commitlog file %s differs", n.Name())
	}
}

func TestHAReplicatesByteForByte(t *testing.T) {
	mo := smallOptions(t.TempDir())
	mo.HA.TransferBatchSize = 3000 // several frames per file
	master := openStarted(t, mo)
	for i := range 40 {
		require.Equal(t, PutOK, master.PutMessage(ptr(testMessage("HATopic", int32(i%2), i))).Status)
	}
	m := startHAMaster(t, master)
	so := smallOptions(t.TempDir())
	so.Slave = true
	slave := openStarted(t, so)
	// A slave with an empty store asks for 0: the master starts at its
	// last file, so write into the first only before the slave connects.
	require.Less(t, master.CommitLogMaxOffset(), mo.CommitLogFileSize)
	startHAClient(t, slave, m.Addr())
	// Connected is not enough: the master takes the slave's first offset
	// after, and a file begun before then would be where it starts.
	eventuallyHA(t, func() bool {
		cs := m.Connections()
		return len(cs) == 1 && cs[0].TransferFrom >= 0
	}, "the slave's transfer started")
	for i := 40; i < 200; i++ {
		require.Equal(t, PutOK, master.PutMessage(ptr(testMessage("HATopic", int32(i%2), i))).Status)
	}
	end := master.CommitLogMaxOffset()
	eventuallyHA(t, func() bool { return slave.CommitLogMaxOffset() == end && m.AckedOffset() == end }, "slave caught up")
	requireSameCommitLog(t, master, slave)
	waitDispatched(t, slave)
	waitDispatched(t, master)
	require.Equal(t, master.MaxOffset("HATopic", 0), slave.MaxOffset("HATopic", 0))
	require.Equal(t, master.MaxOffset("HATopic", 1), slave.MaxOffset("HATopic", 1))
	found := slave.QueryMessages("HATopic", "k7", 10, 0, 1<<62)
	require.NotEmpty(t, found.Messages)
	found.Release()
	require.True(t, m.SlaveOK(end))
	require.Equal(t, PutServiceNotAvailable, slave.PutMessage(ptr(testMessage("HATopic", 0, 1))).Status)
}

func TestHAEmptySlaveStartsAtMastersLastFile(t *testing.T) {
	master := openStarted(t, smallOptions(t.TempDir()))
	for i := 0; master.CommitLogMaxOffset() < 100*1024; i++ {
		require.Equal(t, PutOK, master.PutMessage(ptr(testMessage("HATopic", 0, i))).Status)
	}
	m := startHAMaster(t, master)
	so := smallOptions(t.TempDir())
	so.Slave = true
	slave := openStarted(t, so)
	startHAClient(t, slave, m.Addr())
	end := master.CommitLogMaxOffset()
	eventuallyHA(t, func() bool { return slave.CommitLogMaxOffset() == end }, "slave caught up")
	require.Equal(t, int64(64*1024), slave.CommitLogMinOffset())
	waitDispatched(t, slave)
	waitDispatched(t, master)
	require.Equal(t, master.MaxOffset("HATopic", 0), slave.MaxOffset("HATopic", 0))
}

// rawSlave connects to m as a bare socket and sends offset.
func rawSlave(t *testing.T, m *HAMaster, offset int64) net.Conn {
	t.Helper()
	nc, err := net.Dial("tcp", m.Addr())
	require.NoError(t, err)
	t.Cleanup(func() { nc.Close() })
	require.NoError(t, binary.Write(nc, binary.BigEndian, offset))
	return nc
}

func TestHAMasterFramesAndHeartbeat(t *testing.T) {
	o := smallOptions(t.TempDir())
	o.HA.HeartbeatInterval = 50 * time.Millisecond
	master := openStarted(t, o)
	res := master.PutMessage(ptr(testMessage("HATopic", 0, 1)))
	require.Equal(t, PutOK, res.Status)
	m := startHAMaster(t, master)
	nc := rawSlave(t, m, 0)
	header := make([]byte, haHeaderLen)
	_, err := io.ReadFull(nc, header)
	require.NoError(t, err)
	require.Equal(t, uint64(0), binary.BigEndian.Uint64(header))
	require.Equal(t, uint32(res.WroteBytes), binary.BigEndian.Uint32(header[8:]))
	body := make([]byte, res.WroteBytes)
	_, err = io.ReadFull(nc, body)
	require.NoError(t, err)
	rec, release, ok := master.ReadRecord(0)
	require.True(t, ok)
	require.Equal(t, rec, body)
	release()
	// Idle: a heartbeat at the next offset.
	_, err = io.ReadFull(nc, header)
	require.NoError(t, err)
	require.Equal(t, uint64(res.WroteBytes), binary.BigEndian.Uint64(header))
	require.Zero(t, binary.BigEndian.Uint32(header[8:]))
	// An ack beyond the master's end closes the connection.
	require.NoError(t, binary.Write(nc, binary.BigEndian, int64(1<<40)))
	eventuallyHA(t, func() bool { return m.Slaves() == 0 }, "connection closed")
}

func TestHASlaveRefusesFrameNotAtItsEnd(t *testing.T) {
	so := smallOptions(t.TempDir())
	so.Slave = true
	slave := openStarted(t, so)
	require.NoError(t, slave.cl.appendRaw(0, make([]byte, 0)))
	err := slave.cl.appendRaw(100, []byte{1})
	require.ErrorIs(t, err, ErrReplication)
	require.Contains(t, err.Error(), "master pushed offset not equal the max phy offset in slave")
}

func TestHASyncMasterWaitsForTheSlave(t *testing.T) {
	o := smallOptions(t.TempDir())
	o.SyncMaster = true
	o.SyncFlushTimeout = 100 * time.Millisecond
	master := openStarted(t, o)
	// No HA master at all, then no slave: stored, but SLAVE_NOT_AVAILABLE.
	require.Equal(t, PutSlaveNotAvailable, master.PutMessage(ptr(testMessage("HATopic", 0, 1))).Status)
	m := startHAMaster(t, master)
	res := master.PutMessage(ptr(testMessage("HATopic", 0, 2)))
	require.Equal(t, PutSlaveNotAvailable, res.Status)
	require.Positive(t, res.WroteBytes)
	// WAIT=false does not wait.
	noWait := testMessage("HATopic", 0, 3)
	noWait.Properties = EncodeProperties(map[string]string{"WAIT": "false"})
	require.Equal(t, PutOK, master.PutMessage(&noWait).Status)
	// A slave that never acknowledges: FLUSH_SLAVE_TIMEOUT.
	rawSlave(t, m, master.CommitLogMaxOffset())
	eventuallyHA(t, func() bool { return m.Slaves() == 1 }, "raw slave connected")
	eventuallyHA(t, func() bool { return m.AckedOffset() == master.CommitLogMaxOffset() }, "raw slave's first offset")
	require.Equal(t, PutFlushSlaveTimeout, master.PutMessage(ptr(testMessage("HATopic", 0, 4))).Status)
	// A real slave acknowledges: PUT_OK.
	so := smallOptions(t.TempDir())
	so.Slave = true
	startHAClient(t, openStarted(t, so), m.Addr())
	eventuallyHA(t, func() bool { return m.Slaves() == 2 }, "slave connected")
	eventuallyHA(t, func() bool {
		return master.PutMessage(ptr(testMessage("HATopic", 0, 5))).Status == PutOK
	}, "a put acknowledged by the slave")
}
