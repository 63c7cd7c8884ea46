package broker

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/acl"
	"github.com/rmqgo/rmqgo/remoting"
)

const aclTestFile = `globalWhiteRemoteAddresses:
- 10.10.103.*
accounts:
- accessKey: RocketMQ
  secretKey: 12345678
  admin: false
  defaultTopicPerm: DENY
  defaultGroupPerm: SUB
  topicPerms:
  - AclTopicA=PUB|SUB
  - AclTopicDeny=DENY
- accessKey: rocketmq2
  secretKey: 87654321
  admin: true
`

// signedBy signs a request as AclClientRPCHook does.
func signedBy(ak, sk string, cmd *remoting.Command) *remoting.Command {
	cmd.SetExt(acl.FieldAccessKey, ak)
	cmd.SetExt(acl.FieldSignature, acl.Sign(acl.Content(cmd.ExtFields.Map(), cmd.Body), sk))
	return cmd
}

func startACLBroker(t *testing.T) (*Broker, string) {
	dir := t.TempDir()
	c := testConfigs(dir, "")
	c.Broker.AclEnable = true
	c.AclPlainFile = filepath.Join(dir, "conf", "plain_acl.yml")
	require.NoError(t, os.MkdirAll(filepath.Dir(c.AclPlainFile), 0o755))
	require.NoError(t, os.WriteFile(c.AclPlainFile, []byte(aclTestFile), 0o644))
	return startBroker(t, c, nil), c.AclPlainFile
}

func TestACLLetsInOnlyWhatTheAccountMay(t *testing.T) {
	b, _ := startACLBroker(t)
	cl := newClient(t, nil)
	send := func(ak, sk, topic string) *remoting.Command {
		return invoke(t, cl, b.Addr(), signedBy(ak, sk, withBody(sendRequest(topic, 0, nil, nil), []byte("x"))))
	}
	resp := send("RocketMQ", "12345678", "AclTopicA")
	assert.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	for _, c := range []struct{ ak, sk, topic, why string }{
		{"RocketMQ", "wrong-secret", "AclTopicA", "Check signature failed for accessKey=RocketMQ"},
		{"nobody12", "12345678", "AclTopicA", "No acl config for nobody12"},
		{"RocketMQ", "12345678", "AclTopicDeny", "No default permission for topic:AclTopicDeny"},
		{"RocketMQ", "12345678", "OtherTopic", "No default permission for topic:OtherTopic"},
	} {
		resp := send(c.ak, c.sk, c.topic)
		assert.Equal(t, int32(remoting.SystemError), resp.Code)
		assert.Contains(t, resp.Remark, "AclException: "+c.why)
	}
	unsigned := invoke(t, cl, b.Addr(), withBody(sendRequest("AclTopicA", 0, nil, nil), []byte("x")))
	assert.Contains(t, unsigned.Remark, "No accessKey is configured")
	create := remoting.NewRequest(remoting.UpdateAndCreateTopic, map[string]string{"topic": "NewTopic", "defaultTopic": "TBW102",
		"readQueueNums": "4", "writeQueueNums": "4", "perm": "6", "topicFilterType": "SINGLE_TAG", "topicSysFlag": "0", "order": "false"})
	refused := invoke(t, cl, b.Addr(), signedBy("RocketMQ", "12345678", create))
	assert.Contains(t, refused.Remark, "Need admin permission for request code=17, but accessKey=RocketMQ is not")
	create.ExtFields = remoting.FieldsOf(map[string]string{"topic": "NewTopic", "defaultTopic": "TBW102", "readQueueNums": "4", "writeQueueNums": "4",
		"perm": "6", "topicFilterType": "SINGLE_TAG", "topicSysFlag": "0", "order": "false"})
	allowed := invoke(t, cl, b.Addr(), signedBy("rocketmq2", "87654321", create))
	assert.Equal(t, int32(remoting.Success), allowed.Code, allowed.Remark)
}

func TestACLFileChangesTakeEffectWithoutRestart(t *testing.T) {
	b, file := startACLBroker(t)
	cl := newClient(t, nil)
	send := func() *remoting.Command {
		return invoke(t, cl, b.Addr(), signedBy("RocketMQ", "12345678", withBody(sendRequest("OtherTopic", 0, nil, nil), []byte("x"))))
	}
	require.Equal(t, int32(remoting.SystemError), send().Code)
	changed := strings.Replace(aclTestFile, "  - AclTopicDeny=DENY\n", "  - AclTopicDeny=DENY\n  - OtherTopic=PUB\n", 1)
	require.NoError(t, os.WriteFile(file, []byte(changed), 0o644))
	future := time.Now().Add(2 * time.Second)
	require.NoError(t, os.Chtimes(file, future, future)) // a new mtime even within the file system's granularity
	eventually(t, func() bool { return send().Code == int32(remoting.Success) }, "the new topic permission applies")
}

func TestACLAdminCodesChangeTheFile(t *testing.T) {
	b, file := startACLBroker(t)
	cl := newClient(t, nil)
	admin := func(code remoting.RequestCode, ext map[string]string) *remoting.Command {
		return invoke(t, cl, b.Addr(), signedBy("rocketmq2", "87654321", remoting.NewRequest(code, ext)))
	}
	resp := admin(remoting.UpdateAndCreateAclConfig, map[string]string{"accessKey": "newUser1", "secretKey": "abcdefgh",
		"admin": "false", "defaultTopicPerm": "DENY", "topicPerms": "NewTopicA=PUB,NewTopicB=SUB"})
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	assert.Contains(t, string(data), "- accessKey: newUser1\n  secretKey: abcdefgh\n  admin: false\n  defaultTopicPerm: DENY\n  topicPerms:\n  - NewTopicA=PUB\n  - NewTopicB=SUB\n")
	sent := invoke(t, cl, b.Addr(), signedBy("newUser1", "abcdefgh", withBody(sendRequest("NewTopicA", 0, nil, nil), []byte("x"))))
	assert.Equal(t, int32(remoting.Success), sent.Code, "the new account works at once: %s", sent.Remark)

	bad := admin(remoting.UpdateAndCreateAclConfig, map[string]string{"accessKey": "short", "secretKey": "abcdefgh"})
	assert.Equal(t, int32(remoting.UpdateAndCreateAclConfigFailed), bad.Code)
	assert.Equal(t, "The accessKey=short and secretKey=abcdefgh cannot be null and length should longer than 6", bad.Remark)

	version := admin(remoting.GetBrokerClusterAclInfo, nil)
	require.Equal(t, int32(remoting.Success), version.Code, version.Remark)
	assert.Contains(t, version.ExtString("version"), `"counter":1`)
	assert.Equal(t, "TestCluster", version.ExtString("clusterName"))

	resp = admin(remoting.DeleteAclConfig, map[string]string{"accessKey": "newUser1"})
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	resp = admin(remoting.DeleteAclConfig, map[string]string{"accessKey": "newUser1"})
	assert.Equal(t, int32(remoting.DeleteAclConfigFailed), resp.Code)
	assert.Equal(t, "The accesskey[newUser1] corresponding to accessConfig has been deleted failed.", resp.Remark)

	resp = admin(remoting.UpdateGlobalWhiteAddrsConfig, map[string]string{"globalWhiteAddrs": "127.0.0.1"})
	require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	unsigned := invoke(t, cl, b.Addr(), withBody(sendRequest("AnyTopic", 0, nil, nil), []byte("x")))
	assert.Equal(t, int32(remoting.Success), unsigned.Code, "127.0.0.1 is globally white now: %s", unsigned.Remark)
}
