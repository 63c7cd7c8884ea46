package gov5

import (
	"context"
	"strings"
	"testing"
	"time"

	rmq "github.com/apache/rocketmq-clients/golang/v5"
	v2 "github.com/apache/rocketmq-clients/golang/v5/protocol/v2"
)

// A send to a topic that does not exist fails with the proxy's
// TOPIC_NOT_FOUND (40402, from its QueryRoute): at a send of a running
// producer, where the client returns the status, and at the start of a
// producer that names the topic, whose error quotes it.
func TestSendToAMissingTopicFailsWithTopicNotFound(t *testing.T) {
	t.Parallel()
	srv := serversOf(t)
	existing := newTopic(t, srv, "gov5_exists", 1, "NORMAL")
	p := newProducer(t, srv, rmq.WithTopics(existing))
	missing := unique("gov5_missing")
	_, err := p.Send(context.Background(), message(missing, "to nowhere", "TagA", "missing-1"))
	if err == nil {
		t.Fatalf("send to %s: no error", missing)
	}
	t.Logf("send to a missing topic: %v", err)
	if code := rpcCode(err); code != int32(v2.Code_TOPIC_NOT_FOUND) {
		t.Errorf("send to a missing topic: status code %d (%v), want TOPIC_NOT_FOUND (%d)", code, err, v2.Code_TOPIC_NOT_FOUND)
	}

	p2, err := rmq.NewProducer(config(srv, ""), rmq.WithTopics(unique("gov5_missing")))
	if err != nil {
		t.Fatalf("NewProducer: %v", err)
	}
	err = p2.Start()
	if err == nil {
		_ = p2.GracefulStop()
		t.Fatalf("start of a producer of a missing topic: no error")
	}
	t.Logf("start of a producer of a missing topic: %v", err)
	if !strings.Contains(err.Error(), "TOPIC_NOT_FOUND") {
		t.Errorf("start of a producer of a missing topic: %v, want TOPIC_NOT_FOUND", err)
	}
}

// A receive with an invisible duration under the proxy's
// minInvisibleTimeMillsForRecv (10 s) is refused: ILLEGAL_INVISIBLE_TIME.
func TestReceiveWithATooShortInvisibleDurationIsRefused(t *testing.T) {
	t.Parallel()
	srv := serversOf(t)
	topic := newTopic(t, srv, "gov5_badinvisible", 1, "NORMAL")
	group := newGroup(t, srv, "GID_gov5_badinvisible", false, 16)
	c := newSimpleConsumer(t, srv, group, topic, rmq.SUB_ALL)
	_, err := c.Receive(context.Background(), 1, time.Second)
	if err == nil {
		t.Fatalf("receive with 1 s invisible: no error")
	}
	t.Logf("receive with 1 s invisible: %v", err)
	if code := rpcCode(err); code != int32(v2.Code_ILLEGAL_INVISIBLE_TIME) {
		t.Errorf("receive with 1 s invisible: status code %d (%v), want ILLEGAL_INVISIBLE_TIME (%d)", code, err, v2.Code_ILLEGAL_INVISIBLE_TIME)
	}
}
