package namesrv

import (
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/internal/testclock"
	"github.com/rmqgo/rmqgo/remoting"
)

// fakeClock is the hand-moved clock of these tests.
type fakeClock = testclock.Clock

func newFakeClock() *fakeClock { return testclock.New() }

// testOptions are DefaultOptions on 127.0.0.1:0 with the KV file in dir.
func testOptions(t testing.TB, dir string) Options {
	o := DefaultOptions()
	o.ListenAddr = "127.0.0.1:0"
	o.KVConfigPath = filepath.Join(dir, "namesrv", "kvConfig.json")
	o.Logger = zaptest.NewLogger(t)
	o.EventLoops = 2
	return o
}

// startNameServer starts a name server and closes it with the test.
func startNameServer(t *testing.T, o Options) *NameServer {
	t.Helper()
	ns, err := New(o)
	require.NoError(t, err)
	require.NoError(t, ns.Start())
	t.Cleanup(func() { _ = ns.Close() })
	return ns
}

func newClient(t *testing.T) *remoting.Client {
	c := remoting.NewClient(remoting.ClientOptions{Logger: zaptest.NewLogger(t)})
	t.Cleanup(c.Close)
	return c
}

// call sends req and fails the test on a transport error.
func call(t *testing.T, c *remoting.Client, addr string, req *remoting.Command) *remoting.Command {
	t.Helper()
	resp, err := c.InvokeTimeout(addr, req, 5*time.Second)
	require.NoError(t, err)
	return resp
}

// request builds a request as a Java client of the given version does.
func request(code remoting.RequestCode, version int32, ext map[string]string) *remoting.Command {
	cmd := remoting.NewRequest(code, ext)
	cmd.Version = version
	return cmd
}

// body498 is RegisterBrokerBody.encode() of a 4.9.8 broker with the topics
// TopicTest (4/4, RW) and TBW102 (8/8, RW+inherit), as fastjson 1.2.69
// writes it.
func body498(counter int) []byte {
	return []byte(`{"filterServerList":[],"topicConfigSerializeWrapper":{"dataVersion":{"counter":` + strconv.Itoa(counter) +
		`,"timestamp":1700000000000},"topicConfigTable":{"TopicTest":{"order":false,"perm":6,"readQueueNums":4,` +
		`"topicFilterType":"SINGLE_TAG","topicName":"TopicTest","topicSysFlag":0,"writeQueueNums":4},"TBW102":{"order":false,` +
		`"perm":7,"readQueueNums":8,"topicFilterType":"SINGLE_TAG","topicName":"TBW102","topicSysFlag":0,"writeQueueNums":8}}}}`)
}

// broker describes a registering broker.
type broker struct {
	cluster, name, addr string
	id                  int64
}

var brokerA = broker{"DefaultCluster", "broker-a", "192.168.1.10:10911", 0}

// registerRequest is the REGISTER_BROKER request BrokerOuterAPI.registerBrokerAll
// builds: RegisterBrokerRequestHeader with the body's CRC32.
func registerRequest(b broker, body []byte, compressed bool, version int32) *remoting.Command {
	host := b.addr[:len(b.addr)-len(":10911")]
	ext := map[string]string{
		"brokerAddr": b.addr, "brokerId": strconv.FormatInt(b.id, 10), "brokerName": b.name,
		"clusterName": b.cluster, "haServerAddr": host + ":10912", "compressed": strconv.FormatBool(compressed),
		"bodyCrc32": strconv.Itoa(int(protocol.BodyCRC32(body))),
	}
	req := request(remoting.RegisterBroker, version, ext)
	req.Body = body
	return req
}

// register registers b with the 4.9.8 body and checks SUCCESS.
func register(t *testing.T, c *remoting.Client, addr string, b broker, counter int) *remoting.Command {
	t.Helper()
	resp := call(t, c, addr, registerRequest(b, body498(counter), false, protocol.VersionV4_9_8))
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	return resp
}

func routeRequest(topic string, version int32) *remoting.Command {
	return request(remoting.GetRouteinfoByTopic, version, map[string]string{"topic": topic})
}

// fakeConfig is a ConfigSource over a map.
type fakeConfig struct {
	mu    sync.Mutex
	props map[string]string
}

func (f *fakeConfig) PropertiesText() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	keys := make([]string, 0, len(f.props))
	for k := range f.props {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k + "=" + f.props[k] + "\n")
	}
	return b.String()
}

func (f *fakeConfig) Update(props map[string]string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for k, v := range props {
		f.props[k] = v
	}
	return nil
}

func stringsContains(s, sub string) bool { return strings.Contains(s, sub) }

func (f *fakeConfig) get(key string) (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	v, ok := f.props[key]
	return v, ok
}
