package broker

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

// popRequest is a POP_MESSAGE as the 5.x client sends it.
func popRequest(group, topic string, queueID int32, maxNums int, invisible, poll time.Duration) *remoting.Command {
	return remoting.NewRequest(remoting.PopMessage, map[string]string{
		"consumerGroup": group, "topic": topic, "queueId": strconv.Itoa(int(queueID)), "maxMsgNums": strconv.Itoa(maxNums),
		"invisibleTime": strconv.FormatInt(invisible.Milliseconds(), 10), "pollTime": strconv.FormatInt(poll.Milliseconds(), 10),
		"bornTime": strconv.FormatInt(time.Now().UnixMilli(), 10), "initMode": "0", "expType": "TAG", "exp": "*",
		"order": "false", "bname": "broker-t",
	})
}

// popped is a popped message with the handle the client builds for it.
type popped struct {
	rec    store.Record
	key    string
	handle protocol.PopHandle
	topic  string // the topic to ack it on
}

// poppedMessages reads a POP answer as MQClientAPIImpl.processPopResponse
// does: a message of the topic gets its handle from the offset strings, a
// retry topic's message carries it in POP_CK.
func poppedMessages(t *testing.T, resp *remoting.Command, group, topic string) []popped {
	t.Helper()
	starts, err := protocol.ParsePopInfo(resp.ExtString("startOffsetInfo"))
	require.NoError(t, err)
	popTime, _ := strconv.ParseInt(resp.ExtString("popTime"), 10, 64)
	invisible, _ := strconv.ParseInt(resp.ExtString("invisibleTime"), 10, 64)
	rqid, _ := strconv.Atoi(resp.ExtString("reviveQid"))
	var out []popped
	for _, rec := range decodeRecords(t, resp.Body) {
		p := popped{rec: rec}
		p.key, _ = rec.Property(propKeys)
		if ck, ok := rec.Property(propPopCK); ok {
			p.handle, err = protocol.ParsePopHandle(ck)
			require.NoError(t, err)
		} else {
			so, err := strconv.ParseInt(starts["0@"+itoa(rec.QueueID)], 10, 64)
			require.NoError(t, err)
			p.handle = protocol.PopHandle{CkQueueOffset: so, PopTime: popTime, InvisibleTime: invisible, ReviveQueueID: int32(rqid),
				RetryFlag: '0', BrokerName: "broker-t", QueueID: rec.QueueID, QueueOffset: rec.QueueOffset, CommitLogOffset: -1}
		}
		p.topic, err = protocol.TopicOfFlag(p.handle.RetryFlag, group, topic)
		require.NoError(t, err)
		out = append(out, p)
	}
	return out
}

func ackRequest(group string, p popped) *remoting.Command {
	return remoting.NewRequest(remoting.AckMessage, map[string]string{"consumerGroup": group, "topic": p.topic,
		"queueId": itoa(p.handle.QueueID), "extraInfo": p.handle.String(), "offset": strconv.FormatInt(p.handle.QueueOffset, 10)})
}

func sendKeyed(t *testing.T, c *remoting.Client, b *Broker, topic string, n int) {
	t.Helper()
	for i := range n {
		key := fmt.Sprintf("k%d", i)
		resp := invoke(t, c, b.Addr(), withBody(sendRequest(topic, int32(i%4), []byte(key), map[string]string{propKeys: key, propUniqKey: "U" + key}), []byte(key)))
		require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	}
	dispatched(t, b)
}

// A pop hands out every message once and moves the group's offset past
// them; what is acked stays gone, what is not comes back from the POP
// retry topic once its invisible time is over, under the topic's name,
// with reconsumeTimes 1, its handle in POP_CK and its message id kept.
func TestPopAckAndRevive(t *testing.T) {
	b := startLine5Broker(t, testConfigs(t.TempDir(), ""))
	c := newClient(t, nil)
	require.Equal(t, int32(remoting.Success), createTopic(t, c, b, "PT", "").Code)
	sendKeyed(t, c, b, "PT", 8)

	resp := invoke(t, c, b.Addr(), popRequest("PG", "PT", -1, 32, 3*time.Second, 0))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	got := poppedMessages(t, resp, "PG", "PT")
	require.Len(t, got, 8)
	keys := map[string]bool{}
	for _, p := range got {
		keys[p.key] = true
	}
	assert.Len(t, keys, 8, "each message once")
	for q := range int32(4) {
		assert.Equal(t, int64(2), b.offsets.query("PG", "PT", q), "the offset moved past what was popped")
	}
	resp = invoke(t, c, b.Addr(), popRequest("PG", "PT", -1, 32, 3*time.Second, 0))
	assert.Equal(t, int32(remoting.PollingTimeout), resp.Code, "nothing left to pop")

	unacked := map[string]bool{}
	for i, p := range got {
		if i%2 == 0 {
			ack := invoke(t, c, b.Addr(), ackRequest("PG", p))
			require.Equal(t, int32(remoting.Success), ack.Code, ack.Remark)
		} else {
			unacked[p.key] = true
		}
	}

	back := map[string]popped{}
	eventually(t, func() bool {
		resp := invoke(t, c, b.Addr(), popRequest("PG", "PT", -1, 32, 60*time.Second, 0))
		if resp.Code == int32(remoting.Success) {
			for _, p := range poppedMessages(t, resp, "PG", "PT") {
				back[p.key] = p
			}
		}
		return len(back) >= len(unacked)
	}, "the unacked messages come back")
	for k, p := range back {
		assert.True(t, unacked[k], "only unacked messages come back: %s", k)
		assert.Equal(t, "PT", p.rec.Topic, "under the topic's name")
		assert.Equal(t, byte('1'), p.handle.RetryFlag)
		assert.Equal(t, protocol.PopRetryTopicV1("PG", "PT"), p.topic)
		assert.Equal(t, int32(1), p.rec.ReconsumeTimes)
		uniq, _ := p.rec.Property(propUniqKey)
		assert.Equal(t, "U"+k, uniq, "the message id is kept")
		_, first := p.rec.Property(propFirstPopTime)
		assert.True(t, first, "1ST_POP_TIME")
		ack := invoke(t, c, b.Addr(), ackRequest("PG", p))
		require.Equal(t, int32(remoting.Success), ack.Code, ack.Remark)
	}
	tc, ok := b.topics.get(protocol.PopRetryTopicV1("PG", "PT"))
	require.True(t, ok, "the retry topic was made")
	assert.Equal(t, int32(1), tc.ReadQueueNums)
	assert.GreaterOrEqual(t, b.offsets.query(protocol.ReviveGroup, protocol.ReviveTopic("TestCluster"), 0), int64(0),
		"the revive group's progress is committed")
}

// A pop that finds nothing waits its poll time and is answered by the
// message that arrives meanwhile.
func TestPopLongPollingAnsweredByArrival(t *testing.T) {
	b := startLine5Broker(t, testConfigs(t.TempDir(), ""))
	c := newClient(t, nil)
	require.Equal(t, int32(remoting.Success), createTopic(t, c, b, "LT", "").Code)
	done := make(chan *remoting.Command, 1)
	go func() {
		resp, err := c.InvokeTimeout(b.Addr(), popRequest("LG", "LT", -1, 32, 30*time.Second, 8*time.Second), 15*time.Second)
		if err != nil {
			resp = nil
		}
		done <- resp
	}()
	eventually(t, func() bool { return b.popPolling.count() == 1 }, "the pop is held")
	sendKeyed(t, c, b, "LT", 1)
	resp := <-done
	require.NotNil(t, resp)
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	assert.Len(t, poppedMessages(t, resp, "LG", "LT"), 1)
}

// What POP, ACK and CHANGE_MESSAGE_INVISIBLETIME refuse, with Java's codes.
func TestPopRefusals(t *testing.T) {
	b := startLine5Broker(t, testConfigs(t.TempDir(), ""))
	c := newClient(t, nil)
	require.Equal(t, int32(remoting.Success), createTopic(t, c, b, "RT", "").Code)
	sendKeyed(t, c, b, "RT", 1)

	resp := invoke(t, c, b.Addr(), popRequest("RG", "NoSuchTopic", -1, 32, time.Minute, 0))
	assert.Equal(t, int32(remoting.TopicNotExist), resp.Code)
	resp = invoke(t, c, b.Addr(), popRequest("RG", "RT", -1, 33, time.Minute, 0))
	assert.Equal(t, int32(remoting.InvalidParameter), resp.Code)
	assert.Contains(t, resp.Remark, "pop message's num is greater than 32")
	resp = invoke(t, c, b.Addr(), popRequest("RG", "RT", 9, 32, time.Minute, 0))
	assert.Equal(t, int32(remoting.InvalidParameter), resp.Code)

	p := popped{topic: "RT", handle: protocol.PopHandle{CkQueueOffset: 0, PopTime: 1, InvisibleTime: 1, ReviveQueueID: 0,
		RetryFlag: '0', BrokerName: "broker-t", QueueID: 0, QueueOffset: 5, CommitLogOffset: -1}}
	resp = invoke(t, c, b.Addr(), ackRequest("RG", p))
	assert.Equal(t, int32(remoting.NoMessage), resp.Code, "an offset beyond the queue")
	assert.Contains(t, resp.Remark, "offset is illegal")
	p.handle.QueueID = 7
	resp = invoke(t, c, b.Addr(), ackRequest("RG", p))
	assert.Equal(t, int32(remoting.MessageIllegal), resp.Code)
	p.topic = "NoSuchTopic"
	resp = invoke(t, c, b.Addr(), ackRequest("RG", p))
	assert.Equal(t, int32(remoting.TopicNotExist), resp.Code)

	resp = invoke(t, c, b.Addr(), remoting.NewRequest(remoting.BatchAckMessage, nil))
	assert.Equal(t, int32(remoting.NoMessage), resp.Code, "a batch ack without acks")
}

// CHANGE_MESSAGE_INVISIBLETIME gives the message a checkpoint of its own:
// acked with the handle built from the answer, it never comes back.
func TestChangeInvisibleTimeThenAck(t *testing.T) {
	b := startLine5Broker(t, testConfigs(t.TempDir(), ""))
	c := newClient(t, nil)
	require.Equal(t, int32(remoting.Success), createTopic(t, c, b, "CT", "").Code)
	sendKeyed(t, c, b, "CT", 1)
	resp := invoke(t, c, b.Addr(), popRequest("CG", "CT", -1, 32, 2*time.Second, 0))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	p := poppedMessages(t, resp, "CG", "CT")[0]

	req := remoting.NewRequest(remoting.ChangeMessageInvisibletime, map[string]string{"consumerGroup": "CG", "topic": p.topic,
		"queueId": itoa(p.handle.QueueID), "extraInfo": p.handle.String(), "offset": strconv.FormatInt(p.handle.QueueOffset, 10),
		"invisibleTime": "3000"})
	resp = invoke(t, c, b.Addr(), req)
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	popTime, _ := strconv.ParseInt(resp.ExtString("popTime"), 10, 64)
	assert.Equal(t, "3000", resp.ExtString("invisibleTime"))
	p.handle.CkQueueOffset, p.handle.PopTime, p.handle.InvisibleTime = p.handle.QueueOffset, popTime, 3000
	resp = invoke(t, c, b.Addr(), ackRequest("CG", p))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)

	// the revive service passes both checkpoints (the first acked by the
	// change, the second by the ack) without reviving anything
	topic := protocol.ReviveTopic("TestCluster")
	rq := p.handle.ReviveQueueID
	eventually(t, func() bool {
		cks := checkPointOffsets(b, topic, rq)
		return len(cks) == 2 && b.offsets.query(protocol.ReviveGroup, topic, rq) == cks[1]
	}, "the revive service passed both checkpoints")
	_, ok := b.topics.get(protocol.PopRetryTopicV1("CG", "CT"))
	assert.False(t, ok, "nothing was revived")
}

// checkPointOffsets are the queue offsets of the checkpoints in a revive
// queue.
func checkPointOffsets(b *Broker, topic string, qid int32) []int64 {
	res := b.store.GetMessages(topic, qid, 0, 32, nil)
	defer res.Release()
	var out []int64
	for _, m := range res.Messages {
		rec, err := store.DecodeRecord(m.Data)
		if tag, _ := rec.Property(propTags); err == nil && tag == protocol.CheckPointTag {
			out = append(out, m.QueueOffset)
		}
	}
	return out
}

// An orderly pop blocks its queue until what it took is acked or its
// invisible time is over: another pop finds nothing there, the same
// attempt gets the same messages again; once visible again the message
// comes with its delivery count; the ack moves the group's offset and
// frees the queue.
func TestOrderlyPopBlocksUntilAcked(t *testing.T) {
	b := startLine5Broker(t, testConfigs(t.TempDir(), ""))
	c := newClient(t, nil)
	require.Equal(t, int32(remoting.Success), createTopic(t, c, b, "OT", "").Code)
	sendKeyed(t, c, b, "OT", 8) // queue 0 holds k0 and k4
	orderly := func(attempt string, invisible time.Duration) *remoting.Command {
		req := popRequest("OG", "OT", 0, 1, invisible, 0)
		req.SetExt("order", "true")
		req.SetExt("attemptId", attempt)
		return invoke(t, c, b.Addr(), req)
	}
	resp := orderly("a1", time.Minute)
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	assert.Equal(t, "999", resp.ExtString("reviveQid"))
	got := poppedMessages(t, resp, "OG", "OT")
	require.Len(t, got, 1)
	assert.Equal(t, "k0", got[0].key)

	assert.Equal(t, int32(remoting.PollingTimeout), orderly("a2", time.Minute).Code, "the queue is blocked")
	again := orderly("a1", 200*time.Millisecond)
	require.Equal(t, int32(remoting.Success), again.Code, "the same attempt pops again")
	assert.Equal(t, "k0", poppedMessages(t, again, "OG", "OT")[0].key)
	assert.Equal(t, "0 0 0", again.ExtString("orderCountInfo"), "a retried attempt is no new delivery")

	var third *remoting.Command
	eventually(t, func() bool {
		third = orderly("a3", time.Minute)
		return third.Code == int32(remoting.Success)
	}, "the message is visible again")
	p := poppedMessages(t, third, "OG", "OT")[0]
	assert.Equal(t, "k0", p.key)
	assert.Equal(t, "0 qo0%0 1;0 0 1", third.ExtString("orderCountInfo"), "delivered once before")

	ack := invoke(t, c, b.Addr(), ackRequest("OG", p))
	require.Equal(t, int32(remoting.Success), ack.Code, ack.Remark)
	assert.Equal(t, int64(1), b.offsets.query("OG", "OT", 0), "the offset moves past the acked message")
	next := orderly("a4", time.Minute)
	require.Equal(t, int32(remoting.Success), next.Code, next.Remark)
	assert.Equal(t, "k4", poppedMessages(t, next, "OG", "OT")[0].key)
}

// NOTIFICATION says whether a pop would find something; PEEK hands out
// messages without moving anything; POLLING_INFO counts the held pops.
func TestNotificationPeekAndPollingInfo(t *testing.T) {
	b := startLine5Broker(t, testConfigs(t.TempDir(), ""))
	c := newClient(t, nil)
	require.Equal(t, int32(remoting.Success), createTopic(t, c, b, "NT", "").Code)
	notify := remoting.NewRequest(remoting.Notification, map[string]string{"consumerGroup": "NG", "topic": "NT", "queueId": "-1",
		"pollTime": "0", "bornTime": "0"})
	resp := invoke(t, c, b.Addr(), notify)
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	assert.Equal(t, "false", resp.ExtString("hasMsg"))

	sendKeyed(t, c, b, "NT", 3)
	notify = remoting.NewRequest(remoting.Notification, map[string]string{"consumerGroup": "NG", "topic": "NT", "queueId": "-1",
		"pollTime": "0", "bornTime": "0"})
	resp = invoke(t, c, b.Addr(), notify)
	assert.Equal(t, "true", resp.ExtString("hasMsg"))

	peek := remoting.NewRequest(remoting.PeekMessage, map[string]string{"consumerGroup": "NG", "topic": "NT", "queueId": "-1", "maxMsgNums": "32"})
	resp = invoke(t, c, b.Addr(), peek)
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	assert.Len(t, decodeRecords(t, resp.Body), 3)
	assert.Equal(t, "3", resp.ExtString("restNum"))
	assert.Equal(t, int64(-1), b.offsets.query("NG", "NT", 0), "a peek commits nothing")

	info := remoting.NewRequest(remoting.PollingInfo, map[string]string{"consumerGroup": "NG", "topic": "NT", "queueId": "-1"})
	resp = invoke(t, c, b.Addr(), info)
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	assert.Equal(t, "0", resp.ExtString("pollingNum"))
}
