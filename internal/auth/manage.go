package auth

import (
	"fmt"
	"slices"
	"strings"
)

// The admin operations of AuthenticationMetadataManagerImpl and
// AuthorizationMetadataManagerImpl: each refusal is a *Denied with
// Java's message, in Java's order of checks.

// CreateUser is createUser: a blank name or password is refused, the type
// defaults to Normal and the state to enable, an existing name is refused.
func (s *Store) CreateUser(u User) error {
	if err := validateUser(u, true); err != nil {
		return err
	}
	if u.Type == "" {
		u.Type = UserNormal
	}
	if u.Status == "" {
		u.Status = StatusEnable
	}
	if _, ok := s.User(u.Username); ok {
		return deny("The user is existed")
	}
	return s.putUser(u)
}

// EnsureUser creates a super user unless the name exists
// (initAuthenticationUser, innerClientAuthenticationCredentials).
func (s *Store) EnsureUser(u User) error {
	if _, ok := s.User(u.Username); ok {
		return nil
	}
	u.Type = UserSuper
	return s.CreateUser(u)
}

// UpdateUser is updateUser: what is given (password, type, state)
// replaces what the user has.
func (s *Store) UpdateUser(u User) error {
	if err := validateUser(u, false); err != nil {
		return err
	}
	old, ok := s.User(u.Username)
	if !ok {
		return deny("The user is not exist")
	}
	if strings.TrimSpace(u.Password) != "" {
		old.Password = u.Password
	}
	if u.Type != "" {
		old.Type = u.Type
	}
	if u.Status != "" {
		old.Status = u.Status
	}
	return s.putUser(old)
}

// DeleteUser is deleteUser: the user and its ACL go (an unknown name is
// not refused).
func (s *Store) DeleteUser(name string) error {
	if strings.TrimSpace(name) == "" {
		return deny("username can not be blank")
	}
	return s.deleteUser(name)
}

// IsSuper is isSuperUser.
func (s *Store) IsSuper(name string) (bool, error) {
	u, ok := s.User(name)
	if !ok {
		return false, deny(fmt.Sprintf("User:%s is not found", name))
	}
	return u.Type == UserSuper, nil
}

func validateUser(u User, create bool) error {
	if strings.TrimSpace(u.Username) == "" {
		return deny("username can not be blank")
	}
	if create && strings.TrimSpace(u.Password) == "" {
		return deny("password can not be blank")
	}
	return nil
}

// PutAcl is createAcl and updateAcl (the two are the same in 5.3.3): the
// ACL is validated, its policies without a type become Custom, its
// subject must be a user, and its policies join the subject's ACL.
func (s *Store) PutAcl(a Acl) error {
	if err := validateAcl(a); err != nil {
		return err
	}
	for i := range a.Policies {
		if a.Policies[i].Type == "" {
			a.Policies[i].Type = PolicyCustom
		}
	}
	name, _ := ParseSubject(a.Subject)
	if _, ok := s.User(name); !ok {
		return deny(fmt.Sprintf("The subject of %s is not exist.", a.Subject))
	}
	old, ok := s.Acl(a.Subject)
	if !ok {
		return s.putAcl(a)
	}
	old.Update(a.Policies)
	return s.putAcl(old)
}

// DeleteAcl is deleteAcl: with a resource, that entry of the policy type
// (Custom when "") goes; without one, or when nothing is left, the ACL.
func (s *Store) DeleteAcl(subject string, t PolicyType, r *Resource) error {
	name, _ := ParseSubject(subject)
	if t == "" {
		t = PolicyCustom
	}
	if _, ok := s.User(name); !ok {
		return deny("The subject is not exist.")
	}
	old, ok := s.Acl(subject)
	if !ok {
		return deny("The acl is not exist.")
	}
	if r == nil {
		old.Policies = nil
	} else {
		old.Delete(t, *r)
	}
	return s.putAcl(old)
}

// GetAcl is getAcl: the subject's ACL, ok false when it has none.
func (s *Store) GetAcl(subject string) (Acl, bool, error) {
	name, _ := ParseSubject(subject)
	if _, ok := s.User(name); !ok {
		return Acl{}, false, deny("The subject is not exist.")
	}
	a, ok := s.Acl(subject)
	return a, ok, nil
}

// ListAcls is listAcl: the ACLs whose subject key contains subjectFilter;
// with a resourceFilter that the subject key does not contain, only the
// entries whose resource key contains it (Java's condition, kept).
func (s *Store) ListAcls(subjectFilter, resourceFilter string) []Acl {
	var out []Acl
	for _, a := range s.Acls() {
		if strings.TrimSpace(subjectFilter) != "" && !strings.Contains(a.Subject, subjectFilter) {
			continue
		}
		filter := strings.TrimSpace(resourceFilter) != "" && !strings.Contains(a.Subject, resourceFilter)
		var kept []Policy
		for _, p := range a.Policies {
			if filter {
				p.Entries = slices.DeleteFunc(p.Entries, func(e PolicyEntry) bool {
					return !strings.Contains(e.Resource.Key(), resourceFilter)
				})
			}
			if len(p.Entries) > 0 {
				kept = append(kept, p)
			}
		}
		if len(kept) > 0 {
			out = append(out, Acl{Subject: a.Subject, Policies: kept})
		}
	}
	return out
}

// validateAcl is AuthorizationMetadataManagerImpl.validate.
func validateAcl(a Acl) error {
	if len(a.Policies) == 0 {
		return deny("The policies is empty.")
	}
	for _, p := range a.Policies {
		if len(p.Entries) == 0 {
			return deny("The policy entries is empty.")
		}
		for _, e := range p.Entries {
			if err := validateEntry(e); err != nil {
				return err
			}
		}
	}
	return nil
}

func validateEntry(e PolicyEntry) error {
	switch {
	case e.Resource.Type == "":
		return deny("The resource is null.")
	case len(e.Actions) == 0:
		return deny("The actions is empty.")
	case slices.Contains(e.Actions, ActionAny):
		return deny("The actions can not be Any.")
	}
	for _, ip := range e.SourceIPs {
		if strings.TrimSpace(ip) == "" {
			return deny("The source ip is empty.")
		}
		if !validIPOrCIDR(ip) {
			return deny("The source ip is invalid.")
		}
	}
	if e.Decision == "" {
		return deny("The decision is null or illegal.")
	}
	return nil
}
