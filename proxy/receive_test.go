package proxy_test

// ReceiveMessage against a real broker (this project's, line 5, in
// process) through a local-mode proxy.

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/rmqgo/rmqgo/broker"
	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/namesrv"
	"github.com/rmqgo/rmqgo/proxy"
	"github.com/rmqgo/rmqgo/proxy/apiv2"
	"github.com/rmqgo/rmqgo/remoting"
)

// startLocalProxy runs a name server, a line-5 broker with topic (4
// queues) and a local-mode proxy in front of it; it returns a client of
// the proxy.
func startLocalProxy(t *testing.T, topic string) apiv2.MessagingServiceClient {
	nsAddr, b := startBroker(t, topic)
	cfg := proxy.DefaultConfig()
	cfg.GrpcServerPort, cfg.RemotingListenPort, cfg.NamesrvAddr = 0, 0, nsAddr
	p, err := proxy.New(proxy.Options{Config: cfg, ListenHost: "127.0.0.1", Logger: zap.NewNop(),
		Local: proxy.LocalBroker{Addr: b.Addr(), Name: "broker-a", Cluster: "DefaultCluster", IP: "127.0.0.1"}})
	require.NoError(t, err)
	p.Serve()
	t.Cleanup(p.Close)
	return grpcClient(t, p.Addr())
}

// grpcClient is a MessagingService client of addr.
func grpcClient(t *testing.T, addr string) apiv2.MessagingServiceClient {
	conn, err := grpc.NewClient("passthrough:///"+addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	return apiv2.NewMessagingServiceClient(conn)
}

// startBroker runs a name server and a line-5 broker, broker-a, with
// topic (4 queues); it returns the name server's address and the broker.
func startBroker(t *testing.T, topic string) (string, *broker.Broker) {
	o := namesrv.DefaultOptions()
	o.ListenAddr, o.KVConfigPath, o.Logger = "127.0.0.1:0", filepath.Join(t.TempDir(), "kv.json"), zap.NewNop()
	ns, err := namesrv.New(o)
	require.NoError(t, err)
	require.NoError(t, ns.Start())
	t.Cleanup(func() { _ = ns.Close() })

	dir := t.TempDir()
	c := conf.DefaultBrokerConfigs(conf.Env{HostName: "proxytest", LocalAddress: "127.0.0.1",
		SysProps: map[string]string{"user.home": dir}, Vars: map[string]string{"ROCKETMQ_HOME": dir}})
	c.NettyServer.ListenPort, c.Store.HaListenPort = 0, 0
	c.Broker.BrokerName, c.Broker.NamesrvAddr = "broker-a", ns.Addr()
	c.Store.StorePathRootDir, c.Store.StorePathCommitLog = dir+"/store", dir+"/store/commitlog"
	c.Store.MappedFileSizeCommitLog, c.Store.MappedFileSizeConsumeQueue = 4<<20, 20*1000
	b, err := broker.New(broker.Options{Configs: c, Line: protocol.Line5, ListenHost: "127.0.0.1", Logger: zap.NewNop()})
	require.NoError(t, err)
	require.NoError(t, b.Start())
	t.Cleanup(func() { _ = b.Close() })

	rc := remoting.NewClient(remoting.ClientOptions{})
	defer rc.Close()
	req := remoting.NewRequest(remoting.UpdateAndCreateTopic, map[string]string{"topic": topic, "defaultTopic": "TBW102",
		"readQueueNums": "4", "writeQueueNums": "4", "perm": "6", "topicFilterType": "SINGLE_TAG", "topicSysFlag": "0", "order": "false"})
	resp, err := rc.InvokeTimeout(b.Addr(), req, 5*time.Second)
	require.NoError(t, err)
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)

	return ns.Addr(), b
}

// clientCtx is a call of client id under parent.
func clientCtx(parent context.Context, id string) context.Context {
	return metadata.AppendToOutgoingContext(parent, "x-mq-client-id", id, "x-mq-language", "GO", "x-mq-client-version", "5.1.4")
}

// receiveOnce is a SimpleConsumer's receive: the messages it got.
func receiveOnce(ctx context.Context, svc apiv2.MessagingServiceClient, group, topic string, wait time.Duration) ([]*apiv2.Message, error) {
	stream, err := svc.ReceiveMessage(ctx, &apiv2.ReceiveMessageRequest{Group: &apiv2.Resource{Name: group},
		MessageQueue: &apiv2.MessageQueue{Topic: &apiv2.Resource{Name: topic}, Id: -1, Broker: &apiv2.Broker{Name: "broker-a"}},
		BatchSize:    32, InvisibleDuration: durationpb.New(30 * time.Second), LongPollingTimeout: durationpb.New(wait)})
	if err != nil {
		return nil, err
	}
	var msgs []*apiv2.Message
	for {
		resp, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			return msgs, nil
		}
		if err != nil {
			return msgs, err
		}
		if m := resp.GetMessage(); m != nil {
			msgs = append(msgs, m)
		}
	}
}

// A receive whose client has gone while its pop waited at the broker
// takes the next message all the same; the proxy cannot write it and
// nacks it (Java's NACK_INVISIBLE_TIME, 1 s), so the group's next receive
// gets it soon, not after its 30 s invisible time.
func TestAMessagePoppedForAGoneClientIsVisibleAgainSoon(t *testing.T) {
	const topic, group, id = "ProxyNackTopic", "proxy_nack_cg", "client-nack"
	svc := startLocalProxy(t, topic)
	base := clientCtx(context.Background(), id)

	tel, err := svc.Telemetry(base)
	require.NoError(t, err)
	ct := apiv2.ClientType_SIMPLE_CONSUMER
	require.NoError(t, tel.Send(&apiv2.TelemetryCommand{Command: &apiv2.TelemetryCommand_Settings{Settings: &apiv2.Settings{
		ClientType: &ct, RequestTimeout: durationpb.New(3 * time.Second),
		PubSub: &apiv2.Settings_Subscription{Subscription: &apiv2.Subscription{Group: &apiv2.Resource{Name: group},
			Subscriptions: []*apiv2.SubscriptionEntry{{Topic: &apiv2.Resource{Name: topic},
				Expression: &apiv2.FilterExpression{Type: apiv2.FilterType_TAG, Expression: "*"}}}}}}}}))
	answer, err := tel.Recv()
	require.NoError(t, err)
	require.Equal(t, apiv2.Code_OK, answer.GetStatus().GetCode())

	// The group's first pop sets its offset; then a receive that its
	// client gives up while it waits.
	msgs, err := receiveOnce(clientCtx(context.Background(), id), svc, group, topic, 5*time.Second)
	require.NoError(t, err)
	require.Empty(t, msgs)
	gone, cancel := context.WithCancel(base)
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = receiveOnce(gone, svc, group, topic, 20*time.Second)
	}()
	time.Sleep(500 * time.Millisecond)
	cancel()
	<-done
	time.Sleep(200 * time.Millisecond)

	sendCtx, cancelSend := context.WithTimeout(base, 5*time.Second)
	defer cancelSend()
	resp, err := svc.SendMessage(sendCtx, &apiv2.SendMessageRequest{Messages: []*apiv2.Message{{
		Topic: &apiv2.Resource{Name: topic}, Body: []byte("popped for nobody"),
		SystemProperties: &apiv2.SystemProperties{MessageId: "01AABBCCDDEEFF00010000000000000001", BodyEncoding: apiv2.Encoding_IDENTITY,
			MessageType: apiv2.MessageType_NORMAL, BornTimestamp: timestamppb.Now(), BornHost: "localhost"}}}})
	require.NoError(t, err)
	require.Equal(t, apiv2.Code_OK, resp.GetStatus().GetCode(), resp.GetStatus().GetMessage())
	sent := time.Now()

	// The gone receive's pop, still waiting at the broker, took it; it
	// comes back to the group in a few seconds.
	var got []*apiv2.Message
	for len(got) == 0 && time.Since(sent) < 15*time.Second {
		ctx, cancelRecv := context.WithTimeout(clientCtx(context.Background(), id), 10*time.Second)
		got, err = receiveOnce(ctx, svc, group, topic, 5*time.Second)
		cancelRecv()
		require.NoError(t, err)
	}
	require.Len(t, got, 1, "the message came back within 15 s")
	took := time.Since(sent)
	t.Logf("received again %v after the send, delivery attempt %d", took, got[0].GetSystemProperties().GetDeliveryAttempt())
	assert.Less(t, took, 15*time.Second)
	assert.Equal(t, "01AABBCCDDEEFF00010000000000000001", got[0].GetSystemProperties().GetMessageId())
}
