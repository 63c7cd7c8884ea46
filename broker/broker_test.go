package broker

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/internal/testclock"
	"github.com/rmqgo/rmqgo/remoting"
	"github.com/rmqgo/rmqgo/store"
)

func TestSendThenPullReturnsEveryMessageIntact(t *testing.T) {
	ns := startFakeNamesrv(t)
	b := startBroker(t, testConfigs(t.TempDir(), ns.addr), nil)
	c := newClient(t, nil)
	for i, tag := range []string{"TagA", "TagB", "TagC"} {
		resp := invoke(t, c, b.Addr(), withBody(sendRequest("T1", 1, []byte("body-"+tag),
			map[string]string{"TAGS": tag, "KEYS": "k" + tag, "UNIQ_KEY": "U" + tag, "color": "red"}), []byte("body-"+tag)))
		require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
		assert.Equal(t, "1", resp.ExtString("queueId"))
		assert.Equal(t, itoa(i), resp.ExtString("queueOffset"))
		assert.NotEmpty(t, resp.ExtString("msgId"))
		assert.Equal(t, "DefaultRegion", resp.ExtString(propMsgRegion))
	}
	dispatched(t, b)
	resp := invoke(t, c, b.Addr(), pullRequest("G1", "T1", 1, 0, "*", protocol.PullFlagSubscription, 0))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	assert.Equal(t, "3", resp.ExtString("nextBeginOffset"))
	assert.Equal(t, "3", resp.ExtString("maxOffset"))
	assert.Equal(t, "0", resp.ExtString("suggestWhichBrokerId"))
	assert.Equal(t, "FOUND", resp.Remark, "Java's remark: the GetMessageStatus")
	_, has := resp.Ext("topicSysFlag")
	assert.False(t, has, "4.x answers no sys flags")
	recs := decodeRecords(t, resp.Body)
	require.Len(t, recs, 3)
	for i, tag := range []string{"TagA", "TagB", "TagC"} {
		r := recs[i]
		props := store.ParseProperties(string(r.Properties))
		assert.Equal(t, "body-"+tag, string(r.Body))
		assert.Equal(t, map[string]string{"TAGS": tag, "KEYS": "k" + tag, "UNIQ_KEY": "U" + tag, "color": "red", "CLUSTER": "TestCluster"}, props)
		assert.Equal(t, int64(i), r.QueueOffset)
	}
	eventually(t, func() bool { _, ok := ns.lastTopics()["T1"]; return ok }, "the auto-created topic is registered")
}

func TestLine5PullAnswersTheSysFlags(t *testing.T) {
	b := startLineBroker(t, testConfigs(t.TempDir(), ""), protocol.Line5)
	c := newClient(t, nil)
	invoke(t, c, b.Addr(), withBody(sendRequest("T5", 0, []byte("a"), nil), []byte("a")))
	dispatched(t, b)
	resp := invoke(t, c, b.Addr(), pullRequest("G5", "T5", 0, 1, "*", protocol.PullFlagSubscription, 0))
	assert.Equal(t, int32(remoting.PullNotFound), resp.Code)
	assert.Equal(t, "OFFSET_OVERFLOW_ONE", resp.Remark)
	assert.Equal(t, "0", resp.ExtString("topicSysFlag"))
	assert.Equal(t, "0", resp.ExtString("groupSysFlag"))
}

func TestSendToUnknownTopicWithoutAutoCreateIsTopicNotExist(t *testing.T) {
	c := testConfigs(t.TempDir(), "")
	c.Broker.AutoCreateTopicEnable = false
	b := startBroker(t, c, nil)
	resp := invoke(t, newClient(t, nil), b.Addr(), withBody(sendRequest("Nope", 0, []byte("x"), nil), []byte("x")))
	assert.Equal(t, int32(remoting.TopicNotExist), resp.Code)
	assert.Contains(t, resp.Remark, "topic[Nope] not exist, apply first please!")
	_, ok := b.topics.get("Nope")
	assert.False(t, ok)
}

// The "not exist" remarks end with the FAQ hint of the broker's line
// (FAQUrl.suggestTodo: 4.9.7 and 5.3.3 link different pages); a pull's
// topic remark has a space before it, a send's none.
func TestNotExistRemarksEndWithTheLinesFAQ(t *testing.T) {
	for line, url := range map[protocol.Line]string{protocol.Line4: "http://rocketmq.apache.org/docs/faq/",
		protocol.Line5: "https://rocketmq.apache.org/docs/bestPractice/06FAQ"} {
		t.Run(line.String(), func(t *testing.T) {
			c := testConfigs(t.TempDir(), "")
			c.Broker.AutoCreateTopicEnable = false
			b, err := New(Options{Configs: c, Line: line, Logger: zaptest.NewLogger(t), ListenHost: "127.0.0.1"})
			require.NoError(t, err)
			require.NoError(t, b.Start())
			t.Cleanup(func() { _ = b.Close() })
			cl := newClient(t, nil)
			faq := "\nSee " + url + " for further details."
			send := invoke(t, cl, b.Addr(), withBody(sendRequest("Nope", 0, []byte("x"), nil), []byte("x")))
			assert.Equal(t, "topic[Nope] not exist, apply first please!"+faq, send.Remark)
			pull := invoke(t, cl, b.Addr(), pullRequest(GroupTools, "Nope", 0, 0, "*", protocol.PullFlagSubscription, 0))
			assert.Equal(t, int32(remoting.TopicNotExist), pull.Code)
			assert.Equal(t, "topic[Nope] not exist, apply first please! "+faq, pull.Remark)
		})
	}
}

func TestSendBadTopicNameChangesNothing(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	resp := invoke(t, newClient(t, nil), b.Addr(), withBody(sendRequest("bad topic!", 0, []byte("x"), nil), []byte("x")))
	assert.Equal(t, int32(remoting.SystemError), resp.Code)
	assert.Contains(t, resp.Remark, "illegal characters")
	assert.Equal(t, int64(0), b.store.CommitLogMaxOffset())
}

func TestParkedPullIsAnsweredWhenAMessageArrives(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	c := newClient(t, nil)
	require.Equal(t, int32(remoting.Success), invoke(t, c, b.Addr(), withBody(sendRequest("T2", 0, []byte("first"), nil), []byte("first"))).Code)
	dispatched(t, b)
	got := make(chan *remoting.Command, 1)
	c.InvokeAsync(b.Addr(), pullRequest("G2", "T2", 0, 1, "*", protocol.PullFlagSubscription|protocol.PullFlagSuspend, 30*time.Second), testWait,
		func(resp *remoting.Command, err error) {
			require.NoError(t, err)
			got <- resp
		})
	eventually(t, func() bool { return b.holds.count() == 1 }, "the pull is parked")
	require.Equal(t, int32(remoting.Success), invoke(t, c, b.Addr(), withBody(sendRequest("T2", 0, []byte("second"), nil), []byte("second"))).Code)
	resp := <-got
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	recs := decodeRecords(t, resp.Body)
	require.Len(t, recs, 1)
	assert.Equal(t, "second", string(recs[0].Body))
}

func TestParkedPullTimesOutWithPullNotFound(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	c := newClient(t, nil)
	require.Equal(t, int32(remoting.Success), invoke(t, c, b.Addr(), withBody(sendRequest("T3", 0, []byte("x"), nil), []byte("x"))).Code)
	dispatched(t, b)
	dispatched(t, b)
	resp := invoke(t, c, b.Addr(), pullRequest("G3", "T3", 0, 1, "*", protocol.PullFlagSubscription|protocol.PullFlagSuspend, 100*time.Millisecond))
	assert.Equal(t, int32(remoting.PullNotFound), resp.Code)
	assert.Equal(t, "1", resp.ExtString("nextBeginOffset"))
}

func TestPullFiltersByTagHash(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	c := newClient(t, nil)
	for _, tag := range []string{"TagA", "TagB", "TagC", "TagA"} {
		require.Equal(t, int32(remoting.Success), invoke(t, c, b.Addr(), withBody(sendRequest("T4", 0, []byte(tag), map[string]string{"TAGS": tag}), []byte(tag))).Code)
	}
	dispatched(t, b)
	resp := invoke(t, c, b.Addr(), pullRequest("G4", "T4", 0, 0, "TagA || TagC", protocol.PullFlagSubscription, 0))
	require.Equal(t, int32(remoting.Success), resp.Code)
	var tags []string
	for _, r := range decodeRecords(t, resp.Body) {
		tags = append(tags, string(r.Body))
	}
	assert.Equal(t, []string{"TagA", "TagC", "TagA"}, tags)
	assert.Equal(t, "4", resp.ExtString("nextBeginOffset"))
}

func TestPullOutOfRangeOffsetIsOffsetMoved(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	c := newClient(t, nil)
	require.Equal(t, int32(remoting.Success), invoke(t, c, b.Addr(), withBody(sendRequest("T5", 0, []byte("x"), nil), []byte("x"))).Code)
	dispatched(t, b)
	resp := invoke(t, c, b.Addr(), pullRequest("G5", "T5", 0, 10, "*", protocol.PullFlagSubscription, 0))
	assert.Equal(t, int32(remoting.PullOffsetMoved), resp.Code)
	assert.Equal(t, "1", resp.ExtString("nextBeginOffset"))
	dispatched(t, b)
	ev := invoke(t, c, b.Addr(), pullRequest("G5", TopicOffsetMovedEvent, 0, 0, "*", protocol.PullFlagSubscription, 0))
	require.Equal(t, int32(remoting.Success), ev.Code, ev.Remark)
	recs := decodeRecords(t, ev.Body)
	require.Len(t, recs, 1)
	assert.Equal(t, `{"consumerGroup":"G5","messageQueue":{"brokerName":"broker-t","queueId":0,"topic":"T5"},"offsetNew":1,"offsetRequest":10}`, string(recs[0].Body))
	assert.Equal(t, map[string]string{"TAGS": "G5", "KEYS": "G5", "DELAY": "0"}, store.ParseProperties(string(recs[0].Properties)))
}

func TestHeartbeatCreatesGroupAndRetryTopicAndRegistersIt(t *testing.T) {
	ns := startFakeNamesrv(t)
	b := startBroker(t, testConfigs(t.TempDir(), ns.addr), nil)
	c := newClient(t, nil)
	resp := invoke(t, c, b.Addr(), heartbeatRequest(t, "c1", "G6", "T6", "TagA"))
	require.Equal(t, int32(remoting.Success), resp.Code)
	_, ok := b.groups.get("G6")
	assert.True(t, ok)
	eventually(t, func() bool { _, ok := ns.lastTopics()["%RETRY%G6"]; return ok }, "%RETRY%G6 registered")
	_, sub, _, ok := b.clients.subscription("G6", "T6")
	require.True(t, ok)
	assert.Equal(t, []string{"TagA"}, sub.TagsSet)
	// A pull without its own subscription uses the heartbeat's.
	invoke(t, c, b.Addr(), withBody(sendRequest("T6", 0, []byte("a"), map[string]string{"TAGS": "TagA"}), []byte("a")))
	invoke(t, c, b.Addr(), withBody(sendRequest("T6", 0, []byte("b"), map[string]string{"TAGS": "TagB"}), []byte("b")))
	dispatched(t, b)
	resp = invoke(t, c, b.Addr(), pullRequest("G6", "T6", 0, 0, "", 0, 0))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	recs := decodeRecords(t, resp.Body)
	require.Len(t, recs, 1)
	assert.Equal(t, "a", string(recs[0].Body))
}

// The Go client sends one heartbeat for every group of its process and
// writes codeSet as strings; a group whose data cannot be read must not
// cost the others their registration.
func TestOneHeartbeatOfManyGroupsRegistersEveryReadableGroup(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	c := newClient(t, nil)
	body := `{"clientID":"10.0.0.1@go","producerDataSet":[{"groupName":"TxP"}],"consumerDataSet":[` +
		`{"groupName":"GA","consumeType":"CONSUME_PASSIVELY","messageModel":"CLUSTERING","consumeFromWhere":"CONSUME_FROM_FIRST_OFFSET",` +
		`"subscriptionDataSet":[{"topic":"TG","subString":"TagA || TagC","tagsSet":["TagA","TagC"],"codeSet":["2598919","2598921"],` +
		`"subVersion":1,"expressionType":"TAG"}],"unitMode":false},` +
		`{"groupName":"GBad","consumeType":"CONSUME_PASSIVELY","subscriptionDataSet":[{"topic":"TG","codeSet":["TagA"]}]},` +
		`{"groupName":"GAll","consumeType":"CONSUME_PASSIVELY","messageModel":"CLUSTERING","consumeFromWhere":"CONSUME_FROM_FIRST_OFFSET",` +
		`"subscriptionDataSet":[{"topic":"TG","subString":"*","tagsSet":[],"codeSet":[],"subVersion":1,"expressionType":"TAG"}]}]}`
	resp := invoke(t, c, b.Addr(), withBody(remoting.NewRequest(remoting.HeartBeat, nil), []byte(body)))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	for _, g := range []string{"GA", "GAll"} {
		resp = invoke(t, c, b.Addr(), remoting.NewRequest(remoting.GetConsumerListByGroup, map[string]string{"consumerGroup": g}))
		assert.JSONEq(t, `{"consumerIdList":["10.0.0.1@go"]}`, string(resp.Body), g)
	}
	assert.Empty(t, b.clients.consumerIDs("GBad"))
	_, sub, _, ok := b.clients.subscription("GA", "TG")
	require.True(t, ok)
	assert.Equal(t, []int32{2598919, 2598921}, sub.CodeSet)
	assert.Equal(t, []string{"TagA", "TagC"}, sub.TagsSet)
	resp = invoke(t, c, b.Addr(), withBody(remoting.NewRequest(remoting.HeartBeat, nil), []byte(`{"clientID":`)))
	assert.Equal(t, int32(remoting.SystemError), resp.Code, "a body that is not JSON")
	b.clients.mu.RLock()
	defer b.clients.mu.RUnlock()
	assert.Contains(t, b.clients.producers, "TxP", "the transaction producer is reachable for its check-back")
}

func TestSecondConsumerJoiningNotifiesTheGroup(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	notified := make(chan string, 10)
	r := remoting.NewRouter(nil)
	p := r.NewPool(remoting.PoolOptions{Name: "c", Workers: 1, Queue: 10})
	r.Handle(remoting.NotifyConsumerIdsChanged, p, func(req *remoting.Request) *remoting.Command {
		notified <- req.Cmd.ExtString("consumerGroup")
		return nil
	})
	first := newClient(t, r)
	require.Equal(t, int32(remoting.Success), invoke(t, first, b.Addr(), heartbeatRequest(t, "c1", "G7", "T7", "*")).Code)
	assert.Equal(t, "G7", <-notified)
	second := newClient(t, nil)
	require.Equal(t, int32(remoting.Success), invoke(t, second, b.Addr(), heartbeatRequest(t, "c2", "G7", "T7", "*")).Code)
	assert.Equal(t, "G7", <-notified)
	assert.Equal(t, []string{"c1", "c2"}, b.clients.consumerIDs("G7"))
	resp := invoke(t, first, b.Addr(), remoting.NewRequest(remoting.GetConsumerListByGroup, map[string]string{"consumerGroup": "G7"}))
	assert.JSONEq(t, `{"consumerIdList":["c1","c2"]}`, string(resp.Body))
	second.Close()
	assert.Equal(t, "G7", <-notified, "the group hears that c2 left")
	assert.Equal(t, []string{"c1"}, b.clients.consumerIDs("G7"))
}

// A heartbeat served after its connection closed (it waited in the
// heartbeat pool while the close was handled) must not bring the dead
// connection back: the group would hand it queues until it expired.
func TestHeartbeatOfAClosedConnectionRegistersNothing(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	gone := newClient(t, nil)
	require.Equal(t, int32(remoting.Success), invoke(t, gone, b.Addr(), heartbeatRequest(t, "c1", "G8", "T8", "*")).Code)
	_, chans, ok := b.clients.group("G8")
	require.True(t, ok)
	require.Len(t, chans, 1)
	dead := chans[0]
	gone.Close()
	eventually(t, func() bool { _, _, ok := b.clients.group("G8"); return !ok }, "the group goes with its only connection")

	late := heartbeatData{ClientID: "c1", ConsumerDataSet: []consumerData{{GroupName: "G8"}}, ProducerDataSet: []protocol.ProducerData{{GroupName: "P8"}}}
	body, err := jsonAPI.Marshal(late)
	require.NoError(t, err)
	b.handlers.clients.heartbeat(&remoting.Request{Ch: dead.ch, Cmd: withBody(remoting.NewRequest(remoting.HeartBeat, nil), body)})
	assert.Empty(t, b.clients.consumerIDs("G8"), "no consumer on a closed connection")
	b.clients.mu.RLock()
	defer b.clients.mu.RUnlock()
	assert.NotContains(t, b.clients.producers, "P8", "no producer on a closed connection")
}

func TestQueueLockExpiresAfterSixtySeconds(t *testing.T) {
	clock := testclock.New()
	l := newQueueLocks(clock.Now)
	mq := queueRef{BrokerName: "b", QueueID: 0, Topic: "T"}
	assert.Len(t, l.tryLock("G", "A", []queueRef{mq}), 1)
	assert.Empty(t, l.tryLock("G", "B", []queueRef{mq}))
	clock.Advance(30 * time.Second)
	assert.Len(t, l.tryLock("G", "A", []queueRef{mq}), 1, "renewed")
	clock.Advance(59 * time.Second)
	assert.Empty(t, l.tryLock("G", "B", []queueRef{mq}))
	clock.Advance(2 * time.Second)
	assert.Len(t, l.tryLock("G", "B", []queueRef{mq}), 1, "taken over once expired")
	l.unlock("G", "A", []queueRef{mq})
	assert.Empty(t, l.tryLock("G", "A", []queueRef{mq}), "A cannot unlock B's lock")
}

func TestCommittedOffsetsSurviveARestart(t *testing.T) {
	dir := t.TempDir()
	c := testConfigs(dir, "")
	b := startBroker(t, c, nil)
	cl := newClient(t, nil)
	up := remoting.NewRequest(remoting.UpdateConsumerOffset, map[string]string{"consumerGroup": "G8", "topic": "T8", "queueId": "2", "commitOffset": "42"})
	require.Equal(t, int32(remoting.Success), invoke(t, cl, b.Addr(), up).Code)
	require.NoError(t, b.Close())
	data, err := os.ReadFile(filepath.Join(dir, "store", "config", "consumerOffset.json"))
	require.NoError(t, err)
	w, err := protocol.DecodeConsumerOffsetSerializeWrapper(data)
	require.NoError(t, err)
	assert.Equal(t, map[int32]int64{2: 42}, w.OffsetTable["T8@G8"])
	b2 := startBroker(t, testConfigs(dir, ""), nil)
	q := remoting.NewRequest(remoting.QueryConsumerOffset, map[string]string{"consumerGroup": "G8", "topic": "T8", "queueId": "2"})
	resp := invoke(t, newClient(t, nil), b2.Addr(), q)
	assert.Equal(t, int32(remoting.Success), resp.Code)
	assert.Equal(t, "42", resp.ExtString("offset"))
}

// A batch is stored as its messages, whether it comes as a client sends it
// (SEND_BATCH_MESSAGE, batch=true) or as the proxy does (SEND_MESSAGE with
// the V1 header's batch=true): Java decides by the header's field.
func TestBatchSendStoresEveryMessageWithTheBatchProperties(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	c := newClient(t, nil)
	var body []byte
	for i := range 3 {
		body = appendBatchEntry(body, []byte("m"+itoa(i)), "UNIQ_KEY\x01u"+itoa(i)+"\x02KEYS\x01k"+itoa(i))
	}
	clientBatch := sendRequest("T9", 0, nil, map[string]string{"WAIT": "true"})
	clientBatch.Code = int32(remoting.SendBatchMessage)
	clientBatch.SetExt("m", "true")
	proxyBatch := remoting.NewRequest(remoting.SendMessage, map[string]string{"producerGroup": "T10", "topic": "T10",
		"defaultTopic": TopicAutoCreate, "defaultTopicQueueNums": "4", "queueId": "0", "sysFlag": "0",
		"bornTimestamp": "1", "flag": "0", "properties": "WAIT\x01true\x02", "reconsumeTimes": "0", "unitMode": "false",
		"batch": "true"})
	for _, req := range []*remoting.Command{clientBatch, proxyBatch} {
		topic := req.ExtString("b") + req.ExtString("topic")
		resp := invoke(t, c, b.Addr(), withBody(req, body))
		require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
		assert.Len(t, strings.Split(resp.ExtString("msgId"), ","), 3, topic)
		dispatched(t, b)
		pull := invoke(t, c, b.Addr(), pullRequest("G9", topic, 0, 0, "*", protocol.PullFlagSubscription, 0))
		recs := decodeRecords(t, pull.Body)
		require.Len(t, recs, 3, topic)
		for i, r := range recs {
			assert.Equal(t, "m"+itoa(i), string(r.Body))
			assert.Equal(t, "UNIQ_KEY\x01u"+itoa(i)+"\x02KEYS\x01k"+itoa(i)+"\x02CLUSTER\x01TestCluster\x02WAIT\x01true", string(r.Properties))
		}
	}
}

// appendBatchEntry appends one message as MessageDecoder.encodeMessage does.
func appendBatchEntry(dst, body []byte, props string) []byte {
	total := batchEntryFixed + len(body) + len(props)
	dst = be32(dst, uint32(total))
	dst = be32(dst, 0)
	dst = be32(dst, 0)
	dst = be32(dst, 0)
	dst = be32(dst, uint32(len(body)))
	dst = append(dst, body...)
	dst = append(dst, byte(len(props)>>8), byte(len(props)))
	return append(dst, props...)
}

func be32(dst []byte, v uint32) []byte {
	return append(dst, byte(v>>24), byte(v>>16), byte(v>>8), byte(v))
}

func TestShortPollingAnswersPullNotFoundAfterShortPollingTime(t *testing.T) {
	c := testConfigs(t.TempDir(), "")
	c.Broker.LongPollingEnable = false
	c.Broker.ShortPollingTimeMills = 200
	b := startBroker(t, c, nil)
	cl := newClient(t, nil)
	require.Equal(t, int32(remoting.Success), invoke(t, cl, b.Addr(), withBody(sendRequest("TP", 0, []byte("x"), nil), []byte("x"))).Code)
	dispatched(t, b)
	// The client asks to be held 60 s; short polling holds it shortPollingTimeMills.
	resp := invoke(t, cl, b.Addr(), pullRequest("GP", "TP", 0, 1, "*", protocol.PullFlagSubscription|protocol.PullFlagSuspend, 60*time.Second))
	assert.Equal(t, int32(remoting.PullNotFound), resp.Code)
}

func TestClientsSilentFor120SecondsExpire(t *testing.T) {
	clock := testclock.New()
	b := startBroker(t, testConfigs(t.TempDir(), ""), clock.Now)
	cl := newClient(t, nil)
	require.Equal(t, int32(remoting.Success), invoke(t, cl, b.Addr(), heartbeatRequest(t, "c1", "GE", "TE", "*")).Code)
	clock.Advance(119 * time.Second)
	assert.Empty(t, b.clients.expired(clock.Now()))
	clock.Advance(2 * time.Second)
	assert.Len(t, b.clients.expired(clock.Now()), 1)
}

// A group without an offset is answered 0 while the queue's message 0 is
// near the commitlog's end (so a client consuming from the last offset
// still reads a young queue from its start); an empty queue is 0 on 4.x
// and QUERY_NOT_FOUND on 5.x (5.3.3's checkInMemByConsumeOffset); a
// message 0 "in disk" is QUERY_NOT_FOUND on both.
func TestQueryConsumerOffsetWithoutCommitPerLine(t *testing.T) {
	query := func(t *testing.T, b *Broker, topic string) *remoting.Command {
		q := remoting.NewRequest(remoting.QueryConsumerOffset, map[string]string{"consumerGroup": "GQ", "topic": topic, "queueId": "0"})
		return invoke(t, newClient(t, nil), b.Addr(), q)
	}
	send := func(t *testing.T, b *Broker, topic string, n int) {
		for range n {
			resp := invoke(t, newClient(t, nil), b.Addr(), sendRequest(topic, 0, []byte("m"), nil))
			require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
		}
		dispatched(t, b)
	}
	for _, line := range []protocol.Line{protocol.Line4, protocol.Line5} {
		b := startLineBroker(t, testConfigs(t.TempDir(), ""), line)
		send(t, b, "TQ", 1)
		resp := query(t, b, "TQ")
		assert.Equal(t, int32(remoting.Success), resp.Code, "line %d", line)
		assert.Equal(t, "0", resp.ExtString("offset"))

		empty := query(t, b, "TQEmpty")
		if line >= protocol.Line5 {
			assert.Equal(t, int32(remoting.QueryNotFound), empty.Code, "line %d", line)
		} else {
			assert.Equal(t, int32(remoting.Success), empty.Code, "line %d", line)
			assert.Equal(t, "0", empty.ExtString("offset"))
		}

		c := testConfigs(t.TempDir(), "")
		c.Store.AccessMessageInMemoryMaxRatio = 0 // every message but the newest is "in disk"
		far := startLineBroker(t, c, line)
		send(t, far, "TQ", 2)
		assert.Equal(t, int32(remoting.QueryNotFound), query(t, far, "TQ").Code, "line %d", line)
	}
}

// The proxy of the process registers each gRPC client over an in-process
// connection of its own (remoting.InProcess), as Java's local proxy
// registers a GrpcClientChannel with isNotifyConsumerIdsChangedEnable=false:
// such a registration notifies no one, and the channel is not notified
// when remoting clients join.
func TestInProcessConsumersNeitherNotifyNorAreNotified(t *testing.T) {
	b := startBroker(t, testConfigs(t.TempDir(), ""), nil)
	var mu sync.Mutex
	var notifiedFor []string // the clients whose registration notified the group
	var inProcessGot []int32 // what the in-process client was sent
	notify := b.handlers.clients.notify
	b.handlers.clients.notify = func(group string, chans []*remoting.Channel) {
		mu.Lock()
		notifiedFor = append(notifiedFor, group)
		mu.Unlock()
		notify(group, chans)
	}
	r := remoting.NewRouter(nil)
	r.SetFallback(func(req *remoting.Request) *remoting.Command { // runs as the broker sends
		mu.Lock()
		inProcessGot = append(inProcessGot, req.Cmd.Code)
		mu.Unlock()
		return nil
	})
	r.Start()
	t.Cleanup(r.Stop)
	ip := &remoting.InProcess{Addr: b.Addr(), Server: b.Server(), Remote: "127.0.0.1:8081"}
	grpcClient := ip.Dial("10.0.0.9:50001", r, nil)
	t.Cleanup(func() { _ = grpcClient.Close() })

	first := newClient(t, nil)
	require.Equal(t, int32(remoting.Success), invoke(t, first, b.Addr(), heartbeatRequest(t, "c1", "G9", "T9", "*")).Code)
	resp, err := grpcClient.InvokeTimeout(heartbeatRequest(t, "grpc-c2", "G9", "T9", "*"), 3*time.Second)
	require.NoError(t, err)
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	third := newClient(t, nil)
	require.Equal(t, int32(remoting.Success), invoke(t, third, b.Addr(), heartbeatRequest(t, "c3", "G9", "T9", "*")).Code)

	assert.Equal(t, []string{"c1", "c3", "grpc-c2"}, b.clients.consumerIDs("G9"), "the gRPC client is a member")
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []string{"G9", "G9"}, notifiedFor, "c1's and c3's joins notify, the gRPC client's does not")
	assert.Empty(t, inProcessGot, "the in-process connection hears of no join")
}
