package broker

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/configfile"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// queueRecords reads every record of a queue from the store.
func queueRecords(t *testing.T, b *Broker, topic string, queueID int32) []store.Record {
	t.Helper()
	var out []store.Record
	require.NoError(t, b.store.WalkQueue(topic, queueID, func(_ int64, u store.QueueUnit) error {
		r, err := b.store.LookMessage(u.CommitLogOffset)
		out = append(out, r)
		return err
	}))
	return out
}

// A delayed message waits in SCHEDULE_TOPIC_XXXX queue level-1 and is then
// written to its topic and queue, not before its level's delay, with what
// it was sent with; a level above the highest acts as the highest; the
// progress survives a restart in delayOffset.json.
func TestDelayedMessageIsDeliveredToItsTopicWhenDue(t *testing.T) {
	dir := t.TempDir()
	c := testConfigs(dir, "")
	c.Store.MessageDelayLevel = "1s 1s 2s"
	b := startBroker(t, c, nil)
	cl := newClient(t, nil)
	props := map[string]string{"TAGS": "TagA", "KEYS": "k1", "UNIQ_KEY": "U1", "color": "red", "DELAY": "1"}
	resp := invoke(t, cl, b.Addr(), withBody(sendRequest("TD", 1, nil, props), []byte("late")))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	props["DELAY"], props["UNIQ_KEY"] = "7", "U2"
	resp = invoke(t, cl, b.Addr(), withBody(sendRequest("TD", 1, nil, props), []byte("later")))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	dispatched(t, b)

	held := queueRecords(t, b, store.ScheduleTopic, 0)
	require.Len(t, held, 1)
	heldProps := store.ParseProperties(string(held[0].Properties))
	assert.Equal(t, "TD", heldProps["REAL_TOPIC"])
	assert.Equal(t, "1", heldProps["REAL_QID"])
	capped := queueRecords(t, b, store.ScheduleTopic, 2)
	require.Len(t, capped, 1, "level 7 is held as the highest level, 3")
	assert.Equal(t, "3", store.ParseProperties(string(capped[0].Properties))["DELAY"])
	assert.Zero(t, b.store.MaxOffset("TD", 1), "nothing delivered at once")

	eventually(t, func() bool { return b.store.MaxOffset("TD", 1) == 2 }, "both delivered")
	got := queueRecords(t, b, "TD", 1)
	assert.Equal(t, "late", string(got[0].Body))
	assert.Equal(t, "later", string(got[1].Body))
	assert.GreaterOrEqual(t, got[0].StoreTimestamp-held[0].StoreTimestamp, int64(1000), "not before its delay")
	assert.GreaterOrEqual(t, got[1].StoreTimestamp-capped[0].StoreTimestamp, int64(2000), "not before its delay")
	p := store.ParseProperties(string(got[0].Properties))
	for _, k := range []string{"TAGS", "KEYS", "UNIQ_KEY", "color"} {
		assert.Equal(t, heldProps[k], p[k], k)
	}
	assert.Equal(t, string(held[0].Properties), string(got[0].Properties), "Java keeps DELAY, REAL_TOPIC and REAL_QID in the delivered message")
	assert.Equal(t, held[0].BornTimestamp, got[0].BornTimestamp)

	require.NoError(t, b.Close())
	w, _, err := configfile.Dir{Path: dir + "/store/config"}.LoadDelayOffsets()
	require.NoError(t, err)
	assert.Equal(t, map[int32]int64{1: 1, 3: 1}, w.OffsetTable)
	b2 := startBroker(t, c, nil)
	assert.Equal(t, map[int32]int64{1: 1, 3: 1}, b2.schedule.snapshot(), "resumes where it stopped")
}
