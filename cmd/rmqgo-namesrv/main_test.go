package main

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/tlsconf"
	"github.com/rmqgo/rmqgo/namesrv"
	"github.com/rmqgo/rmqgo/remoting"
)

func testEnv(home string) conf.Env {
	return conf.Env{Vars: map[string]string{"ROCKETMQ_HOME": home}, SysProps: map[string]string{"user.home": home},
		HostName: "host", LocalAddress: "127.0.0.1", NumCPU: 2}
}

func TestPrintConfigItems(t *testing.T) {
	home := t.TempDir()
	file := filepath.Join(home, "namesrv.properties")
	require.NoError(t, os.WriteFile(file, []byte("listenPort=19999\norderMessageEnable=true\n"), 0o644))
	var out, errOut bytes.Buffer
	code := run([]string{"-c", file, "-p"}, testEnv(home), &out, &errOut)
	assert.Equal(t, 0, code)
	assert.Contains(t, out.String(), "listenPort=19999\n")
	assert.Contains(t, out.String(), "orderMessageEnable=true\n")
	assert.Contains(t, out.String(), "kvConfigPath="+filepath.Join(home, "namesrv", "kvConfig.json")+"\n")
}

func TestUnknownOptionPrintsUsageAndExitsOne(t *testing.T) {
	var out, errOut bytes.Buffer
	assert.Equal(t, 1, run([]string{"-x"}, testEnv(t.TempDir()), &out, &errOut))
	assert.Contains(t, out.String(), "usage: mqnamesrv")
}

func TestBadConfigLineIsReportedWithFileAndLine(t *testing.T) {
	home := t.TempDir()
	file := filepath.Join(home, "namesrv.properties")
	require.NoError(t, os.WriteFile(file, []byte("# test\nlistenPort=1024*9\n"), 0o644))
	var out, errOut bytes.Buffer
	code := run([]string{"-c", file, "-p"}, testEnv(home), &out, &errOut)
	assert.Equal(t, 0, code)
	assert.Contains(t, out.String(), "listenPort=9876\n", "a value Java cannot parse leaves the default")
	assert.Contains(t, errOut.String(), file+":2")
	assert.Contains(t, errOut.String(), "listenPort")
}

// mustOptions is options with no error expected.
func mustOptions(t *testing.T, cfg *conf.NamesrvConfigs) namesrv.Options {
	t.Helper()
	o, err := options(cfg, zap.NewNop())
	require.NoError(t, err)
	return o
}

func TestIdleTimeComesFromNettyServerConfig(t *testing.T) {
	cfg := conf.DefaultNamesrvConfigs(testEnv(t.TempDir()))
	assert.Equal(t, 120*time.Second, mustOptions(t, cfg).ServerChannelMaxIdleTime)
	cfg.NettyServer.ServerChannelMaxIdleTimeSeconds = 7
	assert.Equal(t, 7*time.Second, mustOptions(t, cfg).ServerChannelMaxIdleTime)
	cfg.NettyServer.ServerChannelMaxIdleTimeSeconds = 0
	assert.Zero(t, mustOptions(t, cfg).ServerChannelMaxIdleTime, "0 turns it off, as in Java")
}

func TestTLSSettingsJavaDoesNotStartWithFailTheStart(t *testing.T) {
	cfg := conf.DefaultNamesrvConfigs(testEnv(t.TempDir()))
	cfg.TLS = conf.TLSConfig{Mode: conf.TLSModeEnforcing, TestModeEnable: false}
	_, err := options(cfg, zap.NewNop())
	assert.ErrorIs(t, err, tlsconf.ErrNoCertificate)
	cfg.TLS.ServerCertPath, cfg.TLS.ServerKeyPath = "/does/not/exist.pem", "/does/not/exist.key"
	o, err := options(cfg, zap.NewNop())
	require.NoError(t, err, "missing files are waited for, as Java does")
	assert.Equal(t, remoting.TLSEnforcing, o.TLSMode)
}

// The sample cluster-3n-namesrv-plugin/namesrv-n0.conf of 5.3.3, alone:
// the name server runs a controller on its peer port.
func TestEnableControllerInNamesrvStartsTheControllerFromTheSameFile(t *testing.T) {
	home := t.TempDir()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	peer := ln.Addr().String()
	_ = ln.Close()
	file := filepath.Join(home, "namesrv-n0.conf")
	require.NoError(t, os.WriteFile(file, []byte("listenPort=0\nenableControllerInNamesrv = true\n"+
		"controllerDLegerGroup = group1\ncontrollerDLegerPeers = n0-"+peer+"\ncontrollerDLegerSelfId = n0\n"+
		"controllerStorePath = "+filepath.Join(home, "DLedgerController")+"\n"), 0o644))
	cl, err := conf.ParseNamesrvArgs([]string{"-c", file})
	require.NoError(t, err)
	cfg, ws, err := conf.LoadNamesrv(cl, testEnv(home))
	require.NoError(t, err)
	assert.Empty(t, ws, "the controller's keys are known")
	require.NoError(t, cfg.Validate())
	ctl, err := startController(cfg, testEnv(home), zap.NewNop())
	require.NoError(t, err)
	defer ctl.Close()
	assert.Equal(t, "The ControllerManager boot success. serializeType=JSON", ctl.EmbeddedBootMessage())
	c := remoting.NewClient(remoting.ClientOptions{})
	defer c.Close()
	require.Eventually(t, ctl.IsLeader, 20*time.Second, 20*time.Millisecond)
	resp, err := c.InvokeTimeout(peer, remoting.NewRequest(remoting.ControllerGetMetadataInfo, nil), 5*time.Second)
	require.NoError(t, err)
	assert.Equal(t, "true", resp.ExtString("isLeader"))
	assert.Equal(t, "n0:"+peer+";", resp.ExtString("peers"))
}
