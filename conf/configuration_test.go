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
	env := testEnv()
	b, ws, cl, path := brokerFromFile(t, "brokerName = broker-a\nbrokerRole = SLAVE\nbrokerId = 1\ncustom = x\n", env)
	require.Len(t, ws, 1)
	assert.Equal(t, "custom", ws[0].Key, "an extra key: warned, but kept and written back")
	cfg := b.NewConfiguration(false)
	assert.Equal(t, path, cfg.StorePath())
	v0 := cfg.Version()

	ws, err := cfg.Update(map[string]string{
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

	// Start again from the rewritten file: the same configs. Like 4.9.8's,
	// the file holds a Java field name that is no key, and the extra key the
	// original file had; not the 5.x keys, which 4.9.8 does not have.
	b2, ws, err := LoadBroker(cl, env)
	require.NoError(t, err)
	require.Len(t, ws, 2)
	assert.Equal(t, []string{"isEnableBatchPush", "custom"}, []string{ws[0].Key, ws[1].Key})
	assert.Contains(t, ws[0].Message, "reads only as enableBatchPush")
	assert.NotContains(t, string(written), "timerWheelEnable=")
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
func TestLine4PropertiesKeepFileSet5xKeys(t *testing.T) {
	b, _, _, _ := brokerFromFile(t, "brokerName = broker-a\nbindAddress = 127.0.0.1\n", testEnv())
	props, err := ParseProperties([]byte(b.NewConfiguration(false).PropertiesString()), "text")
	require.NoError(t, err)
	m := props.Map()
	assert.Equal(t, "127.0.0.1", m["bindAddress"])
	assert.Equal(t, "broker-a", m["brokerName"])
	assert.NotContains(t, m, "timerWheelEnable", "a 5.x key the file did not set")
}

// A 5.x broker lists 5.3.3's key set: its 5.3.3-only settings at 5.3.3's
// defaults, the 4.x keys 5.3.3 dropped left out, 5.3.3's field names.
func TestLine5PropertiesListJava533Keys(t *testing.T) {
	env := testEnv()
	env.Vars["RMQGO_LINE"] = "5"
	b := DefaultBrokerConfigs(env)
	props, err := ParseProperties([]byte(b.NewConfiguration(true).PropertiesString()), "text")
	require.NoError(t, err)
	m := props.Map()
	keys := sortedKeys(m)
	assert.Equal(t, readGolden(t, "java533_get_broker_config_keys.txt"), keys)
	assert.Equal(t, "true", m["autoDeleteUnusedStats"], "5.3.3's default")
	assert.Equal(t, "24000", m["registerBrokerTimeoutMills"], "5.3.3's default")
	assert.Equal(t, "false", m["enableBatchPush"])
	assert.Equal(t, "16384", m["popReviveMaxReturnSizePerRead"])
	assert.Equal(t, "", m["metricsGrpcExporterHeader"], "an empty default is listed")
	assert.Equal(t, "false", m["isInBrokerContainer"])
}

// On line 5 an update of a 5.3.3 setting rmqgo does not implement is kept,
// listed and written back, as 5.3.3 does; a file that sets one to its
// default gets no warning (5.3.3 writes every key back), another value one.
func TestLine5JavaFiveOnlyKeysUpdateAndWarn(t *testing.T) {
	env := testEnv()
	env.Vars["RMQGO_LINE"] = "5"
	b, ws, cl, path := brokerFromFile(t, "brokerName = broker-a\nenablePopLog=false\npopCkMaxBufferSize=4\n", env)
	require.Len(t, ws, 1)
	assert.Equal(t, "popCkMaxBufferSize", ws[0].Key)
	assert.Contains(t, ws[0].Message, "does not implement")

	cfg := b.NewConfiguration(true)
	uws, err := cfg.Update(map[string]string{"enablePopLog": "true"})
	require.NoError(t, err)
	assert.Empty(t, uws)
	props, err := ParseProperties([]byte(cfg.PropertiesString()), "text")
	require.NoError(t, err)
	assert.Equal(t, "true", props.Map()["enablePopLog"])
	assert.Equal(t, "4", props.Map()["popCkMaxBufferSize"])
	written, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(written), "enablePopLog=true\n")

	// Started again from what it wrote (every 5.3.3 key, as 5.3.3 writes
	// them): warned about the settings that differ from 5.3.3's defaults,
	// not about the defaults nor the fields 5.3.3 lists without a setter;
	// and, as on 4.x, about the field name 5.3.3 writes for
	// scanAvailableNameSrv but does not read.
	assert.Contains(t, string(written), "isBrokerContainer=false\n")
	_, ws, err = LoadBroker(cl, env)
	require.NoError(t, err)
	var keys []string
	for _, w := range ws {
		keys = append(keys, w.Key)
	}
	assert.ElementsMatch(t, []string{"isScanAvailableNameSrv", "enablePopLog", "popCkMaxBufferSize"}, keys)
}

// brokerFromFile writes a broker.conf with content and loads it as
// "mqbroker -c" does with env (ROCKETMQ_HOME set); it also returns the
// command line, to load the file again, and the file's path.
func brokerFromFile(t *testing.T, content string, env Env) (*BrokerConfigs, []Warning, *CommandLine, string) {
	t.Helper()
	path := writeFile(t, t.TempDir(), "broker.conf", content)
	env.Vars["ROCKETMQ_HOME"] = "/opt/rmq"
	cl, err := ParseBrokerArgs([]string{"-c", path})
	require.NoError(t, err)
	b, ws, err := LoadBroker(cl, env)
	require.NoError(t, err)
	return b, ws, cl, path
}
