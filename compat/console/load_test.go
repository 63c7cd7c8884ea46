package console

import (
	"context"
	"fmt"
	"testing"
	"time"

	rocketmq "github.com/apache/rocketmq-client-go/v2"
	"github.com/apache/rocketmq-client-go/v2/consumer"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/producer"
	"github.com/apache/rocketmq-client-go/v2/rlog"
)

// The workload the pages show, the same on every run: a producer group
// online, loadCount messages over the topic's 4 queues (message i in queue
// i%4, key ck-i, tag TagA for even i and TagB for odd), a group that
// consumes them all and stays online, and a group that fails every TagB
// message with no retries left, so that they land in its DLQ.
const (
	loadQueues    = 4
	loadCount     = 24 // 6 a queue: two pages of the console's message list
	producerGroup = "console_pg"
	consumeGroup  = "console_cg"
	dlqGroup      = "console_dlq"
)

// workload holds the clients for the life of the test: the console shows
// connections only while they are online.
type workload struct {
	broker    string // the broker's name, for the queue each message goes to
	producer  rocketmq.Producer
	consumers []pendingConsumer
	sent      []sentMessage
	consumed  chan string // keys, from consumeGroup
	failed    chan string // keys, from dlqGroup
}

// sentMessage is what the producer learnt of a message: its key, its
// offset message id (where it is in the commit log, what the 4.x console
// finds a message by) and its unique key (what 5.x shows as its id).
type sentMessage struct {
	key, msgID, uniqKey string
}

// startWorkload starts the producer and makes the consumers (they start
// in run, once the topic exists).
func startWorkload(t *testing.T, s settings) *workload {
	t.Helper()
	rlog.SetLogLevel("error")
	ns := primitive.NamesrvAddr{s.namesrv}
	w := &workload{broker: s.brokerName, consumed: make(chan string, 4*loadCount), failed: make(chan string, 4*loadCount)}
	p, err := rocketmq.NewProducer(producer.WithNameServer(ns), producer.WithGroupName(producerGroup),
		producer.WithInstanceName("console_load"), producer.WithRetry(2),
		producer.WithQueueSelector(producer.NewManualQueueSelector()))
	if err != nil {
		t.Fatalf("producer: %v", err)
	}
	if err := p.Start(); err != nil {
		t.Fatalf("producer start: %v", err)
	}
	t.Cleanup(func() { _ = p.Shutdown() })
	w.producer = p
	w.startConsumer(t, ns, consumeGroup, "*", 0, w.consumed, consumer.ConsumeSuccess)
	w.startConsumer(t, ns, dlqGroup, "TagB", 0, w.failed, consumer.ConsumeRetryLater)
	return w
}

// startConsumer starts a push consumer of group on topics subscribed by
// tag that reports every key it gets and answers result.
func (w *workload) startConsumer(t *testing.T, ns primitive.NamesrvAddr, group, tag string, maxReconsume int32,
	keys chan<- string, result consumer.ConsumeResult) {
	t.Helper()
	c, err := rocketmq.NewPushConsumer(consumer.WithNameServer(ns), consumer.WithGroupName(group),
		consumer.WithInstance("console_load_"+group), consumer.WithConsumeFromWhere(consumer.ConsumeFromFirstOffset),
		consumer.WithMaxReconsumeTimes(maxReconsume))
	if err != nil {
		t.Fatalf("consumer %s: %v", group, err)
	}
	w.consumers = append(w.consumers, pendingConsumer{c: c, tag: tag, keys: keys, result: result, group: group})
}

// pendingConsumer is a consumer made before its topic exists: subscribe
// runs once the topic was created through the console.
type pendingConsumer struct {
	c      rocketmq.PushConsumer
	group  string
	tag    string
	keys   chan<- string
	result consumer.ConsumeResult
}

// run subscribes the consumers to topic, sends the messages in order and
// waits until consumeGroup got them all and dlqGroup failed every TagB one.
func (w *workload) run(t *testing.T, topic string) {
	t.Helper()
	for _, pc := range w.consumers {
		pc := pc
		err := pc.c.Subscribe(topic, consumer.MessageSelector{Type: consumer.TAG, Expression: pc.tag},
			func(_ context.Context, msgs ...*primitive.MessageExt) (consumer.ConsumeResult, error) {
				for _, m := range msgs {
					pc.keys <- m.GetKeys()
				}
				return pc.result, nil
			})
		if err != nil {
			t.Fatalf("subscribe %s: %v", pc.group, err)
		}
		if err := pc.c.Start(); err != nil {
			t.Fatalf("consumer %s start: %v", pc.group, err)
		}
		c := pc.c
		t.Cleanup(func() { _ = c.Shutdown() })
	}
	for i := 0; i < loadCount; i++ {
		w.send(t, topic, i)
	}
	w.await(t, "consumed by "+consumeGroup, w.consumed, loadCount)
	w.await(t, "failed into the DLQ by "+dlqGroup, w.failed, loadCount/2)
}

func (w *workload) send(t *testing.T, topic string, i int) {
	t.Helper()
	tag := "TagA"
	if i%2 == 1 {
		tag = "TagB"
	}
	key := fmt.Sprintf("ck-%d", i)
	msg := primitive.NewMessage(topic, []byte(fmt.Sprintf("console message %d", i)))
	msg.WithTag(tag)
	msg.WithKeys([]string{key})
	msg.Queue = &primitive.MessageQueue{Topic: topic, BrokerName: w.broker, QueueId: i % loadQueues}
	res, err := w.producer.SendSync(context.Background(), msg)
	if err != nil || res.Status != primitive.SendOK {
		t.Fatalf("send %s: %v %v", key, res, err)
	}
	w.sent = append(w.sent, sentMessage{key: key, msgID: res.OffsetMsgID, uniqKey: res.MsgID})
}

// await counts distinct keys from ch until want arrived, or fails after
// waitLimit naming what is missing.
func (w *workload) await(t *testing.T, what string, ch <-chan string, want int) {
	t.Helper()
	seen := map[string]bool{}
	deadline := time.After(waitLimit)
	for len(seen) < want {
		select {
		case k := <-ch:
			seen[k] = true
		case <-deadline:
			t.Fatalf("%d of %d messages %s after %s", len(seen), want, what, waitLimit)
		}
	}
}
