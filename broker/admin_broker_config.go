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
// Differences from Java: 4.9.7 lacks configBlackList, which the 4.x text
// lists (4.9.8 has it); the running broker
// reads updated fields without taking the Configuration's lock, as Java
// reads its non-volatile fields.

import (
	"slices"
	"strings"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// Remarks of UPDATE_BROKER_CONFIG (wire values: do not change).
const (
	remarkConfigBlackList = "Can not update config in black list."
	remarkBadProperties   = "string2Properties error"
)

// getBrokerConfig serves GET_BROKER_CONFIG.
func (b *Broker) getBrokerConfig(req *remoting.Request) *remoting.Command {
	resp := b.response(req.Cmd, remoting.Success, "")
	text := b.config.PropertiesString()
	if b.opts.Line >= protocol.Line5 {
		text = sortPropertiesText(text)
	}
	if text != "" {
		resp.Body = []byte(text)
	}
	v := b.config.Version()
	resp.SetExt("version", string(protocol.DataVersion{Timestamp: v.Timestamp, Counter: v.Counter}.AppendJSONLine(nil, b.opts.Line)))
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
func (b *Broker) updateBrokerConfig(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	b.log.Info("updateBrokerConfig called", zap.String("client", req.Ch.RemoteAddr()))
	if len(cmd.Body) == 0 {
		return b.response(cmd, remoting.Success, "")
	}
	parsed, err := conf.ParseProperties(cmd.Body, "UPDATE_BROKER_CONFIG")
	if err != nil {
		b.log.Error("string2Properties error", zap.Error(err))
		return b.response(cmd, remoting.SystemError, remarkBadProperties)
	}
	values := parsed.Map()
	if hit := conf.Blacklisted(values, b.opts.Configs.Broker.Blacklist()); len(hit) > 0 {
		return b.response(cmd, remoting.NoPermission, remarkConfigBlackList)
	}
	b.log.Info("updateBrokerConfig, new config", zap.Any("config", values), zap.String("client", req.Ch.RemoteAddr()))
	warnings, err := b.config.Update(values)
	for _, w := range warnings {
		b.log.Warn("updateBrokerConfig: setting ignored", zap.String("warning", w.String()))
	}
	if err != nil {
		// Java logs a failed persist and answers SUCCESS: the running
		// broker has the new values.
		b.log.Error("persist broker config failed", zap.String("path", b.config.StorePath()), zap.Error(err))
	}
	if _, ok := values["brokerPermission"]; ok {
		b.topics.nextVersion()
		b.reg.registerAll(false)
	}
	return b.response(cmd, remoting.Success, "")
}
