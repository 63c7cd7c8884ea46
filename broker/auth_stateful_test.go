package broker

import (
	"testing"

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
	}{{"", false}, {auth.JavaStatelessAuthn, false}, {auth.JavaStatefulAuthn, true}} {
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
