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

// groupAdmin serves the subscription-group codes.
type groupAdmin struct {
	replier
	line     line
	log      *zap.Logger
	settings *liveSettings
	groups   *groupTable
	offsets  *offsetTable
}

// slaveModifyRemark is validateSlave's remark.
const slaveModifyRemark = "Can't modify topic or subscription group from slave broker, please execute it from master broker."

// refusesOnSlave is 4.x validateSlave: whether a topic or group change is
// refused (with slaveModifyRemark) because this broker is a SLAVE.
func refusesOnSlave(l line, set *liveSettings) bool {
	return l.slaveRefusesAdminChanges() && set.load().Store.BrokerRole == conf.Slave
}

// refuseOnSlave is validateSlave for the group codes: the answer for a
// SLAVE, else nil.
func (a *groupAdmin) refuseOnSlave(cmd *remoting.Command) *remoting.Command {
	if refusesOnSlave(a.line, a.settings) {
		return a.reply(cmd, remoting.SystemError, slaveModifyRemark)
	}
	return nil
}

// nullPointerRemark is the remark of Java's answer to a request whose body
// its handler reads as null.
const nullPointerRemark = "java.lang.NullPointerException"

// updateAndCreateSubscriptionGroup serves UPDATE_AND_CREATE_SUBSCRIPTIONGROUP.
func (a *groupAdmin) updateAndCreateSubscriptionGroup(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	if resp := a.refuseOnSlave(cmd); resp != nil {
		return resp
	}
	a.log.Info("updateAndCreateSubscriptionGroup called", zap.String("client", req.Ch.RemoteAddr()))
	if len(cmd.Body) == 0 || string(cmd.Body) == "null" {
		if a.line.refusesEmptyGroupBody() {
			return a.reply(cmd, remoting.SystemError, nullPointerRemark)
		}
		return a.replyOK(cmd)
	}
	c, err := protocol.DecodeSubscriptionGroupConfig(cmd.Body)
	if err != nil {
		return a.reply(cmd, remoting.SystemError, err.Error())
	}
	return a.putGroups(cmd, []protocol.SubscriptionGroupConfig{c})
}

// updateAndCreateSubscriptionGroupList serves the 5.x
// UPDATE_AND_CREATE_SUBSCRIPTIONGROUP_LIST.
func (a *groupAdmin) updateAndCreateSubscriptionGroupList(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	if len(cmd.Body) == 0 {
		return a.reply(cmd, remoting.SystemError, nullPointerRemark)
	}
	l, err := protocol.DecodeSubscriptionGroupList(cmd.Body)
	if err != nil {
		return a.reply(cmd, remoting.SystemError, err.Error())
	}
	if l.GroupConfigList == nil {
		return a.reply(cmd, remoting.SystemError, nullPointerRemark)
	}
	names := make([]string, len(l.GroupConfigList))
	for i, c := range l.GroupConfigList {
		names[i] = c.GroupName
	}
	a.log.Info("updateAndCreateSubscriptionGroupList called", zap.Strings("groups", names), zap.String("client", req.Ch.RemoteAddr()))
	return a.putGroups(cmd, l.GroupConfigList)
}

// putGroups is updateSubscriptionGroupConfigWithoutPersist for each config
// in turn, then one write of the table: SUCCESS, or SYSTEM_ERROR for the
// first config whose 5.x attributes are refused (the ones before it are
// kept).
func (a *groupAdmin) putGroups(cmd *remoting.Command, configs []protocol.SubscriptionGroupConfig) *remoting.Command {
	ok := make([]protocol.SubscriptionGroupConfig, 0, len(configs))
	for _, c := range configs {
		if a.line.hasAttributes() {
			old, exists := a.groups.get(c.GroupName)
			var err error
			if c.Attributes, err = alterAttributes(!exists, groupAttributes, old.Attributes, c.Attributes); err != nil {
				a.groups.put(ok...)
				return a.reply(cmd, remoting.SystemError, "java.lang.RuntimeException: "+err.Error())
			}
		}
		ok = append(ok, c)
	}
	a.groups.put(ok...)
	return a.replyOK(cmd)
}

// getAllSubscriptionGroup serves GET_ALL_SUBSCRIPTIONGROUP_CONFIG.
func (a *groupAdmin) getAllSubscriptionGroup(req *remoting.Request) *remoting.Command {
	return a.replyBody(req.Cmd, a.groups.wrapper().AppendJSON(nil, a.line.Line))
}

// deleteSubscriptionGroup serves DELETE_SUBSCRIPTIONGROUP.
func (a *groupAdmin) deleteSubscriptionGroup(req *remoting.Request) *remoting.Command {
	cmd := req.Cmd
	if resp := a.refuseOnSlave(cmd); resp != nil {
		return resp
	}
	if resp := a.requireFields(cmd, "groupName"); resp != nil {
		return resp
	}
	group := cmd.ExtString("groupName")
	a.log.Info("deleteSubscriptionGroup called", zap.String("group", group), zap.String("client", req.Ch.RemoteAddr()))
	if !a.groups.remove(group) {
		a.log.Warn("delete subscription group failed, subscription groupName not exist", zap.String("group", group))
	}
	if cmd.ExtBool(a.line.groupDeleteOffsetFlag()) {
		a.offsets.removeGroup(group, "")
		a.log.Warn("clean group offset", zap.String("group", group))
	}
	return a.replyOK(cmd)
}

// getSubscriptionGroup serves the 5.x GET_SUBSCRIPTIONGROUP_CONFIG.
func (a *groupAdmin) getSubscriptionGroup(req *remoting.Request) *remoting.Command {
	if resp := a.requireFields(req.Cmd, "group"); resp != nil {
		return resp
	}
	c, ok := a.groups.find(req.Cmd.ExtString("group"))
	if !ok {
		return a.reply(req.Cmd, remoting.SubscriptionGroupNotExist, "No group in this broker")
	}
	return a.replyBody(req.Cmd, c.AppendJSON(nil, a.line.Line))
}
