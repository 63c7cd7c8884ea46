package broker

// ACL 1.0 (aclEnable=true): before any handler runs, the request is
// checked as the Java broker's RPC hook checks it
// (PlainAccessValidator.parse, then PlainPermissionManager.validate; the
// accounts and their rules are internal/acl's). What each code needs:
//
//	SEND_MESSAGE (10)          topic PUB; to a retry topic: group "group" SUB
//	SEND_MESSAGE_V2 (310)      topic "b" PUB; to a retry topic: group "a" SUB
//	CONSUMER_SEND_MSG_BACK(36) group SUB
//	PULL_MESSAGE (11)          topic SUB, group consumerGroup SUB
//	QUERY_MESSAGE (12)         topic SUB
//	HEART_BEAT (34)            each consumer group SUB and each topic it subscribes SUB
//	UNREGISTER_CLIENT (35), GET_CONSUMER_LIST_BY_GROUP (38)  group consumerGroup SUB
//	UPDATE_CONSUMER_OFFSET (15) group consumerGroup SUB, topic SUB
//	admin only                 UPDATE_AND_CREATE_TOPIC (17), UPDATE_BROKER_CONFIG (25),
//	                           DELETE_TOPIC_IN_BROKER (215), UPDATE_AND_CREATE_SUBSCRIPTIONGROUP (200),
//	                           DELETE_SUBSCRIPTIONGROUP (207)
//	every other code           the signature only (batches too: Java's parse has no case for 320)
//
// A refused request is answered as Java's remoting answers an exception
// of the hook (aclRefusal). The accounts come from plain_acl.yml
// (BrokerConfigs.AclPlainFile) and the *.yml files of conf/acl beside it,
// read at start (a missing default file is created empty, as Java does)
// and again whenever one of them changes (aclReloadInterval, as Java's
// AclFileWatchService polls); a file that does not load keeps the
// accounts that were loaded, and says why in the log.

import (
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/acl"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/remoting"
)

// aclReloadInterval is how often the ACL files are looked at.
const aclReloadInterval = 500 * time.Millisecond

// aclAdminCodes are Permission.ADMIN_CODE.
var aclAdminCodes = map[int32]bool{
	int32(remoting.UpdateAndCreateTopic): true, int32(remoting.UpdateBrokerConfig): true,
	int32(remoting.DeleteTopicInBroker): true, int32(remoting.UpdateAndCreateSubscriptiongroup): true,
	int32(remoting.DeleteSubscriptiongroup): true,
}

// aclGuard checks requests against the loaded accounts.
type aclGuard struct {
	log   *zap.Logger
	line  line
	file  string // the default file, plain_acl.yml
	dir   string // conf/acl
	table atomic.Pointer[acl.Table]
	// mu guards the loads and what they remember: seen is what the files
	// looked like when last loaded, fileSet which files there were.
	mu            sync.Mutex
	seen, fileSet string
}

// newACLGuard loads the files; a default file that does not load fails
// the start, as it fails Java's.
func newACLGuard(log *zap.Logger, l line, file string) (*aclGuard, error) {
	file = filepath.Clean(file)
	g := &aclGuard{log: log, line: l, file: file, dir: filepath.Join(filepath.Dir(file), "acl")}
	if _, err := os.Stat(file); errors.Is(err, os.ErrNotExist) {
		if err := os.WriteFile(file, nil, 0o644); err != nil {
			return nil, err
		}
	}
	if err := g.load(); err != nil {
		return nil, err
	}
	log.Info("acl enabled", zap.String("file", file))
	return g, nil
}

// files are the ACL files: those of conf/acl, then the default one.
func (g *aclGuard) files() []string { return aclFiles(g.file) }

// aclFiles are the ACL files of a default file: the *.yml of the acl
// directory beside it, sorted, then the default file.
func aclFiles(file string) []string {
	var out []string
	dir := filepath.Join(filepath.Dir(file), "acl")
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			if !e.IsDir() && strings.HasSuffix(e.Name(), ".yml") {
				out = append(out, filepath.Join(dir, e.Name()))
			}
		}
	}
	sort.Strings(out)
	return append(out, file)
}

// fingerprint sums what the files are now: names, sizes, times.
func (g *aclGuard) fingerprint() string {
	var b strings.Builder
	for _, f := range g.files() {
		if st, err := os.Stat(f); err == nil {
			b.WriteString(f + "|" + st.ModTime().String() + "|" + itoa(st.Size()) + "\n")
		}
	}
	return b.String()
}

// load reads every file and swaps the table in; forget names accounts
// an admin deleted.
func (g *aclGuard) load(forget ...string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.loadLocked(forget...)
}

// loadLocked is load with mu held.
func (g *aclGuard) loadLocked(forget ...string) error {
	seen := g.fingerprint()
	fileSet := strings.Join(g.files(), "\n")
	var files []acl.File
	for _, path := range g.files() {
		f, err := acl.ReadFile(path)
		if err != nil {
			return err
		}
		files = append(files, f)
	}
	t, err := acl.Compile(files...)
	if err != nil {
		return err
	}
	if before := g.table.Load(); before != nil && fileSet == g.fileSet {
		gone := map[string]bool{}
		for _, k := range forget {
			gone[k] = true
		}
		t.Retire(before, gone)
	}
	g.table.Store(t)
	g.seen, g.fileSet = seen, fileSet
	return nil
}

// watch reloads the files when they change, until stop.
func (g *aclGuard) watch(stop <-chan struct{}) {
	runEvery(stop, aclReloadInterval, func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.fingerprint() == g.seen {
			return
		}
		if err := g.loadLocked(); err != nil {
			g.seen = g.fingerprint()
			g.log.Error("acl files not reloaded; the accounts loaded before stay", zap.Error(err))
			return
		}
		g.log.Info("acl files reloaded", zap.String("file", g.file))
	})
}

// wrap guards a handler.
func (g *aclGuard) wrap(h remoting.Handler) remoting.Handler {
	return func(req *remoting.Request) *remoting.Command {
		if err := g.check(req); err != nil {
			return g.refuse(req, err)
		}
		return h(req)
	}
}

// check builds the request's access and checks it.
func (g *aclGuard) check(req *remoting.Request) error {
	r := acl.Request{Code: req.Cmd.Code, Addr: hostOf(req.Ch.RemoteAddr()), Admin: aclAdminCodes[req.Cmd.Code]}
	if req.Cmd.ExtFields == nil {
		return g.table.Load().Check(r)
	}
	r.Ext, r.Body = req.Cmd.ExtFields.Map(), req.Cmd.Body
	var err error
	if r.Resources, err = aclResources(req.Cmd); err != nil {
		return &acl.Denied{Msg: err.Error()}
	}
	return g.table.Load().Check(r)
}

// aclResources is parse's switch: the topics and groups a request needs.
func aclResources(cmd *remoting.Command) (map[string]byte, error) {
	res := map[string]byte{}
	add := func(resource string, perm byte) {
		if resource != "" {
			res[resource] = perm
		}
	}
	group := func(name string) string {
		if name == "" {
			return ""
		}
		return acl.RetryTopic(name)
	}
	ext := cmd.ExtString
	switch remoting.RequestCode(cmd.Code) {
	case remoting.SendMessage:
		if t := ext("topic"); isRetryTopic(t) {
			add(group(ext("group")), acl.PermSub)
		} else {
			add(t, acl.PermPub)
		}
	case remoting.SendMessageV2:
		if t := ext("b"); isRetryTopic(t) {
			add(group(ext("a")), acl.PermSub)
		} else {
			add(t, acl.PermPub)
		}
	case remoting.ConsumerSendMsgBack:
		add(group(ext("group")), acl.PermSub)
	case remoting.PullMessage:
		add(ext("topic"), acl.PermSub)
		add(group(ext("consumerGroup")), acl.PermSub)
	case remoting.QueryMessage:
		add(ext("topic"), acl.PermSub)
	case remoting.HeartBeat:
		hb, err := protocol.DecodeHeartbeatData(cmd.Body)
		if hb == nil {
			return nil, err
		}
		for _, c := range hb.ConsumerDataSet {
			add(group(c.GroupName), acl.PermSub)
			for _, s := range c.SubscriptionDataSet {
				add(s.Topic, acl.PermSub)
			}
		}
	case remoting.UnregisterClient, remoting.GetConsumerListByGroup:
		add(group(ext("consumerGroup")), acl.PermSub)
	case remoting.UpdateConsumerOffset:
		add(group(ext("consumerGroup")), acl.PermSub)
		add(ext("topic"), acl.PermSub)
	}
	if len(res) == 0 {
		return nil, nil
	}
	return res, nil
}

// hostOf is the address without its port, as parse cuts it.
func hostOf(addr string) string {
	if i := strings.LastIndexByte(addr, ':'); i >= 0 {
		addr = addr[:i]
	}
	return strings.TrimSuffix(strings.TrimPrefix(addr, "["), "]")
}

// refuse answers a refused request as 4.9.x's remoting answers the
// hook's AclException: SYSTEM_ERROR with exceptionSimpleDesc, the
// exception and the frame that threw it.
func (g *aclGuard) refuse(req *remoting.Request, err error) *remoting.Command {
	g.log.Warn("acl refused a request", zap.Int32("code", req.Cmd.Code), zap.String("remote", req.Ch.RemoteAddr()),
		zap.String("reason", err.Error()))
	site := acl.SiteOther
	var d *acl.Denied
	if errors.As(err, &d) {
		site = d.Site
	}
	return remoting.NewResponse(req.Cmd, remoting.SystemError,
		"org.apache.rocketmq.acl.common.AclException: "+err.Error()+", "+aclThrowFrames[site])
}

// aclThrowFrames are the 4.9.8 frames that throw each refusal.
var aclThrowFrames = map[acl.Site]string{
	acl.SiteOther:       "org.apache.rocketmq.acl.plain.PlainAccessValidator.parse(PlainAccessValidator.java:134)",
	acl.SiteNoAccessKey: "org.apache.rocketmq.acl.plain.PlainPermissionManager.validate(PlainPermissionManager.java:664)",
	acl.SiteNoAccount:   "org.apache.rocketmq.acl.plain.PlainPermissionManager.validate(PlainPermissionManager.java:668)",
	acl.SiteNoResource:  "org.apache.rocketmq.acl.plain.PlainPermissionManager.validate(PlainPermissionManager.java:675)",
	acl.SiteSignature:   "org.apache.rocketmq.acl.plain.PlainPermissionManager.validate(PlainPermissionManager.java:684)",
	acl.SiteAdmin:       "org.apache.rocketmq.acl.plain.PlainPermissionManager.checkPerm(PlainPermissionManager.java:581)",
	acl.SiteDefaultPerm: "org.apache.rocketmq.acl.plain.PlainPermissionManager.checkPerm(PlainPermissionManager.java:606)",
	acl.SitePerm:        "org.apache.rocketmq.acl.plain.PlainPermissionManager.checkPerm(PlainPermissionManager.java:611)",
}
