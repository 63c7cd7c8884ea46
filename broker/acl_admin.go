package broker

// The ACL 1.0 admin codes of AdminBrokerProcessor (4.9.x; 5.3.x has no
// ACL 1.0 and answers them REQUEST_CODE_NOT_SUPPORTED), as mqadmin's
// updateAclConfig, deleteAclConfig, updateGlobalWhiteAddr and
// clusterAclConfigVersion and the dashboard's ACL page send them:
//
//	UPDATE_AND_CREATE_ACL_CONFIG (50)  header accessKey, secretKey, whiteRemoteAddress,
//	                                   defaultTopicPerm, defaultGroupPerm, admin, topicPerms,
//	                                   groupPerms (comma lists); the account changed in the
//	                                   file that has it, else added to plain_acl.yml.
//	                                   UPDATE_AND_CREATE_ACL_CONFIG_FAILED (209) with why.
//	DELETE_ACL_CONFIG (51)             header accessKey; DELETE_ACL_CONFIG_FAILED (210)
//	                                   "The accesskey[k] corresponding to accessConfig has been
//	                                   deleted failed." when no file has it.
//	GET_BROKER_CLUSTER_ACL_INFO (52)   answer header version (plain_acl.yml's dataVersion JSON),
//	                                   allAclFileVersion (file -> dataVersion JSON), brokerName,
//	                                   brokerAddr, clusterName.
//	GET_BROKER_CLUSTER_ACL_CONFIG (54) body {"globalWhiteAddrs":[...],"plainAccessConfigs":[...]}:
//	                                   every file's white list and accounts (the first of a
//	                                   key), keys sorted, absent fields left out, as 4.9.7
//	                                   answers (4.9.8 dropped the code; it is kept here for the
//	                                   consoles that still call it).
//	UPDATE_GLOBAL_WHITE_ADDRS_CONFIG (53) header globalWhiteAddrs (comma list),
//	                                   aclFileFullPath (blank: plain_acl.yml; it must exist under
//	                                   rocketmqHome); UPDATE_GLOBAL_WHITE_ADDRS_CONFIG_FAILED (211).
//
// Each change is written to the file (internal/acl's write.go) and the
// accounts loaded again at once. Without aclEnable these codes answer
// as Java's do when it has no validator: SYSTEM_ERROR.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/rmqgo/rmqgo/internal/acl"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// aclAdmin serves the ACL admin codes.
type aclAdmin struct {
	replier
	guard *aclGuard
	id    *identity
	now   func() time.Time
	// home is rocketmqHome: the files an update may name are under it.
	home string
	// cluster and name are the broker's, for the version answer.
	cluster, name string
	// mu serialises changes (Java's synchronized handlers).
	mu sync.Mutex
}

// updateAccessConfig serves UPDATE_AND_CREATE_ACL_CONFIG.
func (a *aclAdmin) updateAccessConfig(req *remoting.Request) *remoting.Command {
	if a.guard == nil {
		return a.reply(req.Cmd, remoting.SystemError, "acl is not enabled")
	}
	ext := req.Cmd.Ext
	c := acl.Change{AccessKey: req.Cmd.ExtString("accessKey"), SecretKey: req.Cmd.ExtString("secretKey"),
		DefaultTopicPerm: req.Cmd.ExtString("defaultTopicPerm"), DefaultGroupPerm: req.Cmd.ExtString("defaultGroupPerm"),
		Admin: req.Cmd.ExtBool("admin")}
	if w, ok := ext("whiteRemoteAddress"); ok {
		c.WhiteRemoteAddress = &w
	}
	if v, ok := ext("topicPerms"); ok {
		c.TopicPerms = strings.Split(v, ",")
	}
	if v, ok := ext("groupPerms"); ok {
		c.GroupPerms = strings.Split(v, ",")
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	err := acl.UpdateAccount(a.guard.fileOf(c.AccessKey), c, a.now().UnixMilli())
	if err == nil {
		err = a.guard.load()
	}
	if err != nil {
		return a.reply(req.Cmd, remoting.UpdateAndCreateAclConfigFailed, err.Error())
	}
	return a.replyOK(req.Cmd)
}

// deleteAccessConfig serves DELETE_ACL_CONFIG.
func (a *aclAdmin) deleteAccessConfig(req *remoting.Request) *remoting.Command {
	if a.guard == nil {
		return a.reply(req.Cmd, remoting.SystemError, "acl is not enabled")
	}
	key := req.Cmd.ExtString("accessKey")
	a.mu.Lock()
	defer a.mu.Unlock()
	deleted, err := false, error(nil)
	if key != "" && a.guard.has(key) {
		deleted, err = acl.DeleteAccount(a.guard.fileOf(key), key, a.now().UnixMilli())
	}
	if err == nil && deleted {
		err = a.guard.load(key)
	}
	switch {
	case err != nil:
		return a.reply(req.Cmd, remoting.DeleteAclConfigFailed, err.Error())
	case !deleted:
		return a.reply(req.Cmd, remoting.DeleteAclConfigFailed, "The accesskey["+key+"] corresponding to accessConfig has been deleted failed.")
	}
	return a.replyOK(req.Cmd)
}

// updateGlobalWhiteAddrs serves UPDATE_GLOBAL_WHITE_ADDRS_CONFIG.
func (a *aclAdmin) updateGlobalWhiteAddrs(req *remoting.Request) *remoting.Command {
	if a.guard == nil {
		return a.reply(req.Cmd, remoting.SystemError, "acl is not enabled")
	}
	addrs, hasAddrs := req.Cmd.Ext("globalWhiteAddrs")
	file := req.Cmd.ExtString("aclFileFullPath")
	if file == "" {
		file = a.guard.file
	}
	failed := "The globalWhiteAddresses[" + addrs + "] has been updated failed."
	if !hasAddrs {
		failed = "The globalWhiteAddresses[null] has been updated failed."
	}
	st, statErr := os.Stat(file)
	if !hasAddrs || statErr != nil || st.IsDir() || !strings.HasPrefix(file, a.home) {
		return a.reply(req.Cmd, remoting.UpdateGlobalWhiteAddrsConfigFailed, failed)
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	err := acl.UpdateGlobalWhiteAddrs(file, strings.Split(addrs, ","), a.now().UnixMilli())
	if err == nil {
		err = a.guard.load()
	}
	if err != nil {
		return a.reply(req.Cmd, remoting.UpdateGlobalWhiteAddrsConfigFailed, err.Error())
	}
	return a.replyOK(req.Cmd)
}

// getAclVersion serves GET_BROKER_CLUSTER_ACL_INFO.
func (a *aclAdmin) getAclVersion(req *remoting.Request) *remoting.Command {
	if a.guard == nil {
		return a.reply(req.Cmd, remoting.SystemError, "acl is not enabled")
	}
	versions := a.guard.versions()
	all := map[string]json.RawMessage{}
	for file, v := range versions {
		all[file] = v.AppendJSON(nil)
	}
	allJSON, _ := json.Marshal(all)
	resp := a.replyOK(req.Cmd)
	resp.SetExt("version", string(versions[a.guard.file].AppendJSON(nil)))
	resp.SetExt("allAclFileVersion", string(allJSON))
	resp.SetExt("brokerName", a.name)
	resp.SetExt("brokerAddr", a.id.brokerAddr())
	resp.SetExt("clusterName", a.cluster)
	return resp
}

// aclConfigBody is GetBrokerClusterAclConfigResponseBody.
type aclConfigBody struct {
	GlobalWhiteAddrs   []string        `json:"globalWhiteAddrs"`
	PlainAccessConfigs []aclConfigBean `json:"plainAccessConfigs"`
}

// aclConfigBean is PlainAccessConfig as fastjson writes it.
type aclConfigBean struct {
	AccessKey          string   `json:"accessKey,omitempty"`
	Admin              bool     `json:"admin"`
	DefaultGroupPerm   string   `json:"defaultGroupPerm,omitempty"`
	DefaultTopicPerm   string   `json:"defaultTopicPerm,omitempty"`
	GroupPerms         []string `json:"groupPerms,omitempty"`
	SecretKey          string   `json:"secretKey,omitempty"`
	TopicPerms         []string `json:"topicPerms,omitempty"`
	WhiteRemoteAddress string   `json:"whiteRemoteAddress,omitempty"`
}

// getAclConfig serves GET_BROKER_CLUSTER_ACL_CONFIG.
func (a *aclAdmin) getAclConfig(req *remoting.Request) *remoting.Command {
	if a.guard == nil {
		return a.reply(req.Cmd, remoting.SystemError, "acl is not enabled")
	}
	body := aclConfigBody{GlobalWhiteAddrs: []string{}, PlainAccessConfigs: []aclConfigBean{}}
	seen := map[string]bool{}
	for _, f := range a.guard.files() {
		file, err := acl.ReadFile(f)
		if err != nil {
			continue
		}
		body.GlobalWhiteAddrs = append(body.GlobalWhiteAddrs, file.GlobalWhiteRemoteAddresses...)
		for _, ac := range file.Accounts {
			if seen[ac.AccessKey] {
				continue
			}
			seen[ac.AccessKey] = true
			body.PlainAccessConfigs = append(body.PlainAccessConfigs, aclConfigBean{AccessKey: ac.AccessKey, Admin: ac.Admin,
				DefaultGroupPerm: ac.DefaultGroupPerm, DefaultTopicPerm: ac.DefaultTopicPerm, GroupPerms: ac.GroupPerms,
				SecretKey: ac.SecretKey, TopicPerms: ac.TopicPerms, WhiteRemoteAddress: ac.WhiteRemoteAddress})
		}
	}
	data, _ := json.Marshal(body)
	return a.replyBody(req.Cmd, data)
}

// fileOf is the file that holds an account, else plain_acl.yml.
func (g *aclGuard) fileOf(accessKey string) string {
	for _, f := range g.files() {
		if file, err := acl.ReadFile(f); err == nil {
			for _, ac := range file.Accounts {
				if ac.AccessKey == accessKey {
					return f
				}
			}
		}
	}
	return g.file
}

// has tells whether an account is loaded.
func (g *aclGuard) has(accessKey string) bool { return g.table.Load().Has(accessKey) }

// versions is each file's dataVersion (0 and the time now for a file
// without one, as Java's new DataVersion).
func (g *aclGuard) versions() map[string]protocol.DataVersion {
	out := map[string]protocol.DataVersion{}
	for _, f := range g.files() {
		file, err := acl.ReadFile(f)
		if err != nil {
			continue
		}
		v := protocol.NewDataVersion(time.Now())
		if len(file.DataVersion) > 0 {
			v.Counter, v.Timestamp = file.DataVersion[0].Counter, file.DataVersion[0].Timestamp
		}
		out[filepath.Clean(f)] = v
	}
	return out
}
