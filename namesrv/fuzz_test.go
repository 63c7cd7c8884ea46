package namesrv

import (
	"testing"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// FuzzRegisterBroker runs the REGISTER_BROKER handler on arbitrary bodies,
// plain and compressed, with and without a CRC: a malformed body must get
// an error response (never a panic, never no answer), and a route query
// must still work afterwards.
func FuzzRegisterBroker(f *testing.F) {
	compressed, err := protocol.DecodeRegisterBrokerBody(body498(1), false, protocol.VersionV4_9_8)
	if err != nil {
		f.Fatal(err)
	}
	zbody, err := compressed.EncodeCompressed(protocol.VersionV5_3_3)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(body498(1), false, protocol.VersionV4_9_8, true)
	f.Add(zbody, true, protocol.VersionV5_3_3, true)
	f.Add([]byte(`{"topicConfigTable":{"T":{}}}`), false, int32(10), false)
	f.Add([]byte(`{"topicConfigSerializeWrapper":{"topicConfigTable":{1:{"perm":"x"}}}}`), false, protocol.VersionV4_9_8, false)
	o := DefaultOptions()
	o.KVConfigPath = f.TempDir() + "/kv.json"
	o.Logger = zap.NewNop()
	ns, err := New(o)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, body []byte, compressed bool, version int32, withCRC bool) {
		req := registerRequest(brokerA, body, compressed, version)
		if !withCRC {
			req.ExtFields.Delete("bodyCrc32")
		}
		resp := ns.registerBroker(&remoting.Request{Cmd: req, Arrived: time.Now()})
		if resp == nil {
			t.Fatal("no response")
		}
		if resp.Code != int32(remoting.Success) && resp.Code != int32(remoting.SystemError) {
			t.Fatalf("code %d: %s", resp.Code, resp.Remark)
		}
		route := ns.getRouteInfoByTopic(&remoting.Request{Cmd: routeRequest("TopicTest", protocol.VersionV4_9_8)})
		if route == nil || (route.Code != int32(remoting.Success) && route.Code != int32(remoting.TopicNotExist)) {
			t.Fatalf("route after register: %v", route)
		}
	})
}
