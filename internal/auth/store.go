package auth

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/rmqgo/rmqgo/internal/fastjson"
	"github.com/rmqgo/rmqgo/internal/rocksdb"
)

// Where Store keeps the users and ACLs: in the broker's config directory
// (<storePathRootDir>/config, Java's authConfigPath), the RocksDB
// databases of Java 5.3.3's LocalAuthenticationMetadataProvider (users/,
// key the username) and LocalAuthorizationMetadataProvider (acls/, key
// the subject "User:name"), each a ConfigRocksDBStorage with the column
// families default (the keys), kvDataVersion and forbidden (unused by
// these providers; kept as read). Values: stored.go. A Java broker's
// store directory moves to this broker and back with its users and ACLs.
//
// Each change writes the whole database anew (internal/rocksdb Write:
// a WAL holding every key, a MANIFEST, CURRENT renamed over): the users
// and ACLs are few. Older versions of this broker kept them in
// users.json and acls.json (lists of the UserInfo and AclInfo admin
// bodies); when a database is absent and its file present, the file is
// read, written to the database and renamed to <name>.migrated.
const (
	UsersDB   = "users"
	AclsDB    = "acls"
	UsersFile = "users.json"
	AclsFile  = "acls.json"
)

// configFamilies are ConfigRocksDBStorage's column families, by id.
var configFamilies = []string{rocksdb.DefaultFamily, "kvDataVersion", "forbidden"}

// Store holds the users and ACLs and writes each change to its databases.
type Store struct {
	dir string
	// mu guards users, acls and the databases; a change is written
	// before it returns.
	mu    sync.RWMutex
	users map[string]User
	acls  map[string]Acl
	// usersOther, aclsOther: the databases' column families but the
	// default, as read (written back unchanged).
	usersOther, aclsOther []rocksdb.Family
}

// OpenStore reads the databases of dir (absent: the older JSON files,
// migrated; none: no users, no ACLs).
func OpenStore(dir string) (*Store, error) {
	s := &Store{dir: dir, users: map[string]User{}, acls: map[string]Acl{}}
	migrated, err := s.openUsers()
	if err != nil {
		return nil, err
	}
	aclsMigrated, err := s.openAcls()
	if err != nil {
		return nil, err
	}
	if migrated {
		if err := s.migrateFile(UsersFile, s.writeUsersLocked); err != nil {
			return nil, err
		}
	}
	if aclsMigrated {
		if err := s.migrateFile(AclsFile, s.writeAclsLocked); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// openUsers reads the users' database, or else the older file (true).
func (s *Store) openUsers() (fromFile bool, err error) {
	fams, err := readDB(filepath.Join(s.dir, UsersDB))
	if err != nil || fams == nil {
		if err == nil {
			fromFile, err = s.readUsersFile()
		}
		s.usersOther = otherFamilies(nil)
		return fromFile, err
	}
	for k, v := range fams[0].Entries {
		u, err := DecodeStoredUser(v)
		if err != nil {
			return false, fmt.Errorf("%w: %s/%s: %v", ErrSystem, UsersDB, k, err)
		}
		s.users[k] = u
	}
	s.usersOther = otherFamilies(fams)
	return false, nil
}

// openAcls reads the ACLs' database, or else the older file (true).
func (s *Store) openAcls() (fromFile bool, err error) {
	fams, err := readDB(filepath.Join(s.dir, AclsDB))
	if err != nil || fams == nil {
		if err == nil {
			fromFile, err = s.readAclsFile()
		}
		s.aclsOther = otherFamilies(nil)
		return fromFile, err
	}
	for k, v := range fams[0].Entries {
		a, err := DecodeStoredAcl(k, v)
		if err != nil {
			return false, fmt.Errorf("%w: %s/%s: %v", ErrSystem, AclsDB, k, err)
		}
		if len(a.Policies) > 0 {
			s.acls[k] = a
		}
	}
	s.aclsOther = otherFamilies(fams)
	return false, nil
}

// readDB reads a database, the default family first; nil when absent.
func readDB(dir string) ([]rocksdb.Family, error) {
	fams, err := rocksdb.Read(dir)
	if errors.Is(err, rocksdb.ErrNotFound) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSystem, err)
	}
	for i, f := range fams {
		if f.Name == rocksdb.DefaultFamily {
			fams[0], fams[i] = fams[i], fams[0]
		}
	}
	return fams, nil
}

// otherFamilies are ConfigRocksDBStorage's families but the default, as
// read (empty when absent), then any others read.
func otherFamilies(read []rocksdb.Family) []rocksdb.Family {
	byName := map[string]rocksdb.Family{}
	for _, f := range read {
		byName[f.Name] = f
	}
	var out []rocksdb.Family
	for _, name := range configFamilies[1:] {
		f, ok := byName[name]
		if !ok {
			f = rocksdb.Family{Name: name, Entries: map[string][]byte{}}
		}
		out = append(out, f)
		delete(byName, name)
	}
	for _, f := range read {
		if _, ok := byName[f.Name]; ok && f.Name != rocksdb.DefaultFamily {
			out = append(out, f)
		}
	}
	return out
}

// readUsersFile reads the older users.json; true when it exists.
func (s *Store) readUsersFile() (bool, error) {
	data, ok, err := readOlderFile(s.dir, UsersFile)
	if err != nil || !ok || len(data) == 0 {
		return ok, err
	}
	infos, err := DecodeUserInfos(data)
	if err != nil {
		return false, fmt.Errorf("auth: %s: %w", UsersFile, err)
	}
	for _, u := range infos {
		s.users[u.Username] = u.User()
	}
	return true, nil
}

// readAclsFile reads the older acls.json; true when it exists.
func (s *Store) readAclsFile() (bool, error) {
	data, ok, err := readOlderFile(s.dir, AclsFile)
	if err != nil || !ok || len(data) == 0 {
		return ok, err
	}
	infos, err := DecodeAclInfos(data)
	if err != nil {
		return false, fmt.Errorf("auth: %s: %w", AclsFile, err)
	}
	for i := range infos {
		a, _ := infos[i].Acl()
		s.acls[a.Subject] = a
	}
	return true, nil
}

// migrateFile writes what an older file held to its database and renames
// the file to <name>.migrated.
func (s *Store) migrateFile(name string, write func() error) error {
	if err := write(); err != nil {
		return err
	}
	path := filepath.Join(s.dir, name)
	if err := os.Rename(path, path+".migrated"); err != nil {
		return fmt.Errorf("%w: %v", ErrSystem, err)
	}
	return nil
}

// readOlderFile reads an older file of dir; false when absent.
func readOlderFile(dir, name string) ([]byte, bool, error) {
	data, err := os.ReadFile(filepath.Join(dir, name))
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	} else if err != nil {
		return nil, false, fmt.Errorf("%w: %v", ErrSystem, err)
	}
	return data, true, nil
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
	for _, k := range fastjson.SortedKeys(s.users) {
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
	for _, k := range fastjson.SortedKeys(s.acls) {
		out = append(out, cloneAcl(s.acls[k]))
	}
	return out
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
	entries := make(map[string][]byte, len(s.users))
	for k, u := range s.users {
		entries[k] = AppendStoredUser(nil, u)
	}
	return s.writeDB(UsersDB, entries, s.usersOther)
}

func (s *Store) writeAclsLocked() error {
	entries := make(map[string][]byte, len(s.acls))
	for k, a := range s.acls {
		entries[k] = AppendStoredAcl(nil, a)
	}
	return s.writeDB(AclsDB, entries, s.aclsOther)
}

// writeDB replaces a database: the default family's entries, the others.
func (s *Store) writeDB(name string, entries map[string][]byte, others []rocksdb.Family) error {
	fams := append([]rocksdb.Family{{Name: rocksdb.DefaultFamily, Entries: entries}}, others...)
	if err := rocksdb.Write(filepath.Join(s.dir, name), fams); err != nil {
		return fmt.Errorf("%w: %v", ErrSystem, err)
	}
	return nil
}
