package auth

import (
	"errors"
	"strings"
)

// ErrDenied is wrapped by every refusal this package returns with Java's
// AuthenticationException / AuthorizationException message: the broker
// answers it NO_PERMISSION with that message.
var ErrDenied = errors.New("auth: denied")

// ErrSystem is wrapped by failures Java answers SYSTEM_ERROR "An system
// error occurred, please try again later." (a malformed subject, a store
// that cannot be written).
var ErrSystem = errors.New("auth: system error")

// Denied is a refusal with Java's exception message.
type Denied struct{ Msg string }

func (d *Denied) Error() string { return d.Msg }

// Unwrap makes errors.Is(err, ErrDenied) hold.
func (d *Denied) Unwrap() error { return ErrDenied }

// deny builds a Denied.
func deny(msg string) error { return &Denied{Msg: msg} }

// UserType is Super or Normal; "" is absent.
type UserType string

// The user types.
const (
	UserSuper  UserType = "Super"
	UserNormal UserType = "Normal"
)

// UserStatus is enable or disable; "" is absent.
type UserStatus string

// The user states.
const (
	StatusEnable  UserStatus = "enable"
	StatusDisable UserStatus = "disable"
)

// User is a user of ACL 2.0.
type User struct {
	Username string
	Password string
	Type     UserType
	Status   UserStatus
}

// SubjectKey is "User:<name>", the key of the user's ACL.
func SubjectKey(username string) string { return subjectUser + ":" + username }

const subjectUser = "User"

// ParseSubject is Subject.of: "User:name" (type read without regard to
// case); false for any other type.
func ParseSubject(key string) (username string, ok bool) {
	typ, name, _ := strings.Cut(key, ":")
	if !strings.EqualFold(typ, subjectUser) {
		return "", false
	}
	return name, true
}

// byName finds name among names without regard to case; "" when absent.
func byName(names []string, name string) string {
	for _, n := range names {
		if strings.EqualFold(n, name) {
			return n
		}
	}
	return ""
}

// ParseUserType is UserType.getByName.
func ParseUserType(s string) UserType {
	return UserType(byName([]string{string(UserSuper), string(UserNormal)}, s))
}

// ParseUserStatus is UserStatus.getByName.
func ParseUserStatus(s string) UserStatus {
	return UserStatus(byName([]string{string(StatusEnable), string(StatusDisable)}, s))
}

// ResourceType is a resource's type, by Java's name.
type ResourceType string

// The resource types.
const (
	ResourceUnknown   ResourceType = "Unknown"
	ResourceAny       ResourceType = "Any"
	ResourceCluster   ResourceType = "Cluster"
	ResourceNamespace ResourceType = "Namespace"
	ResourceTopic     ResourceType = "Topic"
	ResourceGroup     ResourceType = "Group"
)

var resourceTypes = []string{"Unknown", "Any", "Cluster", "Namespace", "Topic", "Group"}

// Pattern is how a resource name matches.
type Pattern string

// The patterns.
const (
	PatternAny      Pattern = "ANY"
	PatternLiteral  Pattern = "LITERAL"
	PatternPrefixed Pattern = "PREFIXED"
)

// Action is an action, by Java's name.
type Action string

// The actions.
const (
	ActionAll    Action = "All"
	ActionAny    Action = "Any"
	ActionPub    Action = "Pub"
	ActionSub    Action = "Sub"
	ActionCreate Action = "Create"
	ActionUpdate Action = "Update"
	ActionDelete Action = "Delete"
	ActionGet    Action = "Get"
	ActionList   Action = "List"
)

var actionNames = []string{"Unknown", "All", "Any", "Pub", "Sub", "Create", "Update", "Delete", "Get", "List"}

// ParseAction is Action.getByName; "" for an unknown name.
func ParseAction(s string) Action { return Action(byName(actionNames, s)) }

// Decision is Allow or Deny; "" is absent.
type Decision string

// The decisions.
const (
	Allow Decision = "Allow"
	Deny  Decision = "Deny"
)

// ParseDecision is Decision.getByName.
func ParseDecision(s string) Decision { return Decision(byName([]string{"Allow", "Deny"}, s)) }

// PolicyType is Custom or Default; "" is absent.
type PolicyType string

// The policy types.
const (
	PolicyCustom  PolicyType = "Custom"
	PolicyDefault PolicyType = "Default"
)

// ParsePolicyType is PolicyType.getByName.
func ParsePolicyType(s string) PolicyType {
	return PolicyType(byName([]string{"Custom", "Default"}, s))
}

// Resource is a resource or a resource pattern.
type Resource struct {
	Type    ResourceType
	Name    string
	Pattern Pattern
	// Null is Java's null name: a request that lacks the field naming
	// the resource. Its key reads "Topic:null"; no literal or prefixed
	// pattern covers it (StringUtils.equals / startsWith of null).
	Null bool
}

// RetryGroupPrefix starts a group's retry topic (MixAll.RETRY_GROUP_TOPIC_PREFIX).
const RetryGroupPrefix = "%RETRY%"

// Topic is Resource.ofTopic.
func Topic(name string) Resource {
	return Resource{Type: ResourceTopic, Name: name, Pattern: PatternLiteral}
}

// Group is Resource.ofGroup: a retry topic names its group.
func Group(name string) Resource {
	if strings.HasPrefix(name, RetryGroupPrefix) {
		name = withoutRetryAndDLQ(name)
	}
	return Resource{Type: ResourceGroup, Name: name, Pattern: PatternLiteral}
}

// Cluster is Resource.ofCluster.
func Cluster(name string) Resource {
	return Resource{Type: ResourceCluster, Name: name, Pattern: PatternLiteral}
}

// NullNamed is r named by Java's null when present is false (the field
// naming it was missing), else r.
func (r Resource) NullNamed(present bool) Resource {
	if !present {
		r.Name, r.Null = "", true
	}
	return r
}

// withoutRetryAndDLQ is NamespaceUtil.withOutRetryAndDLQ.
func withoutRetryAndDLQ(name string) string {
	for _, p := range []string{RetryGroupPrefix, "%DLQ%"} {
		if strings.HasPrefix(name, p) {
			return name[len(p):]
		}
	}
	return name
}

// ParseResource is Resource.of(key): "*", "Type:*", "Type:prefix*",
// "Type:name"; false for a blank key or an unknown type.
func ParseResource(key string) (Resource, bool) {
	if strings.TrimSpace(key) == "" {
		return Resource{}, false
	}
	if key == "*" {
		return Resource{Type: ResourceAny, Pattern: PatternAny}, true
	}
	typ, name, _ := strings.Cut(key, ":")
	t := byName(resourceTypes, typ)
	if t == "" {
		return Resource{}, false
	}
	r := Resource{Type: ResourceType(t), Name: name, Pattern: PatternLiteral}
	switch {
	case name == "*":
		r.Name, r.Pattern = "", PatternAny
	case strings.HasSuffix(name, "*"):
		r.Name, r.Pattern = name[:strings.IndexByte(name, '*')], PatternPrefixed
	}
	return r, true
}

// Key is getResourceKey: "*", "Topic:*", "Topic:t*", "Topic:t"
// ("Topic:null" for a null name).
func (r Resource) Key() string {
	if r.Type == ResourceAny {
		return "*"
	}
	switch r.Pattern {
	case PatternAny:
		return string(r.Type) + ":*"
	case PatternPrefixed:
		return string(r.Type) + ":" + r.Name + "*"
	}
	if r.Null {
		return string(r.Type) + ":null"
	}
	return string(r.Type) + ":" + r.Name
}

// Matches is isMatch: whether the pattern r covers the resource x.
func (r Resource) Matches(x Resource) bool {
	if r.Type == ResourceAny {
		return true
	}
	if r.Type != x.Type {
		return false
	}
	switch r.Pattern {
	case PatternAny:
		return true
	case PatternLiteral:
		return !x.Null && x.Name == r.Name
	case PatternPrefixed:
		return !x.Null && strings.HasPrefix(x.Name, r.Name)
	}
	return false
}
