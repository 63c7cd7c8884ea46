package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/conf"
)

func testEnv(home string) conf.Env {
	return conf.Env{Vars: map[string]string{"ROCKETMQ_HOME": home}, SysProps: map[string]string{"user.home": home},
		HostName: "host", LocalAddress: "127.0.0.1", NumCPU: 2}
}

func TestPrintConfigItemsListsTheFourConfigs(t *testing.T) {
	home := t.TempDir()
	file := filepath.Join(home, "controller.conf")
	require.NoError(t, os.WriteFile(file, []byte("controllerDLegerPeers=n0-127.0.0.1:9878\ncontrollerDLegerSelfId=n0\n"), 0o644))
	var out, errOut bytes.Buffer
	assert.Equal(t, 0, run([]string{"-c", file, "-p"}, testEnv(home), &out, &errOut))
	for _, want := range []string{"controllerDLegerPeers=n0-127.0.0.1:9878\n", "controllerType=DLedger\n",
		"jRaftGroupId=jRaft-Controller\n", "listenPort=19876\n", "isProcessReadEvent=false\n",
		"jraftConfig=org.apache.rocketmq.common.JraftConfig@"} {
		assert.Contains(t, out.String(), want)
	}
	assert.Empty(t, errOut.String())
}

func TestAControllerWithoutPeersDoesNotStart(t *testing.T) {
	home := t.TempDir()
	file := filepath.Join(home, "controller.conf")
	require.NoError(t, os.WriteFile(file, []byte("controllerStorePath="+home+"/store\n"), 0o644))
	var out, errOut bytes.Buffer
	assert.Equal(t, -1, run([]string{"-c", file}, testEnv(home), &out, &errOut))
	assert.Contains(t, errOut.String(), "Attribute value controllerDLegerPeers of ControllerConfig is null or empty")
}

func TestUnknownOptionPrintsUsage(t *testing.T) {
	var out, errOut bytes.Buffer
	assert.Equal(t, 1, run([]string{"-x"}, testEnv(t.TempDir()), &out, &errOut))
	assert.Contains(t, out.String(), "usage: mqcontroller")
}
