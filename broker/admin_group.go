package broker

// UPDATE_AND_CREATE_SUBSCRIPTIONGROUP (200), GET_ALL_SUBSCRIPTIONGROUP_CONFIG
// (201), DELETE_SUBSCRIPTIONGROUP (207) and the 5.x
// UPDATE_AND_CREATE_SUBSCRIPTIONGROUP_LIST (225) and
// GET_SUBSCRIPTIONGROUP_CONFIG (352): AdminBrokerProcessor over
// SubscriptionGroupManager.
//
//   - 200: no header; body a SubscriptionGroupConfig. Creates or replaces
//     the group and persists subscriptionGroup.json; SUCCESS. An empty body
//     changes nothing: SUCCESS on 4.x, SYSTEM_ERROR on 5.x (Java's
//     NullPointerException). 5.x alters the group's attributes as
//     AttributeUtil does; 5.3.3 knows no subscription group attribute, so
//     any key is refused with SYSTEM_ERROR and the RuntimeException's text.
//   - 225 (5.x): no header; body a SubscriptionGroupList. Each config is
//     created or replaced as 200 does (the data version moves once per
//     config), then subscriptionGroup.json is written once; SUCCESS, also
//     for an empty list. An empty body or a null list is SYSTEM_ERROR
//     (Java's NullPointerException); a config whose attributes are refused
//     ends the request with 200's SYSTEM_ERROR, the configs before it
//     staying in.
//   - 201: no header; body the SubscriptionGroupWrapper of the line
//     (dataVersion, 5.x forbiddenTable, subscriptionGroupTable).
//   - 207: header groupName and removeOffset (4.x) or cleanOffset (5.x);
//     the group goes (5.x: with its forbidden entries) and, when the flag
//     is true, its consumer offsets. SUCCESS, also for an unknown group.
//   - 352 (5.x): header group; body the group's config. The group is
//     created as findSubscriptionGroupConfig does when
//     autoCreateSubscriptionGroup is on (or it is a CID_RMQ_SYS_ group);
//     otherwise SUBSCRIPTION_GROUP_NOT_EXIST "No group in this broker".
//
// On 4.x a SLAVE answers 200 and 207 with SYSTEM_ERROR (validateSlave).
// Differences from Java: 352 does not check the group name's length and
// characters before creating it; when 225 stops at a refused config, the
// configs before it are written to subscriptionGroup.json at once (Java
// keeps them in memory until the next write).

import (
	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// slaveModifyRemark is validateSlave's remark.
const slaveModifyRemark = "Can't modify topic or subscription group from slave broker, please execute it from master broker."

// refuseOnSlave is 4.x validateSlave: the answer for a SLAVE, else nil.
func (b *Broker) refuseOnSlave(cmd *remoting.Command) *remoting.Command {
	if b.opts.Line < protocol.Line5 && b.opts.Configs.Store.BrokerRole == conf.Slave {
		return b.response(cmd, remoting.SystemError, slaveModifyRemark)
	}
	return nil
}

// nullPointerRemark is the remark of Java's answer to a request whose body
// its handler reads as null.
const nullPointerRemark = "java.lang.NullPointerException"

// updateAndCreateSubscriptionGroup serves UPDATE_AND_CREATE_SUBSCRIPTIONGROUP.
func (b *Broker) updateAndCreateSubscriptionGroup(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	if resp := b.refuseOnSlave(cmd); resp != nil {
		return resp
	}
	b.log.Info("updateAndCreateSubscriptionGroup called", zap.String("client", req.Ch.RemoteAddr()))
	if len(cmd.Body) == 0 || string(cmd.Body) == "null" {
		if b.opts.Line >= protocol.Line5 {
			return b.response(cmd, remoting.SystemError, nullPointerRemark)
		}
		return b.response(cmd, remoting.Success, "")
	}
	c, err := protocol.DecodeSubscriptionGroupConfig(cmd.Body)
	if err != nil {
		return b.response(cmd, remoting.SystemError, err.Error())
	}
	return b.putGroups(cmd, []protocol.SubscriptionGroupConfig{c})
}

// updateAndCreateSubscriptionGroupList serves the 5.x
// UPDATE_AND_CREATE_SUBSCRIPTIONGROUP_LIST.
func (b *Broker) updateAndCreateSubscriptionGroupList(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	if len(cmd.Body) == 0 {
		return b.response(cmd, remoting.SystemError, nullPointerRemark)
	}
	l, err := protocol.DecodeSubscriptionGroupList(cmd.Body)
	if err != nil {
		return b.response(cmd, remoting.SystemError, err.Error())
	}
	if l.GroupConfigList == nil {
		return b.response(cmd, remoting.SystemError, nullPointerRemark)
	}
	names := make([]string, len(l.GroupConfigList))
	for i, c := range l.GroupConfigList {
		names[i] = c.GroupName
	}
	b.log.Info("updateAndCreateSubscriptionGroupList called", zap.Strings("groups", names), zap.String("client", req.Ch.RemoteAddr()))
	return b.putGroups(cmd, l.GroupConfigList)
}

// putGroups is updateSubscriptionGroupConfigWithoutPersist for each config
// in turn, then one write of the table: SUCCESS, or SYSTEM_ERROR for the
// first config whose 5.x attributes are refused (the ones before it are
// kept).
func (b *Broker) putGroups(cmd *remoting.Command, configs []protocol.SubscriptionGroupConfig) *remoting.Command {
	ok := make([]protocol.SubscriptionGroupConfig, 0, len(configs))
	for _, c := range configs {
		if b.opts.Line >= protocol.Line5 {
			old, exists := b.groups.get(c.GroupName)
			var err error
			if c.Attributes, err = alterAttributes(!exists, groupAttributes, old.Attributes, c.Attributes); err != nil {
				b.groups.put(ok...)
				return b.response(cmd, remoting.SystemError, "java.lang.RuntimeException: "+err.Error())
			}
		}
		ok = append(ok, c)
	}
	b.groups.put(ok...)
	return b.response(cmd, remoting.Success, "")
}

// getAllSubscriptionGroup serves GET_ALL_SUBSCRIPTIONGROUP_CONFIG.
func (b *Broker) getAllSubscriptionGroup(req *remoting.Request) *remoting.Command {
	return b.jsonResponse(req.Cmd, b.groups.wrapper().AppendJSON(nil, b.opts.Line))
}

// deleteSubscriptionGroup serves DELETE_SUBSCRIPTIONGROUP.
func (b *Broker) deleteSubscriptionGroup(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	if resp := b.refuseOnSlave(cmd); resp != nil {
		return resp
	}
	if resp := b.requiredFields(cmd, "groupName"); resp != nil {
		return resp
	}
	group := cmd.ExtString("groupName")
	b.log.Info("deleteSubscriptionGroup called", zap.String("group", group), zap.String("client", req.Ch.RemoteAddr()))
	if !b.groups.remove(group) {
		b.log.Warn("delete subscription group failed, subscription groupName not exist", zap.String("group", group))
	}
	flag := "removeOffset"
	if b.opts.Line >= protocol.Line5 {
		flag = "cleanOffset"
	}
	if cmd.ExtBool(flag) {
		b.offsets.removeGroup(group, "")
		b.log.Warn("clean group offset", zap.String("group", group))
	}
	return b.response(cmd, remoting.Success, "")
}

// getSubscriptionGroup serves the 5.x GET_SUBSCRIPTIONGROUP_CONFIG.
func (b *Broker) getSubscriptionGroup(req *remoting.Request) *remoting.Command {
	if resp := b.requiredFields(req.Cmd, "group"); resp != nil {
		return resp
	}
	c, ok := b.groups.find(req.Cmd.ExtString("group"))
	if !ok {
		return b.response(req.Cmd, remoting.SubscriptionGroupNotExist, "No group in this broker")
	}
	return b.jsonResponse(req.Cmd, c.AppendJSON(nil, b.opts.Line))
}
