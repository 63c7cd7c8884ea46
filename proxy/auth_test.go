package proxy

import (
	"context"
	"crypto/hmac"
	"crypto/sha1"
	"encoding/hex"
	"net"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/protobuf/proto"

	"github.com/rmqgo/rmqgo/internal/auth"
	"github.com/rmqgo/rmqgo/proxy/apiv2"
)

// memoryMetadata is users and ACLs in memory.
type memoryMetadata struct {
	users map[string]auth.User
	acls  map[string]auth.Acl
}

func (m memoryMetadata) User(name string) (auth.User, bool, error) {
	u, ok := m.users[name]
	return u, ok, nil
}

func (m memoryMetadata) Acl(subject string) (auth.Acl, bool, error) {
	a, ok := m.acls[subject]
	return a, ok, nil
}

// testMetadata has a super user root, and alice, who may publish to T
// and subscribe to T as group G.
func testMetadata() memoryMetadata {
	allow := func(r auth.Resource, actions ...auth.Action) auth.PolicyEntry {
		return auth.PolicyEntry{Resource: r, Actions: actions, Decision: auth.Allow}
	}
	return memoryMetadata{
		users: map[string]auth.User{
			"root":  {Username: "root", Password: "root123", Type: auth.UserSuper, Status: auth.StatusEnable},
			"alice": {Username: "alice", Password: "alice123", Type: auth.UserNormal, Status: auth.StatusEnable},
		},
		acls: map[string]auth.Acl{auth.SubjectKey("alice"): {Subject: auth.SubjectKey("alice"), Policies: []auth.Policy{{
			Type: auth.PolicyCustom,
			Entries: []auth.PolicyEntry{
				allow(auth.Topic("T"), auth.ActionPub, auth.ActionSub),
				allow(auth.Group("G"), auth.ActionSub),
			},
		}}}},
	}
}

func testGate(t *testing.T, cfg Config) *authGate {
	t.Helper()
	cfg.AuthenticationMetadataProvider = "org.apache.rocketmq.proxy.auth.ProxyAuthenticationMetadataProvider"
	cfg.AuthorizationMetadataProvider = "org.apache.rocketmq.proxy.auth.ProxyAuthorizationMetadataProvider"
	g, err := newAuthGate(cfg, testMetadata())
	require.NoError(t, err)
	require.NotNil(t, g)
	return g
}

// signedCtx is a call from 10.1.2.3 signed as the Java client signs:
// HMAC-SHA1 of x-mq-date-time in upper-case hex.
func signedCtx(ak, sk string) context.Context {
	const dt = "20261206T143000Z"
	mac := hmac.New(sha1.New, []byte(sk))
	mac.Write([]byte(dt))
	sig := strings.ToUpper(hex.EncodeToString(mac.Sum(nil)))
	return callCtx(mdAuthorization, "MQv2-HMAC-SHA1 Credential="+ak+", SignedHeaders=x-mq-date-time, Signature="+sig,
		mdDateTime, dt)
}

func callCtx(kv ...string) context.Context {
	ctx := metadata.NewIncomingContext(context.Background(), metadata.Pairs(kv...))
	return peer.NewContext(ctx, &peer.Peer{Addr: &net.TCPAddr{IP: net.IPv4(10, 1, 2, 3), Port: 40000}})
}

func send(topic string) proto.Message {
	return &apiv2.SendMessageRequest{Messages: []*apiv2.Message{{Topic: &apiv2.Resource{Name: topic}}}}
}

func TestAuthenticationRefusalsCarryJavasMessages(t *testing.T) {
	g := testGate(t, Config{AuthenticationEnabled: true})
	ok := signedCtx("alice", "alice123")
	assert.Nil(t, g.check(ok, send("T")))
	for _, c := range []struct {
		ctx  context.Context
		want string
	}{
		{signedCtx("alice", "wrong"), "check signature failed."},
		{signedCtx("nobody", "x"), "User:nobody is not found."},
		{callCtx(), "username cannot be null."},
		{callCtx(mdAuthorization, "MQv2-HMAC-SHA1 Credential=alice"), "datetime is null."},
		{callCtx(mdAuthorization, "MQv2-HMAC-SHA1", mdDateTime, "x"), "authentication header is incorrect."},
		{callCtx(mdAuthorization, "MQv2-HMAC-SHA1 Credential", mdDateTime, "x"), "authentication keyValues length is incorrect, actual length=1."},
		{callCtx(mdAuthorization, "MQv2-HMAC-SHA1 Credential=alice, Signature=ABC", mdDateTime, "x"), "create authentication context error."},
	} {
		st := g.check(c.ctx, send("T"))
		require.NotNil(t, st, c.want)
		assert.Equal(t, apiv2.Code_UNAUTHORIZED, st.GetCode(), c.want)
		assert.Equal(t, c.want, st.GetMessage())
	}
}

// The Go client's credential is "<ak>//Rocketmq" and its hex lower-case.
func TestGoClientsCredentialNamesItsUser(t *testing.T) {
	md := metadata.Pairs(mdAuthorization, "MQv2-HMAC-SHA1 Credential=alice//Rocketmq, SignedHeaders=x-mq-date-time, Signature=0a1b",
		mdDateTime, "d")
	s, err := signedOf(md)
	require.NoError(t, err)
	assert.Equal(t, "alice", s.Username)
	assert.Equal(t, "Chs=", s.Signature, "hex 0a1b as base64")
	assert.Equal(t, []byte("d"), s.Content)
}

func TestWhitelistedRequestsPassUnsigned(t *testing.T) {
	g := testGate(t, Config{AuthenticationEnabled: true, AuthenticationWhitelist: " apache.rocketmq.v2.QueryRouteRequest ,x"})
	assert.Nil(t, g.check(callCtx(), &apiv2.QueryRouteRequest{Topic: &apiv2.Resource{Name: "T"}}))
	assert.NotNil(t, g.check(callCtx(), send("T")))
}

func TestAuthorizationChecksEachRequestsTopicAndGroup(t *testing.T) {
	g := testGate(t, Config{AuthenticationEnabled: true, AuthorizationEnabled: true})
	alice := signedCtx("alice", "alice123")
	topic := func(n string) *apiv2.Resource { return &apiv2.Resource{Name: n} }
	for _, c := range []struct {
		req  proto.Message
		want string // "" passes
	}{
		{send("T"), ""},
		{send("U"), "User:alice has no permission to access Topic:U from 10.1.2.3, no matched policies."},
		{&apiv2.SendMessageRequest{}, "message is null."},
		{&apiv2.QueryRouteRequest{Topic: topic("T")}, ""},
		{&apiv2.QueryRouteRequest{Topic: topic(" ")}, "topic is null."},
		{&apiv2.ReceiveMessageRequest{Group: topic("G"), MessageQueue: &apiv2.MessageQueue{Topic: topic("T")}}, ""},
		{&apiv2.ReceiveMessageRequest{Group: topic("G")}, "messageQueue is null."},
		{&apiv2.AckMessageRequest{Group: topic("H"), Topic: topic("T")}, "User:alice has no permission to access Group:H from 10.1.2.3, no matched policies."},
		{&apiv2.ChangeInvisibleDurationRequest{Group: topic("%RETRY%G")}, ""},
		{&apiv2.HeartbeatRequest{ClientType: apiv2.ClientType_PRODUCER}, ""},
		{&apiv2.HeartbeatRequest{ClientType: apiv2.ClientType_SIMPLE_CONSUMER}, "group is null."},
		{&apiv2.NotifyClientTerminationRequest{}, ""},
		{&apiv2.TelemetryCommand{Command: &apiv2.TelemetryCommand_Settings{Settings: &apiv2.Settings{
			PubSub: &apiv2.Settings_Subscription{Subscription: &apiv2.Subscription{Group: topic("G"),
				Subscriptions: []*apiv2.SubscriptionEntry{{Topic: topic("T")}, {Topic: topic("U")}}}}}}},
			"User:alice has no permission to access Topic:U from 10.1.2.3, no matched policies."},
	} {
		st := g.check(alice, c.req)
		if c.want == "" {
			assert.Nil(t, st, "%T %v", c.req, c.req)
			continue
		}
		require.NotNil(t, st, c.want)
		assert.Equal(t, apiv2.Code_UNAUTHORIZED, st.GetCode(), c.want)
		assert.Equal(t, c.want, st.GetMessage())
	}
	assert.Nil(t, g.check(signedCtx("root", "root123"), send("U")), "a super user may do anything")
	st := g.check(alice, &apiv2.TelemetryCommand{Command: &apiv2.TelemetryCommand_Settings{Settings: &apiv2.Settings{}}})
	require.NotNil(t, st)
	assert.Equal(t, apiv2.Code_INTERNAL_SERVER_ERROR, st.GetCode(), "settings without a role are Java's AclException")
}

// Without authentication, authorization takes the subject the client
// names in x-mq-authorization-ak, as Java does.
func TestAuthorizationAloneTakesTheNamedSubject(t *testing.T) {
	g := testGate(t, Config{AuthorizationEnabled: true})
	assert.Nil(t, g.check(callCtx(mdAuthorizationAK, "alice"), send("T")))
	st := g.check(callCtx(), send("T"))
	require.NotNil(t, st)
	assert.Equal(t, "Authorization failed. Please verify your access rights and try again.", st.GetMessage())
}

func TestAuthenticatedUserIsTheSubjectWhateverTheClientNames(t *testing.T) {
	g := testGate(t, Config{AuthenticationEnabled: true, AuthorizationEnabled: true})
	ctx := metadata.NewIncomingContext(signedCtx("alice", "alice123"), metadata.Join(
		func() metadata.MD { md, _ := metadata.FromIncomingContext(signedCtx("alice", "alice123")); return md }(),
		metadata.Pairs(mdAuthorizationAK, "root")))
	st := g.check(ctx, send("U"))
	require.NotNil(t, st)
	assert.Contains(t, st.GetMessage(), "User:alice has no permission")
}

func TestUnknownProviderClassesFailTheStart(t *testing.T) {
	_, err := newAuthGate(Config{AuthenticationEnabled: true, AuthenticationMetadataProvider: "com.example.Mine"}, nil)
	assert.ErrorContains(t, err, "authenticationMetadataProvider=com.example.Mine")
	g, err := newAuthGate(Config{}, nil)
	assert.NoError(t, err)
	assert.Nil(t, g, "both stages off: no gate")
	assert.Nil(t, g.check(callCtx(), send("T")))
}

func TestWithoutMetadataProviderAuthenticationIsRefused(t *testing.T) {
	g, err := newAuthGate(Config{AuthenticationEnabled: true}, testMetadata())
	require.NoError(t, err)
	st := g.check(signedCtx("alice", "alice123"), send("T"))
	require.NotNil(t, st)
	assert.Equal(t, "The authenticationMetadataProvider is not configured", st.GetMessage())
}
