package conf

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDefaultsValidate(t *testing.T) {
	require.NoError(t, DefaultBrokerConfigs(testEnv()).Validate())
	require.NoError(t, DefaultNamesrvConfigs(testEnv()).Validate())
}

func TestValidateReportsFileLine(t *testing.T) {
	p, err := ParseProperties([]byte("brokerName=a\nmappedFileSizeCommitLog=0\nlistenPort=70000\n"+
		"brokerRole=SLAVE\nbrokerId=0\nnamesrvAddr=nohost\nmessageDelayLevel=1s  5s\nsendThreadPoolQueueCapacity=-1\n"), "broker.conf")
	require.NoError(t, err)
	b := DefaultBrokerConfigs(testEnv())
	require.Empty(t, Bind(p, b.Objects()...))
	err = b.Validate()
	require.Error(t, err)
	assert.True(t, errors.Is(err, ErrInvalid))
	assert.Equal(t, -3, ExitCode(err))
	msg := err.Error()
	for _, want := range []string{
		"conf: broker.conf:2: mappedFileSizeCommitLog=0: must be greater than 0",
		"conf: broker.conf:3: listenPort=70000: is not a TCP port (0..65535)",
		"conf: broker.conf:5: brokerId=0: a SLAVE needs brokerId > 0",
		`conf: broker.conf:6: namesrvAddr=nohost: entry "nohost" has no port`,
		`conf: broker.conf:7: messageDelayLevel=1s  5s: level 2 is empty`,
		"conf: broker.conf:8: sendThreadPoolQueueCapacity=-1: must be greater than 0",
	} {
		assert.Contains(t, msg, want)
	}
	var se *SettingError
	require.True(t, errors.As(err, &se))
}

func TestValidateDefaultOriginHasNoPlace(t *testing.T) {
	s := DefaultMessageStoreConfig(testEnv())
	s.EnableDLegerCommitLog = true
	s.StoreType = "defaultRocksDB"
	err := s.Validate()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "conf: enableDLegerCommitLog=true: the DLedger commitlog is not supported by rmqgo")
	assert.Contains(t, err.Error(), `conf: storeType=defaultRocksDB: only "default" is supported by rmqgo`)
}

func TestValidateNamesrvAddr(t *testing.T) {
	for _, ok := range []string{"", "a:9876", "a:9876;b:9877", "a:9876;", "[::1]:9876", "h:0"} {
		assert.NoError(t, ValidateNamesrvAddr(ok), ok)
	}
	for _, bad := range []string{"a", "a:", "a:x", "a:70000", ";a:1", "a:1;;b:2", "a:+", "a:1 "} {
		err := ValidateNamesrvAddr(bad)
		assert.True(t, errors.Is(err, ErrBadNamesrvAddr), bad)
	}
}

func TestDerivedValues(t *testing.T) {
	s := DefaultMessageStoreConfig(testEnv())
	assert.Equal(t, "/home/test/store/commitlog", s.CommitLogPath())
	s.StorePathCommitLog = "/data/a,/data/b"
	assert.Equal(t, "/data/a,/data/b", s.CommitLogPath())
	s.MappedFileSizeConsumeQueue = 1001
	assert.Equal(t, int32(1020), s.ConsumeQueueFileSize())
	s.DiskMaxUsedSpaceRatio = 99
	assert.Equal(t, int32(95), s.EffectiveDiskMaxUsedSpaceRatio())
	s.DiskMaxUsedSpaceRatio = 1
	assert.Equal(t, int32(10), s.EffectiveDiskMaxUsedSpaceRatio())
	s.TransientStorePoolEnable = true
	assert.True(t, s.TransientStorePoolActive())
	s.BrokerRole = Slave
	assert.False(t, s.TransientStorePoolActive())

	levels, err := DefaultMessageStoreConfig(testEnv()).DelayLevels()
	require.NoError(t, err)
	require.Len(t, levels, 18)
	assert.Equal(t, time.Second, levels[0])
	assert.Equal(t, 2*time.Hour, levels[17])
	s.MessageDelayLevel = "1s 2x"
	_, err = s.DelayLevels()
	assert.True(t, errors.Is(err, ErrBadDelayLevel))
	assert.True(t, strings.Contains(err.Error(), "level 2"))

	b := DefaultBrokerConfig(testEnv())
	assert.Equal(t, 30*time.Second, b.RegisterPeriod())
	b.RegisterNameServerPeriod = 1000
	assert.Equal(t, 10*time.Second, b.RegisterPeriod())
}

func TestControllerModeNeedsControllerAddr(t *testing.T) {
	b := DefaultBrokerConfig(testEnv())
	b.EnableControllerMode = true
	err := b.Validate()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "enableControllerMode=true needs the controllers' addresses")
	b.ControllerAddr = "127.0.0.1:9878"
	require.NoError(t, b.Validate())

}

func TestNamesrvWithControllerNeedsItsPeers(t *testing.T) {
	n := DefaultNamesrvConfigs(testEnv())
	n.Namesrv.EnableControllerInNamesrv = true
	err := n.Validate()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "Attribute value controllerDLegerPeers of ControllerConfig is null or empty")
	n.Controller.ControllerDLegerPeers = "n0-127.0.0.1:9878;n1-127.0.0.1:9868"
	n.Controller.ControllerDLegerSelfId = "n1"
	require.NoError(t, n.Validate())
}
