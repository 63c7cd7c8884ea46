package conf

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLoadControllerReadsJavasSampleFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "controller-n1.conf")
	// distribution/conf/controller/cluster-3n-independent/controller-n1.conf of 5.3.3
	require.NoError(t, os.WriteFile(file, []byte("controllerDLegerGroup = group1\n"+
		"controllerDLegerPeers = n0-127.0.0.1:9878;n1-127.0.0.1:9868;n2-127.0.0.1:9858\n"+
		"controllerDLegerSelfId = n1\ncontrollerStorePath = /tmp/rmqstore/controller-n1\n"+
		"processReadEvent = true\nenableElectUncleanMaster=true\nrocketmqHome=/opt/rocketmq\n"), 0o644))
	cl, err := ParseControllerArgs([]string{"-c", file})
	require.NoError(t, err)
	c, ws, err := LoadController(cl, testEnv())
	require.NoError(t, err)
	assert.Empty(t, ws)
	require.NoError(t, c.Validate())
	assert.Equal(t, "group1", c.Controller.ControllerDLegerGroup)
	assert.True(t, c.Controller.IsProcessReadEvent, "processReadEvent sets isProcessReadEvent")
	assert.True(t, c.Controller.EnableElectUncleanMaster)
	assert.Equal(t, int32(19876), c.NettyServer.ListenPort)
	assert.Equal(t, "/tmp/rmqstore/controller-n1", c.Controller.StorePath(testEnv()))

	members, self, err := ControllerMembers(c.Controller, c.Jraft)
	require.NoError(t, err)
	assert.Equal(t, 1, self)
	assert.Equal(t, []ControllerMember{
		{ID: "n0", RaftAddr: "127.0.0.1:9878", ControllerAddr: "127.0.0.1:9878"},
		{ID: "n1", RaftAddr: "127.0.0.1:9868", ControllerAddr: "127.0.0.1:9868"},
		{ID: "n2", RaftAddr: "127.0.0.1:9858", ControllerAddr: "127.0.0.1:9858"},
	}, members)
}

func TestControllerDefaultsAreJavas(t *testing.T) {
	c := DefaultControllerConfig(testEnv())
	assert.Equal(t, "DLedger", c.ControllerType)
	assert.Equal(t, int64(5000), c.ScanNotActiveBrokerInterval)
	assert.Equal(t, int32(3), c.ElectMasterMaxRetryCount)
	assert.True(t, c.NotifyBrokerRoleChanged)
	assert.Equal(t, "configBlackList;configStorePath", c.ConfigBlackList)
	assert.Equal(t, filepath.Join(testEnv().UserHome(), "DLedgerController"), c.StorePath(testEnv()))
}

func TestControllerMembersRefusals(t *testing.T) {
	env := testEnv()
	for _, tc := range []struct{ peers, self, want string }{
		{"", "n0", "Attribute value controllerDLegerPeers of ControllerConfig is null or empty"},
		{"n0-127.0.0.1:9878", "", "Attribute value controllerDLegerSelfId of ControllerConfig is null or empty"},
		{"n0-127.0.0.1:9878", "n3", "is not one of controllerDLegerPeers' ids"},
		{"n0127.0.0.1:9878", "n0", `entry "n0127.0.0.1:9878" is not id-host:port`},
	} {
		c := DefaultControllerConfig(env)
		c.ControllerDLegerPeers, c.ControllerDLegerSelfId = tc.peers, tc.self
		_, _, err := ControllerMembers(c, DefaultJraftConfig())
		require.Error(t, err, tc)
		assert.Contains(t, err.Error(), tc.want)
	}
	c := DefaultControllerConfig(env)
	c.ControllerType = ControllerTypeJRaft
	j := DefaultJraftConfig()
	members, self, err := ControllerMembers(c, j)
	require.NoError(t, err)
	assert.Equal(t, 0, self)
	assert.Equal(t, ControllerMember{ID: "localhost:9881", RaftAddr: "localhost:9881", ControllerAddr: "localhost:9771"}, members[1])
}
