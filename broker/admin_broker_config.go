package broker

// UPDATE_BROKER_CONFIG (25) and GET_BROKER_CONFIG (26):
// AdminBrokerProcessor over the broker's Configuration (BrokerConfig,
// NettyServerConfig, NettyClientConfig, MessageStoreConfig and the keys
// of the -c file that none of them has).
//
//   - 26: no header; body the properties text of
//     Configuration.getAllConfigsFormatString, "key=value\n" per setting
//     (5.x sorts the keys). Response header "version": the
//     Configuration's DataVersion as JSON.
//   - 25: no header; body java.util.Properties text. NO_PERMISSION "Can
//     not update config in black list." when a key is brokerConfigPath,
//     rocketmqHome, configBlackList or one of configBlackList's entries
//     (4.9.8 and 5.x; 4.9.7 had no black list); SYSTEM_ERROR
//     "string2Properties error" for text Properties.load refuses.
//     Otherwise Configuration.update: the configs take the keys they have
//     (Java's binding rules), the file's other keys are replaced, the data
//     version advances and every setting is written back to the config
//     file (the -c file, else ~/store/config/broker.properties). With
//     brokerPermission the topic table's version advances and the broker
//     registers with the name servers at once. No body: SUCCESS, nothing
//     changes.
//
// A setting the broker reads when it uses it (brokerPermission,
// autoCreateTopicEnable, slaveReadEnable, longPollingEnable,
// transactionTimeOut, ...) takes effect at once; one read at start-up
// (ports, thread pools, store paths, service periods,
// autoCreateSubscriptionGroup) at the next start, as in Java.
//
// Each line lists its Java's key set (conf.BrokerConfigs.NewConfiguration):
// the 4.x text 4.9.8's, the 5.x text 5.3.3's, where the 5.3.3 settings
// rmqgo does not implement (pop, timer wheel, RocksDB ...) are listed at
// their defaults, and an update to one is kept and written back as Java
// does, without effect.
//
// An update publishes a new settings snapshot (settings.go): requests
// served after it read the new values, none reads a half-written one.
//
// Difference from Java: 4.9.7 lacks configBlackList, which the 4.x text
// lists (4.9.8 has it).

import (
	"slices"
	"strings"
	"sync"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/remoting"
)

// Remarks of UPDATE_BROKER_CONFIG (wire values: do not change).
const (
	remarkConfigBlackList = "Can not update config in black list."
	remarkBadProperties   = "string2Properties error"
)

// configAdmin serves the broker's configuration codes.
type configAdmin struct {
	replier
	line line
	log  *zap.Logger
	// config is the Configuration over configs, the broker's own copy
	// of the settings, which only updates write.
	config   *conf.Configuration
	configs  *conf.BrokerConfigs
	settings *liveSettings
	topics   *topicTable
	// registerNow registers with the name servers and returns once they
	// answered.
	registerNow func()

	// mu makes an update and the publication of its snapshot one step,
	// so that two updates cannot publish in the other order.
	mu sync.Mutex
}

// getBrokerConfig serves GET_BROKER_CONFIG.
func (a *configAdmin) getBrokerConfig(req *remoting.Request) *remoting.Command {
	resp := a.replyOK(req.Cmd)
	text := a.config.PropertiesString()
	if a.line.sortsConfigText() {
		text = sortPropertiesText(text)
	}
	if text != "" {
		resp.Body = []byte(text)
	}
	resp.SetExt("version", string(a.config.Version().AppendJSONLine(nil, a.line.Line)))
	return resp
}

// sortPropertiesText orders "key=value" lines by key, as 5.x's
// MixAll.properties2String(props, true) does.
func sortPropertiesText(text string) string {
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	key := func(line string) string { k, _, _ := strings.Cut(line, "="); return k }
	slices.SortStableFunc(lines, func(a, b string) int { return strings.Compare(key(a), key(b)) })
	return strings.Join(lines, "\n") + "\n"
}

// updateBrokerConfig serves UPDATE_BROKER_CONFIG.
func (a *configAdmin) updateBrokerConfig(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	a.log.Info("updateBrokerConfig called", zap.String("client", req.Ch.RemoteAddr()))
	if len(cmd.Body) == 0 {
		return a.replyOK(cmd)
	}
	parsed, err := conf.ParseProperties(cmd.Body, "UPDATE_BROKER_CONFIG")
	if err != nil {
		a.log.Error("string2Properties error", zap.Error(err))
		return a.reply(cmd, remoting.SystemError, remarkBadProperties)
	}
	values := parsed.Map()
	if hit := conf.Blacklisted(values, a.settings.load().Broker.Blacklist()); len(hit) > 0 {
		return a.reply(cmd, remoting.NoPermission, remarkConfigBlackList)
	}
	a.log.Info("updateBrokerConfig, new config", zap.Any("config", values), zap.String("client", req.Ch.RemoteAddr()))
	a.mu.Lock()
	warnings, err := a.config.Update(values)
	a.config.View(func() { a.settings.publish(a.configs) })
	a.mu.Unlock()
	for _, w := range warnings {
		a.log.Warn("updateBrokerConfig: setting ignored", zap.String("warning", w.String()))
	}
	if err != nil {
		// Java logs a failed persist and answers SUCCESS: the running
		// broker has the new values.
		a.log.Error("persist broker config failed", zap.String("path", a.config.StorePath()), zap.Error(err))
	}
	if _, ok := values["brokerPermission"]; ok {
		a.topics.nextVersion()
		a.registerNow()
	}
	return a.replyOK(cmd)
}

// setRole shows the role a controller gave in GET_BROKER_CONFIG, as
// Java's ReplicasManager sets brokerConfig.brokerId and
// messageStoreConfig.brokerRole (an update then persists them too, as in
// Java).
func (a *configAdmin) setRole(brokerID int64, role conf.BrokerRole) {
	a.config.Change(func() {
		a.configs.Broker.BrokerId, a.configs.Store.BrokerRole = brokerID, role
	})
}
