package broker

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// pullOne pulls a queue with its own subscription ("*") and returns the
// answer; commitOffset >= 0 also commits it.
func pullOne(t *testing.T, c *remoting.Client, b *Broker, topic string, offset, commitOffset int64) *remoting.Command {
	t.Helper()
	flag := int32(protocol.PullFlagSubscription)
	if commitOffset >= 0 {
		flag |= protocol.PullFlagCommitOffset
	}
	req := pullRequest("GP", topic, 0, offset, "*", flag, 0)
	req.SetExt("maxMsgNums", "1")
	if commitOffset >= 0 {
		req.SetExt("commitOffset", itoa(commitOffset))
	}
	return invoke(t, c, b.Addr(), req)
}

// sendN sends n messages to queue 0 of topic.
func sendN(t *testing.T, c *remoting.Client, b *Broker, topic string, n int) {
	t.Helper()
	for range n {
		body := []byte("m")
		require.Equal(t, int32(remoting.Success), invoke(t, c, b.Addr(), withBody(sendRequest(topic, 0, body, nil), body)).Code)
	}
}

// suggested is an answer's suggestWhichBrokerId.
func suggested(t *testing.T, resp *remoting.Command) int64 {
	t.Helper()
	id, err := resp.ExtInt64("suggestWhichBrokerId")
	require.NoError(t, err)
	return id
}

// With slaveReadEnable a master suggests the group's
// whichBrokerWhenConsumeSlowly (1) to a reader further behind than
// accessMessageInMemoryMaxRatio of the memory, else the group's brokerId
// (0); without it, always the master.
func TestPullSuggestsSlaveToSlowReaders(t *testing.T) {
	for _, tc := range []struct {
		name      string
		slaveRead bool
		ratio     int32
		want      int64
	}{{"slow reader", true, 0, 1}, {"reader in memory", true, 40, 0}, {"slaveReadEnable off", false, 0, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			c := testConfigs(t.TempDir(), "")
			c.Broker.SlaveReadEnable = tc.slaveRead
			c.Store.AccessMessageInMemoryMaxRatio = tc.ratio
			b := startBroker(t, c, nil)
			cl := newClient(t, nil)
			sendN(t, cl, b, "TSlow", 2)
			dispatched(t, b)
			resp := pullOne(t, cl, b, "TSlow", 0, -1)
			require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
			assert.Equal(t, tc.want, suggested(t, resp))
		})
	}
}

// How a slave answers pulls, per line: 4.x serves them without
// slaveReadEnable (suggesting the master), 5.x refuses them; 5.x sends a
// reader that is not behind back to the master, and a pull that finds
// nothing is PULL_RETRY_IMMEDIATELY; an offset out of range is not
// corrected on a slave; 4.x records no offset a pull commits on a slave.
func TestSlavePullAnswersPerLine(t *testing.T) {
	t.Run("line4", func(t *testing.T) {
		master, slave := startPair(t, protocol.Line4, nil)
		c := newClient(t, nil)
		sendN(t, c, master, "TS4", 1)
		slave.slaveSync.syncAll()
		eventually(t, func() bool { return slave.store.MaxOffset("TS4", 0) == 1 }, "replicated")

		resp := pullOne(t, c, slave, "TS4", 0, 1)
		require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
		assert.Equal(t, int64(0), suggested(t, resp))
		assert.NotEqual(t, int64(1), queryOffset(t, c, slave, "GP", "TS4", 0), "4.x: no pull commit on a slave")

		resp = pullOne(t, c, slave, "TS4", 100, -1)
		assert.Equal(t, int32(remoting.PullRetryImmediately), resp.Code)
		assert.Equal(t, "100", resp.ExtString("nextBeginOffset"), "not corrected on a slave")
	})
	t.Run("line5 without slaveReadEnable", func(t *testing.T) {
		master, slave := startPair(t, protocol.Line5, nil)
		c := newClient(t, nil)
		sendN(t, c, master, "TS5", 1)
		resp := pullOne(t, c, slave, "TS5", 0, -1)
		assert.Equal(t, int32(remoting.SystemBusy), resp.Code)
		assert.Equal(t, rejectRequestRemark, resp.Remark)
	})
	t.Run("line5 with slaveReadEnable", func(t *testing.T) {
		master, slave := startPair(t, protocol.Line5, func(m, s *conf.BrokerConfigs) { s.Broker.SlaveReadEnable = true })
		c := newClient(t, nil)
		sendN(t, c, master, "TS5", 1)
		slave.slaveSync.syncAll()
		eventually(t, func() bool { return slave.store.MaxOffset("TS5", 0) == 1 }, "replicated")

		resp := pullOne(t, c, slave, "TS5", 0, 1)
		require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
		assert.Equal(t, int64(0), suggested(t, resp), "not behind: back to the master")
		assert.Equal(t, int64(1), queryOffset(t, c, slave, "GP", "TS5", 0), "5.x records the commit")

		resp = pullOne(t, c, slave, "TS5", 1, -1)
		assert.Equal(t, int32(remoting.PullRetryImmediately), resp.Code, "nothing new: retry, at the master")
		assert.Equal(t, int64(0), suggested(t, resp))
	})
}
