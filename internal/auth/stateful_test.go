package auth

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStrategyClassesAndCacheSettings(t *testing.T) {
	get := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	authn, authz, err := ReadStrategies(get(map[string]string{
		"authorizationStrategy":                   JavaStatefulAuthz,
		"statefulAuthorizationCacheExpiredSecond": "5", "statefulAuthorizationCacheMaxNum": "7",
	}))
	require.NoError(t, err)
	assert.Nil(t, authn)
	assert.Equal(t, &Stateful{TTL: 5 * time.Second, Max: 7}, authz)
	_, _, err = ReadStrategies(get(map[string]string{"authenticationStrategy": "com.example.Mine"}))
	assert.ErrorContains(t, err, "authenticationStrategy=com.example.Mine")
	authn, _, err = ReadStrategies(get(map[string]string{"authenticationStrategy": " " + JavaStatefulAuthn + " ",
		"statefulAuthenticationCacheExpiredSecond": "5 ", "statefulAuthenticationCacheMaxNum": "many"}))
	require.NoError(t, err)
	assert.Equal(t, &Stateful{TTL: time.Minute, Max: 10000}, authn,
		"class names are trimmed; an int Integer.parseInt refuses is ignored, as properties2Object does")
}

func TestAnswerCacheExpiresAndStaysBounded(t *testing.T) {
	now := time.Unix(1000, 0)
	c := NewAnswerCache(&Stateful{TTL: time.Minute, Max: 2}, func() time.Time { return now })
	calls := 0
	refuse := func() error { calls++; return errors.New("no") }
	allow := func() error { calls++; return nil }
	assert.Error(t, c.Evaluate("a", refuse))
	assert.Error(t, c.Evaluate("a", allow), "a refusal is kept too")
	assert.Equal(t, 1, calls)
	now = now.Add(time.Minute)
	assert.NoError(t, c.Evaluate("a", allow), "expired: evaluated again")
	assert.NoError(t, c.Evaluate("b", allow))
	assert.NoError(t, c.Evaluate("c", allow))
	assert.LessOrEqual(t, len(c.answers), 2)
	assert.Equal(t, 4, calls)

	var stateless *AnswerCache
	assert.NoError(t, stateless.Evaluate("a", allow))
	assert.Equal(t, 5, calls, "stateless: always evaluated")
}

func TestAuthzKeyNamesUserResourceActionsAndSource(t *testing.T) {
	c := Context{Username: "bob", HasUser: true, SourceIP: "10.0.0.1", Resource: Topic("T"),
		Actions: []Action{ActionPub, ActionSub}}
	assert.Equal(t, "7#User:bob#Topic:T#Pub,Sub#10.0.0.1", AuthzKey("7", c))
	assert.Equal(t, "7#bob", AuthnKey("7", "bob", true))
	assert.Equal(t, "7", AuthnKey("7", "", false))
}
