package broker

// ACL 2.0 (5.3.3: authenticationEnabled, authorizationEnabled): before any
// handler runs, the request is authenticated, then authorized, as the
// Java broker's request pipeline does (AuthenticationPipeline, then
// AuthorizationPipeline; the users, ACLs and decisions are internal/auth's,
// what each code asks is internal/remotingauth's). A refusal is answered
// NO_PERMISSION (16) with the exception's message as remark, e.g.
//
//	username cannot be null.                     no AccessKey (an unsigned client)
//	User:bob is not found.                       unknown user
//	User:bob is disabled.
//	check signature failed.                      wrong secret
//	User:bob has no permission to access Topic:T from 127.0.0.1, no matched policies.
//	User:bob has no permission to access Topic:T from 127.0.0.1, the decision is deny.
//	Authorization failed. Please verify your access rights and try again.   (authorization alone, unsigned)
//	parse authorization context error.           a header or body Java's context builder cannot read
//	                                             (internal/remotingauth), once authentication passed
//
// broker.conf keys (AuthConfig, Java's names; read from the -c file):
//
//	authenticationEnabled, authorizationEnabled       false
//	authenticationProvider, authorizationProvider     blank or Java's Default* class
//	authenticationMetadataProvider, authorizationMetadataProvider
//	                  Java's Local* class (blank: every check refused with
//	                  "The authenticationMetadataProvider is not configured", as Java)
//	authenticationStrategy, authorizationStrategy     blank or Java's Stateless* class: every request
//	                  checked; Java's Stateful* class: answers kept per connection (auth_stateful.go)
//	                  Any other provider or strategy class fails the start, ACL 2.0 on or off, as 5.3.3
//	                  (which loads them either way) does.
//	authenticationWhitelist, authorizationWhitelist   request codes left unchecked, comma list
//	initAuthenticationUser   {"username":"u","password":"p"}: a super user made at start unless it exists
//	innerClientAuthenticationCredentials  {"accessKey":"u","secretKey":"p"}: likewise
//	migrateAuthFromV1Enabled  at start, the ACL 1.0 accounts of plain_acl.yml and conf/acl/*.yml
//	                  (as ACL 1.0 finds them) that are not users yet become users and ACLs
//	                  (AuthMigrator; internal/auth's migrate.go)
//
// The users and ACLs live where Java keeps them, in the RocksDB databases
// <storePathRootDir>/config/users and config/acls (internal/auth's Store,
// internal/rocksdb). Line 4 (4.9.x) has no ACL 2.0: the keys are not read
// at all (an unknown class name included), as the 4.9.x broker ignores
// keys it does not know; a broker.conf that sets them gets a warning.

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/conf"
	"github.com/rmqgo/rmqgo/internal/acl"
	"github.com/rmqgo/rmqgo/internal/auth"
	"github.com/rmqgo/rmqgo/internal/fastjson"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/internal/remotingauth"
	"github.com/rmqgo/rmqgo/remoting"
)

// authConfig is AuthConfig as broker.conf sets it.
type authConfig struct {
	authn, authz               bool
	authnMeta, authzMeta       bool
	authnWhite, authzWhite     map[string]bool
	initUser, innerCredentials string
	migrateV1                  bool
	// statefulAuthn, statefulAuthz are the stateful strategies' cache
	// settings, nil for stateless.
	statefulAuthn, statefulAuthz *auth.Stateful
}

// readAuthConfig reads the keys of the 5.x line as 5.3.3's
// MixAll.properties2Object binds AuthConfig: strings trimmed, booleans
// Boolean.parseBoolean of the untrimmed value. A provider or strategy
// class this broker does not have fails the start, whether ACL 2.0 is on
// or not: 5.3.3's BrokerController loads them at start either way (and
// BrokerStartup exits -1 on the ClassNotFoundException).
func readAuthConfig(p *conf.Properties) (authConfig, error) {
	raw := func(k string) string {
		if p == nil {
			return ""
		}
		v, _ := p.Value(k)
		return v
	}
	get := func(k string) string { return strings.TrimSpace(raw(k)) }
	isTrue := func(k string) bool { return strings.EqualFold(raw(k), "true") }
	c := authConfig{
		authn: isTrue("authenticationEnabled"), authz: isTrue("authorizationEnabled"),
		authnMeta: get("authenticationMetadataProvider") != "", authzMeta: get("authorizationMetadataProvider") != "",
		authnWhite: codeSet(get("authenticationWhitelist")), authzWhite: codeSet(get("authorizationWhitelist")),
		initUser: get("initAuthenticationUser"), innerCredentials: get("innerClientAuthenticationCredentials"),
		migrateV1: isTrue("migrateAuthFromV1Enabled"),
	}
	for key, want := range map[string]string{"authenticationProvider": auth.JavaAuthnProvider, "authorizationProvider": auth.JavaAuthzProvider,
		"authenticationMetadataProvider": auth.JavaAuthnMetaProvider, "authorizationMetadataProvider": auth.JavaAuthzMetaProvider} {
		if v := get(key); v != "" && v != want {
			return c, fmt.Errorf("broker: %s=%s: only %s is implemented", key, v, want)
		}
	}
	var err error
	c.statefulAuthn, c.statefulAuthz, err = auth.ReadStrategies(raw)
	if err != nil {
		return c, fmt.Errorf("broker: %w", err)
	}
	return c, nil
}

// codeSet is a whitelist: request codes as strings.
func codeSet(list string) map[string]bool {
	out := map[string]bool{}
	for _, c := range strings.Split(list, ",") {
		if c = strings.TrimSpace(c); c != "" {
			out[c] = true
		}
	}
	return out
}

// authGuard authenticates and authorizes requests.
type authGuard struct {
	replier
	log     *zap.Logger
	cfg     authConfig
	store   *auth.Store
	cluster string
	// authnAnswers, authzAnswers keep the stateful strategies' answers
	// (nil: stateless).
	authnAnswers, authzAnswers *auth.AnswerCache
	// localProxyToken lets the requests of the proxy in this process
	// pass ("": none does).
	localProxyToken string
}

// newAuthGuard opens the store, makes the initial users and, with
// migrateAuthFromV1Enabled, migrates the ACL 1.0 accounts of aclFile.
func newAuthGuard(log *zap.Logger, rp replier, cfg authConfig, configDir, cluster, aclFile string) (*authGuard, error) {
	st, err := auth.OpenStore(configDir)
	if err != nil {
		return nil, err
	}
	if err := initUsers(st, cfg); err != nil {
		return nil, err
	}
	switch {
	case cfg.migrateV1 && cfg.authnMeta && cfg.authzMeta:
		migrateV1(log, st, aclFile)
	case cfg.migrateV1:
		log.Error("[ACL MIGRATE] nothing migrated: authenticationMetadataProvider and authorizationMetadataProvider are needed, as in Java")
	}
	log.Info("acl 2.0 enabled", zap.Bool("authentication", cfg.authn), zap.Bool("authorization", cfg.authz),
		zap.String("users", filepath.Join(configDir, auth.UsersDB)))
	return &authGuard{replier: rp, log: log, cfg: cfg, store: st, cluster: cluster,
		authnAnswers: auth.NewAnswerCache(cfg.statefulAuthn, nil), authzAnswers: auth.NewAnswerCache(cfg.statefulAuthz, nil)}, nil
}

// initUsers is initUser: initAuthenticationUser and
// innerClientAuthenticationCredentials become super users unless they
// exist.
func initUsers(st *auth.Store, cfg authConfig) error {
	if cfg.initUser != "" {
		u, err := readJSONPair(cfg.initUser, "username", "password")
		if err == nil {
			err = st.EnsureUser(auth.User{Username: u[0], Password: u[1]})
		}
		if err != nil {
			return fmt.Errorf("broker: Init authentication user error.: %w", err)
		}
	}
	if cfg.innerCredentials != "" {
		c, err := readJSONPair(cfg.innerCredentials, "accesskey", "secretkey")
		if err == nil {
			err = st.EnsureUser(auth.User{Username: c[0], Password: c[1]})
		}
		if err != nil {
			return fmt.Errorf("broker: Init inner client authentication credentials error: %w", err)
		}
	}
	return nil
}

// migrateV1 is AuthMigrator.migrate: the default ACL 1.0 file is made
// empty when missing (as Java's PlainPermissionManager does), a file or
// account that cannot be read or migrated is logged and skipped.
func migrateV1(log *zap.Logger, st *auth.Store, aclFile string) {
	if _, err := os.Stat(aclFile); errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(filepath.Dir(aclFile), 0o755); err == nil {
			_ = os.WriteFile(aclFile, nil, 0o644)
		}
	}
	var files []acl.File
	for _, path := range aclFiles(aclFile) {
		f, err := acl.ReadFile(path)
		if err != nil {
			log.Error("[ACL MIGRATE] acl 1.0 file not read", zap.String("file", path), zap.Error(err))
			continue
		}
		files = append(files, f)
	}
	if err := st.MigrateV1(files); err != nil {
		log.Error("[ACL MIGRATE] some acl 1.0 accounts were not migrated", zap.Error(err))
	}
	log.Info("[ACL MIGRATE] acl 1.0 accounts migrated", zap.String("file", aclFile))
}

// readJSONPair reads two string properties of a JSON object.
func readJSONPair(text, k1, k2 string) ([2]string, error) {
	var out [2]string
	err := fastjson.Decode([]byte(text), func(r *fastjson.Reader) error {
		return r.Object(func(key string) (err error) {
			switch key {
			case k1:
				out[0], err = r.Str()
			case k2:
				out[1], err = r.Str()
			default:
				err = r.Skip()
			}
			return err
		})
	})
	return out, err
}

// wrap guards a handler.
func (g *authGuard) wrap(h remoting.Handler) remoting.Handler {
	return func(req *remoting.Request) *remoting.Command {
		if g.fromLocalProxy(req.Cmd) {
			return h(req)
		}
		if err := g.check(req.Cmd, req.Ch.ID(), hostOf(req.Ch.RemoteAddr())); err != nil {
			g.log.Info("acl 2.0 refused a request", zap.Int32("code", req.Cmd.Code),
				zap.String("remote", req.Ch.RemoteAddr()), zap.String("reason", err.Error()))
			return g.reply(req.Cmd, remoting.NoPermission, refusalRemark(err))
		}
		return h(req)
	}
}

// fromLocalProxy tells whether a request carries the local proxy's
// secret.
func (g *authGuard) fromLocalProxy(cmd *remoting.Command) bool {
	if g.localProxyToken == "" {
		return false
	}
	v, ok := cmd.Ext(protocol.LocalProxyField)
	return ok && subtle.ConstantTimeCompare([]byte(v), []byte(g.localProxyToken)) == 1
}

// refusalRemark is the Denied message.
func refusalRemark(err error) string {
	var d *auth.Denied
	if errors.As(err, &d) {
		return d.Msg
	}
	return err.Error()
}

// check authenticates, then authorizes, each stage through its strategy
// (every time, or once per key and expiry: auth_stateful.go).
func (g *authGuard) check(cmd *remoting.Command, channel uint64, sourceIP string) error {
	code := itoa(cmd.Code)
	if g.cfg.authn {
		user, hasUser := cmd.Ext("AccessKey")
		err := g.authnAnswers.Evaluate(auth.AuthnKey(strconv.FormatUint(channel, 10), user, hasUser), func() error { return g.authenticate(cmd, code) })
		if err != nil {
			return err
		}
	}
	if !g.cfg.authz {
		return nil
	}
	contexts, err := remotingauth.Contexts(cmd, sourceIP, g.cluster)
	if err != nil {
		return err
	}
	for _, c := range contexts {
		err := g.authzAnswers.Evaluate(auth.AuthzKey(strconv.FormatUint(channel, 10), c), func() error {
			if g.cfg.authzWhite[code] {
				return nil
			}
			return g.authorize(c)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// authenticate is the authentication stage: the whitelist, then the
// request's user and signature.
func (g *authGuard) authenticate(cmd *remoting.Command, code string) error {
	if g.cfg.authnWhite[code] {
		return nil
	}
	if !g.cfg.authnMeta {
		return &auth.Denied{Msg: "The authenticationMetadataProvider is not configured"}
	}
	return g.store.Authenticate(auth.SignedContent(cmd.ExtFields.Map(), cmd.Body, cmd.Version))
}

// authorize is one context through the chain of handlers.
func (g *authGuard) authorize(c auth.Context) error {
	if !c.HasUser {
		return g.store.Authorize(c)
	}
	if !g.cfg.authnMeta {
		return &auth.Denied{Msg: "The authenticationMetadataProvider is not configured"}
	}
	if super, _ := g.store.IsSuper(c.Username); !super && !g.cfg.authzMeta {
		return &auth.Denied{Msg: "The authorizationMetadataProvider is not configured"}
	}
	return g.store.Authorize(c)
}
