package proxy

// ACL 2.0 on the remoting port (the proxy's AuthenticationPipeline and
// AuthorizationPipeline for remoting, docs/reference/proxy-remoting.md
// §7.1): with rmq-proxy.json's authenticationEnabled or
// authorizationEnabled every request of a registered code is checked
// before its handler, as the broker checks its own port: the user is
// ext field AccessKey, the signature Signature over the other ext fields
// and the body (ACL 1.0's scheme), the resources those of
// internal/remotingauth; the whitelists hold request codes (decimal).
// Users and ACLs are the brokers' (auth_metadata.go), the stateful
// strategies keyed by the connection. A refusal is answered as Java's
// proxy answers it: SYSTEM_ERROR (1, where the broker answers
// NO_PERMISSION) with the message as remark, e.g. "check signature
// failed.".

import (
	"net"
	"strconv"

	"go.uber.org/zap"

	"github.com/rmqgo/rmqgo/internal/auth"
	"github.com/rmqgo/rmqgo/internal/remotingauth"
	"github.com/rmqgo/rmqgo/remoting"
)

// guard wraps a handler with the gate's checks (none without a gate).
func (p *remotingPort) guard(h remoting.Handler) remoting.Handler {
	if p.gate == nil {
		return h
	}
	return func(req *remoting.Request) *remoting.Command {
		if err := p.gate.checkRemoting(req.Cmd, strconv.FormatUint(req.Ch.ID(), 10), hostOfAddr(req.Ch.RemoteAddr()),
			p.cfg.RocketMQClusterName); err != nil {
			p.log.Info("acl 2.0 refused a request", zap.Int32("code", req.Cmd.Code),
				zap.String("remote", req.Ch.RemoteAddr()), zap.String("reason", err.Error()))
			return p.refuse(req, remoting.SystemError, refusalMessage(err))
		}
		return h(req)
	}
}

// checkRemoting runs both stages on a remoting request.
func (g *authGate) checkRemoting(cmd *remoting.Command, channel, sourceIP, cluster string) error {
	code := strconv.Itoa(int(cmd.Code))
	if g.authn {
		user, hasUser := cmd.Ext("AccessKey")
		err := g.authnAnswers.Evaluate(auth.AuthnKey(channel, user, hasUser), func() error {
			return g.authenticate(code, auth.SignedContent(cmd.ExtFields.Map(), cmd.Body, cmd.Version))
		})
		if err != nil {
			return err
		}
	}
	if !g.authz {
		return nil
	}
	contexts, err := remotingauth.Contexts(cmd, sourceIP, cluster)
	if err != nil {
		return err
	}
	for _, c := range contexts {
		if err := g.authzAnswers.Evaluate(auth.AuthzKey(channel, c), func() error { return g.authorize(code, c) }); err != nil {
			return err
		}
	}
	return nil
}

// hostOfAddr is an address's host (the whole address when it has no
// port).
func hostOfAddr(addr string) string {
	if h, _, err := net.SplitHostPort(addr); err == nil {
		return h
	}
	return addr
}
