package auth

import (
	"fmt"
	"slices"

	"github.com/rmqgo/rmqgo/internal/fastjson"
)

// The values of Java's LocalAuthenticationMetadataProvider (RocksDB
// config/users, key the username) and LocalAuthorizationMetadataProvider
// (config/acls, key the subject "User:name"), on-disk format: do not
// change. They are fastjson2's JSON.toJSONBytes of the model classes User
// and Acl: properties sorted by name, nulls left out, every enum written
// as its code (@JSONField(value = true) on the code):
//
//	user  {"password":"p","subjectType":1,"userStatus":1,"userType":2,"username":"u"}
//	acl   {"policies":[{"entries":[{"actions":[3,4],"decision":1,
//	        "environment":{"sourceIps":["10.10.0.0/16"]},
//	        "resource":{"resourceName":"t","resourcePattern":2,"resourceType":4}}],
//	        "policyType":1}],
//	       "subject":{"subjectType":1,"username":"u"}}
//
// An entry without source addresses has "environment":{} (AclConverter
// always makes one). Codes (index in each list): user type 1 Super 2 Normal; user status
// 1 enable 2 disable; subject type 1 User; policy type 1 Custom
// 2 Default; decision 1 Allow 2 Deny; resource pattern 1 ANY 2 LITERAL
// 3 PREFIXED; resource type and action as resourceTypes and actionNames.
// Java reads the subject of an ACL from its key, not from the value; names
// are read too, as fastjson2 reads an enum.
var (
	userTypeCodes   = []string{"", string(UserSuper), string(UserNormal)}
	userStatusCodes = []string{"", string(StatusEnable), string(StatusDisable)}
	policyTypeCodes = []string{"", string(PolicyCustom), string(PolicyDefault)}
	decisionCodes   = []string{"", string(Allow), string(Deny)}
	patternCodes    = []string{"", string(PatternAny), string(PatternLiteral), string(PatternPrefixed)}
)

const subjectTypeUser = 1

// appendCodeField appends "field":code, the code of name in codes ("" or unknown: nothing).
func appendCodeField(dst []byte, field string, codes []string, name string) []byte {
	if i := slices.Index(codes, name); i > 0 || (i == 0 && name != "") {
		return fastjson.AppendIntField(dst, field, int64(i), fastjson.Fastjson)
	}
	return dst
}

// AppendStoredUser appends a user as Java stores it.
func AppendStoredUser(dst []byte, u User) []byte {
	st := fastjson.Fastjson
	dst = append(dst, '{')
	dst = fastjson.AppendOptionalStringField(dst, "password", u.Password, st)
	dst = fastjson.AppendIntField(dst, "subjectType", subjectTypeUser, st)
	dst = appendCodeField(dst, "userStatus", userStatusCodes, string(u.Status))
	dst = appendCodeField(dst, "userType", userTypeCodes, string(u.Type))
	dst = fastjson.AppendOptionalStringField(dst, "username", u.Username, st)
	return append(dst, '}')
}

// DecodeStoredUser reads a user as Java stores it.
func DecodeStoredUser(data []byte) (User, error) {
	var u User
	err := fastjson.Decode(data, func(r *fastjson.Reader) error {
		return object(r, func(key string) (err error) {
			var s string
			switch fastjson.Property(key) {
			case "username":
				u.Username, err = r.Str()
			case "password":
				u.Password, err = r.Str()
			case "usertype":
				s, err = r.Enum(userTypeCodes)
				u.Type = UserType(s)
			case "userstatus":
				s, err = r.Enum(userStatusCodes)
				u.Status = UserStatus(s)
			default:
				err = r.Skip()
			}
			return err
		})
	})
	if err != nil {
		return User{}, fmt.Errorf("auth: stored user: %w", err)
	}
	return u, nil
}

// AppendStoredAcl appends an ACL as Java stores it.
func AppendStoredAcl(dst []byte, a Acl) []byte {
	st := fastjson.Fastjson
	dst = append(dst, '{')
	if len(a.Policies) > 0 {
		dst = append(fastjson.AppendField(dst, "policies"), '[')
		for _, p := range a.Policies {
			dst = appendStoredPolicy(fastjson.Comma(dst), p)
		}
		dst = append(dst, ']')
	}
	if name, ok := ParseSubject(a.Subject); ok {
		dst = append(fastjson.AppendField(dst, "subject"), '{')
		dst = fastjson.AppendIntField(dst, "subjectType", subjectTypeUser, st)
		dst = fastjson.AppendOptionalStringField(dst, "username", name, st)
		dst = append(dst, '}')
	}
	return append(dst, '}')
}

func appendStoredPolicy(dst []byte, p Policy) []byte {
	dst = append(dst, '{')
	if len(p.Entries) > 0 {
		dst = append(fastjson.AppendField(dst, "entries"), '[')
		for _, e := range p.Entries {
			dst = appendStoredEntry(fastjson.Comma(dst), e)
		}
		dst = append(dst, ']')
	}
	dst = appendCodeField(dst, "policyType", policyTypeCodes, string(p.Type))
	return append(dst, '}')
}

func appendStoredEntry(dst []byte, e PolicyEntry) []byte {
	st := fastjson.Fastjson
	dst = append(dst, '{')
	if len(e.Actions) > 0 {
		dst = append(fastjson.AppendField(dst, "actions"), '[')
		for _, a := range e.Actions {
			dst = fastjson.AppendLong(fastjson.Comma(dst), int64(slices.Index(actionNames, string(a))), st)
		}
		dst = append(dst, ']')
	}
	dst = appendCodeField(dst, "decision", decisionCodes, string(e.Decision))
	// AclConverter gives every entry an Environment: {} without addresses.
	dst = append(fastjson.AppendField(dst, "environment"), '{')
	if len(e.SourceIPs) > 0 {
		dst = fastjson.AppendStringArray(fastjson.AppendField(dst, "sourceIps"), e.SourceIPs, st)
	}
	dst = append(dst, '}')
	dst = append(fastjson.AppendField(dst, "resource"), '{')
	dst = fastjson.AppendOptionalStringField(dst, "resourceName", e.Resource.Name, st)
	dst = appendCodeField(dst, "resourcePattern", patternCodes, string(e.Resource.Pattern))
	dst = appendCodeField(dst, "resourceType", resourceTypes, string(e.Resource.Type))
	dst = append(dst, '}')
	return append(dst, '}')
}

// DecodeStoredAcl reads an ACL as Java stores it; its subject is the key
// (as AclCacheLoader takes it).
func DecodeStoredAcl(subject string, data []byte) (Acl, error) {
	a := Acl{Subject: subject}
	err := fastjson.Decode(data, func(r *fastjson.Reader) error {
		return object(r, func(key string) error {
			if fastjson.Property(key) != "policies" {
				return r.Skip()
			}
			return array(r, func() error {
				p, err := readStoredPolicy(r)
				if len(p.Entries) > 0 {
					a.Policies = append(a.Policies, p)
				}
				return err
			})
		})
	})
	if err != nil {
		return Acl{}, fmt.Errorf("auth: stored acl %s: %w", subject, err)
	}
	return a, nil
}

func readStoredPolicy(r *fastjson.Reader) (p Policy, err error) {
	err = object(r, func(key string) (err error) {
		var s string
		switch fastjson.Property(key) {
		case "policytype":
			s, err = r.Enum(policyTypeCodes)
			p.Type = PolicyType(s)
		case "entries":
			err = array(r, func() error {
				e, err := readStoredEntry(r)
				p.Entries = append(p.Entries, e)
				return err
			})
		default:
			err = r.Skip()
		}
		return err
	})
	return p, err
}

func readStoredEntry(r *fastjson.Reader) (e PolicyEntry, err error) {
	err = object(r, func(key string) (err error) {
		var s string
		switch fastjson.Property(key) {
		case "resource":
			e.Resource, err = readStoredResource(r)
		case "actions":
			err = array(r, func() error {
				a, err := r.Enum(actionNames)
				if a != "" && a != actionNames[0] {
					e.Actions = append(e.Actions, Action(a))
				}
				return err
			})
		case "environment":
			err = object(r, func(key string) (err error) {
				if fastjson.Property(key) != "sourceips" {
					return r.Skip()
				}
				e.SourceIPs, err = r.StringList()
				return err
			})
		case "decision":
			s, err = r.Enum(decisionCodes)
			e.Decision = Decision(s)
		default:
			err = r.Skip()
		}
		return err
	})
	return e, err
}

func readStoredResource(r *fastjson.Reader) (res Resource, err error) {
	err = object(r, func(key string) (err error) {
		var s string
		switch fastjson.Property(key) {
		case "resourcetype":
			s, err = r.Enum(resourceTypes)
			res.Type = ResourceType(s)
		case "resourcename":
			res.Name, err = r.Str()
		case "resourcepattern":
			s, err = r.Enum(patternCodes)
			res.Pattern = Pattern(s)
		default:
			err = r.Skip()
		}
		return err
	})
	return res, err
}

// object is Reader.Object that takes null as an absent object.
func object(r *fastjson.Reader, fn func(key string) error) error {
	if r.Null() {
		return nil
	}
	return r.Object(fn)
}

// array is Reader.Array that takes null as an absent list.
func array(r *fastjson.Reader, fn func() error) error {
	if r.Null() {
		return nil
	}
	return r.Array(fn)
}
