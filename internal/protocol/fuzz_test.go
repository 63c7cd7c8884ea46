package protocol

import (
	"testing"
)

// FuzzDecodeRegisterBrokerBody feeds the REGISTER_BROKER body decoder
// arbitrary bodies, plain and compressed, for 4.x and 5.x brokers: it must
// return a body or an error, never panic or hang.
func FuzzDecodeRegisterBrokerBody(f *testing.F) {
	for _, name := range []string{"register_body_533.json", "register_body_533.zlib", "register_body_498.json",
		"register_body_498.zlib", "topic_config_wrapper_498.json", "route_default_533.json"} {
		data := fixture(f, name)
		f.Add(data, true, VersionV5_3_3)
		f.Add(data, false, VersionV4_9_8)
	}
	f.Add([]byte(`{"topicConfigSerializeWrapper":{"topicConfigTable":{0:{'perm':"6",},}}}`), false, int32(37))
	f.Fuzz(func(t *testing.T, body []byte, compressed bool, version int32) {
		b, err := DecodeRegisterBrokerBody(body, compressed, version)
		if err == nil && b == nil {
			t.Fatal("nil body without error")
		}
		_, _ = DecodeTopicConfigSerializeWrapper(body)
		_, _ = DecodeTopicRouteData(body)
	})
}
