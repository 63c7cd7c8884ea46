package broker

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/acl"
	"github.com/rmqgo/rmqgo/remoting"
)

// TestACLRefusesHostileRequestsOverTheWire is the hostile-input run of the
// ACL 1.0 path against a running broker, on one connection: malformed,
// huge and missing signatures and keys, and a signed request replayed with
// another body or topic are refused; the broker stays up, the connection
// stays usable, and only the signed sends are stored. A signed request
// replayed unchanged is let in, as Java lets it in (the signature has no
// nonce or time; TLS is what stops a replay).
func TestACLRefusesHostileRequestsOverTheWire(t *testing.T) {
	b, _ := startACLBroker(t)
	cl := newClient(t, nil)
	send := func() *remoting.Command { return withBody(sendRequest("AclTopicA", 0, nil, nil), []byte("x")) }
	huge := strings.Repeat("A", 1<<20)
	hostile := map[string]*remoting.Command{
		"garbage signature": withExt(send(), acl.FieldAccessKey, "RocketMQ", acl.FieldSignature, "!!not base64!!"),
		"1 MiB signature":   withExt(send(), acl.FieldAccessKey, "RocketMQ", acl.FieldSignature, huge),
		"empty signature":   withExt(send(), acl.FieldAccessKey, "RocketMQ", acl.FieldSignature, ""),
		"no signature":      withExt(send(), acl.FieldAccessKey, "RocketMQ"),
		"signature, no key": withExt(send(), acl.FieldSignature, acl.Sign(acl.Content(send().ExtFields.Map(), []byte("x")), "12345678")),
		"1 MiB access key":  signedBy(huge, "12345678", send()),
		"key with a NUL":    signedBy("RocketMQ\x00", "12345678", send()),
		// signed, then changed
		"signed, body replaced":  withBody(signedBy("RocketMQ", "12345678", send()), []byte("y")),
		"signed, topic replaced": withExt(signedBy("RocketMQ", "12345678", send()), "b", "AclTopicDeny"),
		"signed, queue changed":  withExt(signedBy("RocketMQ", "12345678", send()), "e", "1"),
	}
	for name, req := range hostile {
		resp := invoke(t, cl, b.Addr(), req)
		assert.NotEqual(t, int32(remoting.Success), resp.Code, name)
		assert.Contains(t, resp.Remark, "AclException", name)
	}
	replayed := signedBy("RocketMQ", "12345678", send())
	for range 2 {
		resp := invoke(t, cl, b.Addr(), replayed)
		require.Equal(t, int32(remoting.Success), resp.Code, resp.Remark)
	}
	dispatched(t, b)
	assert.EqualValues(t, 2, b.store.MaxOffset("AclTopicA", 0), "only the signed sends are stored")
	assert.EqualValues(t, 0, b.store.MaxOffset("AclTopicDeny", 0))
}

// withExt sets header fields, key and value in turn.
func withExt(c *remoting.Command, kv ...string) *remoting.Command {
	for i := 0; i+1 < len(kv); i += 2 {
		c.SetExt(kv[i], kv[i+1])
	}
	return c
}
