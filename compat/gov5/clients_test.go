// How the tests start Go v5 producers and consumers (as a Go service does,
// with the client's defaults: TLS to the proxy's port, a 3 s request
// timeout), each stopped when its test ends, and what they record.
package gov5

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	rmq "github.com/apache/rocketmq-clients/golang/v5"
	"github.com/apache/rocketmq-clients/golang/v5/credentials"
	v2 "github.com/apache/rocketmq-clients/golang/v5/protocol/v2"
)

const (
	// awaitDuration is how long a SimpleConsumer's receive long-polls.
	awaitDuration = 5 * time.Second
	// minInvisible is the shortest invisible duration the 5.3.3 proxy
	// accepts (minInvisibleTimeMillsForRecv).
	minInvisible = 10 * time.Second
)

// config is the client configuration of a producer (group "") or consumer.
func config(srv servers, group string) *rmq.Config {
	return &rmq.Config{Endpoint: srv.proxy, ConsumerGroup: group, Credentials: &credentials.SessionCredentials{}}
}

// newProducer starts a producer (rmq.WithTopics names the topics whose routes
// it gets at its start), stopped when the test ends.
func newProducer(t *testing.T, srv servers, opts ...rmq.ProducerOption) rmq.Producer {
	t.Helper()
	p, err := rmq.NewProducer(config(srv, ""), opts...)
	if err != nil {
		t.Fatalf("NewProducer: %v", err)
	}
	if err := p.Start(); err != nil {
		t.Fatalf("start producer: %v", err)
	}
	t.Cleanup(func() { _ = p.GracefulStop() })
	return p
}

// newSimpleConsumer starts a SimpleConsumer of group on topic, stopped when
// the test ends.
func newSimpleConsumer(t *testing.T, srv servers, group, topic string, filter *rmq.FilterExpression) rmq.SimpleConsumer {
	t.Helper()
	c, err := rmq.NewSimpleConsumer(config(srv, group),
		rmq.WithSimpleAwaitDuration(awaitDuration),
		rmq.WithSimpleSubscriptionExpressions(map[string]*rmq.FilterExpression{topic: filter}))
	if err != nil {
		t.Fatalf("NewSimpleConsumer %s: %v", group, err)
	}
	if err := c.Start(); err != nil {
		t.Fatalf("start simple consumer %s: %v", group, err)
	}
	t.Cleanup(func() { _ = c.GracefulStop() })
	return c
}

// newPushConsumer starts a PushConsumer of group on topic whose listener
// records into p and answers with p's answer, stopped when the test ends.
func newPushConsumer(t *testing.T, srv servers, group, topic string, filter *rmq.FilterExpression, p *pushed) rmq.PushConsumer {
	t.Helper()
	c, err := rmq.NewPushConsumer(config(srv, group),
		rmq.WithPushSubscriptionExpressions(map[string]*rmq.FilterExpression{topic: filter}),
		rmq.WithPushConsumptionThreadCount(4),
		rmq.WithPushMessageListener(&rmq.FuncMessageListener{Consume: p.consume}))
	if err != nil {
		t.Fatalf("NewPushConsumer %s: %v", group, err)
	}
	if err := c.Start(); err != nil {
		t.Fatalf("start push consumer %s: %v", group, err)
	}
	t.Cleanup(func() { _ = c.GracefulStop() })
	return c
}

// message makes a message with a body, a tag ("": none) and keys.
func message(topic, body, tag string, keys ...string) *rmq.Message {
	m := &rmq.Message{Topic: topic, Body: []byte(body)}
	if tag != "" {
		m.SetTag(tag)
	}
	if len(keys) > 0 {
		m.SetKeys(keys...)
	}
	return m
}

// send sends m and returns its message id.
func send(t *testing.T, p rmq.Producer, m *rmq.Message) string {
	t.Helper()
	r, err := p.Send(context.Background(), m)
	if err != nil {
		t.Fatalf("send %q: %v", m.Body, err)
	}
	if len(r) != 1 || r[0].MessageID == "" {
		t.Fatalf("send %q: receipts %v", m.Body, r)
	}
	return r[0].MessageID
}

// delivery is one message handed to a listener or returned by a receive, and
// the client's clock then.
type delivery struct {
	mv *rmq.MessageView
	at time.Time
}

func (d delivery) id() string     { return d.mv.GetMessageId() }
func (d delivery) body() string   { return string(d.mv.GetBody()) }
func (d delivery) attempt() int32 { return d.mv.GetDeliveryAttempt() }

// describe lists id, body and delivery attempt of each delivery.
func describe(ds []delivery) string {
	parts := make([]string, len(ds))
	for i, d := range ds {
		parts[i] = fmt.Sprintf("%s %q attempt %d", d.id(), d.body(), d.attempt())
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// str is the value of a *string, "<nil>" for none.
func str(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// sorted returns a sorted copy.
func sorted(s []string) []string {
	c := append([]string(nil), s...)
	sort.Strings(c)
	return c
}

// pushed records what a push consumer's listener was given, in order; it
// answers with answer (nil: SUCCESS).
type pushed struct {
	mu     sync.Mutex
	list   []delivery
	answer func(*rmq.MessageView) rmq.ConsumerResult
}

func (p *pushed) consume(mv *rmq.MessageView) rmq.ConsumerResult {
	p.mu.Lock()
	p.list = append(p.list, delivery{mv: mv, at: time.Now()})
	p.mu.Unlock()
	if p.answer == nil {
		return rmq.SUCCESS
	}
	return p.answer(mv)
}

func (p *pushed) all() []delivery {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]delivery(nil), p.list...)
}

// of returns the deliveries of one message id.
func (p *pushed) of(id string) []delivery {
	var out []delivery
	for _, d := range p.all() {
		if d.id() == id {
			out = append(out, d)
		}
	}
	return out
}

// ids returns the set of message ids delivered.
func (p *pushed) ids() map[string]bool {
	out := map[string]bool{}
	for _, d := range p.all() {
		out[d.id()] = true
	}
	return out
}

// rpcCode is the status code of a client error that carries one (the
// proxy's answer), -1 otherwise.
func rpcCode(err error) int32 {
	if s, ok := rmq.AsErrRpcStatus(err); ok {
		return s.GetCode()
	}
	return -1
}

// receiveUntil receives (each receive long-polls up to awaitDuration) with
// that invisible duration until done holds for everything received so far,
// handing each message to each as it comes (which may fail the test at
// once); it fails the test when done does not hold within timeout. A
// receive that finds nothing (MESSAGE_NOT_FOUND) is the normal end of a long
// poll; other errors are kept to be reported with a timeout. Returns
// everything received.
func receiveUntil(t *testing.T, c rmq.SimpleConsumer, invisible, timeout time.Duration, what string,
	each func(delivery), done func([]delivery) bool) []delivery {
	t.Helper()
	deadline := time.Now().Add(timeout)
	var got []delivery
	var errs []string
	for !done(got) {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s; received %s; receive errors %v", timeout, what, describe(got), errs)
		}
		mvs, err := c.Receive(context.Background(), 16, invisible)
		if err != nil {
			if rpcCode(err) != int32(v2.Code_MESSAGE_NOT_FOUND) {
				errs = append(errs, err.Error())
			}
			continue
		}
		for _, mv := range mvs {
			d := delivery{mv: mv, at: time.Now()}
			got = append(got, d)
			each(d)
		}
	}
	return got
}

// ack acks d's message with its current receipt handle; the Go client
// reports transport errors only (not the proxy's status).
func ack(t *testing.T, c rmq.SimpleConsumer, d delivery) {
	t.Helper()
	if err := c.Ack(context.Background(), d.mv); err != nil {
		t.Fatalf("ack %q: %v", d.body(), err)
	}
}
