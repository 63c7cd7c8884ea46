package proxy

// ACL 2.0 on the gRPC port (AuthenticationPipeline, then
// AuthorizationPipeline), run on every unary request, on ReceiveMessage's
// request and on every message of a Telemetry stream, before the client-id
// check. Settings: AuthConfig's keys in rmq-proxy.json (config.go), in
// local mode too (the broker's broker.conf keys govern its remoting port
// only). Users and ACLs: the brokers' (auth_metadata.go). A refusal is the
// RPC's response holding Status(UNAUTHORIZED, <Java's message>).
//
//	authorization   MQv2-HMAC-SHA1 Credential=<ak>[/...], SignedHeaders=x-mq-date-time, Signature=<hex>
//	x-mq-date-time  the signed content, as sent (its age is not checked)
//
// Differences from Java:
//   - Java puts the username of the authorization header into
//     x-mq-authorization-ak only if the client sent none, and authorizes
//     that subject: a client authenticated as one user could be authorized
//     as another. Here an authenticated request is authorized as the user
//     it authenticated as.
//   - The stateful strategies key a connection by its remote address
//     (Java: the Netty channel id, x-mq-channel-id).

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/peer"
	"google.golang.org/protobuf/proto"

	"github.com/rmqgo/rmqgo/internal/auth"
	"github.com/rmqgo/rmqgo/internal/protocol"
	"github.com/rmqgo/rmqgo/proxy/apiv2"
)

// The metadata keys of ACL 2.0 (GrpcConstants).
const (
	mdAuthorization   = "authorization"
	mdDateTime        = "x-mq-date-time"
	mdAuthorizationAK = "x-mq-authorization-ak"
)

// Messages of the stages when a metadata provider is missing.
const (
	authnMetaMissing = "The authenticationMetadataProvider is not configured"
	authzMetaMissing = "The authorizationMetadataProvider is not configured"
)

// authGate is the gRPC port's ACL 2.0; nil when both stages are off.
type authGate struct {
	authn, authz               bool
	authnMeta, authzMeta       bool
	authnWhite, authzWhite     map[string]bool
	authnAnswers, authzAnswers *auth.AnswerCache
	meta                       auth.Metadata
}

// newAuthGate reads the AuthConfig keys; a provider or strategy class
// this proxy does not have is an error, as Java fails to start on it.
func newAuthGate(cfg Config, meta auth.Metadata) (*authGate, error) {
	for key, c := range map[string]struct{ v, want string }{
		"authenticationProvider":         {cfg.AuthenticationProvider, auth.JavaAuthnProvider},
		"authorizationProvider":          {cfg.AuthorizationProvider, auth.JavaAuthzProvider},
		"authenticationMetadataProvider": {cfg.AuthenticationMetadataProvider, auth.JavaProxyAuthnMetaProvider},
		"authorizationMetadataProvider":  {cfg.AuthorizationMetadataProvider, auth.JavaProxyAuthzMetaProvider},
	} {
		if v := strings.TrimSpace(c.v); v != "" && v != c.want {
			return nil, fmt.Errorf("proxy: %s=%s: only %s is implemented", key, v, c.want)
		}
	}
	authnState, authzState, err := auth.ReadStrategies(func(k string) string { return strategyKey(cfg, k) })
	if err != nil {
		return nil, fmt.Errorf("proxy: %w", err)
	}
	if !cfg.AuthenticationEnabled && !cfg.AuthorizationEnabled {
		return nil, nil
	}
	return &authGate{
		authn: cfg.AuthenticationEnabled, authz: cfg.AuthorizationEnabled,
		authnMeta:  strings.TrimSpace(cfg.AuthenticationMetadataProvider) != "",
		authzMeta:  strings.TrimSpace(cfg.AuthorizationMetadataProvider) != "",
		authnWhite: rpcSet(cfg.AuthenticationWhitelist), authzWhite: rpcSet(cfg.AuthorizationWhitelist),
		authnAnswers: auth.NewAnswerCache(authnState, nil), authzAnswers: auth.NewAnswerCache(authzState, nil),
		meta: meta,
	}, nil
}

// strategyKey gives auth.ReadStrategies the strategy keys' values.
func strategyKey(cfg Config, key string) string {
	switch key {
	case "authenticationStrategy":
		return cfg.AuthenticationStrategy
	case "authorizationStrategy":
		return cfg.AuthorizationStrategy
	case "statefulAuthenticationCacheExpiredSecond":
		return strconv.Itoa(cfg.StatefulAuthenticationCacheExpiredSecond)
	case "statefulAuthenticationCacheMaxNum":
		return strconv.Itoa(cfg.StatefulAuthenticationCacheMaxNum)
	case "statefulAuthorizationCacheExpiredSecond":
		return strconv.Itoa(cfg.StatefulAuthorizationCacheExpiredSecond)
	case "statefulAuthorizationCacheMaxNum":
		return strconv.Itoa(cfg.StatefulAuthorizationCacheMaxNum)
	}
	return ""
}

// rpcSet is a whitelist: request message full names.
func rpcSet(list string) map[string]bool {
	out := map[string]bool{}
	for _, n := range strings.Split(list, ",") {
		if n = strings.TrimSpace(n); n != "" {
			out[n] = true
		}
	}
	return out
}

// check runs both stages on one request message: nil when it passes,
// else the status to answer.
func (g *authGate) check(ctx context.Context, req proto.Message) *apiv2.Status {
	if g == nil {
		return nil
	}
	md, _ := metadata.FromIncomingContext(ctx)
	channel, sourceIP := connectionOf(ctx)
	rpc := string(req.ProtoReflect().Descriptor().FullName())
	user, hasUser := firstValue(md, mdAuthorizationAK)
	if g.authn {
		signed, err := signedOf(md)
		if err == nil {
			err = g.authnAnswers.Evaluate(auth.AuthnKey(channel, signed.Username, signed.HasUser), func() error {
				return g.authenticate(rpc, signed)
			})
		}
		if err != nil {
			return status(apiv2.Code_UNAUTHORIZED, refusalMessage(err))
		}
		if strings.TrimSpace(signed.Username) != "" {
			user, hasUser = signed.Username, true
		}
	}
	if !g.authz {
		return nil
	}
	contexts, err := authzContexts(req, auth.Context{Username: user, HasUser: hasUser, SourceIP: sourceIP})
	if err != nil {
		var settingsErr *settingsWithoutRoles
		if errors.As(err, &settingsErr) {
			return status(apiv2.Code_INTERNAL_SERVER_ERROR, err.Error())
		}
		return status(apiv2.Code_UNAUTHORIZED, refusalMessage(err))
	}
	for _, c := range contexts {
		err := g.authzAnswers.Evaluate(auth.AuthzKey(channel, c), func() error { return g.authorize(rpc, c) })
		if err != nil {
			return status(apiv2.Code_UNAUTHORIZED, refusalMessage(err))
		}
	}
	return nil
}

// authenticate is the authentication stage: the whitelist, then the
// user and signature.
func (g *authGate) authenticate(rpc string, signed auth.Signed) error {
	if g.authnWhite[rpc] {
		return nil
	}
	if !g.authnMeta {
		return &auth.Denied{Msg: authnMetaMissing}
	}
	return auth.AuthenticateWith(g.meta, signed)
}

// authorize is one context: the whitelist, then the user's ACL.
func (g *authGate) authorize(rpc string, c auth.Context) error {
	if g.authzWhite[rpc] {
		return nil
	}
	if c.HasUser && !g.authnMeta {
		return &auth.Denied{Msg: authnMetaMissing}
	}
	if c.HasUser && !g.authzMeta {
		if u, ok, _ := g.meta.User(c.Username); !ok || u.Type != auth.UserSuper {
			return &auth.Denied{Msg: authzMetaMissing}
		}
	}
	return auth.AuthorizeWith(g.meta, c)
}

// refusalMessage is a refusal's message.
func refusalMessage(err error) string {
	var d *auth.Denied
	if errors.As(err, &d) {
		return d.Msg
	}
	return err.Error()
}

// connectionOf names the request's connection (the stateful strategies'
// key) and the address authorization checks: the peer's host.
func connectionOf(ctx context.Context) (channel, sourceIP string) {
	p, ok := peer.FromContext(ctx)
	if !ok || p.Addr == nil {
		return "", ""
	}
	channel = p.Addr.String()
	sourceIP = channel
	if i := strings.LastIndexByte(channel, ':'); i >= 0 {
		sourceIP = channel[:i]
	}
	return channel, sourceIP
}

// firstValue is a metadata key's first value; ok is false without one.
func firstValue(md metadata.MD, key string) (string, bool) {
	if v := md.Get(key); len(v) > 0 {
		return v[0], true
	}
	return "", false
}

// signedOf is DefaultAuthenticationContextBuilder.build for gRPC: no
// authorization header is a request without a user (which authentication
// refuses unless whitelisted); a malformed one is refused at once, the
// whitelist notwithstanding.
func signedOf(md metadata.MD) (auth.Signed, error) {
	var s auth.Signed
	authorization, _ := firstValue(md, mdAuthorization)
	if authorization == "" {
		return s, nil
	}
	datetime, _ := firstValue(md, mdDateTime)
	if datetime == "" {
		return s, &auth.Denied{Msg: "datetime is null."}
	}
	_, rest, ok := strings.Cut(authorization, " ")
	if !ok {
		return s, &auth.Denied{Msg: "authentication header is incorrect."}
	}
	items := []string{""} // Java's "".split(",")
	if rest != "" {
		items = protocol.JavaSplit(rest, ",")
	}
	for _, item := range items {
		key, value, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok {
			return s, &auth.Denied{Msg: "authentication keyValues length is incorrect, actual length=1."}
		}
		switch key {
		case "Credential":
			credential := protocol.JavaSplit(value, "/")
			if value == "" {
				credential = []string{""}
			}
			if len(credential) == 0 {
				return s, &auth.Denied{Msg: "authentication credential length is incorrect, actual length=0."}
			}
			s.Username, s.HasUser = credential[0], true
		case "Signature":
			sig, err := hex.DecodeString(value)
			if err != nil {
				return s, &auth.Denied{Msg: "create authentication context error."}
			}
			s.Signature = base64.StdEncoding.EncodeToString(sig)
		}
	}
	s.Content = []byte(datetime)
	return s, nil
}
