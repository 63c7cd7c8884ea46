package auth

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"sort"

	"github.com/rmqgo/rmqgo/internal/acl"
)

// Signed is what a request's RPC hook put on it, as
// DefaultAuthenticationContextBuilder reads it from the ext fields.
type Signed struct {
	// Username is the AccessKey field; HasUser is false without one.
	Username string
	HasUser  bool
	// Signature is the Signature field ("" when absent).
	Signature string
	// Content is what the client signed: the other fields' values in key
	// order, then the body (SignedContent).
	Content []byte
}

// uniqueKeyQuery is MixAll.UNIQUE_MSG_QUERY_FLAG: left out of the signed
// content of requests from clients at or below 4.9.3, which added it
// after signing.
const uniqueKeyQuery = "_UNIQUE_KEY_QUERY"

// versionV4_9_3 is MQVersion.Version.V4_9_3's ordinal.
const versionV4_9_3 = 400

// SignedContent reads a request's signature fields (ext may be nil).
func SignedContent(ext map[string]string, body []byte, version int32) Signed {
	key, ok := ext[acl.FieldAccessKey]
	if !ok {
		return Signed{}
	}
	s := Signed{Username: key, HasUser: true, Signature: ext[acl.FieldSignature]}
	keys := make([]string, 0, len(ext))
	for k := range ext {
		if k == acl.FieldSignature || k == uniqueKeyQuery && version <= versionV4_9_3 {
			continue
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		s.Content = append(s.Content, ext[k]...)
	}
	s.Content = append(s.Content, body...)
	return s
}

// Metadata is where the users and ACLs are read: a broker's Store, or a
// proxy's view of a broker's (ProxyAuthenticationMetadataProvider and
// ProxyAuthorizationMetadataProvider). An error is a lookup that failed,
// not an absent user or ACL.
type Metadata interface {
	User(name string) (User, bool, error)
	Acl(subject string) (Acl, bool, error)
}

// storeMetadata is a Store as Metadata.
type storeMetadata struct{ s *Store }

func (m storeMetadata) User(name string) (User, bool, error) {
	u, ok := m.s.User(name)
	return u, ok, nil
}

func (m storeMetadata) Acl(subject string) (Acl, bool, error) {
	a, ok := m.s.Acl(subject)
	return a, ok, nil
}

// Authenticate is DefaultAuthenticationHandler over the store's users.
func (s *Store) Authenticate(req Signed) error { return AuthenticateWith(storeMetadata{s}, req) }

// Authorize is DefaultAuthorizationProvider's chain over the store's
// users and ACLs.
func (s *Store) Authorize(c Context) error { return AuthorizeWith(storeMetadata{s}, c) }

// Lookup failures, as AbstractAuthenticationStrategy and
// AbstractAuthorizationStrategy wrap an exception that is not theirs.
const (
	authenticationFailed = "Authentication failed. Please verify the credentials and try again."
	authorizationFailed  = "Authorization failed. Please verify your access rights and try again."
)

// AuthenticateWith is DefaultAuthenticationHandler: the user must exist,
// be enabled and have signed the content with its password (HmacSHA1,
// base64, compared in constant time).
func AuthenticateWith(m Metadata, req Signed) error {
	if !req.HasUser || req.Username == "" {
		return deny("username cannot be null.")
	}
	u, ok, err := m.User(req.Username)
	if err != nil {
		return lookupFailed(err, authenticationFailed)
	}
	if !ok {
		return deny(fmt.Sprintf("User:%s is not found.", req.Username))
	}
	if u.Status == StatusDisable {
		return deny(fmt.Sprintf("User:%s is disabled.", req.Username))
	}
	want := acl.Sign(req.Content, u.Password)
	if req.Signature == "" || subtle.ConstantTimeCompare([]byte(want), []byte(req.Signature)) != 1 {
		return deny("check signature failed.")
	}
	return nil
}

// AuthorizeWith is DefaultAuthorizationProvider's chain for one context:
// a request without a user is refused, a super user may do anything, any
// other user needs a matching entry that allows.
func AuthorizeWith(m Metadata, c Context) error {
	if !c.HasUser {
		return deny(authorizationFailed)
	}
	u, ok, err := m.User(c.Username)
	if err != nil {
		return lookupFailed(err, authorizationFailed)
	}
	if !ok {
		return deny(fmt.Sprintf("User:%s not found.", c.Username))
	}
	if u.Type == UserSuper {
		return nil
	}
	a, ok, err := m.Acl(SubjectKey(c.Username))
	if err != nil {
		return lookupFailed(err, authorizationFailed)
	}
	var e *PolicyEntry
	if ok {
		e = a.match(c)
	}
	if e == nil {
		return noPermission(c, "no matched policies.")
	}
	if e.Decision == Deny {
		return noPermission(c, "the decision is deny.")
	}
	return nil
}

// lookupFailed is a failed lookup's refusal: a Denied the lookup gave
// (its own message), else the stage's generic one.
func lookupFailed(err error, generic string) error {
	var d *Denied
	if errors.As(err, &d) {
		return d
	}
	return deny(generic)
}

// noPermission is AclAuthorizationHandler.throwException.
func noPermission(c Context, detail string) error {
	return deny(fmt.Sprintf("%s has no permission to access %s from %s, %s",
		SubjectKey(c.Username), c.Resource.Key(), c.SourceIP, detail))
}
