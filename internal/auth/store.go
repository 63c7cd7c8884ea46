package auth

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// The files Store keeps its users and ACLs in, in the broker's config
// directory (<storePathRootDir>/config), beside the RocksDB directories
// users/ and acls/ where Java's LocalAuthenticationMetadataProvider and
// LocalAuthorizationMetadataProvider keep theirs (on-disk format: do not
// change): a JSON list of UserInfo bodies and a JSON list of AclInfo
// bodies, sorted by key as RocksDB iterates them, written whole to a
// temporary file and renamed over the old one.
//
//	users.json  [{"password":"p","userStatus":"enable","userType":"Super","username":"admin"}]
//	acls.json   [{"policies":[{"entries":[...],"policyType":"Custom"}],"subject":"User:u"}]
//
// Difference from Java: a store directory moved from a Java 5.3.3 broker
// keeps its ACL 1.0 files (and so migrateAuthFromV1Enabled) but not the
// users and ACLs in its RocksDB directories, which this broker cannot
// read; they are created again with mqadmin (or initAuthenticationUser).
const (
	UsersFile = "users.json"
	AclsFile  = "acls.json"
)

// Store holds the users and ACLs and writes each change to its files.
type Store struct {
	dir string
	// mu guards users and acls; a change is written before it returns.
	mu    sync.RWMutex
	users map[string]User
	acls  map[string]Acl
}

// OpenStore reads the files of dir (absent files: no users, no ACLs).
func OpenStore(dir string) (*Store, error) {
	s := &Store{dir: dir, users: map[string]User{}, acls: map[string]Acl{}}
	if data, err := readIfExists(filepath.Join(dir, UsersFile)); err != nil {
		return nil, err
	} else if len(data) > 0 {
		infos, err := DecodeUserInfos(data)
		if err != nil {
			return nil, fmt.Errorf("auth: %s: %w", UsersFile, err)
		}
		for _, u := range infos {
			s.users[u.Username] = u.User()
		}
	}
	if data, err := readIfExists(filepath.Join(dir, AclsFile)); err != nil {
		return nil, err
	} else if len(data) > 0 {
		infos, err := DecodeAclInfos(data)
		if err != nil {
			return nil, fmt.Errorf("auth: %s: %w", AclsFile, err)
		}
		for i := range infos {
			a, _ := infos[i].Acl()
			s.acls[a.Subject] = a
		}
	}
	return s, nil
}

func readIfExists(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil
	}
	return data, err
}

// User is the user of a name, if any.
func (s *Store) User(name string) (User, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	u, ok := s.users[name]
	return u, ok
}

// Acl is the ACL of a subject key, if any (a copy).
func (s *Store) Acl(subject string) (Acl, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	a, ok := s.acls[subject]
	return cloneAcl(a), ok
}

func cloneAcl(a Acl) Acl {
	a.Policies = append([]Policy(nil), a.Policies...)
	for i := range a.Policies {
		a.Policies[i] = clonePolicy(a.Policies[i])
	}
	return a
}

// Users lists the users whose name contains filter (all for a blank
// filter), by name.
func (s *Store) Users(filter string) []User {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []User
	for _, k := range sortedKeys(s.users) {
		if strings.TrimSpace(filter) == "" || strings.Contains(k, filter) {
			out = append(out, s.users[k])
		}
	}
	return out
}

// Acls are all ACLs by subject key.
func (s *Store) Acls() []Acl {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]Acl, 0, len(s.acls))
	for _, k := range sortedKeys(s.acls) {
		out = append(out, cloneAcl(s.acls[k]))
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// putUser stores a user and writes the file.
func (s *Store) putUser(u User) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users[u.Username] = u
	return s.writeUsersLocked()
}

// deleteUser removes a user and its ACL.
func (s *Store) deleteUser(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.users, name)
	delete(s.acls, SubjectKey(name))
	if err := s.writeUsersLocked(); err != nil {
		return err
	}
	return s.writeAclsLocked()
}

// putAcl stores an ACL (nil policies: removes it) and writes the file.
func (s *Store) putAcl(a Acl) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(a.Policies) == 0 {
		delete(s.acls, a.Subject)
	} else {
		s.acls[a.Subject] = cloneAcl(a)
	}
	return s.writeAclsLocked()
}

func (s *Store) writeUsersLocked() error {
	users := make([]User, 0, len(s.users))
	for _, k := range sortedKeys(s.users) {
		users = append(users, s.users[k])
	}
	return s.writeFile(UsersFile, AppendUserInfos(nil, users))
}

func (s *Store) writeAclsLocked() error {
	acls := make([]Acl, 0, len(s.acls))
	for _, k := range sortedKeys(s.acls) {
		acls = append(acls, s.acls[k])
	}
	return s.writeFile(AclsFile, AppendAclInfos(nil, acls))
}

// writeFile replaces a file: a temporary file, synced, renamed.
func (s *Store) writeFile(name string, data []byte) error {
	if err := os.MkdirAll(s.dir, 0o755); err != nil {
		return fmt.Errorf("%w: %v", ErrSystem, err)
	}
	path := filepath.Join(s.dir, name)
	tmp, err := os.CreateTemp(s.dir, name+".tmp*")
	if err != nil {
		return fmt.Errorf("%w: %v", ErrSystem, err)
	}
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("%w: %v", ErrSystem, err)
	}
	return nil
}
