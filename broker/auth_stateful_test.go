package broker

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/auth"
	"github.com/rmqgo/rmqgo/remoting"
)

// With Java's stateful strategy, a connection whose user passed keeps
// passing (its later signatures unchecked) until the answer expires; a new
// connection is checked again.
func TestAuthStatefulKeepsAnswersPerConnection(t *testing.T) {
	for _, c := range []struct {
		strategy  string
		wrongPass bool
	}{{"", false}, {javaStatelessAuthn, false}, {javaStatefulAuthn, true}} {
		b, _ := startAuthBroker(t, map[string]string{"authenticationStrategy": c.strategy, "authorizationEnabled": "false"})
		send := func(cl *remoting.Client, secret string) *remoting.Command {
			return invoke(t, cl, b.Addr(), signedBy("admin", secret, withBody(sendRequest("TopicS", 0, nil, nil), []byte("x"))))
		}
		first := newClient(t, nil)
		require.Equal(t, int32(remoting.Success), send(first, "admin123").Code, c.strategy)
		resp := send(first, "wrong-secret")
		if c.wrongPass {
			assert.Equal(t, int32(remoting.Success), resp.Code, "stateful: the connection's answer is kept")
		} else {
			assert.Equal(t, int32(remoting.NoPermission), resp.Code, "%q: every request checked", c.strategy)
		}
		resp = send(newClient(t, nil), "wrong-secret")
		assert.Equal(t, int32(remoting.NoPermission), resp.Code, "%q: a new connection is checked", c.strategy)
		assert.Equal(t, "check signature failed.", resp.Remark)
	}
}

func TestAuthStrategyClassesAndCacheSettings(t *testing.T) {
	get := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	authn, authz, err := strategiesFrom(get(map[string]string{
		"authorizationStrategy":                   javaStatefulAuthz,
		"statefulAuthorizationCacheExpiredSecond": "5", "statefulAuthorizationCacheMaxNum": "7",
	}))
	require.NoError(t, err)
	assert.Nil(t, authn)
	assert.Equal(t, &statefulSettings{ttl: 5 * time.Second, max: 7}, authz)
	_, _, err = strategiesFrom(get(map[string]string{"authenticationStrategy": "com.example.Mine"}))
	assert.ErrorContains(t, err, "authenticationStrategy=com.example.Mine")
	authn, _, err = strategiesFrom(get(map[string]string{"authenticationStrategy": " " + javaStatefulAuthn + " ",
		"statefulAuthenticationCacheExpiredSecond": "5 ", "statefulAuthenticationCacheMaxNum": "many"}))
	require.NoError(t, err)
	assert.Equal(t, &statefulSettings{ttl: time.Minute, max: 10000}, authn,
		"class names are trimmed; an int Integer.parseInt refuses is ignored, as properties2Object does")
}

func TestAnswerCacheExpiresAndStaysBounded(t *testing.T) {
	now := time.Unix(1000, 0)
	c := newAnswerCache(&statefulSettings{ttl: time.Minute, max: 2}, func() time.Time { return now })
	calls := 0
	refuse := func() error { calls++; return errors.New("no") }
	allow := func() error { calls++; return nil }
	assert.Error(t, c.evaluate("a", refuse))
	assert.Error(t, c.evaluate("a", allow), "a refusal is kept too")
	assert.Equal(t, 1, calls)
	now = now.Add(time.Minute)
	assert.NoError(t, c.evaluate("a", allow), "expired: evaluated again")
	assert.NoError(t, c.evaluate("b", allow))
	assert.NoError(t, c.evaluate("c", allow))
	assert.LessOrEqual(t, len(c.answers), 2)
	assert.Equal(t, 4, calls)

	var stateless *answerCache
	assert.NoError(t, stateless.evaluate("a", allow))
	assert.Equal(t, 5, calls, "stateless: always evaluated")
}

func TestAuthzKeyNamesUserResourceActionsAndSource(t *testing.T) {
	c := auth.Context{Username: "bob", HasUser: true, SourceIP: "10.0.0.1", Resource: auth.Topic("T"),
		Actions: []auth.Action{auth.ActionPub, auth.ActionSub}}
	assert.Equal(t, "7#User:bob#Topic:T#Pub,Sub#10.0.0.1", authzKey(7, c))
	assert.Equal(t, "7#bob", authnKey(7, "bob", true))
	assert.Equal(t, "7", authnKey(7, "", false))
}
