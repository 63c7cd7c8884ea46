package proxy

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/acl"
	"github.com/rmqgo/rmqgo/internal/auth"
	"github.com/rmqgo/rmqgo/remoting"
)

func TestInnerCredentialsAreJavasChoice(t *testing.T) {
	home := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(home, "conf"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(home, "conf", "tools.yml"), []byte("accessKey: fromTools\nsecretKey: toolsSecret\n"), 0o644))
	cluster := DefaultConfig()
	cluster.ProxyMode = ModeCluster

	_, sign, err := innerCredentials(cluster, home)
	require.NoError(t, err)
	assert.False(t, sign, "off by default")

	cluster.EnableAclRpcHookForClusterMode = true
	c, sign, err := innerCredentials(cluster, home)
	require.NoError(t, err)
	assert.True(t, sign)
	assert.Equal(t, "fromTools", c.AccessKey, "without inner credentials, tools.yml's keys")

	cluster.InnerClientAuthenticationCredentials = `{"accessKey":"inner","secretKey":"innerSecret"}`
	c, sign, err = innerCredentials(cluster, home)
	require.NoError(t, err)
	assert.True(t, sign)
	assert.Equal(t, acl.Credentials{AccessKey: "inner", SecretKey: "innerSecret"}, c)

	cluster.InnerClientAuthenticationCredentials = `{"accessKey":"inner"}`
	_, sign, err = innerCredentials(cluster, home)
	require.NoError(t, err)
	assert.False(t, sign, "inner credentials without a secret key: unsigned, tools.yml not read")

	cluster.InnerClientAuthenticationCredentials = `{"accessKey":`
	_, _, err = innerCredentials(cluster, home)
	assert.Error(t, err, "a broken JSON is a start-up error")

	cluster.InnerClientAuthenticationCredentials = ""
	_, sign, err = innerCredentials(cluster, t.TempDir())
	require.NoError(t, err)
	assert.False(t, sign, "no tools.yml: unsigned")

	local := cluster
	local.ProxyMode = ModeLocal
	_, sign, err = innerCredentials(local, home)
	require.NoError(t, err)
	assert.False(t, sign, "local mode signs with the broker's secret instead")
}

func TestSignedRequestPassesTheBrokersAuthentication(t *testing.T) {
	stamp := signer(acl.Credentials{AccessKey: "acl2Root", SecretKey: "acl2Root123"})
	for _, req := range []*remoting.Command{
		remoting.NewRequest(remoting.SendMessage, map[string]string{"topic": "T", "queueId": "1"}),
		remoting.NewRequest(remoting.GetRouteinfoByTopic, nil),
	} {
		req.Body = []byte("body")
		stamp("127.0.0.1:10911", req)
		stamp("127.0.0.1:10911", req) // a retry signs again, over the same fields
		ext := req.ExtFields.Map()
		assert.Equal(t, "acl2Root", ext[acl.FieldAccessKey])
		signed := auth.SignedContent(ext, req.Body, req.Version)
		assert.Equal(t, acl.Sign(signed.Content, "acl2Root123"), signed.Signature, "code %d", req.Code)
	}
}
