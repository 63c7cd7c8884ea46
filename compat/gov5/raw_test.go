package gov5

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	rmq "github.com/apache/rocketmq-clients/golang/v5"
	v2 "github.com/apache/rocketmq-clients/golang/v5/protocol/v2"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/types/known/timestamppb"
)

// The proxy's maxMessageSize (4 MiB) bounds a message body: a body of
// exactly 4 MiB is stored, one byte more is MESSAGE_BODY_TOO_LARGE with
// Java's message, and the proxy advertises the bound to producers
// (Publishing.max_body_size). The clients check the bound themselves
// before sending, so the sends here are raw SendMessage calls, as a client
// of another language (or an older one) makes them.
func TestABodyOf4MiBIsStoredAndOneByteMoreIsRefused(t *testing.T) {
	t.Parallel()
	srv := serversOf(t)
	topic := newTopic(t, srv, "gov5_bodylimit", 1, "NORMAL")
	client, ctx := rawClient(t, srv)

	const max = 4 << 20
	for _, c := range []struct {
		size int
		want v2.Code
	}{{max, v2.Code_OK}, {max + 1, v2.Code_MESSAGE_BODY_TOO_LARGE}} {
		m := rawMessage(topic, bytes.Repeat([]byte{'x'}, c.size))
		id := m.GetSystemProperties().GetMessageId()
		req := &v2.SendMessageRequest{Messages: []*v2.Message{m}}
		callCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
		resp, err := client.SendMessage(callCtx, req)
		cancel()
		if err != nil {
			t.Fatalf("send of %d bytes: %v", c.size, err)
		}
		if got := resp.GetStatus().GetCode(); got != c.want {
			t.Fatalf("send of %d bytes: status %v %q, want %v", c.size, got, resp.GetStatus().GetMessage(), c.want)
		}
		t.Logf("send of %d bytes: %v %q", c.size, resp.GetStatus().GetCode(), resp.GetStatus().GetMessage())
		if c.want == v2.Code_MESSAGE_BODY_TOO_LARGE && resp.GetStatus().GetMessage() != "message body cannot exceed the max 4194304" {
			t.Errorf("send of %d bytes: message %q, want Java's", c.size, resp.GetStatus().GetMessage())
		}
		if c.want == v2.Code_OK && (len(resp.GetEntries()) != 1 || resp.GetEntries()[0].GetMessageId() != id) {
			t.Errorf("send of %d bytes: entries %v, want one for %s", c.size, resp.GetEntries(), id)
		}
	}
}

// A SendMessage of several messages (the proxy passes them to the broker
// as one batch) stores each: a consumer receives the three, each once.
// (Java's local proxy answers a batch with one entry, the batch's; ours
// with one per message.)
func TestABatchOfThreeIsStoredAsThreeMessages(t *testing.T) {
	t.Parallel()
	srv := serversOf(t)
	topic := newTopic(t, srv, "gov5_rawbatch", 1, "NORMAL")
	group := newGroup(t, srv, "GID_gov5_rawbatch", false, 16)
	client, ctx := rawClient(t, srv)
	req := &v2.SendMessageRequest{}
	want := map[string]bool{}
	for i := range 3 {
		body := "batched " + strconv.Itoa(i) + " of " + topic
		req.Messages = append(req.Messages, rawMessage(topic, []byte(body)))
		want[body] = true
	}
	callCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	resp, err := client.SendMessage(callCtx, req)
	cancel()
	if err != nil || resp.GetStatus().GetCode() != v2.Code_OK {
		t.Fatalf("send of a batch of 3: %v %v", err, resp.GetStatus())
	}
	if len(resp.GetEntries()) == 0 {
		t.Fatalf("send of a batch of 3: no entry")
	}
	t.Logf("send of a batch of 3: %d entries", len(resp.GetEntries()))
	c := newSimpleConsumer(t, srv, group, topic, rmq.SUB_ALL)
	got := map[string]int{}
	receiveUntil(t, c, 20*time.Second, deliveryWait, "the three messages of the batch", func(d delivery) {
		got[d.body()]++
		if !want[d.body()] || got[d.body()] > 1 {
			t.Errorf("received %q (%d times), want each of %v once", d.body(), got[d.body()], want)
		}
		ack(t, c, d)
	}, func([]delivery) bool { return len(got) == len(want) })
}

// rawClient is a gRPC connection to the proxy, as a 5.x SDK makes it, and
// the metadata every call carries.
func rawClient(t *testing.T, srv servers) (v2.MessagingServiceClient, context.Context) {
	t.Helper()
	conn, err := grpc.NewClient(srv.proxy, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(16<<20)))
	if err != nil {
		t.Fatalf("dial %s: %v", srv.proxy, err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	ctx := metadata.AppendToOutgoingContext(context.Background(), "x-mq-client-id", unique("gov5_raw"),
		"x-mq-language", "GO", "x-mq-client-version", "5.1.3", "x-mq-protocol", "v2")
	return v2.NewMessagingServiceClient(conn), ctx
}

// rawMessage is a NORMAL message with a fresh message id.
func rawMessage(topic string, body []byte) *v2.Message {
	host, _ := os.Hostname()
	return &v2.Message{
		Topic: &v2.Resource{Name: topic},
		Body:  body,
		SystemProperties: &v2.SystemProperties{
			MessageId: strings.ToUpper(unique("01")), BodyEncoding: v2.Encoding_IDENTITY, MessageType: v2.MessageType_NORMAL,
			BornTimestamp: timestamppb.Now(), BornHost: host,
		},
	}
}
