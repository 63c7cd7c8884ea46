package proxy

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/fastjson"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/proxy/apiv2"
	"github.com/rmqgo/rmqgo/remoting"
)

// fakeBrokers answers the proxy's remoting calls: the topic configs of
// types, the routes of those topics and of broker-a's own, all of
// broker-a at "addr-a", and RECALL_MESSAGE with answer.
type fakeBrokers struct {
	types  map[string]string // topic -> message.type ("": none)
	answer *remoting.Command

	mu     sync.Mutex
	recall []*remoting.Command
	addrs  []string
}

func (f *fakeBrokers) InvokeTimeout(addr string, req *remoting.Command, _ time.Duration) (*remoting.Command, error) {
	topic := req.ExtString("topic")
	switch remoting.RequestCode(req.Code) {
	case remoting.GetTopicConfig:
		t, ok := f.types[topic]
		if !ok {
			return &remoting.Command{Code: int32(remoting.TopicNotExist)}, nil
		}
		tc := protocol.NewTopicConfig(topic)
		if t != "" {
			tc.Attributes = map[string]string{"message.type": t}
		}
		return &remoting.Command{Body: tc.AppendJSON(nil)}, nil
	case remoting.GetRouteinfoByTopic:
		if _, known := f.types[topic]; !known && topic != "broker-a" {
			return &remoting.Command{Code: int32(remoting.TopicNotExist)}, nil
		}
		r := protocol.TopicRouteData{
			QueueDatas:  []protocol.QueueData{{BrokerName: "broker-a", ReadQueueNums: 1, WriteQueueNums: 1, Perm: 6}},
			BrokerDatas: []protocol.BrokerData{{Cluster: "c", BrokerName: "broker-a", BrokerAddrs: protocol.BrokerAddrs{{ID: protocol.MasterID, Addr: "addr-a"}}}},
		}
		return &remoting.Command{Body: r.AppendJSON(nil, fastjson.Fastjson)}, nil
	case remoting.RecallMessage:
		f.mu.Lock()
		defer f.mu.Unlock()
		f.recall = append(f.recall, req)
		f.addrs = append(f.addrs, addr)
		return f.answer, nil
	}
	return nil, errors.New("unexpected request")
}

func (f *fakeBrokers) InvokeOneway(string, *remoting.Command) error { return nil }

// recallProxy is a proxy of mode over f.
func recallProxy(mode string, f *fakeBrokers) *messaging {
	cfg := DefaultConfig()
	cfg.ProxyMode = mode
	local := LocalBroker{}
	if mode == ModeLocal {
		local = LocalBroker{Addr: "local-addr", Name: "broker-local", Cluster: "c"}
	}
	return &messaging{cfg: cfg, brokers: newBrokers(f, func() []string { return []string{"ns"} }, local)}
}

func recallOf(topic, handle string) *apiv2.RecallMessageRequest {
	return &apiv2.RecallMessageRequest{Topic: &apiv2.Resource{Name: topic}, RecallHandle: handle}
}

// A recall goes to the broker the handle names (local mode: the local
// broker) as RECALL_MESSAGE {topic, recallHandle, bname}, and is answered
// with the broker's msgId.
func TestRecallMessageReachesTheHandlesBroker(t *testing.T) {
	handle := protocol.RecallHandle{Topic: "D", BrokerName: "broker-a", Timestamp: "1700000005001", MessageID: "ID1"}.Encode()
	for mode, addr := range map[string]string{ModeCluster: "addr-a", ModeLocal: "local-addr"} {
		ok := remoting.NewResponse(remoting.NewRequest(remoting.RecallMessage, nil), remoting.Success, "")
		ok.SetExt("msgId", "ID1")
		f := &fakeBrokers{types: map[string]string{"D": "DELAY", "M": "MIXED"}, answer: ok}
		m := recallProxy(mode, f)
		for _, topic := range []string{"D", "M"} {
			resp, err := m.RecallMessage(context.Background(), recallOf(topic, handle))
			require.NoError(t, err)
			assert.Equal(t, apiv2.Code_OK, resp.GetStatus().GetCode(), "%s %s: %v", mode, topic, resp.GetStatus())
			assert.Equal(t, "OK", resp.GetStatus().GetMessage())
			assert.Equal(t, "ID1", resp.GetMessageId())
		}
		require.Len(t, f.recall, 2)
		assert.Equal(t, addr, f.addrs[0], mode)
		assert.Equal(t, map[string]string{"topic": "D", "recallHandle": handle, "bname": "broker-a"}, f.recall[0].ExtFields.Map(), mode)
	}
}

// The refusals before and after the broker, with Java's statuses.
func TestRecallMessageRefusals(t *testing.T) {
	good := protocol.RecallHandle{Topic: "D", BrokerName: "broker-a", Timestamp: "1", MessageID: "ID1"}.Encode()
	forbidden := remoting.NewResponse(remoting.NewRequest(remoting.RecallMessage, nil), remoting.NoPermission, "recall failed, operation is forbidden")
	const pe = "org.apache.rocketmq.proxy.common.ProxyException: "
	for _, c := range []struct {
		name, mode, topic, handle string
		code                      apiv2.Code
		msg                       string
	}{
		{"blank topic", ModeLocal, " ", good, apiv2.Code_ILLEGAL_TOPIC, "The specified topic is blank."},
		{"system topic", ModeLocal, "rmq_sys_wheel_timer", good, apiv2.Code_ILLEGAL_TOPIC, "cannot access system topic"},
		{"normal topic", ModeLocal, "N", good, apiv2.Code_MESSAGE_PROPERTY_CONFLICT_WITH_TYPE,
			pe + "TopicMessageType validate failed, the expected type is NORMAL, but actual type is DELAY"},
		{"untyped topic", ModeLocal, "U", good, apiv2.Code_MESSAGE_PROPERTY_CONFLICT_WITH_TYPE,
			pe + "TopicMessageType validate failed, the expected type is NORMAL, but actual type is DELAY"},
		{"FIFO topic", ModeCluster, "F", good, apiv2.Code_MESSAGE_PROPERTY_CONFLICT_WITH_TYPE,
			pe + "TopicMessageType validate failed, the expected type is FIFO, but actual type is DELAY"},
		{"unknown topic", ModeLocal, "X", good, apiv2.Code_MESSAGE_PROPERTY_CONFLICT_WITH_TYPE,
			pe + "TopicMessageType validate failed, the expected type is UNSPECIFIED, but actual type is DELAY"},
		{"empty handle", ModeLocal, "D", "", apiv2.Code_INTERNAL_SERVER_ERROR, pe + "recall handle is invalid"},
		{"bad handle", ModeCluster, "D", "not-a-handle", apiv2.Code_INTERNAL_SERVER_ERROR, pe + "recall handle is invalid"},
		{"unknown broker", ModeCluster, "D", protocol.RecallHandle{Topic: "D", BrokerName: "broker-z", Timestamp: "1", MessageID: "I"}.Encode(),
			apiv2.Code_BAD_REQUEST, pe + "cannot find broker broker-z"},
		{"broker refusal, local", ModeLocal, "D", good, apiv2.Code_INTERNAL_SERVER_ERROR, pe + "recall failed, operation is forbidden"},
		{"broker refusal, cluster", ModeCluster, "D", good, apiv2.Code_INTERNAL_SERVER_ERROR, "recall failed, operation is forbidden"},
	} {
		f := &fakeBrokers{types: map[string]string{"D": "DELAY", "N": "NORMAL", "U": "", "F": "FIFO"}, answer: forbidden}
		resp, err := recallProxy(c.mode, f).RecallMessage(context.Background(), recallOf(c.topic, c.handle))
		require.NoError(t, err)
		assert.Equal(t, c.code, resp.GetStatus().GetCode(), c.name)
		assert.Equal(t, c.msg, resp.GetStatus().GetMessage(), c.name)
		assert.Empty(t, resp.GetMessageId(), c.name)
	}

	// enableTopicMessageTypeCheck off: any topic
	f := &fakeBrokers{types: map[string]string{"N": "NORMAL"}, answer: forbidden}
	m := recallProxy(ModeLocal, f)
	m.cfg.EnableTopicMessageTypeCheck = false
	resp, err := m.RecallMessage(context.Background(), recallOf("N", good))
	require.NoError(t, err)
	assert.Equal(t, pe+"recall failed, operation is forbidden", resp.GetStatus().GetMessage())
}

// A send's entry carries the broker's recall handle, "" without one.
func TestSendResultEntryCarriesTheRecallHandle(t *testing.T) {
	m := &messaging{cfg: DefaultConfig()}
	r := remoting.NewResponse(remoting.NewRequest(remoting.SendMessage, nil), remoting.Success, "")
	r.SetExt("queueOffset", "7")
	r.SetExt("recallHandle", "djEgYSBiIGMgZA==")
	resp := m.sendResponse(r, []builtMessage{{id: "ID1"}})
	require.Len(t, resp.GetEntries(), 1)
	assert.Equal(t, "djEgYSBiIGMgZA==", resp.GetEntries()[0].GetRecallHandle())
	r.ExtFields.Delete("recallHandle")
	assert.Equal(t, "", m.sendResponse(r, []builtMessage{{id: "ID1"}}).GetEntries()[0].GetRecallHandle())
}
