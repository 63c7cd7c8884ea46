package namesrv

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

func kvRequest(code remoting.RequestCode, kv ...string) *remoting.Command {
	ext := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		ext[kv[i]] = kv[i+1]
	}
	return request(code, protocol.VersionV4_9_8, ext)
}

func TestKVConfigPutGetDeleteList(t *testing.T) {
	t.Parallel()
	ns := startNameServer(t, testOptions(t, t.TempDir()))
	c := newClient(t)
	addr := ns.Addr()
	require.Equal(t, int32(remoting.Success), call(t, c, addr, kvRequest(remoting.PutKvConfig, "namespace", "ns1", "key", "k1", "value", "v1")).Code)
	require.Equal(t, int32(remoting.Success), call(t, c, addr, kvRequest(remoting.PutKvConfig, "namespace", "ns1", "key", "k2", "value", "v2")).Code)

	resp := call(t, c, addr, kvRequest(remoting.GetKvConfig, "namespace", "ns1", "key", "k1"))
	assert.Equal(t, int32(remoting.Success), resp.Code)
	assert.Equal(t, "v1", resp.ExtString("value"))

	resp = call(t, c, addr, kvRequest(remoting.GetKvlistByNamespace, "namespace", "ns1"))
	assert.Equal(t, `{"table":{"k1":"v1","k2":"v2"}}`, string(resp.Body))

	require.Equal(t, int32(remoting.Success), call(t, c, addr, kvRequest(remoting.DeleteKvConfig, "namespace", "ns1", "key", "k1")).Code)
	resp = call(t, c, addr, kvRequest(remoting.GetKvConfig, "namespace", "ns1", "key", "k1"))
	assert.Equal(t, int32(remoting.QueryNotFound), resp.Code)
	assert.Equal(t, "No config item, Namespace: ns1 Key: k1", resp.Remark)

	resp = call(t, c, addr, kvRequest(remoting.GetKvlistByNamespace, "namespace", "nope"))
	assert.Equal(t, int32(remoting.QueryNotFound), resp.Code)
	assert.Equal(t, "No config item, Namespace: nope", resp.Remark)

	resp = call(t, c, addr, kvRequest(remoting.PutKvConfig, "namespace", "ns1", "value", "v"))
	assert.Equal(t, int32(remoting.SystemError), resp.Code)
	assert.Equal(t, "namespace or key is null", resp.Remark)
}

func TestKVConfigSurvivesRestartInJavasFileShape(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	o := testOptions(t, dir)
	ns := startNameServer(t, o)
	c := newClient(t)
	put := kvRequest(remoting.PutKvConfig, "namespace", "ORDER_TOPIC_CONFIG", "key", "TopicTest", "value", "broker-a:4")
	require.Equal(t, int32(remoting.Success), call(t, c, ns.Addr(), put).Code)
	put = kvRequest(remoting.PutKvConfig, "namespace", "ORDER_TOPIC_CONFIG", "key", "T2", "value", "broker-a:8")
	require.Equal(t, int32(remoting.Success), call(t, c, ns.Addr(), put).Code)
	require.NoError(t, ns.Close())

	// KVConfigSerializeWrapper.toJson(), and the previous content in .bak.
	data, err := os.ReadFile(o.KVConfigPath)
	require.NoError(t, err)
	assert.Equal(t, `{"configTable":{"ORDER_TOPIC_CONFIG":{"T2":"broker-a:8","TopicTest":"broker-a:4"}}}`, string(data))
	bak, err := os.ReadFile(o.KVConfigPath + ".bak")
	require.NoError(t, err)
	assert.Equal(t, `{"configTable":{"ORDER_TOPIC_CONFIG":{"TopicTest":"broker-a:4"}}}`, string(bak))
	_, err = os.Stat(o.KVConfigPath + ".tmp")
	assert.True(t, os.IsNotExist(err))

	ns2 := startNameServer(t, o)
	resp := call(t, newClient(t), ns2.Addr(), kvRequest(remoting.GetKvConfig, "namespace", "ORDER_TOPIC_CONFIG", "key", "TopicTest"))
	assert.Equal(t, "broker-a:4", resp.ExtString("value"))
}

// A kvConfig.json written by the Java name server is read as is.
func TestKVConfigLoadsJavasFile(t *testing.T) {
	t.Parallel()
	o := testOptions(t, t.TempDir())
	require.NoError(t, os.MkdirAll(filepath.Dir(o.KVConfigPath), 0o755))
	require.NoError(t, os.WriteFile(o.KVConfigPath, []byte(`{"configTable":{"ns":{"k":"v\u00e9"},"empty":{}}}`), 0o644))
	ns := startNameServer(t, o)
	resp := call(t, newClient(t), ns.Addr(), kvRequest(remoting.GetKvConfig, "namespace", "ns", "key", "k"))
	assert.Equal(t, "v\u00e9", resp.ExtString("value"))

	require.NoError(t, os.WriteFile(o.KVConfigPath, []byte(`{"configTable":`), 0o644))
	_, err := New(o)
	assert.ErrorIs(t, err, ErrKVConfig)
}

// orderMessageEnable puts the ORDER_TOPIC_CONFIG value in routes.
func TestOrderTopicConfInRoute(t *testing.T) {
	t.Parallel()
	o := testOptions(t, t.TempDir())
	o.OrderMessageEnable = true
	ns := startNameServer(t, o)
	c := newClient(t)
	register(t, c, ns.Addr(), brokerA, 1)
	put := kvRequest(remoting.PutKvConfig, "namespace", "ORDER_TOPIC_CONFIG", "key", "TopicTest", "value", "broker-a:4")
	require.Equal(t, int32(remoting.Success), call(t, c, ns.Addr(), put).Code)
	body := string(call(t, c, ns.Addr(), routeRequest("TopicTest", protocol.VersionV4_9_8)).Body)
	assert.Contains(t, body, `"filterServerTable":{},"orderTopicConf":"broker-a:4","queueDatas":`)
}

// A KV change that cannot be written is answered SYSTEM_ERROR (Java logs
// and answers SUCCESS); the value is still served from memory.
func TestKVConfigWriteFailure(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	o := testOptions(t, dir)
	blocker := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(blocker, nil, 0o644))
	o.KVConfigPath = filepath.Join(blocker, "kvConfig.json") // parent is a file
	ns := startNameServer(t, o)
	c := newClient(t)
	resp := call(t, c, ns.Addr(), kvRequest(remoting.PutKvConfig, "namespace", "ns", "key", "k", "value", "v"))
	assert.Equal(t, int32(remoting.SystemError), resp.Code)
	assert.Contains(t, resp.Remark, "namesrv: kv config: persist")
	assert.Equal(t, "v", call(t, c, ns.Addr(), kvRequest(remoting.GetKvConfig, "namespace", "ns", "key", "k")).ExtString("value"))
}
