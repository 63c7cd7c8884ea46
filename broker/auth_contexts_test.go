package broker

import (
	"encoding/binary"
	"io"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// rawConn is one TCP connection to a broker: a test that sends every
// request on it sees whether an answer left it open.
type rawConn struct {
	t    *testing.T
	conn net.Conn
}

func dialRaw(t *testing.T, addr string) *rawConn {
	conn, err := net.Dial("tcp", addr)
	require.NoError(t, err)
	t.Cleanup(func() { _ = conn.Close() })
	return &rawConn{t: t, conn: conn}
}

// call writes req and reads one answer.
func (r *rawConn) call(req *remoting.Command) *remoting.Command {
	r.t.Helper()
	frame, err := req.AppendFrame(nil)
	require.NoError(r.t, err)
	require.NoError(r.t, r.conn.SetDeadline(time.Now().Add(testWait)))
	_, err = r.conn.Write(frame)
	require.NoError(r.t, err)
	buf := make([]byte, 4)
	_, err = io.ReadFull(r.conn, buf)
	require.NoError(r.t, err, "the connection is still open")
	buf = append(buf, make([]byte, binary.BigEndian.Uint32(buf))...)
	_, err = io.ReadFull(r.conn, buf[4:])
	require.NoError(r.t, err)
	resp, _, err := remoting.DecodeFrame(buf, remoting.MaxFrameLength)
	require.NoError(r.t, err)
	return resp
}

// createTopicExt is an UPDATE_AND_CREATE_TOPIC's header; filterType ""
// leaves topicFilterType out.
func createTopicExt(topic, filterType string) map[string]string {
	ext := map[string]string{"topic": topic, "defaultTopic": "TBW102", "readQueueNums": "4", "writeQueueNums": "4",
		"perm": "6", "topicSysFlag": "0", "order": "false"}
	if filterType != "" {
		ext["topicFilterType"] = filterType
	}
	return ext
}

// What 5.3.3's authorization context builder makes of a request that lacks
// a header field (compat Acl2Test.missingHeaderFieldsAnswerAsJava), all on
// one connection, which every answer leaves open: a header whose
// checkFields throws is refused "parse authorization context error." once
// authentication passed (the authorization whitelist does not help), a
// missing field of the builder's switch names the resource "null", a
// missing annotated field asks nothing.
func TestAuthMissingHeaderFieldsAnswerAsJava(t *testing.T) {
	b, _ := startAuthBroker(t, map[string]string{"authorizationWhitelist": "17"})
	conn := dialRaw(t, b.Addr())
	call := func(ak, sk string, code remoting.RequestCode, ext map[string]string) *remoting.Command {
		return conn.call(signedBy(ak, sk, remoting.NewRequest(code, ext)))
	}
	refused := func(resp *remoting.Command, remark string) {
		t.Helper()
		assert.Equal(t, []any{int32(remoting.NoPermission), remark}, []any{resp.Code, resp.Remark})
	}
	newUser := remoting.NewRequest(remoting.AuthCreateUser, map[string]string{"username": "bob"})
	newUser.Body = []byte(`{"password":"bob12345"}`)
	require.Equal(t, int32(remoting.Success), conn.call(signedBy("admin", "admin123", newUser)).Code)

	const parse = "parse authorization context error."
	refused(call("admin", "admin123", remoting.UpdateAndCreateTopic, createTopicExt("T1", "")), parse)
	refused(call("admin", "admin123", remoting.UpdateAndCreateTopic, createTopicExt("T1", "single_tag")), parse)
	refused(call("nobody", "x", remoting.UpdateAndCreateTopic, createTopicExt("T1", "")), "User:nobody is not found.")
	created := call("admin", "admin123", remoting.UpdateAndCreateTopic, createTopicExt("T1", string(protocol.SingleTag)))
	assert.Equal(t, int32(remoting.Success), created.Code, created.Remark)

	send := withBody(sendRequest("T1", 0, nil, nil), []byte("x"))
	send.ExtFields.Delete("b")
	refused(conn.call(signedBy("bob", "bob12345", send)),
		"User:bob has no permission to access Topic:null from 127.0.0.1, no matched policies.")
	refused(call("bob", "bob12345", remoting.GetConsumerListByGroup, map[string]string{}),
		"User:bob has no permission to access Group:null from 127.0.0.1, no matched policies.")
	noTopic := call("bob", "bob12345", remoting.GetMaxOffset, map[string]string{"queueId": "0"})
	assert.NotEqual(t, int32(remoting.NoPermission), noTopic.Code, "no topic field: nothing to authorize")
}

// Line 4 (4.9.x) has no ACL 2.0: its keys, an unknown class name included,
// are not read. On line 5 an unknown strategy or provider class fails the
// start even with ACL 2.0 off, as 5.3.3's BrokerController loads them
// either way (compat/acl2-start-check.sh).
func TestAuthUnknownClassesByLine(t *testing.T) {
	unknown := map[string]string{"authenticationEnabled": "true", "authorizationEnabled": "true",
		"authenticationStrategy": "com.example.NoSuchStrategy", "authorizationProvider": "com.example.NoSuchProvider"}
	c := testConfigs(t.TempDir(), "")
	c.File = conf.PropertiesFromMap(unknown, "broker.conf")
	b, err := New(Options{Configs: c, Logger: zaptest.NewLogger(t), ListenHost: "127.0.0.1", Line: protocol.Line4})
	require.NoError(t, err)
	require.NoError(t, b.Start())
	t.Cleanup(func() { _ = b.Close() })
	resp := invoke(t, newClient(t, nil), b.Addr(), withBody(sendRequest("T4", 0, nil, nil), []byte("x")))
	assert.NotEqual(t, int32(remoting.NoPermission), resp.Code, "line 4: nothing checked")

	for key, class := range map[string]string{"authenticationStrategy": "com.example.NoSuchStrategy",
		"authorizationProvider": "com.example.NoSuchProvider", "authenticationMetadataProvider": "com.example.NoSuchMeta"} {
		c := testConfigs(t.TempDir(), "")
		c.File = conf.PropertiesFromMap(map[string]string{"authenticationEnabled": "false", key: class}, "broker.conf")
		_, err := New(Options{Configs: c, Logger: zaptest.NewLogger(t), ListenHost: "127.0.0.1", Line: protocol.Line5})
		assert.ErrorContains(t, err, key+"="+class, "line 5")
	}
}
