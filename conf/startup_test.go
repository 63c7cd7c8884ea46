package conf

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func brokerEnv() Env {
	env := testEnv()
	env.Vars["ROCKETMQ_HOME"] = "/opt/rmq"
	return env
}

func loadBrokerFile(t *testing.T, content string, args ...string) (*BrokerConfigs, []Warning, error) {
	t.Helper()
	path := writeFile(t, t.TempDir(), "broker.conf", content)
	cl, err := ParseBrokerArgs(append([]string{"-c", path}, args...))
	require.NoError(t, err)
	return LoadBroker(cl, brokerEnv())
}

func TestLoadBrokerCommandLineBeatsFile(t *testing.T) {
	b, ws, err := loadBrokerFile(t, "namesrvAddr=file:9876\nbrokerName=broker-a\n", "-n", "cli:9876;cli2:9876")
	require.NoError(t, err)
	assert.Empty(t, ws)
	assert.Equal(t, "cli:9876;cli2:9876", b.Broker.NamesrvAddr)
	at, _ := OriginOf(b.Broker, "namesrvAddr")
	assert.Equal(t, Origin{File: "command line"}, at)
	assert.Equal(t, b.File.Len(), 2)
}

func TestLoadBrokerRules(t *testing.T) {
	tests := []struct {
		name, file string
		err        error
		check      func(t *testing.T, b *BrokerConfigs)
	}{
		{"master forced to id 0", "brokerRole=SYNC_MASTER\nbrokerId=3\n", nil, func(t *testing.T, b *BrokerConfigs) {
			assert.Equal(t, int64(0), b.Broker.BrokerId)
		}},
		{"slave keeps its id", "brokerRole=SLAVE\nbrokerId=2\n", nil, func(t *testing.T, b *BrokerConfigs) {
			assert.Equal(t, int64(2), b.Broker.BrokerId)
			assert.Equal(t, int32(40), b.Store.AccessMessageInMemoryMaxRatio, "4.9.8 never lowers it")
		}},
		{"slave with id 0", "brokerRole=SLAVE\nbrokerId=0\n", ErrSlaveBrokerID, nil},
		{"bad name server list", "namesrvAddr=a:9876;b\n", ErrBadNamesrvAddr, nil},
		{"bad name server port", "namesrvAddr=a:98x76\n", ErrBadNamesrvAddr, nil},
		{"dledger id -1", "enableDLegerCommitLog=true\n", nil, func(t *testing.T, b *BrokerConfigs) {
			assert.Equal(t, int64(-1), b.Broker.BrokerId)
		}},
		{"ha port derived", "listenPort=20911\n", nil, func(t *testing.T, b *BrokerConfigs) {
			assert.Equal(t, int32(20912), b.Store.HaListenPort)
		}},
		{"ha port honoured", "listenPort=20911\nhaListenPort=30000\n", nil, func(t *testing.T, b *BrokerConfigs) {
			assert.Equal(t, int32(30000), b.Store.HaListenPort)
		}},
		{"ha port 0 derived", "haListenPort=0\n", nil, func(t *testing.T, b *BrokerConfigs) {
			assert.Equal(t, int32(10912), b.Store.HaListenPort)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, _, err := loadBrokerFile(t, tt.file)
			if tt.err != nil {
				require.True(t, errors.Is(err, tt.err), "%v", err)
				assert.Equal(t, -3, ExitCode(err))
				return
			}
			require.NoError(t, err)
			tt.check(t, b)
		})
	}
}

func TestLoadBrokerNeedsRocketmqHome(t *testing.T) {
	cl, err := ParseBrokerArgs(nil)
	require.NoError(t, err)
	_, _, err = LoadBroker(cl, testEnv())
	require.ErrorIs(t, err, ErrNoRocketmqHome)
	assert.Equal(t, -2, ExitCode(err))

	b, _, err := loadBrokerFile(t, "rocketmqHome=/from/file\n")
	require.NoError(t, err)
	assert.Equal(t, "/from/file", b.Broker.RocketmqHome)
	assert.Equal(t, "/home/test/store/config/broker.properties", DefaultBrokerConfigs(testEnv()).ConfigPath)
}

func TestLoadBrokerMissingFileAndBadEscape(t *testing.T) {
	cl, err := ParseBrokerArgs([]string{"-c", t.TempDir() + "/missing.conf"})
	require.NoError(t, err)
	_, _, err = LoadBroker(cl, brokerEnv())
	require.Error(t, err)
	assert.Equal(t, -1, ExitCode(err))

	_, _, err = loadBrokerFile(t, "a=1\nbrokerName=\\u00zz\n")
	require.ErrorIs(t, err, ErrMalformedEscape)
	assert.Contains(t, err.Error(), "broker.conf:2")
}

func TestLoadNamesrv(t *testing.T) {
	path := writeFile(t, t.TempDir(), "namesrv.conf", "listenPort = 9877\nbrokerName=x\n")
	cl, err := ParseNamesrvArgs([]string{"-c", path, "-n", "ignored:1"})
	require.NoError(t, err)
	env := testEnv()
	env.Vars["ROCKETMQ_HOME"] = "/opt/rmq"
	n, ws, err := LoadNamesrv(cl, env)
	require.NoError(t, err)
	assert.Equal(t, int32(9877), n.NettyServer.ListenPort)
	assert.Equal(t, path, n.Namesrv.ConfigStorePath)
	require.Len(t, ws, 1)
	assert.Equal(t, "brokerName", ws[0].Key)
	require.NoError(t, n.Validate())

	// Without ROCKETMQ_HOME only -p works, as in Java.
	cl, _ = ParseNamesrvArgs(nil)
	_, _, err = LoadNamesrv(cl, testEnv())
	require.ErrorIs(t, err, ErrNoRocketmqHome)
	cl, _ = ParseNamesrvArgs([]string{"-p"})
	n, _, err = LoadNamesrv(cl, testEnv())
	require.NoError(t, err)
	assert.Equal(t, int32(9876), n.NettyServer.ListenPort)
}
