package gov5

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

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
	conn, err := grpc.NewClient(srv.proxy, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(16<<20)))
	if err != nil {
		t.Fatalf("dial %s: %v", srv.proxy, err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	client := v2.NewMessagingServiceClient(conn)
	host, _ := os.Hostname()
	ctx := metadata.AppendToOutgoingContext(context.Background(), "x-mq-client-id", unique("gov5_raw"),
		"x-mq-language", "GO", "x-mq-client-version", "5.1.3", "x-mq-protocol", "v2")

	const max = 4 << 20
	for _, c := range []struct {
		size int
		want v2.Code
	}{{max, v2.Code_OK}, {max + 1, v2.Code_MESSAGE_BODY_TOO_LARGE}} {
		id := strings.ToUpper(unique("01"))
		req := &v2.SendMessageRequest{Messages: []*v2.Message{{
			Topic: &v2.Resource{Name: topic},
			Body:  bytes.Repeat([]byte{'x'}, c.size),
			SystemProperties: &v2.SystemProperties{
				MessageId: id, BodyEncoding: v2.Encoding_IDENTITY, MessageType: v2.MessageType_NORMAL,
				BornTimestamp: timestamppb.Now(), BornHost: host,
			},
		}}}
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
