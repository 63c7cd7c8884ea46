package proxy

// Where the proxy reads users and ACLs (ProxyAuthenticationMetadataProvider
// and ProxyAuthorizationMetadataProvider over the MetadataService): a
// broker of the cluster, with AUTH_GET_USER (3004, header username) and
// AUTH_GET_ACL (3009, header subject), whose bodies are UserInfo and
// AclInfo, none when absent.
//
// Local mode asks the broker of its process at every request, as Java's
// LocalMetadataService reads the broker's managers: a change is seen at
// once. Cluster mode asks a master of the route of rocketMQClusterName and
// keeps each answer, "absent" included, for userCacheRefreshSeconds /
// aclCacheRefreshSeconds (20 s; Java refreshes its caches that often).
//
// A broker without the metadata provider answers SYSTEM_ERROR: in local
// mode that is Java's "The authenticationMetadataProvider is not
// configured" (or authorization's); in cluster mode, as any failed
// lookup, the stage's generic refusal.

import (
	"fmt"
	"time"

	"github.com/rmqgo/rmqgo/internal/auth"
	"github.com/rmqgo/rmqgo/remoting"
)

// found is a lookup's answer: the value, and whether there was one.
type found[T any] struct {
	v  T
	ok bool
}

// brokerAuthMetadata reads users and ACLs from the brokers.
type brokerAuthMetadata struct {
	b       *brokers
	cluster string
	local   bool
	users   *ttlCache[found[auth.User]]
	acls    *ttlCache[found[auth.Acl]]
}

func newBrokerAuthMetadata(b *brokers, cfg Config) *brokerAuthMetadata {
	userTTL := time.Duration(cfg.UserCacheRefreshSeconds) * time.Second
	aclTTL := time.Duration(cfg.AclCacheRefreshSeconds) * time.Second
	if cfg.local() {
		userTTL, aclTTL = 0, 0
	}
	return &brokerAuthMetadata{b: b, cluster: cfg.RocketMQClusterName, local: cfg.local(),
		users: newTTLCache[found[auth.User]](userTTL), acls: newTTLCache[found[auth.Acl]](aclTTL)}
}

// User is AUTH_GET_USER.
func (m *brokerAuthMetadata) User(name string) (auth.User, bool, error) {
	f, err := m.users.get(name, func() (found[auth.User], error) {
		body, err := m.get(remoting.AuthGetUser, "username", name, authnMetaMissing)
		if err != nil || len(body) == 0 {
			return found[auth.User]{}, err
		}
		info, err := auth.DecodeUserInfo(body)
		return found[auth.User]{v: info.User(), ok: true}, err
	})
	return f.v, f.ok, err
}

// Acl is AUTH_GET_ACL.
func (m *brokerAuthMetadata) Acl(subject string) (auth.Acl, bool, error) {
	f, err := m.acls.get(subject, func() (found[auth.Acl], error) {
		body, err := m.get(remoting.AuthGetAcl, "subject", subject, authzMetaMissing)
		if err != nil || len(body) == 0 {
			return found[auth.Acl]{}, err
		}
		info, err := auth.DecodeAclInfo(body)
		if err != nil || info == nil {
			return found[auth.Acl]{}, err
		}
		acl, _ := info.Acl()
		return found[auth.Acl]{v: acl, ok: true}, nil
	})
	return f.v, f.ok, err
}

// get asks a broker; the body is empty when the broker has no such
// entry. notConfigured is local mode's refusal for a broker without the
// metadata provider.
func (m *brokerAuthMetadata) get(code remoting.RequestCode, key, value, notConfigured string) ([]byte, error) {
	addr, err := m.b.anyMaster(m.cluster)
	if err != nil {
		return nil, err
	}
	resp, err := m.b.call(addr, remoting.NewRequest(code, map[string]string{key: value}), 0)
	if err != nil {
		return nil, err
	}
	switch {
	case resp.Code == int32(remoting.Success):
		return resp.Body, nil
	case m.local && resp.Code == int32(remoting.SystemError):
		return nil, &auth.Denied{Msg: notConfigured}
	}
	return nil, fmt.Errorf("%s: code %d, %s", remoting.RequestCode(code), resp.Code, resp.Remark)
}
