package proxy

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/acl"
	"github.com/rmqgo/rmqgo/remoting"
)

// signedRemoting is a request signed as AclClientRPCHook signs it.
func signedRemoting(code remoting.RequestCode, ext map[string]string, ak, sk string) *remoting.Command {
	cmd := remoting.NewRequest(code, ext)
	fields := map[string]string{}
	for k, v := range ext {
		fields[k] = v
	}
	for _, f := range (acl.Credentials{AccessKey: ak, SecretKey: sk}).SignFields(fields, nil) {
		cmd.SetExt(f.Key, f.Value)
	}
	return cmd
}

func TestRemotingPortAuthenticatesAndAuthorizesAsTheBroker(t *testing.T) {
	cfg := DefaultConfig()
	cfg.AuthenticationEnabled, cfg.AuthorizationEnabled = true, true
	g := testGate(t, cfg)
	check := func(cmd *remoting.Command) string {
		if err := g.checkRemoting(cmd, "1", "10.1.2.3", "DefaultCluster"); err != nil {
			return refusalMessage(err)
		}
		return ""
	}
	route := map[string]string{"topic": "T"}
	assert.Equal(t, "", check(signedRemoting(remoting.GetRouteinfoByTopic, route, "alice", "alice123")),
		"alice may publish and subscribe T")
	assert.Equal(t, "check signature failed.", check(signedRemoting(remoting.GetRouteinfoByTopic, route, "alice", "wrong")))
	assert.Equal(t, "username cannot be null.", check(remoting.NewRequest(remoting.GetRouteinfoByTopic, route)))

	other := map[string]string{"topic": "Other"}
	refusal := check(signedRemoting(remoting.GetRouteinfoByTopic, other, "alice", "alice123"))
	assert.Contains(t, refusal, "User:alice has no permission to access Topic:Other from 10.1.2.3")
	assert.Equal(t, "", check(signedRemoting(remoting.GetRouteinfoByTopic, other, "root", "root123")), "a super user")

	pull := map[string]string{"consumerGroup": "G", "topic": "T", "queueId": "0", "queueOffset": "0", "sysFlag": "2"}
	assert.Equal(t, "", check(signedRemoting(remoting.PullMessage, pull, "alice", "alice123")))
	pull["consumerGroup"] = "H"
	require.Contains(t, check(signedRemoting(remoting.PullMessage, pull, "alice", "alice123")), "Group:H")
}

func TestRemotingPortWhitelistsRequestCodes(t *testing.T) {
	cfg := DefaultConfig()
	cfg.AuthenticationEnabled, cfg.AuthenticationWhitelist = true, "105"
	g := testGate(t, cfg)
	assert.NoError(t, g.checkRemoting(remoting.NewRequest(remoting.GetRouteinfoByTopic, map[string]string{"topic": "T"}), "1", "10.1.2.3", "c"))
	assert.Error(t, g.checkRemoting(remoting.NewRequest(remoting.HeartBeat, map[string]string{"x": "y"}), "1", "10.1.2.3", "c"))
}
