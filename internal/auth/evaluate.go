package auth

import (
	"crypto/subtle"
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

// Authenticate is DefaultAuthenticationHandler: the user must exist, be
// enabled and have signed the content with its password (HmacSHA1,
// base64, compared in constant time).
func (s *Store) Authenticate(req Signed) error {
	if !req.HasUser || req.Username == "" {
		return deny("username cannot be null.")
	}
	u, ok := s.User(req.Username)
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

// Authorize is DefaultAuthorizationProvider's chain for one context: a
// request without a user is refused, a super user may do anything, any
// other user needs a matching entry that allows.
func (s *Store) Authorize(c Context) error {
	if !c.HasUser {
		return deny("Authorization failed. Please verify your access rights and try again.")
	}
	u, ok := s.User(c.Username)
	if !ok {
		return deny(fmt.Sprintf("User:%s not found.", c.Username))
	}
	if u.Type == UserSuper {
		return nil
	}
	a, ok := s.Acl(SubjectKey(c.Username))
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

// noPermission is AclAuthorizationHandler.throwException.
func noPermission(c Context, detail string) error {
	return deny(fmt.Sprintf("%s has no permission to access %s from %s, %s",
		SubjectKey(c.Username), c.Resource.Key(), c.SourceIP, detail))
}
