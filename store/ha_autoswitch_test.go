package store

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"
)

// asNode is one controller-mode store with its AutoSwitchHA, as Java's
// AutoSwitchHATest builds them.
type asNode struct {
	t  *testing.T
	id int64
	s  *Store
	h  *AutoSwitchHA

	mu        sync.Mutex
	proposals [][]int64
}

func asOptions(dir string) Options {
	o := smallOptions(dir)
	o.ControllerMode = true
	o.HA.HeartbeatInterval = 200 * time.Millisecond
	o.HA.TransferBatchSize = 3000 // several frames per file
	o.AutoSwitch.SlaveTimeout = 2 * time.Second
	return o
}

// startAS opens, starts and serves a store; both close at cleanup.
func startAS(t *testing.T, o Options, id int64) *asNode {
	t.Helper()
	n := &asNode{t: t, id: id, s: openStarted(t, o)}
	n.serve()
	return n
}

func (n *asNode) serve() {
	n.h = NewAutoSwitchHA(n.s, "127.0.0.1:0", func(set []int64) {
		n.mu.Lock()
		n.proposals = append(n.proposals, set)
		n.mu.Unlock()
	})
	require.NoError(n.t, n.h.Start())
	n.h.SetLocalID(n.id)
	h := n.h
	n.t.Cleanup(func() { h.Close() })
}

func (n *asNode) lastProposal() []int64 {
	n.mu.Lock()
	defer n.mu.Unlock()
	if len(n.proposals) == 0 {
		return nil
	}
	return n.proposals[len(n.proposals)-1]
}

// becomeMaster adopts {id} and changes to master of epoch, as the
// broker's changeToMaster does.
func (n *asNode) becomeMaster(epoch int32) {
	n.h.SetSyncStateSet([]int64{n.id})
	require.True(n.t, n.h.ChangeToMaster(epoch))
	require.Equal(n.t, RoleMaster, n.s.Role())
}

func (n *asNode) followMaster(m *asNode, epoch int32) {
	require.True(n.t, n.h.ChangeToSlave(epoch, n.id))
	require.Equal(n.t, RoleSlave, n.s.Role())
	n.h.SetMasterHAAddress(m.h.Addr())
}

// put puts messages from..to-1 of the test stream on queue 0.
func (n *asNode) put(from, to int) {
	n.t.Helper()
	for i := from; i < to; i++ {
		res := n.s.PutMessage(ptr(testMessage("AS", 0, i)))
		require.Equal(n.t, PutOK, res.Status, res.Reason)
	}
}

// caughtUp waits until slave holds master's commitlog and epochs and has
// made it visible, then compares the bytes.
func caughtUp(t *testing.T, master, slave *asNode) {
	t.Helper()
	end := master.s.CommitLogMaxOffset()
	eventuallyHA(t, func() bool {
		return slave.s.CommitLogMaxOffset() == end && slave.s.DispatchedOffset() == end
	}, "slave caught up")
	requireSameCommitLogFrom(t, master.s, slave.s, max(master.s.CommitLogMinOffset(), slave.s.CommitLogMinOffset()))
	eventuallyHA(t, func() bool {
		return equalEpochs(master.h.EpochEntries(), slave.h.EpochEntries())
	}, "same epochs")
	waitDispatched(t, master.s)
	require.Equal(t, master.s.MaxOffset("AS", 0), slave.s.MaxOffset("AS", 0))
}

// requireSameCommitLogFrom compares the written commitlog files of both
// stores that start at or after from.
func requireSameCommitLogFrom(t *testing.T, a, b *Store, from int64) {
	t.Helper()
	names, err := os.ReadDir(a.opts.commitLogDir())
	require.NoError(t, err)
	for _, n := range names {
		start, err := parseFileName(n.Name())
		if err != nil || start < from || start >= a.CommitLogMaxOffset() {
			continue
		}
		x, err := os.ReadFile(filepath.Join(a.opts.commitLogDir(), n.Name()))
		require.NoError(t, err)
		y, err := os.ReadFile(filepath.Join(b.opts.commitLogDir(), n.Name()))
		require.NoError(t, err)
		require.True(t, bytes.Equal(x, y), "commitlog file %s differs", n.Name())
	}
}

// equalEpochs reports whether b is a's list or its end (a store whose
// old epochs were dropped with its first files keeps only the end).
func equalEpochs(a, b []EpochEntry) bool {
	if len(a) < len(b) || len(b) == 0 {
		return false
	}
	a = a[len(a)-len(b):]
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestAutoSwitchReplicatesByteForByte(t *testing.T) {
	n1 := startAS(t, asOptions(t.TempDir()), 1)
	n2 := startAS(t, asOptions(t.TempDir()), 2)
	n1.becomeMaster(1)
	n1.put(0, 30)
	n2.followMaster(n1, 1)
	n1.put(30, 200)
	require.Greater(t, n1.s.CommitLogMaxOffset(), n1.s.opts.CommitLogFileSize, "crosses a file")
	caughtUp(t, n1, n2)
	require.Equal(t, []EpochEntry{{1, 0, 1<<63 - 1}}, n2.h.EpochEntries())
	require.Equal(t, n1.s.CommitLogMaxOffset(), n2.s.ConfirmOffset())
	require.Equal(t, PutServiceNotAvailable, n2.s.PutMessage(ptr(testMessage("AS", 0, 1))).Status)

	// testCheckSynchronizingSyncStateSetFlag: the caught-up slave is
	// proposed and counted at once; the controller's answer ends it.
	eventuallyHA(t, func() bool { return n1.h.IsSynchronizingSyncStateSet() }, "expansion proposed")
	require.Equal(t, []int64{1, 2}, n1.h.SyncStateSet())
	require.Equal(t, []int64{1}, n1.h.LocalSyncStateSet())
	require.Equal(t, 2, n1.h.InSyncReplicasNums())
	eventuallyHA(t, func() bool { return slices.Equal(n1.lastProposal(), []int64{1, 2}) }, "onPropose called")
	n1.h.SetSyncStateSet([]int64{1, 2})
	require.False(t, n1.h.IsSynchronizingSyncStateSet())
	require.Equal(t, []int64{1, 2}, n1.h.LocalSyncStateSet())

	conns := n1.h.Connections()
	require.Len(t, conns, 1)
	require.Equal(t, int64(2), conns[0].SlaveID)
	require.True(t, conns[0].InSync)
	require.Equal(t, n1.s.CommitLogMaxOffset(), conns[0].AckOffset)
	st, ok := n2.h.ClientStatus()
	require.True(t, ok)
	require.True(t, st.Connected)
	require.Equal(t, "TRANSFER", st.State)

	// Shrink on disconnect: the slave leaves, the master proposes {1}.
	require.NoError(t, n2.h.Close())
	eventuallyHA(t, func() bool { return slices.Equal(n1.lastProposal(), []int64{1}) }, "shrink proposed")
	require.Equal(t, []int64{1, 2}, n1.h.SyncStateSet(), "a shrink waits for the controller")
	newSet, changed := n1.h.CheckSyncStateSet()
	require.Equal(t, []int64{1, 2}, newSet, "caught up moments ago")
	require.False(t, changed)
	// Shrink on lag: not caught up for haMaxTimeSlaveNotCatchup.
	n1.s.opts.AutoSwitch.HaMaxTimeSlaveNotCatchup = time.Millisecond
	eventuallyHA(t, func() bool {
		newSet, changed = n1.h.CheckSyncStateSet()
		return changed
	}, "lagging slave dropped")
	require.Equal(t, []int64{1}, newSet)
}

// TestAutoSwitchChangeRoleManyTimes mirrors Java's testChangeRoleManyTimes.
func TestAutoSwitchChangeRoleManyTimes(t *testing.T) {
	n1 := startAS(t, asOptions(t.TempDir()), 1)
	n2 := startAS(t, asOptions(t.TempDir()), 2)
	n1.becomeMaster(1)
	n2.followMaster(n1, 1)
	n1.put(0, 10)
	caughtUp(t, n1, n2)

	n2.becomeMaster(2)
	n1.followMaster(n2, 2)
	n2.put(10, 20)
	caughtUp(t, n2, n1)

	n1.becomeMaster(3)
	n2.followMaster(n1, 3)
	n1.put(20, 30)
	caughtUp(t, n1, n2)
	require.Equal(t, int64(30), n2.s.MaxOffset("AS", 0))
	es := n2.h.EpochEntries()
	require.Len(t, es, 3)
	require.Equal(t, []int32{1, 2, 3}, []int32{es[0].Epoch, es[1].Epoch, es[2].Epoch})
	require.Equal(t, int64(0), es[0].StartOffset)

	require.False(t, n2.h.ChangeToMaster(2), "a stale epoch is refused")
	require.False(t, n2.h.ChangeToSlave(2, 2))
	require.True(t, n2.h.ChangeToSlaveWhenMasterNotChange(3))
}

// TestAutoSwitchOldMasterTruncatesItsTail: the old master wrote after
// the new one took over; back as a slave it cuts that tail at the
// consistent point and then matches the new master byte for byte, its
// consume queue included.
func TestAutoSwitchOldMasterTruncatesItsTail(t *testing.T) {
	n1 := startAS(t, asOptions(t.TempDir()), 1)
	n2 := startAS(t, asOptions(t.TempDir()), 2)
	n1.becomeMaster(1)
	n2.followMaster(n1, 1)
	n1.put(0, 10)
	caughtUp(t, n1, n2)
	shared := n1.s.CommitLogMaxOffset()

	n2.becomeMaster(2)
	n1.put(100, 105) // the old master's unconfirmed tail
	n2.put(200, 207)
	require.Greater(t, n1.s.CommitLogMaxOffset(), shared)
	waitDispatched(t, n1.s)
	require.Equal(t, int64(15), n1.s.MaxOffset("AS", 0))

	n1.followMaster(n2, 2)
	caughtUp(t, n2, n1)
	require.Equal(t, int64(17), n1.s.MaxOffset("AS", 0))
	require.Equal(t, []EpochEntry{{1, 0, shared}, {2, shared, 1<<63 - 1}}, n1.h.EpochEntries())
	got := n1.s.GetMessages("AS", 0, 10, 10, nil)
	defer got.Release()
	require.Len(t, got.Messages, 7)
	for i, m := range got.Messages {
		r, err := decodeStored(m.Data)
		require.NoError(t, err)
		require.Equal(t, testMessage("AS", 0, 200+i).Body, r.Body)
	}
}

func decodeStored(data []byte) (Record, error) {
	r, check, why := decodeRecord(data, true)
	if check != recordOK {
		return r, errorf("%s", why)
	}
	return r, nil
}

// TestAutoSwitchAddBrokerAndSyncFromLastFile mirrors testAddBroker and
// testAddBrokerAndSyncFromLastFile: a third store joins; with
// syncFromLastFile an empty one gets only the master's last file.
func TestAutoSwitchAddBrokerAndSyncFromLastFile(t *testing.T) {
	n1 := startAS(t, asOptions(t.TempDir()), 1)
	n2 := startAS(t, asOptions(t.TempDir()), 2)
	n1.becomeMaster(1)
	n2.followMaster(n1, 1)
	for i := 0; n1.s.CommitLogMaxOffset() < 100*1024; i++ {
		n1.put(i, i+1)
	}
	caughtUp(t, n1, n2)

	o3 := asOptions(t.TempDir())
	o3.AutoSwitch.SyncFromLastFile = true
	n3 := startAS(t, o3, 3)
	n3.followMaster(n1, 1)
	end := n1.s.CommitLogMaxOffset()
	lastFile := end - end%n1.s.opts.CommitLogFileSize
	eventuallyHA(t, func() bool { return n3.s.CommitLogMaxOffset() == end }, "third store caught up")
	require.Equal(t, lastFile, n3.s.CommitLogMinOffset())
	name := fileName(lastFile)
	a, err := os.ReadFile(filepath.Join(n1.s.opts.commitLogDir(), name))
	require.NoError(t, err)
	b, err := os.ReadFile(filepath.Join(n3.s.opts.commitLogDir(), name))
	require.NoError(t, err)
	require.True(t, bytes.Equal(a, b))
	require.Len(t, n1.h.Connections(), 2)
}

// TestAutoSwitchAllAckInSyncStateSet mirrors testConfirmOffset and
// testOptionAllAckInSyncStateSet.
func TestAutoSwitchAllAckInSyncStateSet(t *testing.T) {
	o := asOptions(t.TempDir())
	o.AutoSwitch.AllAckInSyncStateSet = true
	o.AutoSwitch.SlaveTimeout = 500 * time.Millisecond
	n1 := startAS(t, o, 1)
	o2 := asOptions(t.TempDir())
	o2.AutoSwitch.AllAckInSyncStateSet = true
	n2 := startAS(t, o2, 2)
	n2.followMaster(n1, 1)
	n1.h.SetSyncStateSet([]int64{1, 2})
	require.True(t, n1.h.ChangeToMaster(1))
	eventuallyHA(t, func() bool {
		c := n1.h.Connections()
		return len(c) == 1 && c[0].State == "TRANSFER"
	}, "slave connected")
	n1.put(0, 10)
	require.Equal(t, n1.s.CommitLogMaxOffset(), n1.s.ConfirmOffset(), "every put was acked")
	caughtUp(t, n1, n2)
	confirm := n1.s.ConfirmOffset()

	require.NoError(t, n2.h.Close())
	eventuallyHA(t, func() bool { return len(n1.h.Connections()) == 0 }, "slave gone")
	res := n1.s.PutMessage(ptr(testMessage("AS", 0, 10)))
	require.Equal(t, PutFlushSlaveTimeout, res.Status)
	require.Greater(t, n1.s.CommitLogMaxOffset(), confirm, "the message is stored")
	require.Equal(t, confirm, n1.s.ConfirmOffset(), "an in-set slave without a connection holds the confirm offset")
	waitDispatched(t, n1.s)
	require.Equal(t, int64(10), n1.s.MaxOffset("AS", 0), "the unconfirmed message is not visible")

	// The controller shrinks the set: the rest is confirmed.
	n1.h.SetSyncStateSet([]int64{1})
	require.Equal(t, n1.s.CommitLogMaxOffset(), n1.s.ConfirmOffset())
	waitDispatched(t, n1.s)
	require.Equal(t, int64(11), n1.s.MaxOffset("AS", 0))
}

func TestAutoSwitchInSyncReplicas(t *testing.T) {
	o := asOptions(t.TempDir())
	o.AutoSwitch.MinInSyncReplicas = 2
	n1 := startAS(t, o, 1)
	n1.becomeMaster(1)
	end := n1.s.CommitLogMaxOffset()
	res := n1.s.PutMessage(ptr(testMessage("AS", 0, 0)))
	require.Equal(t, PutInSyncReplicasNotEnough, res.Status)
	require.Equal(t, "IN_SYNC_REPLICAS_NOT_ENOUGH", res.Status.String())
	require.Equal(t, end, n1.s.CommitLogMaxOffset(), "refused before it is written")

	// inSyncReplicas counts any connection's acks.
	o = asOptions(t.TempDir())
	o.AutoSwitch.InSyncReplicas = 2
	o.AutoSwitch.SlaveTimeout = 300 * time.Millisecond
	m := startAS(t, o, 1)
	m.becomeMaster(1)
	require.Equal(t, PutFlushSlaveTimeout, m.s.PutMessage(ptr(testMessage("AS", 0, 0))).Status)
	o2 := asOptions(t.TempDir())
	o2.AutoSwitch.AsyncLearner = true
	learner := startAS(t, o2, 5)
	learner.followMaster(m, 1)
	eventuallyHA(t, func() bool { return len(m.h.Connections()) == 1 }, "learner connected")
	eventuallyHA(t, func() bool {
		return m.s.PutMessage(ptr(testMessage("AS", 0, 1))).Status == PutOK
	}, "acked by the learner")
	caughtUp(t, m, learner)
	require.Equal(t, []int64{1}, m.h.SyncStateSet(), "an async learner never joins the set")
}

func TestAutoSwitchFencedRefusesPuts(t *testing.T) {
	n := startAS(t, asOptions(t.TempDir()), 1)
	n.becomeMaster(1)
	n.s.SetFenced(true)
	require.Equal(t, PutServiceNotAvailable, n.s.PutMessage(ptr(testMessage("AS", 0, 0))).Status)
	n.s.SetFenced(false)
	n.put(0, 1)
}

// TestConfirmOffsetCapsDispatchAndRecovery mirrors
// testBuildConsumeQueueNotExceedConfirmOffset: the confirm offset is
// kept at checkpoint byte 32, and a restarted slave builds its consume
// queue only up to it, after a clean stop and after a crash.
func TestConfirmOffsetCapsDispatchAndRecovery(t *testing.T) {
	n1 := startAS(t, asOptions(t.TempDir()), 1)
	o2 := asOptions(t.TempDir())
	n2 := startAS(t, o2, 2)
	n1.becomeMaster(1)
	n2.followMaster(n1, 1)
	n1.put(0, 10)
	caughtUp(t, n1, n2)
	got := n2.s.GetMessages("AS", 0, 5, 1, nil)
	fifth := got.Messages[0].CommitLogOffset
	got.Release()
	require.NoError(t, n2.h.Close())
	n2.s.SetConfirmOffset(fifth)
	require.NoError(t, n2.s.Close())
	cp, err := os.ReadFile(o2.checkpointPath())
	require.NoError(t, err)
	require.Equal(t, fifth, int64(binary.BigEndian.Uint64(cp[32:])))

	o2.Slave = true
	for _, crash := range []bool{false, true} {
		require.NoError(t, os.RemoveAll(o2.consumeQueueDir()))
		if crash {
			require.NoError(t, os.WriteFile(o2.abortPath(), nil, 0o644))
		}
		s, err := Open(o2, zaptest.NewLogger(t))
		require.NoError(t, err)
		require.Equal(t, !crash, s.LastExitOK())
		require.NoError(t, s.Start())
		require.Equal(t, fifth, s.ConfirmOffset())
		require.Equal(t, fifth, s.DispatchedOffset())
		require.Equal(t, int64(5), s.MaxOffset("AS", 0))
		if crash {
			s.SetConfirmOffset(s.CommitLogMaxOffset())
			eventuallyHA(t, func() bool { return s.MaxOffset("AS", 0) == 10 }, "dispatch resumes")
			s.SetConfirmOffset(fifth)
		}
		require.NoError(t, s.Close())
	}
}

// TestConfirmOffsetOutsideControllerMode: nothing changes there.
func TestConfirmOffsetOutsideControllerMode(t *testing.T) {
	o := smallOptions(t.TempDir())
	s := openStarted(t, o)
	for i := range 5 {
		require.Equal(t, PutOK, s.PutMessage(ptr(testMessage("T", 0, i))).Status)
	}
	waitDispatched(t, s)
	require.Equal(t, s.CommitLogMaxOffset(), s.ConfirmOffset())
	require.Equal(t, int64(5), s.MaxOffset("T", 0))
	s.SetRole(RoleSlave)
	require.Equal(t, PutServiceNotAvailable, s.PutMessage(ptr(testMessage("T", 0, 9))).Status)
	s.SetRole(RoleMaster)
	require.Equal(t, PutOK, s.PutMessage(ptr(testMessage("T", 0, 9))).Status)
}

// TestAutoSwitchTruncateEpochLogAndChangeMaster mirrors
// testTruncateEpochLogAndAddBroker and testTruncateEpochLogAndChangeMaster:
// the master's first file (all of epoch 1) is deleted and its epoch
// dropped; a new slave gets the rest from the master's first file left;
// then the old slave becomes master and the old master follows it.
func TestAutoSwitchTruncateEpochLogAndChangeMaster(t *testing.T) {
	n1 := startAS(t, asOptions(t.TempDir()), 1)
	n2 := startAS(t, asOptions(t.TempDir()), 2)
	n1.becomeMaster(1)
	n2.followMaster(n1, 1)
	fileSize := n1.s.opts.CommitLogFileSize
	i := 0
	for ; n1.s.CommitLogMaxOffset() < fileSize-2048; i++ {
		n1.put(i, i+1)
	}
	caughtUp(t, n1, n2)
	epoch2 := n1.s.CommitLogMaxOffset()
	n1.becomeMaster(2)
	n2.followMaster(n1, 2)
	for j := i + 40; i < j; i++ {
		n1.put(i, i+1)
	}
	caughtUp(t, n1, n2)
	require.Greater(t, n1.s.CommitLogMaxOffset(), fileSize)

	for _, f := range n1.s.cl.files.removeFirst(1) {
		require.NoError(t, f.destroy())
	}
	require.Equal(t, fileSize, n1.s.CommitLogMinOffset())
	n1.h.TruncateEpochFilePrefix(fileSize - 1)
	require.Equal(t, []EpochEntry{{2, epoch2, 1<<63 - 1}}, n1.h.EpochEntries())

	n3 := startAS(t, asOptions(t.TempDir()), 3)
	n3.followMaster(n1, 2)
	eventuallyHA(t, func() bool { return n3.s.CommitLogMaxOffset() == n1.s.CommitLogMaxOffset() }, "third store caught up")
	require.Equal(t, fileSize, n3.s.CommitLogMinOffset())

	n2.becomeMaster(3)
	n3.followMaster(n2, 3)
	n1.followMaster(n2, 3)
	n2.put(i, i+10)
	caughtUp(t, n2, n1)
	eventuallyHA(t, func() bool { return n3.s.CommitLogMaxOffset() == n2.s.CommitLogMaxOffset() }, "n3 follows the new master")
	require.Equal(t, int64(i+10), n1.s.MaxOffset("AS", 0))
}
