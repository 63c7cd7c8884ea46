package main

// What grpc-produce and grpc-idle share: a 5.x client as the proxy sees
// it. Each grpcClient has its own client id and sends, with every call,
// the metadata the 5.x SDKs send (docs/reference/proxy.md §2.3):
//
//	x-mq-client-id       <hostname>@<pid>@<index>@<nanoTime in base 36>
//	x-mq-language        GO
//	x-mq-client-version  5.1.4 (the Go SDK's)
//	x-mq-protocol        v2
//	x-mq-date-time       yyyyMMdd'T'HHmmss'Z'
//	x-mq-request-id      a new id per call
//
// The connection is plaintext HTTP/2 (the proxies take TLS and plaintext on
// one port). A client opens its Telemetry stream and sends its Settings
// first, as the SDKs do before they count as started, and keeps the
// stream open; the answer is the proxy's merged settings.

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	grpcstatus "google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/rmqgo/rmqgo/proxy/apiv2"
)

// grpcClientVersion is the SDK version the clients announce (the Go
// SDK's; the proxy only reads it for ReceiveMessage's polling rule).
const grpcClientVersion = "5.1.4"

// grpcRequestTimeout is the request timeout the clients' settings carry
// (the SDKs' default).
const grpcRequestTimeout = 3 * time.Second

// dialProxy makes a plaintext connection to a proxy; small buffers keep
// thousands of idle connections cheap on this side.
func dialProxy(addr string, small bool) (*grpc.ClientConn, error) {
	opts := []grpc.DialOption{grpc.WithTransportCredentials(insecure.NewCredentials())}
	if small {
		opts = append(opts, grpc.WithReadBufferSize(4<<10), grpc.WithWriteBufferSize(4<<10))
	}
	return grpc.NewClient("passthrough:///"+addr, opts...)
}

// grpcClient is one 5.x client: its id and the connection it calls over.
type grpcClient struct {
	id   string
	addr string // the proxy's host:port
	svc  apiv2.MessagingServiceClient
	md   []string // the fixed metadata, key and value in turn
	reqs atomic.Uint64
	// telemetry is the open Telemetry stream (nil before openTelemetry);
	// ended is closed when the stream has ended, for whatever reason.
	telemetry grpc.BidiStreamingClient[apiv2.TelemetryCommand, apiv2.TelemetryCommand]
	stop      context.CancelFunc
	ended     chan struct{}
	closing   atomic.Bool
}

// grpcClientIDs makes client ids as the SDKs do.
var grpcClientIDs = struct {
	host  string
	start time.Time
}{host: hostnameOr("localhost"), start: time.Now()}

func hostnameOr(def string) string {
	if h, err := os.Hostname(); err == nil && h != "" {
		return h
	}
	return def
}

// newGrpcClient is client index over conn.
func newGrpcClient(conn *grpc.ClientConn, addr string, index int) *grpcClient {
	nano := time.Now().UnixNano() + int64(index) // distinct even when made in the same nanosecond
	id := fmt.Sprintf("%s@%d@%d@%s", grpcClientIDs.host, os.Getpid(), index, strconv.FormatInt(nano, 36))
	md := []string{"x-mq-client-id", id, "x-mq-language", "GO", "x-mq-client-version", grpcClientVersion, "x-mq-protocol", "v2"}
	return &grpcClient{id: id, addr: addr, svc: apiv2.NewMessagingServiceClient(conn), md: md}
}

// call is the context of one call: the client's metadata, a request id
// and the date, under parent's cancellation and timeout (0: none).
func (c *grpcClient) call(parent context.Context, timeout time.Duration) (context.Context, context.CancelFunc) {
	kv := append(make([]string, 0, len(c.md)+4), c.md...)
	kv = append(kv, "x-mq-request-id", c.id+"-"+strconv.FormatUint(c.reqs.Add(1), 10),
		"x-mq-date-time", time.Now().UTC().Format("20060102T150405Z"))
	ctx := metadata.AppendToOutgoingContext(parent, kv...)
	if timeout <= 0 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, timeout)
}

// accessPoint is the endpoint the settings name.
func (c *grpcClient) accessPoint() *apiv2.Endpoints {
	host, port := splitHostPort(c.addr)
	return &apiv2.Endpoints{Scheme: apiv2.AddressScheme_IPv4, Addresses: []*apiv2.Address{{Host: host, Port: port}}}
}

// splitHostPort splits host:port (port 0 when absent or not a number).
func splitHostPort(addr string) (string, int32) {
	for i := len(addr) - 1; i >= 0; i-- {
		if addr[i] == ':' {
			p, _ := strconv.Atoi(addr[i+1:])
			return addr[:i], int32(p)
		}
	}
	return addr, 0
}

// userAgent is what the Go SDK says of itself.
func userAgent() *apiv2.UA {
	return &apiv2.UA{Language: apiv2.Language_GOLANG, Version: grpcClientVersion, Platform: "linux", Hostname: grpcClientIDs.host}
}

// producerSettings are a producer's settings for topic.
func (c *grpcClient) producerSettings(topic string) *apiv2.Settings {
	t := apiv2.ClientType_PRODUCER
	return &apiv2.Settings{ClientType: &t, AccessPoint: c.accessPoint(), RequestTimeout: durationpb.New(grpcRequestTimeout),
		PubSub: &apiv2.Settings_Publishing{Publishing: &apiv2.Publishing{
			Topics: []*apiv2.Resource{{Name: topic}}, ValidateMessageType: true}},
		UserAgent: userAgent()}
}

// simpleConsumerSettings are a SimpleConsumer's settings: group
// subscribing to every tag of topic.
func (c *grpcClient) simpleConsumerSettings(group, topic string) *apiv2.Settings {
	t := apiv2.ClientType_SIMPLE_CONSUMER
	return &apiv2.Settings{ClientType: &t, AccessPoint: c.accessPoint(), RequestTimeout: durationpb.New(grpcRequestTimeout),
		PubSub: &apiv2.Settings_Subscription{Subscription: &apiv2.Subscription{
			Group: &apiv2.Resource{Name: group},
			Subscriptions: []*apiv2.SubscriptionEntry{{Topic: &apiv2.Resource{Name: topic},
				Expression: &apiv2.FilterExpression{Type: apiv2.FilterType_TAG, Expression: "*"}}},
			LongPollingTimeout: durationpb.New(20 * time.Second)}},
		UserAgent: userAgent()}
}

// openTelemetry opens the client's Telemetry stream, sends settings and
// waits up to timeout for the proxy's answer; the stream then stays open,
// read in the background (ended is closed when it ends).
func (c *grpcClient) openTelemetry(settings *apiv2.Settings, timeout time.Duration) error {
	ctx, cancel := c.call(context.Background(), 0)
	stream, err := c.svc.Telemetry(ctx)
	if err != nil {
		cancel()
		return err
	}
	if err := stream.Send(&apiv2.TelemetryCommand{Command: &apiv2.TelemetryCommand_Settings{Settings: settings}}); err != nil {
		cancel()
		return recvErr(stream, err)
	}
	answer := make(chan error, 1)
	go func() {
		cmd, err := stream.Recv()
		switch {
		case err != nil:
		case cmd.GetStatus().GetCode() != apiv2.Code_OK || cmd.GetSettings() == nil:
			err = fmt.Errorf("settings answered %v %q", cmd.GetStatus().GetCode(), cmd.GetStatus().GetMessage())
		}
		answer <- err
	}()
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case err = <-answer:
	case <-t.C:
		err = fmt.Errorf("no settings answer within %v", timeout)
	}
	if err != nil {
		cancel()
		return err
	}
	c.telemetry, c.stop, c.ended = stream, cancel, make(chan struct{})
	go func() {
		defer close(c.ended)
		for {
			if _, err := stream.Recv(); err != nil {
				return
			}
		}
	}()
	return nil
}

// recvErr is the status that ended a stream whose Send failed (io.EOF
// from Send means the server ended it: Recv says why).
func recvErr(stream grpc.ClientStream, err error) error {
	if errors.Is(err, io.EOF) {
		var cmd apiv2.TelemetryCommand
		if rerr := stream.RecvMsg(&cmd); rerr != nil {
			return rerr
		}
	}
	return err
}

// dropped tells whether the Telemetry stream ended without closeTelemetry.
func (c *grpcClient) dropped() bool {
	if c.ended == nil || c.closing.Load() {
		return false
	}
	select {
	case <-c.ended:
		return true
	default:
		return false
	}
}

// closeTelemetry ends the stream from this side.
func (c *grpcClient) closeTelemetry() {
	if c.telemetry == nil {
		return
	}
	c.closing.Store(true)
	_ = c.telemetry.CloseSend()
	c.stop()
}

// terminate is NotifyClientTermination, as an SDK sends it on shutdown.
func (c *grpcClient) terminate(timeout time.Duration, group string) {
	ctx, cancel := c.call(context.Background(), timeout)
	defer cancel()
	req := &apiv2.NotifyClientTerminationRequest{}
	if group != "" {
		req.Group = &apiv2.Resource{Name: group}
	}
	_, _ = c.svc.NotifyClientTermination(ctx, req)
}

// message is a NORMAL message for topic with the system properties a
// 5.x producer sets.
func message(topic string, body []byte, id string) *apiv2.Message {
	return &apiv2.Message{Topic: &apiv2.Resource{Name: topic}, Body: body,
		SystemProperties: &apiv2.SystemProperties{MessageId: id, BodyEncoding: apiv2.Encoding_IDENTITY,
			MessageType: apiv2.MessageType_NORMAL, BornTimestamp: timestamppb.Now(), BornHost: grpcClientIDs.host}}
}

// messageIDs makes 5.x message ids (MessageIdCodec): version 01, a MAC
// address (random here), the low 16 bits of the pid, the seconds since
// 2021-01-01 UTC and a sequence number, in upper-case hex (34 digits).
type messageIDs struct {
	prefix []byte // "01" + MAC + pid, in hex
	seq    atomic.Uint32
}

var messageIDEpoch = time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)

func newMessageIDs() *messageIDs {
	var head [9]byte
	head[0] = 1
	for i := 1; i < 7; i++ {
		head[i] = byte(rand.IntN(256))
	}
	pid := os.Getpid()
	head[7], head[8] = byte(pid>>8), byte(pid)
	return &messageIDs{prefix: []byte(upperHex(head[:]))}
}

func (g *messageIDs) next() string {
	var tail [8]byte
	secs := uint32(time.Since(messageIDEpoch) / time.Second)
	seq := g.seq.Add(1)
	tail[0], tail[1], tail[2], tail[3] = byte(secs>>24), byte(secs>>16), byte(secs>>8), byte(secs)
	tail[4], tail[5], tail[6], tail[7] = byte(seq>>24), byte(seq>>16), byte(seq>>8), byte(seq)
	return string(g.prefix) + upperHex(tail[:])
}

func upperHex(b []byte) string {
	out := make([]byte, hex.EncodedLen(len(b)))
	hex.Encode(out, b)
	for i, c := range out {
		if c >= 'a' {
			out[i] = c - 'a' + 'A'
		}
	}
	return string(out)
}

// transportCode is the gRPC status code of a failed call.
func transportCode(err error) string { return grpcstatus.Code(err).String() }
