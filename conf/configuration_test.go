package conf

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
	return path
}

// UPDATE_BROKER_CONFIG: the update is bound with the same rules, the -c
// file is rewritten (old content kept as .bak) and reads back to the same
// configs.
func TestUpdateAndWriteBackRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "broker.conf", "brokerName = broker-a\nbrokerRole = SLAVE\nbrokerId = 1\ncustom = x\n")
	env := testEnv()
	env.Vars["ROCKETMQ_HOME"] = "/opt/rmq"
	cl, err := ParseBrokerArgs([]string{"-c", path})
	require.NoError(t, err)
	b, ws, err := LoadBroker(cl, env)
	require.NoError(t, err)
	require.Len(t, ws, 1)
	assert.Equal(t, "custom", ws[0].Key, "an extra key: warned, but kept and written back")
	cfg := b.NewConfiguration()
	assert.Equal(t, path, cfg.StorePath())
	v0 := cfg.Version()

	ws, err = cfg.Update(map[string]string{
		"fileReservedTime": "24", "autoCreateTopicEnable": "false", "brokerPermission": "4",
		"custom": "y", "notAKey": "1", "maxMessageSize": "1024*1024",
	})
	require.NoError(t, err)
	require.Len(t, ws, 2, "%v", ws)
	assert.Equal(t, "maxMessageSize", ws[0].Key)
	assert.Equal(t, "notAKey", ws[1].Key)
	assert.Equal(t, "update", ws[1].File)
	assert.Equal(t, int32(24), b.Store.FileReservedTime)
	assert.False(t, b.Broker.AutoCreateTopicEnable)
	assert.Equal(t, int32(4<<20), b.Store.MaxMessageSize)
	assert.Equal(t, v0.Counter+1, cfg.Version().Counter)

	bak, err := os.ReadFile(path + ".bak")
	require.NoError(t, err)
	assert.Equal(t, "brokerName = broker-a\nbrokerRole = SLAVE\nbrokerId = 1\ncustom = x\n", string(bak))
	_, err = os.Stat(path + ".tmp")
	assert.True(t, os.IsNotExist(err))

	written, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, cfg.PropertiesString(), string(written))

	// Start again from the rewritten file: the same configs. Like Java's,
	// the file holds two Java field names that are no keys, and the extra
	// key the original file had.
	b2, ws, err := LoadBroker(cl, env)
	require.NoError(t, err)
	require.Len(t, ws, 3)
	assert.Equal(t, []string{"isScanAvailableNameSrv", "isEnableBatchPush", "custom"},
		[]string{ws[0].Key, ws[1].Key, ws[2].Key})
	assert.Contains(t, ws[1].Message, "reads only as enableBatchPush")
	assert.Equal(t, ConfigLines(false, b.Objects()...), ConfigLines(false, b2.Objects()...))
	assert.Equal(t, "y", mustValue(t, b2.File, "custom"))
}

func TestPersistEscapesWhatJavaWouldMisread(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "x.properties")
	p := NewProperties()
	for _, kv := range [][2]string{
		{"storePathRootDir", `C:\rmq\store`}, {"brokerName", " lead"}, {"k:ey", "a\nb"}, {"u", "é😀"}, {"plain", "a=b c"},
	} {
		p.Set(Entry{Key: kv[0], Value: kv[1]})
	}
	require.NoError(t, WriteProperties(path, p))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, `storePathRootDir=C:\\rmq\\store`+"\n"+`brokerName=\ lead`+"\n"+`k\:ey=a\nb`+"\n"+
		`u=\u00E9\uD83D\uDE00`+"\n"+"plain=a=b c\n", string(data))
	back, err := LoadPropertiesFile(path)
	require.NoError(t, err)
	assert.Equal(t, p.Map(), back.Map())
}

func TestConfigurationNamesrvStorePath(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "namesrv.conf", "listenPort=9988\norderMessageEnable=true\n")
	env := testEnv()
	env.SysProps["rocketmq.home.dir"] = "/opt/rmq"
	cl, err := ParseNamesrvArgs([]string{"-c", path})
	require.NoError(t, err)
	n, ws, err := LoadNamesrv(cl, env)
	require.NoError(t, err)
	require.Empty(t, ws)
	assert.Equal(t, path, n.Namesrv.ConfigStorePath)
	cfg := n.NewConfiguration()
	_, err = cfg.Update(map[string]string{"orderMessageEnable": "false"})
	require.NoError(t, err)
	back, err := LoadPropertiesFile(path)
	require.NoError(t, err)
	assert.Equal(t, "false", mustValue(t, back, "orderMessageEnable"))
	assert.Equal(t, "9988", mustValue(t, back, "listenPort"))
	assert.Equal(t, path, mustValue(t, back, "configStorePath"))
}

func TestUpdateWithoutStorePathAndConcurrentReaders(t *testing.T) {
	b := DefaultBrokerConfigs(testEnv())
	cfg := NewConfiguration("", nil, b.Objects()...)
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				cfg.View(func() { _ = b.Broker.BrokerPermission })
				_ = cfg.PropertiesString()
			}
		}()
	}
	for j := 0; j < 50; j++ {
		_, err := cfg.Update(map[string]string{"brokerPermission": "4"})
		require.NoError(t, err)
	}
	wg.Wait()
	assert.Equal(t, int64(50), cfg.Version().Counter)
	require.NoError(t, cfg.Persist())
}

func TestBlacklist(t *testing.T) {
	b := DefaultBrokerConfig(testEnv())
	assert.Equal(t, []string{"brokerConfigPath", "rocketmqHome", "configBlackList"}, b.Blacklist())
	assert.Equal(t, []string{"rocketmqHome"},
		Blacklisted(map[string]string{"rocketmqHome": "/x", "brokerPermission": "4"}, b.Blacklist()))
	n := DefaultNamesrvConfig(testEnv())
	n.ConfigBlackList = "configBlackList;configStorePath;kvConfigPath;orderMessageEnable"
	assert.Equal(t, []string{"configBlackList", "configStorePath", "kvConfigPath", "rocketmqHome", "orderMessageEnable"},
		n.Blacklist())
}

// A 4.x broker lists no 5.x key, except those its file set: 4.9.7 lists
// bindAddress from broker.conf as a key no config has (mqadmin
// getBrokerConfig against 4.9.7).
func TestPropertiesString4KeepsFileSet5xKeys(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "broker.conf", "brokerName = broker-a\nbindAddress = 127.0.0.1\n")
	cl, err := ParseBrokerArgs([]string{"-c", path})
	require.NoError(t, err)
	env := testEnv()
	env.Vars["ROCKETMQ_HOME"] = "/opt/rmq"
	b, _, err := LoadBroker(cl, env)
	require.NoError(t, err)
	props, err := ParseProperties([]byte(b.NewConfiguration().PropertiesString4()), "text")
	require.NoError(t, err)
	m := props.Map()
	assert.Equal(t, "127.0.0.1", m["bindAddress"])
	assert.Equal(t, "broker-a", m["brokerName"])
	assert.NotContains(t, m, "timerWheelEnable", "a 5.x key the file did not set")
}
