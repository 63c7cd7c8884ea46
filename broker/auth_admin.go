package broker

// The ACL 2.0 admin codes of 5.3.3's AdminBrokerProcessor, as mqadmin's
// createUser, updateUser, deleteUser, getUser, listUser, createAcl,
// updateAcl, deleteAcl, getAcl and listAcl send them (bodies: UserInfo,
// AclInfo, internal/auth's body.go):
//
//	AUTH_CREATE_USER (3001)  header username, body UserInfo
//	AUTH_UPDATE_USER (3002)  header username, body UserInfo (what is given replaces)
//	AUTH_DELETE_USER (3003)  header username (the user's ACL goes too)
//	AUTH_GET_USER (3004)     header username; body UserInfo, none when absent
//	AUTH_LIST_USER (3005)    header filter; body [UserInfo], none when empty
//	AUTH_CREATE_ACL (3006), AUTH_UPDATE_ACL (3007)  header subject, body AclInfo
//	AUTH_DELETE_ACL (3008)   header subject, policyType, resource
//	AUTH_GET_ACL (3009)      header subject; body AclInfo, none when absent
//	AUTH_LIST_ACL (3010)     header subjectFilter, resourceFilter; body [AclInfo]
//
// Answers: SUCCESS; INVALID_PARAMETER "The username is blank" (create,
// update, get); SYSTEM_ERROR "The super user can only be create by super
// user" / "... update by super user" when a normal user makes or changes
// a super user; NO_PERMISSION with the manager's message (internal/auth's
// manage.go); SYSTEM_ERROR "An system error occurred, please try again
// later." for anything else (a subject that is not "User:name", a file
// that cannot be written); an ACL body without policies is SYSTEM_ERROR
// with the remark of Java's uncaught AuthorizationException. Without the
// metadata providers (authenticationMetadataProvider for the users, and
// authorizationMetadataProvider too for the ACLs and AUTH_DELETE_USER)
// these codes answer SYSTEM_ERROR "An system error occurred, please try
// again later.", as Java's managers without a provider do; with them,
// the codes work whether or not the checks are enabled, as in Java.
//
// Difference from Java: a request without a body reads as an empty one
// (Java fails with a NullPointerException); AUTH_GET_ACL without a valid
// subject answers SYSTEM_ERROR "An system error occurred, please try
// again later." (Java: its NullPointerException's description).

import (
	"errors"
	"strings"

	"github.com/rmqgo/rmqgo/internal/auth"
	"github.com/rmqgo/rmqgo/remoting"
)

// authAdmin serves the ACL 2.0 admin codes.
type authAdmin struct {
	replier
	// guard is nil without ACL 2.0.
	guard *authGuard
}

// systemErrorRemark is handleAuthException's remark for an error that is
// not a refusal.
const systemErrorRemark = "An system error occurred, please try again later."

// aclBodyNullRemarks are exceptionSimpleDesc of the AuthorizationException
// createAcl and updateAcl throw for a body without policies (5.3.3 lines).
var aclBodyNullRemarks = map[int32]string{
	int32(remoting.AuthCreateAcl): "org.apache.rocketmq.auth.authorization.exception.AuthorizationException: The body of acl is null, " +
		"org.apache.rocketmq.broker.processor.AdminBrokerProcessor.createAcl(AdminBrokerProcessor.java:3158)",
	int32(remoting.AuthUpdateAcl): "org.apache.rocketmq.auth.authorization.exception.AuthorizationException: The body of acl is null, " +
		"org.apache.rocketmq.broker.processor.AdminBrokerProcessor.updateAcl(AdminBrokerProcessor.java:3185)",
}

// store is the users' store, nil without authenticationMetadataProvider.
func (a *authAdmin) store() *auth.Store {
	if a.guard == nil || !a.guard.cfg.authnMeta {
		return nil
	}
	return a.guard.store
}

// aclStore is the ACLs' store, nil without both metadata providers.
func (a *authAdmin) aclStore() *auth.Store {
	if a.guard == nil || !a.guard.cfg.authzMeta {
		return nil
	}
	return a.store()
}

// answer is handleAuthException, or SUCCESS for nil.
func (a *authAdmin) answer(req *remoting.Command, err error) *remoting.Command {
	var d *auth.Denied
	switch {
	case err == nil:
		return a.replyOK(req)
	case errors.As(err, &d):
		return a.reply(req, remoting.NoPermission, d.Msg)
	}
	return a.reply(req, remoting.SystemError, systemErrorRemark)
}

// notConfigured answers when a metadata provider is missing.
func (a *authAdmin) notConfigured(req *remoting.Command) *remoting.Command {
	return a.reply(req, remoting.SystemError, systemErrorRemark)
}

// superLogin is !isNotSuperUserLogin: no AccessKey (authentication off)
// or a super user's.
func (a *authAdmin) superLogin(req *remoting.Command) bool {
	key := req.ExtString("AccessKey")
	if key == "" {
		return true
	}
	super, _ := a.store().IsSuper(key)
	return super
}

// userFromRequest reads the header's username and the UserInfo body.
func (a *authAdmin) userFromRequest(req *remoting.Command) (auth.User, *remoting.Command) {
	name := req.ExtString("username")
	if name == "" {
		return auth.User{}, a.reply(req, remoting.InvalidParameter, "The username is blank")
	}
	info, err := auth.DecodeUserInfo(req.Body)
	if err != nil {
		return auth.User{}, a.reply(req, remoting.SystemError, err.Error())
	}
	info.Username = name
	return info.User(), nil
}

// createUser serves AUTH_CREATE_USER.
func (a *authAdmin) createUser(req *remoting.Request) *remoting.Command {
	st := a.store()
	if st == nil {
		return a.notConfigured(req.Cmd)
	}
	u, bad := a.userFromRequest(req.Cmd)
	if bad != nil {
		return bad
	}
	if u.Type == auth.UserSuper && !a.superLogin(req.Cmd) {
		return a.reply(req.Cmd, remoting.SystemError, "The super user can only be create by super user")
	}
	return a.answer(req.Cmd, st.CreateUser(u))
}

// updateUser serves AUTH_UPDATE_USER.
func (a *authAdmin) updateUser(req *remoting.Request) *remoting.Command {
	st := a.store()
	if st == nil {
		return a.notConfigured(req.Cmd)
	}
	u, bad := a.userFromRequest(req.Cmd)
	if bad != nil {
		return bad
	}
	if u.Type == auth.UserSuper && !a.superLogin(req.Cmd) {
		return a.reply(req.Cmd, remoting.SystemError, "The super user can only be update by super user")
	}
	old, ok := st.User(u.Username)
	if !ok {
		return a.answer(req.Cmd, &auth.Denied{Msg: "The user is not exist"})
	}
	if resp := a.refuseSuperChange(req.Cmd, old); resp != nil {
		return resp
	}
	return a.answer(req.Cmd, st.UpdateUser(u))
}

// refuseSuperChange is the answer to a change of a super user asked by
// someone who is not one, else nil.
func (a *authAdmin) refuseSuperChange(cmd *remoting.Command, old auth.User) *remoting.Command {
	if old.Type == auth.UserSuper && !a.superLogin(cmd) {
		return a.answer(cmd, &auth.Denied{Msg: "The super user can only be update by super user"})
	}
	return nil
}

// deleteUser serves AUTH_DELETE_USER.
func (a *authAdmin) deleteUser(req *remoting.Request) *remoting.Command {
	st := a.aclStore()
	if st == nil {
		return a.notConfigured(req.Cmd)
	}
	name := req.Cmd.ExtString("username")
	if strings.TrimSpace(name) == "" {
		return a.answer(req.Cmd, &auth.Denied{Msg: "username can not be blank"})
	}
	old, ok := st.User(name)
	if !ok {
		return a.replyOK(req.Cmd)
	}
	if resp := a.refuseSuperChange(req.Cmd, old); resp != nil {
		return resp
	}
	return a.answer(req.Cmd, st.DeleteUser(name))
}

// getUser serves AUTH_GET_USER.
func (a *authAdmin) getUser(req *remoting.Request) *remoting.Command {
	st := a.store()
	if st == nil {
		return a.notConfigured(req.Cmd)
	}
	name := req.Cmd.ExtString("username")
	if strings.TrimSpace(name) == "" {
		return a.reply(req.Cmd, remoting.InvalidParameter, "The username is blank")
	}
	u, ok := st.User(name)
	if !ok {
		return a.replyOK(req.Cmd)
	}
	return a.replyBody(req.Cmd, auth.AppendUserInfo(nil, u))
}

// listUser serves AUTH_LIST_USER.
func (a *authAdmin) listUser(req *remoting.Request) *remoting.Command {
	st := a.store()
	if st == nil {
		return a.notConfigured(req.Cmd)
	}
	users := st.Users(req.Cmd.ExtString("filter"))
	if len(users) == 0 {
		return a.replyOK(req.Cmd)
	}
	return a.replyBody(req.Cmd, auth.AppendUserInfos(nil, users))
}

// putAcl serves AUTH_CREATE_ACL and AUTH_UPDATE_ACL (the same in 5.3.3).
func (a *authAdmin) putAcl(req *remoting.Request) *remoting.Command {
	st := a.aclStore()
	if st == nil {
		return a.notConfigured(req.Cmd)
	}
	info, err := auth.DecodeAclInfo(req.Cmd.Body)
	if err != nil {
		return a.reply(req.Cmd, remoting.SystemError, err.Error())
	}
	if info == nil || len(info.Policies) == 0 {
		return a.reply(req.Cmd, remoting.SystemError, aclBodyNullRemarks[req.Cmd.Code])
	}
	acl, _ := info.Acl()
	if _, ok := auth.ParseSubject(acl.Subject); !ok {
		acl.Subject = req.Cmd.ExtString("subject")
	}
	name, ok := auth.ParseSubject(acl.Subject)
	if !ok {
		return a.answer(req.Cmd, auth.ErrSystem)
	}
	acl.Subject = auth.SubjectKey(name)
	return a.answer(req.Cmd, st.PutAcl(acl))
}

// deleteAcl serves AUTH_DELETE_ACL.
func (a *authAdmin) deleteAcl(req *remoting.Request) *remoting.Command {
	st := a.aclStore()
	if st == nil {
		return a.notConfigured(req.Cmd)
	}
	name, ok := auth.ParseSubject(req.Cmd.ExtString("subject"))
	if !ok {
		return a.answer(req.Cmd, &auth.Denied{Msg: "The subject is null."})
	}
	var res *auth.Resource
	if r, ok := auth.ParseResource(req.Cmd.ExtString("resource")); ok {
		res = &r
	}
	t := auth.ParsePolicyType(req.Cmd.ExtString("policyType"))
	return a.answer(req.Cmd, st.DeleteAcl(auth.SubjectKey(name), t, res))
}

// getAcl serves AUTH_GET_ACL.
func (a *authAdmin) getAcl(req *remoting.Request) *remoting.Command {
	st := a.aclStore()
	if st == nil {
		return a.notConfigured(req.Cmd)
	}
	name, ok := auth.ParseSubject(req.Cmd.ExtString("subject"))
	if !ok {
		return a.answer(req.Cmd, auth.ErrSystem)
	}
	acl, found, err := st.GetAcl(auth.SubjectKey(name))
	if err != nil || !found {
		return a.answer(req.Cmd, err)
	}
	return a.replyBody(req.Cmd, auth.AppendAclInfo(nil, acl))
}

// listAcl serves AUTH_LIST_ACL.
func (a *authAdmin) listAcl(req *remoting.Request) *remoting.Command {
	st := a.aclStore()
	if st == nil {
		return a.notConfigured(req.Cmd)
	}
	acls := st.ListAcls(req.Cmd.ExtString("subjectFilter"), req.Cmd.ExtString("resourceFilter"))
	if len(acls) == 0 {
		return a.replyOK(req.Cmd)
	}
	return a.replyBody(req.Cmd, auth.AppendAclInfos(nil, acls))
}
