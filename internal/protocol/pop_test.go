package protocol

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The bytes below are what fastjson 1.2.83 writes for 5.3.3's
// PopCheckPoint, AckMsg and BatchAckMsg (docs/reference/pop.md §4, made
// with the 5.3.3 jars).

func TestCheckPointIsWrittenAsFastjsonWritesIt(t *testing.T) {
	ck := &PopCheckPoint{StartOffset: 100, PopTime: 1700000000000, InvisibleTime: 60000, Num: 3, QueueID: 2,
		Topic: "TopicA", CID: "GID_x", QueueOffsets: []int32{0, 1, 5}, BrokerName: "broker-a"}
	assert.Equal(t, `{"bm":0,"bn":"broker-a","c":"GID_x","d":[0,1,5],"it":60000,"n":3,"pt":1700000000000,"q":2,"reviveTime":1700000060000,"ro":0,"so":100,"t":"TopicA"}`,
		string(ck.AppendJSON(nil)))
	ck.ReviveOffset, ck.RePutTimes = 77, "1"
	assert.Contains(t, string(ck.AppendJSON(nil)), `"reviveTime":1700000060000,"ro":77,"rp":"1","so":100,"t":"TopicA"}`)
	assert.Equal(t, `{"bm":0,"it":0,"n":0,"pt":0,"q":0,"reviveTime":0,"ro":0,"so":0}`, string((&PopCheckPoint{}).AppendJSON(nil)))
}

func TestCheckPointReadsBack(t *testing.T) {
	ck := &PopCheckPoint{StartOffset: 100, PopTime: 1700000000000, InvisibleTime: 60000, BitMap: 5, Num: 3, QueueID: 2,
		Topic: "TopicA", CID: "GID_x", ReviveOffset: 77, QueueOffsets: []int32{0, 1, 5}, BrokerName: "broker-a", RePutTimes: "2"}
	got, err := DecodePopCheckPoint(ck.AppendJSON(nil))
	require.NoError(t, err)
	assert.Equal(t, ck, got)
	// fastjson: keys in any order and case, unknown keys and reviveTime
	// skipped, numbers as strings
	got, err = DecodePopCheckPoint([]byte(`{"T":"TopicA","reviveTime":1,"so":"100","x":{"y":1},"n":3}`))
	require.NoError(t, err)
	assert.Equal(t, &PopCheckPoint{StartOffset: 100, Num: 3, Topic: "TopicA"}, got)
}

func TestCheckPointOffsets(t *testing.T) {
	withDiffs := &PopCheckPoint{StartOffset: 100, Num: 3, QueueOffsets: []int32{0, 1, 5}}
	assert.Equal(t, int64(105), withDiffs.QueueOffset(2))
	assert.Equal(t, 2, withDiffs.IndexOfAck(105))
	assert.Equal(t, -1, withDiffs.IndexOfAck(103))
	assert.Equal(t, -1, withDiffs.IndexOfAck(99))
	// an old checkpoint without d covers so..so+n-1
	old := &PopCheckPoint{StartOffset: 100, Num: 3}
	assert.Equal(t, int64(102), old.QueueOffset(2))
	assert.Equal(t, 2, old.IndexOfAck(102))
	assert.Equal(t, -1, old.IndexOfAck(103))
	assert.Equal(t, 0, old.RePutCount())
	assert.Equal(t, 127, (&PopCheckPoint{RePutTimes: "x"}).RePutCount())
	assert.Equal(t, 3, (&PopCheckPoint{RePutTimes: "3"}).RePutCount())
}

func TestAckRecordsAreWrittenAsFastjsonWritesThem(t *testing.T) {
	ack := AckMsg{AckOffset: 105, StartOffset: 100, ConsumerGroup: "GID_x", Topic: "TopicA", QueueID: 2,
		PopTime: 1700000000000, BrokerName: "broker-a"}
	assert.Equal(t, `{"ao":105,"bn":"broker-a","c":"GID_x","pt":1700000000000,"q":2,"so":100,"t":"TopicA"}`, string(ack.AppendJSON(nil)))
	ack.AckOffset = 0
	batch := &BatchAckMsg{AckMsg: ack, AckOffsets: []int64{100, 105}}
	assert.Equal(t, `{"ao":0,"aol":[100,105],"bn":"broker-a","c":"GID_x","pt":1700000000000,"q":2,"so":100,"t":"TopicA"}`,
		string(batch.AppendJSON(nil)))
}

func TestAckRecordsReadBackWithShortOrLongNames(t *testing.T) {
	batch := &BatchAckMsg{AckMsg: AckMsg{AckOffset: -1, StartOffset: 100, ConsumerGroup: "GID_x", Topic: "TopicA",
		QueueID: 2, PopTime: 1700000000000, BrokerName: "broker-a"}, AckOffsets: []int64{100, 105}}
	got, err := DecodeAckMsg(batch.AppendJSON(nil))
	require.NoError(t, err)
	assert.Equal(t, batch, got)
	got, err = DecodeAckMsg([]byte(`{"ackOffset":105,"startOffset":100,"consumerGroup":"G","topic":"T","queueId":1,"popTime":7,"brokerName":"b"}`))
	require.NoError(t, err)
	assert.Equal(t, &BatchAckMsg{AckMsg: AckMsg{AckOffset: 105, StartOffset: 100, ConsumerGroup: "G", Topic: "T",
		QueueID: 1, PopTime: 7, BrokerName: "b"}}, got)
}

func TestRecordUniqKeys(t *testing.T) {
	ck := &PopCheckPoint{StartOffset: 100, PopTime: 1700000000000, QueueID: 2, Topic: "TopicA", CID: "GID_x", BrokerName: "broker-a"}
	assert.Equal(t, "TopicA@2@100@GID_x@1700000000000@broker-a@ck", ck.UniqKey())
	ck.BrokerName = ""
	assert.Equal(t, "TopicA@2@100@GID_x@1700000000000@null@ck", ck.UniqKey())
	ack := &AckMsg{AckOffset: -1, Topic: "TopicA", QueueID: 2, ConsumerGroup: "GID_x", PopTime: 1700000000000, BrokerName: "broker-a"}
	assert.Equal(t, "TopicA@2@-1@GID_x@1700000000000@broker-a@ack", ack.UniqKey())
	batch := &BatchAckMsg{AckMsg: *ack, AckOffsets: []int64{100, 105}}
	assert.Equal(t, "TopicA@2@[100, 105]@GID_x@1700000000000@bAck", batch.BufferUniqKey())
}

func TestPopHandle(t *testing.T) {
	h, err := ParsePopHandle("100 1700000000000 60000 3 1 broker-a 0 105")
	require.NoError(t, err)
	assert.Equal(t, PopHandle{CkQueueOffset: 100, PopTime: 1700000000000, InvisibleTime: 60000, ReviveQueueID: 3,
		RetryFlag: '1', BrokerName: "broker-a", QueueID: 0, QueueOffset: 105, CommitLogOffset: -1}, h)
	assert.Equal(t, "100 1700000000000 60000 3 1 broker-a 0 105", h.String())
	// the proxy's receipt handle: a ninth field, the commit log offset
	h, err = ParsePopHandle("100 1700000000000 60000 3 0 broker-a 0 105 4096")
	require.NoError(t, err)
	assert.Equal(t, int64(4096), h.CommitLogOffset)
	assert.Equal(t, "100 1700000000000 60000 3 0 broker-a 0 105 4096", h.String())
	for _, bad := range []string{"", "1 2 3", "100 x 60000 3 1 broker-a 0 105", "100 1 60000 3 12 broker-a 0 105"} {
		_, err := ParsePopHandle(bad)
		assert.ErrorIs(t, err, ErrPopHandle, bad)
	}
}

func TestRetryTopicsAndFlags(t *testing.T) {
	assert.Equal(t, "%RETRY%G_T", PopRetryTopicV1("G", "T"))
	assert.Equal(t, "%RETRY%G+T", PopRetryTopicV2("G", "T"))
	assert.Equal(t, byte('0'), RetryFlag("T"))
	assert.Equal(t, byte('1'), RetryFlag("%RETRY%G_T"))
	assert.Equal(t, byte('1'), RetryFlag("%RETRY%G"))
	assert.Equal(t, byte('2'), RetryFlag("%RETRY%G+T"))
	for flag, want := range map[byte]string{'0': "T", '1': "%RETRY%G_T", '2': "%RETRY%G+T"} {
		got, err := TopicOfFlag(flag, "G", "T")
		require.NoError(t, err)
		assert.Equal(t, want, got)
	}
	_, err := TopicOfFlag('3', "G", "T")
	assert.Error(t, err)
	assert.Equal(t, "rmq_sys_REVIVE_LOG_DefaultCluster", ReviveTopic("DefaultCluster"))
}

func TestPopInfoStrings(t *testing.T) {
	var start, msgs, counts PopInfo
	assert.Equal(t, "", start.String())
	start.Add('0', "0", "100")
	start.Add('1', "0", "7")
	msgs.Add('0', "0", "100,101,105")
	msgs.Add('1', "0", "7")
	counts.Add('0', OrderCountKey(0, 6), "1")
	counts.Add('0', OrderCountKey(0, 8), "1")
	counts.Add('0', "0", "1")
	assert.Equal(t, "0 0 100;1 0 7", start.String())
	assert.Equal(t, "0 0 100,101,105;1 0 7", msgs.String())
	assert.Equal(t, "0 qo0%6 1;0 qo0%8 1;0 0 1", counts.String())

	m, err := ParsePopInfo(counts.String())
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"0@qo0%6": "1", "0@qo0%8": "1", "0@0": "1"}, m)
	_, err = ParsePopInfo("0 0 1;0 0 2")
	assert.Error(t, err, "a key given twice")
	_, err = ParsePopInfo("0 0")
	assert.Error(t, err, "two fields")
}

// BATCH_ACK_MESSAGE's body as BatchAckTest writes it: the bit set as
// Base64 of BitSet.toByteArray ({0,2,9} is 05 02, "BQI="), or as an array
// of byte values; long names read too.
func TestBatchAckBodyReads(t *testing.T) {
	body, err := DecodeBatchAckMessageRequestBody([]byte(`{"acks":[{"b":"BQI=","c":"G","it":60000,"pt":1700000000000,"q":1,"r":"0","rq":3,"so":100,"t":"T"}],"brokerName":"broker-a"}`))
	require.NoError(t, err)
	require.Len(t, body.Acks, 1)
	a := body.Acks[0]
	assert.Equal(t, "broker-a", body.BrokerName)
	assert.Equal(t, BatchAck{ConsumerGroup: "G", Topic: "T", Retry: "0", StartOffset: 100, QueueID: 1, ReviveQueueID: 3,
		PopTime: 1700000000000, InvisibleTime: 60000, Bits: []byte{5, 2}}, a)
	assert.Equal(t, []int64{100, 102, 109}, a.AckedOffsets())

	body, err = DecodeBatchAckMessageRequestBody([]byte(`{"acks":[{"bitSet":[5,2],"consumerGroup":"G","startOffset":7,"retry":"1"}]}`))
	require.NoError(t, err)
	assert.Equal(t, []int64{7, 9, 16}, body.Acks[0].AckedOffsets())
	assert.Equal(t, "1", body.Acks[0].Retry)
}
