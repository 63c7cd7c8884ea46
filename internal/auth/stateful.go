package auth

// ACL 2.0's stateful strategies (5.3.3's StatefulAuthenticationStrategy
// and StatefulAuthorizationStrategy, chosen by authenticationStrategy and
// authorizationStrategy, in broker.conf for the remoting port and in
// rmq-proxy.json for the gRPC port): the first answer for a key is kept for
// statefulAuthenticationCacheExpiredSecond / statefulAuthorizationCacheExpiredSecond
// (60 s) after it was made, at most statefulAuthenticationCacheMaxNum /
// statefulAuthorizationCacheMaxNum (10000) answers, refusals included.
//
//	authentication key   <connection>#<AccessKey>   (<connection> without one)
//	authorization key    <connection>#User:<name>#<resource>#<actions>#<source ip>
//
// As in Java, the whole stage is kept, the whitelist check included: once a
// connection's user passed authentication, its later requests pass
// without their signatures being checked until the answer expires, and a
// user's password change or removal reaches an open connection only then.
// The blank strategy, or Java's Stateless* class, checks every request.
//
// Differences from Java: Caffeine evicts by its frequency sketch when full;
// here a full cache first drops its expired answers, then any one.

import (
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Java's provider classes: the only ones this project has (a broker's
// metadata is its own store, a proxy's the brokers').
const (
	JavaAuthnProvider          = "org.apache.rocketmq.auth.authentication.provider.DefaultAuthenticationProvider"
	JavaAuthzProvider          = "org.apache.rocketmq.auth.authorization.provider.DefaultAuthorizationProvider"
	JavaAuthnMetaProvider      = "org.apache.rocketmq.auth.authentication.provider.LocalAuthenticationMetadataProvider"
	JavaAuthzMetaProvider      = "org.apache.rocketmq.auth.authorization.provider.LocalAuthorizationMetadataProvider"
	JavaProxyAuthnMetaProvider = "org.apache.rocketmq.proxy.auth.ProxyAuthenticationMetadataProvider"
	JavaProxyAuthzMetaProvider = "org.apache.rocketmq.proxy.auth.ProxyAuthorizationMetadataProvider"
)

// Java's strategy classes.
const (
	JavaStatelessAuthn = "org.apache.rocketmq.auth.authentication.strategy.StatelessAuthenticationStrategy"
	JavaStatefulAuthn  = "org.apache.rocketmq.auth.authentication.strategy.StatefulAuthenticationStrategy"
	JavaStatelessAuthz = "org.apache.rocketmq.auth.authorization.strategy.StatelessAuthorizationStrategy"
	JavaStatefulAuthz  = "org.apache.rocketmq.auth.authorization.strategy.StatefulAuthorizationStrategy"
)

// AuthConfig's defaults for the stateful caches.
const (
	defaultStatefulExpiredSecond = 60
	defaultStatefulMaxNum        = 10000
)

// Stateful is one stage's stateful strategy: how long an answer is kept
// and how many are. A nil *Stateful is the stateless strategy.
type Stateful struct {
	TTL time.Duration
	Max int
}

// readStrategy reads a stage's strategy keys (stage "Authentication" or
// "Authorization") through raw, which gives a key's value untrimmed; a
// class this project does not have is an error, as Java's Class.forName
// fails the start. A cache setting that is not an int is ignored, as
// MixAll.properties2Object ignores it (Integer.parseInt of the untrimmed
// value).
func readStrategy(raw func(string) string, stage, stateless, stateful string) (*Stateful, error) {
	key := "authenticationStrategy"
	if stage == "Authorization" {
		key = "authorizationStrategy"
	}
	switch v := strings.TrimSpace(raw(key)); v {
	case "", stateless:
		return nil, nil
	case stateful:
	default:
		return nil, fmt.Errorf("%s=%s: only %s and %s are implemented", key, v, stateless, stateful)
	}
	s := &Stateful{TTL: defaultStatefulExpiredSecond * time.Second, Max: defaultStatefulMaxNum}
	if n, err := strconv.ParseInt(raw("stateful"+stage+"CacheExpiredSecond"), 10, 32); err == nil {
		s.TTL = time.Duration(n) * time.Second
	}
	if n, err := strconv.ParseInt(raw("stateful"+stage+"CacheMaxNum"), 10, 32); err == nil {
		s.Max = int(n)
	}
	return s, nil
}

// ReadStrategies reads both stages' strategies (raw: a key's untrimmed
// value, "" when absent).
func ReadStrategies(raw func(string) string) (authn, authz *Stateful, err error) {
	if authn, err = readStrategy(raw, "Authentication", JavaStatelessAuthn, JavaStatefulAuthn); err != nil {
		return nil, nil, err
	}
	authz, err = readStrategy(raw, "Authorization", JavaStatelessAuthz, JavaStatefulAuthz)
	return authn, authz, err
}

// AnswerCache keeps a stage's answers by key; a nil cache keeps none.
type AnswerCache struct {
	set Stateful
	now func() time.Time

	mu      sync.Mutex
	answers map[string]cachedAnswer
}

// cachedAnswer is an evaluation's outcome and when it was made.
type cachedAnswer struct {
	err error
	at  time.Time
}

// NewAnswerCache is the cache of set, nil for a stateless stage; now is
// the clock (nil: time.Now).
func NewAnswerCache(set *Stateful, now func() time.Time) *AnswerCache {
	if set == nil {
		return nil
	}
	if now == nil {
		now = time.Now
	}
	return &AnswerCache{set: *set, now: now, answers: map[string]cachedAnswer{}}
}

// Evaluate returns the kept answer for key while it is fresh, else runs
// eval and keeps its answer.
func (c *AnswerCache) Evaluate(key string, eval func() error) error {
	if c == nil || c.set.Max <= 0 {
		return eval()
	}
	now := c.now()
	c.mu.Lock()
	a, ok := c.answers[key]
	c.mu.Unlock()
	if ok && now.Sub(a.at) < c.set.TTL {
		return a.err
	}
	err := eval()
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, kept := c.answers[key]; !kept && len(c.answers) >= c.set.Max {
		c.makeRoom(now)
	}
	c.answers[key] = cachedAnswer{err: err, at: now}
	return err
}

// makeRoom drops the expired answers, or one answer when none has
// expired (c.mu held).
func (c *AnswerCache) makeRoom(now time.Time) {
	for k, a := range c.answers {
		if now.Sub(a.at) >= c.set.TTL {
			delete(c.answers, k)
		}
	}
	for k := range c.answers {
		if len(c.answers) < c.set.Max {
			return
		}
		delete(c.answers, k)
	}
}

// AuthnKey is StatefulAuthenticationStrategy's key of a connection
// (channel) and the request's user.
func AuthnKey(channel, user string, hasUser bool) string {
	if !hasUser || strings.TrimSpace(user) == "" {
		return channel
	}
	return channel + "#" + user
}

// AuthzKey is StatefulAuthorizationStrategy's key.
func AuthzKey(channel string, c Context) string {
	var b strings.Builder
	b.WriteString(channel)
	if c.HasUser {
		b.WriteString("#User:")
		b.WriteString(c.Username)
	}
	b.WriteString("#")
	b.WriteString(c.Resource.Key())
	b.WriteString("#")
	for i, a := range c.Actions {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(string(a))
	}
	b.WriteString("#")
	b.WriteString(c.SourceIP)
	return b.String()
}
