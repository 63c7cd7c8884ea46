package acl

import (
	"errors"
	"strings"
)

// Permission bits (Permission), as the checks combine them.
const (
	PermDeny byte = 1
	PermAny  byte = 1 << 1
	PermPub  byte = 1 << 2
	PermSub  byte = 1 << 3
)

// Perm names of plain_acl.yml (AclConstants).
const (
	permNameDeny   = "DENY"
	permNamePub    = "PUB"
	permNameSub    = "SUB"
	permNamePubSub = "PUB|SUB"
	permNameSubPub = "SUB|PUB"
)

// RetryGroupTopicPrefix starts the retry topic a group's permission is
// kept under (%RETRY%group), as Java keys groups.
const RetryGroupTopicPrefix = "%RETRY%"

// ErrDenied is wrapped by every refusal of Check; the message after it is
// Java's AclException message.
var ErrDenied = errors.New("acl: denied")

// Denied is a refusal with Java's AclException message; Site says which
// check refused, for the broker to name Java's throwing frame.
type Denied struct {
	Msg  string
	Site Site
}

// Site is the check that refused a request.
type Site int

// The checks, in PlainPermissionManager's order.
const (
	SiteOther Site = iota
	SiteNoAccessKey
	SiteNoAccount
	SiteNoResource
	SiteSignature
	SiteAdmin
	SiteDefaultPerm
	SitePerm
)

func (d *Denied) Error() string { return d.Msg }

// Unwrap makes errors.Is(err, ErrDenied) hold.
func (d *Denied) Unwrap() error { return ErrDenied }

// ParsePerm is parsePermFromString: an unknown name is DENY.
func ParsePerm(s string) byte {
	switch strings.TrimSpace(s) {
	case permNamePub:
		return PermPub
	case permNameSub:
		return PermSub
	case permNamePubSub, permNameSubPub:
		return PermPub | PermSub
	}
	return PermDeny
}

// CheckPermission is Permission.checkPermission.
func CheckPermission(needed, owned byte) bool {
	if owned&PermDeny != 0 {
		return false
	}
	if needed&PermAny != 0 {
		return owned&(PermPub|PermSub) != 0
	}
	return needed&owned != 0
}

// RetryTopic is the key a group's permission is kept under.
func RetryTopic(group string) string { return RetryGroupTopicPrefix + group }

// isGroup tells a group key from a topic.
func isGroup(resource string) bool { return strings.HasPrefix(resource, RetryGroupTopicPrefix) }

// printResource is printStr: "group:g" or "topic:t".
func printResource(resource string) string {
	if isGroup(resource) {
		return "group:" + strings.TrimPrefix(resource, RetryGroupTopicPrefix)
	}
	return "topic:" + resource
}
