package auth

import (
	"errors"
	"strings"

	"github.com/rmqgo/rmqgo/internal/acl"
)

// MigrateV1 is AuthMigrator.migrate (migrateAuthFromV1Enabled): every
// ACL 1.0 account of the files (the first of an accessKey wins) that is
// not a user yet becomes one, Super when admin, with an ACL made of its
// permissions:
//
//	topicPerms  t=PERM   Custom entry Topic:t          (group g=PERM: Group:g)
//	defaultTopicPerm     Default entry Topic:*         (defaultGroupPerm: Group:*)
//	PERM                 PUB -> Pub, SUB -> Sub, PUB|SUB -> Pub,Sub, else All;
//	                     decision Deny for DENY (and blank), else Allow
//
// The white addresses are not carried over (ACL 2.0 has no such thing).
// An account that cannot be migrated is skipped, its error joined to the
// result, as Java logs it and goes on.
func (s *Store) MigrateV1(files []acl.File) error {
	seen := map[string]bool{}
	var errs []error
	for _, f := range files {
		for _, a := range f.Accounts {
			if seen[a.AccessKey] {
				continue
			}
			seen[a.AccessKey] = true
			if _, ok := s.User(a.AccessKey); ok {
				continue
			}
			if err := s.migrateAccount(a); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// migrateAccount is createUserAndAcl.
func (s *Store) migrateAccount(a acl.Account) error {
	u := User{Username: a.AccessKey, Password: a.SecretKey, Type: UserNormal}
	if a.Admin {
		u.Type = UserSuper
	}
	if err := s.CreateUser(u); err != nil {
		return err
	}
	var policies []Policy
	custom := Policy{Type: PolicyCustom}
	custom.Entries = append(custom.Entries, v1Entries(a.TopicPerms, Topic)...)
	custom.Entries = append(custom.Entries, v1Entries(a.GroupPerms, Group)...)
	if len(custom.Entries) > 0 {
		policies = append(policies, custom)
	}
	def := Policy{Type: PolicyDefault}
	if p := strings.TrimSpace(a.DefaultTopicPerm); p != "" {
		def.Entries = append(def.Entries, v1Entry(Resource{Type: ResourceTopic, Pattern: PatternAny}, p))
	}
	if p := strings.TrimSpace(a.DefaultGroupPerm); p != "" {
		def.Entries = append(def.Entries, v1Entry(Resource{Type: ResourceGroup, Pattern: PatternAny}, p))
	}
	if len(def.Entries) > 0 {
		policies = append(policies, def)
	}
	if len(policies) == 0 {
		return nil
	}
	return s.PutAcl(Acl{Subject: SubjectKey(a.AccessKey), Policies: policies})
}

// v1Entries are the entries of "name=PERM" items; others are skipped.
func v1Entries(perms []string, resource func(string) Resource) []PolicyEntry {
	var out []PolicyEntry
	for _, p := range perms {
		parts := strings.FieldsFunc(p, func(r rune) bool { return r == '=' })
		if len(parts) != 2 {
			continue
		}
		out = append(out, v1Entry(resource(strings.TrimSpace(parts[0])), strings.TrimSpace(parts[1])))
	}
	return out
}

// v1Entry is one entry: parseActions and parseDecision.
func v1Entry(r Resource, perm string) PolicyEntry {
	e := PolicyEntry{Resource: r, Decision: Allow}
	switch perm {
	case "PUB":
		e.Actions = []Action{ActionPub}
	case "SUB":
		e.Actions = []Action{ActionSub}
	case "PUB|SUB", "SUB|PUB":
		e.Actions = []Action{ActionPub, ActionSub}
	default:
		e.Actions = []Action{ActionAll}
	}
	if perm == "" || perm == "DENY" {
		e.Decision = Deny
	}
	return e
}
