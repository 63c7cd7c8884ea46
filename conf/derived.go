package conf

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// The values the Java getters and services derive from the raw fields. The
// fields themselves keep what was configured, because that is what -p and
// GET_BROKER_CONFIG show.

// CommitLogPath is getStorePathCommitLog(): storePathCommitLog, or
// storePathRootDir/commitlog when it is unset. It may list several
// directories separated by ',' (Java's -Drocketmq.broker.multiPathSplitter).
func (c *MessageStoreConfig) CommitLogPath() string {
	if c.StorePathCommitLog == "" {
		return c.StorePathRootDir + "/commitlog"
	}
	return c.StorePathCommitLog
}

// ConsumeQueueFileSize is getMappedFileSizeConsumeQueue():
// mappedFileSizeConsumeQueue rounded up to a whole number of 20-byte units.
func (c *MessageStoreConfig) ConsumeQueueFileSize() int32 {
	n := c.MappedFileSizeConsumeQueue
	return (n + cqUnitSize - 1) / cqUnitSize * cqUnitSize
}

// EffectiveDiskMaxUsedSpaceRatio is getDiskMaxUsedSpaceRatio(): the
// configured percentage clamped to 10..95.
func (c *MessageStoreConfig) EffectiveDiskMaxUsedSpaceRatio() int32 {
	return min(max(c.DiskMaxUsedSpaceRatio, 10), 95)
}

// TransientStorePoolActive is isTransientStorePoolEnable(): the switch is
// on, flushing is asynchronous and the broker is not a slave.
func (c *MessageStoreConfig) TransientStorePoolActive() bool {
	return c.TransientStorePoolEnable && c.FlushDiskType == AsyncFlush && c.BrokerRole != Slave
}

// ErrBadDelayLevel is returned by DelayLevels for a messageDelayLevel that
// ScheduleMessageService.parseDelayLevel rejects (the Java broker then fails
// to load).
var ErrBadDelayLevel = errors.New("conf: bad messageDelayLevel")

// DelayLevels parses messageDelayLevel as ScheduleMessageService does:
// single-space-separated words, each a Java long followed by one of the
// units s, m, h, d; level i+1 is the i-th word.
func (c *MessageStoreConfig) DelayLevels() ([]time.Duration, error) {
	levels, why := parseDelayLevels(c.MessageDelayLevel)
	if why != "" {
		return nil, fmt.Errorf("%w: %q: %s", ErrBadDelayLevel, c.MessageDelayLevel, why)
	}
	return levels, nil
}

func parseDelayLevels(s string) ([]time.Duration, string) {
	units := map[byte]time.Duration{'s': time.Second, 'm': time.Minute, 'h': time.Hour, 'd': 24 * time.Hour}
	words := strings.Split(s, " ")
	for len(words) > 1 && words[len(words)-1] == "" {
		words = words[:len(words)-1] // String.split drops trailing empty strings
	}
	levels := make([]time.Duration, 0, len(words))
	for i, w := range words {
		if w == "" {
			return nil, fmt.Sprintf("level %d is empty (levels are separated by one space)", i+1)
		}
		unit, ok := units[w[len(w)-1]]
		if !ok {
			return nil, fmt.Sprintf("level %d %q does not end in s, m, h or d", i+1, w)
		}
		n, err := parseJavaInt(w[:len(w)-1], 64)
		if err != nil {
			return nil, fmt.Sprintf("level %d %q does not start with a number", i+1, w)
		}
		levels = append(levels, time.Duration(n)*unit)
	}
	return levels, ""
}

// RegisterPeriod is the register-broker period BrokerController uses:
// registerNameServerPeriod clamped to 10..60 seconds.
func (c *BrokerConfig) RegisterPeriod() time.Duration {
	ms := min(max(c.RegisterNameServerPeriod, 10000), 60000)
	return time.Duration(ms) * time.Millisecond
}

// Blacklist is the set of keys UPDATE_BROKER_CONFIG refuses
// (AdminBrokerProcessor): brokerConfigPath, rocketmqHome, configBlackList
// and the ';'-separated entries of configBlackList.
func (c *BrokerConfig) Blacklist() []string {
	return blacklist([]string{"brokerConfigPath", "rocketmqHome", "configBlackList"}, c.ConfigBlackList)
}

// Blacklist is the set of keys UPDATE_NAMESRV_CONFIG refuses
// (DefaultRequestProcessor): configBlackList, configStorePath, kvConfigPath,
// rocketmqHome and the ';'-separated entries of configBlackList.
func (c *NamesrvConfig) Blacklist() []string {
	return blacklist([]string{"configBlackList", "configStorePath", "kvConfigPath", "rocketmqHome"},
		c.ConfigBlackList)
}

func blacklist(fixed []string, configured string) []string {
	seen := make(map[string]bool)
	var out []string
	for _, k := range append(fixed, strings.Split(configured, ";")...) {
		if k != "" && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// Blacklisted returns the keys of values that appear in list, sorted; an
// update request that has any is answered NO_PERMISSION ("Can not update
// config in black list.").
func Blacklisted(values map[string]string, list []string) []string {
	var hit []string
	for _, k := range sortedKeys(values) {
		for _, b := range list {
			if k == b {
				hit = append(hit, k)
				break
			}
		}
	}
	return hit
}
