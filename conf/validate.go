package conf

import (
	"errors"
	"fmt"
	"strings"
)

// ErrInvalid is wrapped by every SettingError: a value Java would accept
// but that cannot work (or that rmqgo does not support).
var ErrInvalid = errors.New("conf: invalid setting")

// SettingError is one problem found by a Validate method, placed at the
// file and line the value came from when it came from a file.
type SettingError struct {
	Origin Origin
	Key    string
	Value  string
	Reason string
}

// Error renders "conf: broker.conf:3: brokerId=0: <reason>".
func (e *SettingError) Error() string {
	at := ""
	if s := e.Origin.String(); s != "" {
		at = s + ": "
	}
	return fmt.Sprintf("conf: %s%s=%s: %s", at, e.Key, e.Value, e.Reason)
}

// Unwrap returns ErrInvalid.
func (e *SettingError) Unwrap() error { return ErrInvalid }

// checker collects the SettingErrors of one config.
type checker struct {
	obj  Object
	errs []error
}

// require records a problem with key unless ok.
func (c *checker) require(ok bool, key string, value any, format string, args ...any) {
	if ok {
		return
	}
	at, _ := OriginOf(c.obj, key)
	c.errs = append(c.errs, &SettingError{
		Origin: at, Key: key, Value: fmt.Sprint(value), Reason: fmt.Sprintf(format, args...),
	})
}

func (c *checker) positive(key string, v int64) {
	c.require(v > 0, key, v, "must be greater than 0")
}

func (c *checker) port(key string, v int32) {
	c.require(v >= 0 && v <= 65535, key, v, "is not a TCP port (0..65535)")
}

func (c *checker) err() error { return errors.Join(c.errs...) }

// Validate reports the settings of c that cannot work: an empty brokerName,
// brokerClusterName or brokerIP1, a malformed namesrvAddr, permission bits
// outside 0..15, enableControllerMode without controllerAddr, and pool sizes or queue capacities that are not positive
// (Java's thread pools throw on those at start-up).
func (c *BrokerConfig) Validate() error {
	ck := &checker{obj: c}
	ck.require(c.BrokerName != "", "brokerName", c.BrokerName, "must not be empty")
	ck.require(c.BrokerClusterName != "", "brokerClusterName", c.BrokerClusterName, "must not be empty")
	ck.require(c.BrokerIP1 != "", "brokerIP1", c.BrokerIP1, "is empty and no local address was found")
	if why := namesrvAddrProblem(c.NamesrvAddr); why != "" {
		ck.require(false, "namesrvAddr", c.NamesrvAddr, "%s", why)
	}
	ck.require(c.BrokerPermission >= 0 && c.BrokerPermission <= 15, "brokerPermission", c.BrokerPermission,
		"is not a PermName bit set (0..15)")
	ck.require(c.BrokerId >= -1, "brokerId", c.BrokerId, "must not be negative")
	ck.require(!c.EnableControllerMode || strings.TrimSpace(c.ControllerAddr) != "", "controllerAddr", c.ControllerAddr,
		"enableControllerMode=true needs the controllers' addresses")
	for _, p := range []struct {
		key string
		v   int32
	}{
		{"defaultTopicQueueNums", c.DefaultTopicQueueNums},
		{"sendMessageThreadPoolNums", c.SendMessageThreadPoolNums},
		{"putMessageFutureThreadPoolNums", c.PutMessageFutureThreadPoolNums},
		{"pullMessageThreadPoolNums", c.PullMessageThreadPoolNums},
		{"processReplyMessageThreadPoolNums", c.ProcessReplyMessageThreadPoolNums},
		{"queryMessageThreadPoolNums", c.QueryMessageThreadPoolNums},
		{"adminBrokerThreadPoolNums", c.AdminBrokerThreadPoolNums},
		{"clientManageThreadPoolNums", c.ClientManageThreadPoolNums},
		{"consumerManageThreadPoolNums", c.ConsumerManageThreadPoolNums},
		{"heartbeatThreadPoolNums", c.HeartbeatThreadPoolNums},
		{"endTransactionThreadPoolNums", c.EndTransactionThreadPoolNums},
		{"sendThreadPoolQueueCapacity", c.SendThreadPoolQueueCapacity},
		{"putThreadPoolQueueCapacity", c.PutThreadPoolQueueCapacity},
		{"pullThreadPoolQueueCapacity", c.PullThreadPoolQueueCapacity},
		{"replyThreadPoolQueueCapacity", c.ReplyThreadPoolQueueCapacity},
		{"queryThreadPoolQueueCapacity", c.QueryThreadPoolQueueCapacity},
		{"clientManagerThreadPoolQueueCapacity", c.ClientManagerThreadPoolQueueCapacity},
		{"consumerManagerThreadPoolQueueCapacity", c.ConsumerManagerThreadPoolQueueCapacity},
		{"heartbeatThreadPoolQueueCapacity", c.HeartbeatThreadPoolQueueCapacity},
		{"endTransactionPoolQueueCapacity", c.EndTransactionPoolQueueCapacity},
	} {
		ck.positive(p.key, int64(p.v))
	}
	return ck.err()
}

// Validate reports the store settings that cannot work: an empty
// storePathRootDir, file sizes or maxMessageSize that are not positive, a
// negative fileReservedTime or flush interval, an HA port out of range, a
// messageDelayLevel ScheduleMessageService cannot parse, and the modes
// rmqgo does not support (DLedger commitlog, RocksDB consume queues).
func (c *MessageStoreConfig) Validate() error {
	ck := &checker{obj: c}
	ck.require(c.StorePathRootDir != "", "storePathRootDir", c.StorePathRootDir, "must not be empty")
	ck.positive("mappedFileSizeCommitLog", int64(c.MappedFileSizeCommitLog))
	ck.positive("mappedFileSizeConsumeQueue", int64(c.MappedFileSizeConsumeQueue))
	ck.positive("maxMessageSize", int64(c.MaxMessageSize))
	ck.require(c.FileReservedTime >= 0, "fileReservedTime", c.FileReservedTime, "must not be negative")
	ck.require(c.FlushIntervalCommitLog >= 0, "flushIntervalCommitLog", c.FlushIntervalCommitLog,
		"must not be negative")
	ck.require(c.FlushIntervalConsumeQueue >= 0, "flushIntervalConsumeQueue", c.FlushIntervalConsumeQueue,
		"must not be negative")
	ck.port("haListenPort", c.HaListenPort)
	if _, why := parseDelayLevels(c.MessageDelayLevel); why != "" {
		ck.require(false, "messageDelayLevel", c.MessageDelayLevel, "%s", why)
	}
	ck.require(!c.EnableDLegerCommitLog, "enableDLegerCommitLog", c.EnableDLegerCommitLog,
		"the DLedger commitlog is not supported by rmqgo")
	ck.require(c.StoreType == "default", "storeType", c.StoreType, `only "default" is supported by rmqgo`)
	return ck.err()
}

// Validate reports a listen port out of range and non-positive thread
// counts.
func (c *NettyServerConfig) Validate() error {
	ck := &checker{obj: c}
	ck.port("listenPort", c.ListenPort)
	ck.positive("serverWorkerThreads", int64(c.ServerWorkerThreads))
	ck.positive("serverSelectorThreads", int64(c.ServerSelectorThreads))
	ck.require(c.ServerCallbackExecutorThreads >= 0, "serverCallbackExecutorThreads",
		c.ServerCallbackExecutorThreads, "must not be negative")
	return ck.err()
}

// Validate reports non-positive thread counts and a negative connect
// timeout.
func (c *NettyClientConfig) Validate() error {
	ck := &checker{obj: c}
	ck.positive("clientWorkerThreads", int64(c.ClientWorkerThreads))
	ck.positive("clientCallbackExecutorThreads", int64(c.ClientCallbackExecutorThreads))
	ck.require(c.ConnectTimeoutMillis >= 0, "connectTimeoutMillis", c.ConnectTimeoutMillis,
		"must not be negative")
	return ck.err()
}

// Validate reports an empty kvConfigPath.
func (c *NamesrvConfig) Validate() error {
	ck := &checker{obj: c}
	ck.require(c.KvConfigPath != "", "kvConfigPath", c.KvConfigPath, "must not be empty")
	return ck.err()
}

// ErrBadNamesrvAddr is returned for a name server list the broker rejects
// at start-up ("The Name Server Address[...] illegal"; Java exits with -3).
var ErrBadNamesrvAddr = errors.New("conf: illegal name server address")

// ValidateNamesrvAddr checks a name server list as BrokerStartup does:
// every ';'-separated entry must be host:port with the port after the last
// ':' a Java int in 0..65535 (RemotingUtil.string2SocketAddress). As with
// Java's String.split, empty entries at the end are dropped; an empty list
// is fine (Java 5.x skips a blank one; 4.9.8 rejected "").
func ValidateNamesrvAddr(list string) error {
	if why := namesrvAddrProblem(list); why != "" {
		return fmt.Errorf("%w: %q: %s", ErrBadNamesrvAddr, list, why)
	}
	return nil
}

func namesrvAddrProblem(list string) string {
	if strings.TrimSpace(list) == "" {
		return ""
	}
	entries := strings.Split(list, ";")
	for len(entries) > 0 && entries[len(entries)-1] == "" {
		entries = entries[:len(entries)-1]
	}
	for _, addr := range entries {
		colon := strings.LastIndexByte(addr, ':')
		if colon < 0 {
			return fmt.Sprintf("entry %q has no port", addr)
		}
		port, err := parseJavaInt(addr[colon+1:], 32)
		if err != nil || port < 0 || port > 65535 {
			return fmt.Sprintf("entry %q has no valid port (0..65535)", addr)
		}
	}
	return ""
}
