package broker

// ACL 2.0's stateful strategies (5.3.3's StatefulAuthenticationStrategy
// and StatefulAuthorizationStrategy, chosen by authenticationStrategy and
// authorizationStrategy): the first answer for a key is kept for
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

	"github.com/rmqgo/rmqgo/internal/auth"
)

// Java's strategy classes.
const (
	javaStatelessAuthn = "org.apache.rocketmq.auth.authentication.strategy.StatelessAuthenticationStrategy"
	javaStatefulAuthn  = "org.apache.rocketmq.auth.authentication.strategy.StatefulAuthenticationStrategy"
	javaStatelessAuthz = "org.apache.rocketmq.auth.authorization.strategy.StatelessAuthorizationStrategy"
	javaStatefulAuthz  = "org.apache.rocketmq.auth.authorization.strategy.StatefulAuthorizationStrategy"
)

// AuthConfig's defaults for the stateful caches.
const (
	defaultStatefulExpiredSecond = 60
	defaultStatefulMaxNum        = 10000
)

// statefulSettings is one stage's strategy: nil for stateless.
type statefulSettings struct {
	ttl time.Duration
	max int
}

// readStrategy reads a stage's strategy keys (stage "Authentication" or
// "Authorization") through raw, which gives a key's value untrimmed; a
// class this broker does not have fails the start, as Java's
// Class.forName does. A cache setting that is not an int is ignored,
// as MixAll.properties2Object ignores it (Integer.parseInt of the
// untrimmed value).
func readStrategy(raw func(string) string, stage, stateless, stateful string) (*statefulSettings, error) {
	key := "authenticationStrategy"
	if stage == "Authorization" {
		key = "authorizationStrategy"
	}
	switch v := strings.TrimSpace(raw(key)); v {
	case "", stateless:
		return nil, nil
	case stateful:
	default:
		return nil, fmt.Errorf("broker: %s=%s: only %s and %s are implemented", key, v, stateless, stateful)
	}
	s := &statefulSettings{ttl: defaultStatefulExpiredSecond * time.Second, max: defaultStatefulMaxNum}
	if n, err := strconv.ParseInt(raw("stateful"+stage+"CacheExpiredSecond"), 10, 32); err == nil {
		s.ttl = time.Duration(n) * time.Second
	}
	if n, err := strconv.ParseInt(raw("stateful"+stage+"CacheMaxNum"), 10, 32); err == nil {
		s.max = int(n)
	}
	return s, nil
}

// answerCache keeps a stage's answers by key; a nil cache keeps none.
type answerCache struct {
	set statefulSettings
	now func() time.Time

	mu      sync.Mutex
	answers map[string]cachedAnswer
}

// cachedAnswer is an evaluation's outcome and when it was made.
type cachedAnswer struct {
	err error
	at  time.Time
}

// newAnswerCache is the cache of set, nil for a stateless stage.
func newAnswerCache(set *statefulSettings, now func() time.Time) *answerCache {
	if set == nil {
		return nil
	}
	if now == nil {
		now = time.Now
	}
	return &answerCache{set: *set, now: now, answers: map[string]cachedAnswer{}}
}

// evaluate returns the kept answer for key while it is fresh, else runs
// eval and keeps its answer.
func (c *answerCache) evaluate(key string, eval func() error) error {
	if c == nil || c.set.max <= 0 {
		return eval()
	}
	now := c.now()
	c.mu.Lock()
	a, ok := c.answers[key]
	c.mu.Unlock()
	if ok && now.Sub(a.at) < c.set.ttl {
		return a.err
	}
	err := eval()
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, kept := c.answers[key]; !kept && len(c.answers) >= c.set.max {
		c.makeRoom(now)
	}
	c.answers[key] = cachedAnswer{err: err, at: now}
	return err
}

// makeRoom drops the expired answers, or one answer when none has
// expired (c.mu held).
func (c *answerCache) makeRoom(now time.Time) {
	for k, a := range c.answers {
		if now.Sub(a.at) >= c.set.ttl {
			delete(c.answers, k)
		}
	}
	for k := range c.answers {
		if len(c.answers) < c.set.max {
			return
		}
		delete(c.answers, k)
	}
}

// authnKey is StatefulAuthenticationStrategy's key.
func authnKey(channel uint64, user string, hasUser bool) string {
	id := strconv.FormatUint(channel, 10)
	if !hasUser || strings.TrimSpace(user) == "" {
		return id
	}
	return id + "#" + user
}

// authzKey is StatefulAuthorizationStrategy's key.
func authzKey(channel uint64, c auth.Context) string {
	var b strings.Builder
	b.WriteString(strconv.FormatUint(channel, 10))
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

// strategiesFrom reads both stages' strategies from broker.conf (raw:
// a key's untrimmed value).
func strategiesFrom(raw func(string) string) (authn, authz *statefulSettings, err error) {
	if authn, err = readStrategy(raw, "Authentication", javaStatelessAuthn, javaStatefulAuthn); err != nil {
		return nil, nil, err
	}
	authz, err = readStrategy(raw, "Authorization", javaStatelessAuthz, javaStatefulAuthz)
	return authn, authz, err
}
