package broker

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap/zaptest"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/auth"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// startAuthBroker starts a 5.x broker with ACL 2.0 on and the super user
// admin/admin123.
func startAuthBroker(t *testing.T, extra map[string]string) (*Broker, string) {
	t.Helper()
	return startAuthBrokerIn(t, t.TempDir(), extra)
}

// startAuthBrokerIn is startAuthBroker with ROCKETMQ_HOME and the store in dir.
func startAuthBrokerIn(t *testing.T, dir string, extra map[string]string) (*Broker, string) {
	t.Helper()
	c := testConfigs(dir, "")
	props := map[string]string{
		"authenticationEnabled": "true", "authorizationEnabled": "true",
		"authenticationMetadataProvider": auth.JavaAuthnMetaProvider, "authorizationMetadataProvider": auth.JavaAuthzMetaProvider,
		"initAuthenticationUser": `{"username":"admin","password":"admin123"}`,
	}
	for k, v := range extra {
		props[k] = v
	}
	c.File = conf.PropertiesFromMap(props, "broker.conf")
	b, err := New(Options{Configs: c, Logger: zaptest.NewLogger(t), ListenHost: "127.0.0.1", Line: protocol.Line5})
	require.NoError(t, err)
	require.NoError(t, b.Start())
	t.Cleanup(func() { _ = b.Close() })
	return b, c.Store.StorePathRootDir
}

func TestAuthRefusesAsJava(t *testing.T) {
	b, _ := startAuthBroker(t, nil)
	cl := newClient(t, nil)
	admin := func(code remoting.RequestCode, ext map[string]string, body string) *remoting.Command {
		req := remoting.NewRequest(code, ext)
		if body != "" {
			req.Body = []byte(body)
		}
		return invoke(t, cl, b.Addr(), signedBy("admin", "admin123", req))
	}
	ok := func(resp *remoting.Command) {
		t.Helper()
		assert.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	}
	ok(admin(remoting.AuthCreateUser, map[string]string{"username": "bob"}, `{"password":"bob12345"}`))
	ok(admin(remoting.AuthCreateAcl, map[string]string{"subject": "User:bob"},
		`{"subject":"User:bob","policies":[{"entries":[{"resource":"Topic:Orders","actions":["Pub"],"decision":"Allow"},`+
			`{"resource":"Topic:Secret","actions":["Pub"],"decision":"Deny"}]}]}`))
	ok(admin(remoting.UpdateAndCreateTopic, map[string]string{"topic": "Orders", "defaultTopic": "TBW102", "readQueueNums": "4",
		"writeQueueNums": "4", "perm": "6", "topicFilterType": "SINGLE_TAG", "topicSysFlag": "0", "order": "false"}, ""))

	send := func(ak, sk, topic string) *remoting.Command {
		return invoke(t, cl, b.Addr(), signedBy(ak, sk, withBody(sendRequest(topic, 0, nil, nil), []byte("x"))))
	}
	ok(send("bob", "bob12345", "Orders"))
	for _, c := range []struct{ ak, sk, topic, remark string }{
		{"bob", "wrong-secret", "Orders", "check signature failed."},
		{"nobody", "x", "Orders", "User:nobody is not found."},
		{"bob", "bob12345", "Secret", "User:bob has no permission to access Topic:Secret from 127.0.0.1, the decision is deny."},
		{"bob", "bob12345", "Other", "User:bob has no permission to access Topic:Other from 127.0.0.1, no matched policies."},
	} {
		resp := send(c.ak, c.sk, c.topic)
		assert.Equal(t, int32(remoting.NoPermission), resp.Code)
		assert.Equal(t, c.remark, resp.Remark)
	}
	unsigned := invoke(t, cl, b.Addr(), withBody(sendRequest("Orders", 0, nil, nil), []byte("x")))
	assert.Equal(t, int32(remoting.NoPermission), unsigned.Code)
	assert.Equal(t, "username cannot be null.", unsigned.Remark)

	byBob := invoke(t, cl, b.Addr(), signedBy("bob", "bob12345", remoting.NewRequest(remoting.AuthListUser, map[string]string{})))
	assert.Equal(t, "User:bob has no permission to access Cluster:TestCluster from 127.0.0.1, no matched policies.", byBob.Remark)
	list := admin(remoting.AuthListUser, map[string]string{}, "")
	assert.Equal(t, `[{"password":"admin123","userStatus":"enable","userType":"Super","username":"admin"},`+
		`{"password":"bob12345","userStatus":"enable","userType":"Normal","username":"bob"}]`, string(list.Body))
	acl := admin(remoting.AuthGetAcl, map[string]string{"subject": "User:bob"}, "")
	assert.Equal(t, `{"policies":[{"entries":[{"actions":["Pub"],"decision":"Allow","resource":"Topic:Orders"},`+
		`{"actions":["Pub"],"decision":"Deny","resource":"Topic:Secret"}],"policyType":"Custom"}],"subject":"User:bob"}`, string(acl.Body))
}

func TestAuthAdminAnswersAsJava(t *testing.T) {
	b, root := startAuthBroker(t, nil)
	cl := newClient(t, nil)
	call := func(ak, sk string, code remoting.RequestCode, ext map[string]string, body string) *remoting.Command {
		req := remoting.NewRequest(code, ext)
		if body != "" {
			req.Body = []byte(body)
		}
		return invoke(t, cl, b.Addr(), signedBy(ak, sk, req))
	}
	resp := call("admin", "admin123", remoting.AuthCreateUser, map[string]string{"username": "admin"}, `{"password":"x"}`)
	assert.Equal(t, []any{int32(remoting.NoPermission), "The user is existed"}, []any{resp.Code, resp.Remark})
	resp = call("admin", "admin123", remoting.AuthCreateUser, map[string]string{"username": ""}, `{"password":"x"}`)
	assert.Equal(t, []any{int32(remoting.InvalidParameter), "The username is blank"}, []any{resp.Code, resp.Remark})
	resp = call("admin", "admin123", remoting.AuthCreateAcl, map[string]string{"subject": "User:admin"}, `{"policies":[]}`)
	assert.Equal(t, int32(remoting.SystemError), resp.Code)
	assert.Contains(t, resp.Remark, "AuthorizationException: The body of acl is null")
	resp = call("admin", "admin123", remoting.AuthDeleteAcl, map[string]string{"subject": "User:admin"}, "")
	assert.Equal(t, []any{int32(remoting.NoPermission), "The acl is not exist."}, []any{resp.Code, resp.Remark})
	resp = call("admin", "admin123", remoting.AuthGetUser, map[string]string{"username": "ghost"}, "")
	assert.Equal(t, int32(remoting.Success), resp.Code)
	assert.Empty(t, resp.Body)

	_, err := os.Stat(filepath.Join(root, "config", "users", "CURRENT"))
	assert.NoError(t, err, "users are kept under the store's config directory")
}

func TestAuthWhitelistSkipsCodes(t *testing.T) {
	b, _ := startAuthBroker(t, map[string]string{"authenticationWhitelist": "10, 310", "authorizationWhitelist": "10,310"})
	cl := newClient(t, nil)
	resp := invoke(t, cl, b.Addr(), withBody(sendRequest("AnyTopic", 0, nil, nil), []byte("x")))
	assert.NotEqual(t, int32(remoting.NoPermission), resp.Code, resp.Remark)
}

// A controller sends NOTIFY_BROKER_ROLE_CHANGED unsigned (neither Java's
// nor ours can sign it). With ACL 2.0 on, Java 5.3.3's broker refuses it
// unless the whitelists name 1008; sent here two-way to see the answer.
func TestAuthRefusesAnUnsignedRoleChangeNotificationUnlessWhitelisted(t *testing.T) {
	notify := func() *remoting.Command {
		return remoting.NewRequest(remoting.NotifyBrokerRoleChanged, map[string]string{
			"masterAddress": "127.0.0.1:10911", "masterEpoch": "2", "syncStateSetEpoch": "2", "masterBrokerId": "1"})
	}
	b, _ := startAuthBroker(t, nil)
	resp := invoke(t, newClient(t, nil), b.Addr(), notify())
	assert.Equal(t, []any{int32(remoting.NoPermission), "username cannot be null."}, []any{resp.Code, resp.Remark})

	b, _ = startAuthBroker(t, map[string]string{"authenticationWhitelist": "1008", "authorizationWhitelist": "1008"})
	resp = invoke(t, newClient(t, nil), b.Addr(), notify())
	assert.NotEqual(t, int32(remoting.NoPermission), resp.Code, resp.Remark)
}

func TestAuthMigratesACL1Accounts(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "conf"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "conf", "plain_acl.yml"), []byte(aclTestFile), 0o644))
	b, _ := startAuthBrokerIn(t, dir, map[string]string{"migrateAuthFromV1Enabled": "true"})
	cl := newClient(t, nil)
	send := func(ak, sk, topic string) *remoting.Command {
		return invoke(t, cl, b.Addr(), signedBy(ak, sk, withBody(sendRequest(topic, 0, nil, nil), []byte("x"))))
	}
	create := remoting.NewRequest(remoting.UpdateAndCreateTopic, map[string]string{"topic": "AclTopicA", "defaultTopic": "TBW102",
		"readQueueNums": "4", "writeQueueNums": "4", "perm": "6", "topicFilterType": "SINGLE_TAG", "topicSysFlag": "0", "order": "false"})
	created := invoke(t, cl, b.Addr(), signedBy("rocketmq2", "87654321", create))
	assert.Equal(t, int32(remoting.Success), created.Code, "the admin account became a super user: %s", created.Remark)
	resp := send("RocketMQ", "12345678", "AclTopicA")
	assert.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	resp = send("RocketMQ", "12345678", "AclTopicDeny")
	assert.Equal(t, "User:RocketMQ has no permission to access Topic:AclTopicDeny from 127.0.0.1, the decision is deny.", resp.Remark)
}
