package auth

import (
	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// The admin bodies, UserInfo and AclInfo (wire format: do not change),
// fastjson with keys sorted and absent values left out:
//
//	UserInfo  {"password":"p","userStatus":"enable","userType":"Normal","username":"u"}
//	AclInfo   {"policies":[{"entries":[{"actions":["Pub","Sub"],"decision":"Allow",
//	            "resource":"Topic:t","sourceIps":["10.0.0.0/8"]}],"policyType":"Custom"}],
//	           "subject":"User:u"}
//
// The older users.json and acls.json files (which Store migrates) hold a
// list of each.

// AppendUserInfo appends a user as UserConverter.convertUser writes it.
func AppendUserInfo(dst []byte, u User) []byte {
	st := fastjson.Fastjson
	dst = append(dst, '{')
	dst = fastjson.AppendOptionalStringField(dst, "password", u.Password, st)
	dst = fastjson.AppendOptionalStringField(dst, "userStatus", string(u.Status), st)
	dst = fastjson.AppendOptionalStringField(dst, "userType", string(u.Type), st)
	dst = fastjson.AppendOptionalStringField(dst, "username", u.Username, st)
	return append(dst, '}')
}

// AppendUserInfos appends a list of users.
func AppendUserInfos(dst []byte, users []User) []byte {
	dst = append(dst, '[')
	for _, u := range users {
		dst = AppendUserInfo(fastjson.Comma(dst), u)
	}
	return append(dst, ']')
}

// UserInfo is the UserInfo body as read: names as sent (the types and
// states are parsed by the caller, as UserConverter does).
type UserInfo struct {
	Username, Password, UserType, UserStatus string
}

// DecodeUserInfo reads a UserInfo body; an empty body is an empty user.
func DecodeUserInfo(data []byte) (UserInfo, error) {
	var u UserInfo
	if len(data) == 0 {
		return u, nil
	}
	err := fastjson.Decode(data, func(r *fastjson.Reader) error { return readUserInfo(r, &u) })
	return u, err
}

func readUserInfo(r *fastjson.Reader, u *UserInfo) error {
	if r.Null() {
		return nil
	}
	return r.Object(func(key string) (err error) {
		switch key {
		case "username":
			u.Username, err = r.Str()
		case "password":
			u.Password, err = r.Str()
		case "usertype":
			u.UserType, err = r.Str()
		case "userstatus":
			u.UserStatus, err = r.Str()
		default:
			err = r.Skip()
		}
		return err
	})
}

// User is UserConverter.convertUser.
func (u UserInfo) User() User {
	return User{Username: u.Username, Password: u.Password, Type: ParseUserType(u.UserType), Status: ParseUserStatus(u.UserStatus)}
}

// AclInfo is the AclInfo body as read.
type AclInfo struct {
	Subject  string
	Policies []PolicyInfo
}

// PolicyInfo is AclInfo.PolicyInfo.
type PolicyInfo struct {
	PolicyType string
	Entries    []PolicyEntryInfo
}

// PolicyEntryInfo is AclInfo.PolicyEntryInfo.
type PolicyEntryInfo struct {
	Resource  string
	Actions   []string
	SourceIPs []string
	Decision  string
}

// DecodeAclInfo reads an AclInfo body; nil for an empty body or null.
func DecodeAclInfo(data []byte) (*AclInfo, error) {
	if len(data) == 0 {
		return nil, nil
	}
	var out *AclInfo
	err := fastjson.Decode(data, func(r *fastjson.Reader) error {
		if r.Null() {
			return nil
		}
		out = &AclInfo{}
		return readAclInfo(r, out)
	})
	return out, err
}

// DecodeAclInfos reads a list of AclInfo (acls.json).
func DecodeAclInfos(data []byte) ([]AclInfo, error) {
	var out []AclInfo
	err := fastjson.Decode(data, func(r *fastjson.Reader) error {
		return r.Array(func() error {
			var a AclInfo
			if err := readAclInfo(r, &a); err != nil {
				return err
			}
			out = append(out, a)
			return nil
		})
	})
	return out, err
}

// DecodeUserInfos reads a list of UserInfo (users.json).
func DecodeUserInfos(data []byte) ([]UserInfo, error) {
	var out []UserInfo
	err := fastjson.Decode(data, func(r *fastjson.Reader) error {
		return r.Array(func() error {
			var u UserInfo
			if err := readUserInfo(r, &u); err != nil {
				return err
			}
			out = append(out, u)
			return nil
		})
	})
	return out, err
}

func readAclInfo(r *fastjson.Reader, a *AclInfo) error {
	return r.Object(func(key string) (err error) {
		switch key {
		case "subject":
			a.Subject, err = r.Str()
		case "policies":
			err = r.Array(func() error {
				var p PolicyInfo
				if err := readPolicyInfo(r, &p); err != nil {
					return err
				}
				a.Policies = append(a.Policies, p)
				return nil
			})
		default:
			err = r.Skip()
		}
		return err
	})
}

func readPolicyInfo(r *fastjson.Reader, p *PolicyInfo) error {
	return r.Object(func(key string) (err error) {
		switch key {
		case "policytype":
			p.PolicyType, err = r.Str()
		case "entries":
			err = r.Array(func() error {
				var e PolicyEntryInfo
				if err := readEntryInfo(r, &e); err != nil {
					return err
				}
				p.Entries = append(p.Entries, e)
				return nil
			})
		default:
			err = r.Skip()
		}
		return err
	})
}

func readEntryInfo(r *fastjson.Reader, e *PolicyEntryInfo) error {
	return r.Object(func(key string) (err error) {
		switch key {
		case "resource":
			e.Resource, err = r.Str()
		case "actions":
			e.Actions, err = r.StringList()
		case "sourceips":
			e.SourceIPs, err = r.StringList()
		case "decision":
			e.Decision, err = r.Str()
		default:
			err = r.Skip()
		}
		return err
	})
}

// Acl is AclConverter.convertAcl: policies without entries are dropped,
// unknown actions too; a resource key that does not parse leaves the
// entry's resource unset (ok false), which validation refuses.
func (a *AclInfo) Acl() (acl Acl, resourcesOK bool) {
	acl.Subject = a.Subject
	resourcesOK = true
	for _, pi := range a.Policies {
		if len(pi.Entries) == 0 {
			continue
		}
		p := Policy{Type: ParsePolicyType(pi.PolicyType)}
		for _, ei := range pi.Entries {
			res, ok := ParseResource(ei.Resource)
			resourcesOK = resourcesOK && ok
			e := PolicyEntry{Resource: res, SourceIPs: ei.SourceIPs, Decision: ParseDecision(ei.Decision)}
			for _, name := range ei.Actions {
				if act := ParseAction(name); act != "" {
					e.Actions = append(e.Actions, act)
				}
			}
			p.Entries = append(p.Entries, e)
		}
		acl.Policies = append(acl.Policies, p)
	}
	return acl, resourcesOK
}

// AppendAclInfo appends an ACL as AclConverter.convertAcl writes it.
func AppendAclInfo(dst []byte, a Acl) []byte {
	st := fastjson.Fastjson
	dst = append(dst, '{')
	if len(a.Policies) > 0 {
		dst = append(fastjson.AppendField(dst, "policies"), '[')
		for _, p := range a.Policies {
			dst = appendPolicyInfo(fastjson.Comma(dst), p)
		}
		dst = append(dst, ']')
	}
	dst = fastjson.AppendOptionalStringField(dst, "subject", a.Subject, st)
	return append(dst, '}')
}

// AppendAclInfos appends a list of ACLs.
func AppendAclInfos(dst []byte, acls []Acl) []byte {
	dst = append(dst, '[')
	for _, a := range acls {
		dst = AppendAclInfo(fastjson.Comma(dst), a)
	}
	return append(dst, ']')
}

func appendPolicyInfo(dst []byte, p Policy) []byte {
	st := fastjson.Fastjson
	dst = append(dst, '{')
	if len(p.Entries) > 0 {
		dst = append(fastjson.AppendField(dst, "entries"), '[')
		for _, e := range p.Entries {
			dst = appendEntryInfo(fastjson.Comma(dst), e)
		}
		dst = append(dst, ']')
	}
	dst = fastjson.AppendOptionalStringField(dst, "policyType", string(p.Type), st)
	return append(dst, '}')
}

func appendEntryInfo(dst []byte, e PolicyEntry) []byte {
	st := fastjson.Fastjson
	dst = append(dst, '{')
	if len(e.Actions) > 0 {
		names := make([]string, len(e.Actions))
		for i, a := range e.Actions {
			names[i] = string(a)
		}
		dst = fastjson.AppendStringArray(fastjson.AppendField(dst, "actions"), names, st)
	}
	dst = fastjson.AppendOptionalStringField(dst, "decision", string(e.Decision), st)
	dst = fastjson.AppendOptionalStringField(dst, "resource", e.Resource.Key(), st)
	if len(e.SourceIPs) > 0 {
		dst = fastjson.AppendStringArray(fastjson.AppendField(dst, "sourceIps"), e.SourceIPs, st)
	}
	return append(dst, '}')
}
