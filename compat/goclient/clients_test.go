// How the tests start Go-client producers, consumers and the admin: as a Go
// service does, with the client's options, each shut down when its test ends.
package goclient

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	rocketmq "github.com/apache/rocketmq-client-go/v2"
	"github.com/apache/rocketmq-client-go/v2/admin"
	"github.com/apache/rocketmq-client-go/v2/consumer"
	"github.com/apache/rocketmq-client-go/v2/primitive"
	"github.com/apache/rocketmq-client-go/v2/producer"
)

// listener is what a push consumer calls with the messages it got.
type listener = func(context.Context, ...*primitive.MessageExt) (consumer.ConsumeResult, error)

// app stands for one Go service: the Go client keeps one client instance
// (connections, one HEART_BEAT for all groups, one route poll) per instance
// name, so every producer and consumer an app starts shares one instance.
// An empty instance is the client's default, one instance per process, as
// in a service that sets none.
type app struct {
	t        *testing.T
	srv      servers
	instance string
	adm      admin.Admin
}

// newApp makes an app with its own instance name, so that the tests, which
// run side by side in one process, do not share client instances.
func newApp(t *testing.T) *app {
	return newAppInstance(t, unique("gc_inst"))
}

// newAppInstance makes an app on the given instance name ("" for the
// client's default instance).
func newAppInstance(t *testing.T, instance string) *app {
	t.Helper()
	srv := serversOf(t)
	adm, err := admin.NewAdmin(admin.WithResolver(primitive.NewPassthroughResolver(srv.namesrv)))
	if err != nil {
		t.Fatalf("admin.NewAdmin: %v", err)
	}
	t.Cleanup(func() { _ = adm.Close() })
	return &app{t: t, srv: srv, instance: instance, adm: adm}
}

// newTopic creates a topic with the given number of queues on the broker
// through the admin API and waits until the name server routes it.
func (a *app) newTopic(prefix string, queues int) string {
	a.t.Helper()
	topic := unique(prefix)
	err := a.adm.CreateTopic(context.Background(),
		admin.WithTopicCreate(topic),
		admin.WithBrokerAddrCreate(a.srv.broker),
		admin.WithReadQueueNums(queues),
		admin.WithWriteQueueNums(queues))
	if err != nil {
		a.t.Fatalf("create topic %s on %s: %v", topic, a.srv.broker, err)
	}
	if got := a.awaitRoute(topic); len(got) != queues {
		a.t.Fatalf("topic %s: the name server routes %d queues, want %d", topic, len(got), queues)
	}
	return topic
}

// awaitRoute waits until the name server has a route for topic and returns
// its writable queues.
func (a *app) awaitRoute(topic string) []*primitive.MessageQueue {
	a.t.Helper()
	var mqs []*primitive.MessageQueue
	eventually(a.t, routeWait, "the name server routes "+topic, func() error {
		var err error
		mqs, err = a.adm.FetchPublishMessageQueues(context.Background(), topic)
		if err != nil {
			return err
		}
		if len(mqs) == 0 {
			return fmt.Errorf("no queues yet")
		}
		return nil
	})
	return mqs
}

func (a *app) producerOptions(group string, extra []producer.Option) []producer.Option {
	opts := []producer.Option{
		producer.WithNameServer(a.srv.namesrv),
		producer.WithGroupName(group),
		producer.WithRetry(2),
		producer.WithSendMsgTimeout(10 * time.Second),
	}
	if a.instance != "" {
		opts = append(opts, producer.WithInstanceName(a.instance))
	}
	return append(opts, extra...)
}

// producer starts a producer of group, shut down when the test ends.
func (a *app) producer(group string, extra ...producer.Option) rocketmq.Producer {
	a.t.Helper()
	p, err := rocketmq.NewProducer(a.producerOptions(group, extra)...)
	if err != nil {
		a.t.Fatalf("NewProducer %s: %v", group, err)
	}
	if err := p.Start(); err != nil {
		a.t.Fatalf("start producer %s: %v", group, err)
	}
	a.t.Cleanup(func() { _ = p.Shutdown() })
	return p
}

// txProducer starts a transaction producer of group with l as its local
// transaction listener, shut down when the test ends.
func (a *app) txProducer(group string, l primitive.TransactionListener) rocketmq.TransactionProducer {
	a.t.Helper()
	p, err := rocketmq.NewTransactionProducer(l, a.producerOptions(group, nil)...)
	if err != nil {
		a.t.Fatalf("NewTransactionProducer %s: %v", group, err)
	}
	if err := p.Start(); err != nil {
		a.t.Fatalf("start transaction producer %s: %v", group, err)
	}
	a.t.Cleanup(func() { _ = p.Shutdown() })
	return p
}

func (a *app) consumerOptions(group string, extra []consumer.Option) []consumer.Option {
	opts := []consumer.Option{
		consumer.WithNameServer(a.srv.namesrv),
		consumer.WithGroupName(group),
		consumer.WithConsumeFromWhere(consumer.ConsumeFromFirstOffset),
	}
	if a.instance != "" {
		opts = append(opts, consumer.WithInstance(a.instance))
	}
	return append(opts, extra...)
}

// pushConsumer starts a push consumer of group subscribed to topic with sel,
// shut down when the test ends.
func (a *app) pushConsumer(group, topic string, sel consumer.MessageSelector, f listener,
	extra ...consumer.Option) rocketmq.PushConsumer {
	a.t.Helper()
	c, err := a.tryPushConsumer(group, topic, sel, f, extra...)
	if err != nil {
		a.t.Fatal(err)
	}
	return c
}

// tryPushConsumer is pushConsumer that returns the error of Start instead of
// failing the test (the Go client refuses to start a consumer whose topic it
// finds no route for).
func (a *app) tryPushConsumer(group, topic string, sel consumer.MessageSelector, f listener,
	extra ...consumer.Option) (rocketmq.PushConsumer, error) {
	c, err := rocketmq.NewPushConsumer(a.consumerOptions(group, extra)...)
	if err != nil {
		return nil, fmt.Errorf("NewPushConsumer %s: %w", group, err)
	}
	if err := c.Subscribe(topic, sel, f); err != nil {
		return nil, fmt.Errorf("subscribe %s to %s: %w", group, topic, err)
	}
	if err := c.Start(); err != nil {
		_ = c.Shutdown()
		return nil, fmt.Errorf("start push consumer %s on %s: %w", group, topic, err)
	}
	a.t.Cleanup(func() { _ = c.Shutdown() })
	return c, nil
}

// pullConsumer starts a (lite) pull consumer of group subscribed to topic
// with sel, shut down when the test ends.
func (a *app) pullConsumer(group, topic string, sel consumer.MessageSelector) rocketmq.PullConsumer {
	a.t.Helper()
	c, err := rocketmq.NewPullConsumer(a.consumerOptions(group, nil)...)
	if err != nil {
		a.t.Fatalf("NewPullConsumer %s: %v", group, err)
	}
	if err := c.Subscribe(topic, sel); err != nil {
		a.t.Fatalf("subscribe %s to %s: %v", group, topic, err)
	}
	if err := c.Start(); err != nil {
		a.t.Fatalf("start pull consumer %s on %s: %v", group, topic, err)
	}
	a.t.Cleanup(func() { _ = c.Shutdown() })
	return c
}

// all is the selector of every message.
var all = consumer.MessageSelector{Type: consumer.TAG, Expression: "*"}

// tags is the selector of a tag expression such as "TagA || TagC".
func tags(expr string) consumer.MessageSelector {
	return consumer.MessageSelector{Type: consumer.TAG, Expression: expr}
}

// sendOK sends msgs (one message, or a batch) synchronously and fails the
// test unless the broker stored them (sending again while it is busy).
func sendOK(t *testing.T, p rocketmq.Producer, msgs ...*primitive.Message) *primitive.SendResult {
	t.Helper()
	r, err := retryBusy(t, "SendSync to "+msgs[0].Topic, func() (*primitive.SendResult, error) {
		return p.SendSync(context.Background(), msgs...)
	})
	if err != nil {
		t.Fatalf("SendSync to %s: %v", msgs[0].Topic, err)
	}
	if r.Status != primitive.SendOK {
		t.Fatalf("SendSync to %s: status %d: %s", msgs[0].Topic, r.Status, r)
	}
	return r
}

// A broker refuses a send with SYSTEM_BUSY (code 2) when its flow control
// kicks in, e.g. when a request waited over waitTimeMillsInSendQueue
// (200 ms) in a Java broker's send queue, as happens on a small machine
// while the broker's JIT warms up and a dozen tests start at once. Neither
// the Go client nor the Java one sends again on that code by itself; a
// service does, and so do the tests (the broker stored nothing).
const (
	busyRetries = 10
	busyPause   = 300 * time.Millisecond
)

// isBusy tells whether err is a send the broker refused as busy (the Go
// client reports it as "CODE: 2, DESC: ...").
func isBusy(err error) bool {
	return err != nil && strings.Contains(err.Error(), "CODE: 2,")
}

// retryBusy calls send until it returns anything but a busy refusal, at most
// busyRetries times more.
func retryBusy[T any](t *testing.T, what string, send func() (T, error)) (T, error) {
	t.Helper()
	for i := 0; ; i++ {
		r, err := send()
		if !isBusy(err) || i == busyRetries {
			return r, err
		}
		t.Logf("%s: %v; sending again", what, err)
		time.Sleep(busyPause)
	}
}

// message makes a message of topic with body, tag (none when empty), keys
// and the user property u_body (the body again), so that a test can check
// that properties arrive.
func message(topic, body, tag string, keys ...string) *primitive.Message {
	m := primitive.NewMessage(topic, []byte(body))
	if tag != "" {
		m.WithTag(tag)
	}
	if len(keys) > 0 {
		m.WithKeys(keys)
	}
	m.WithProperty("u_body", body)
	return m
}
