package auth

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/rocksdb"
)

func familyNames(fams []rocksdb.Family) []string {
	var out []string
	for _, f := range fams {
		out = append(out, f.Name)
	}
	return out
}

func TestStoreMigratesTheOlderJSONFiles(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, UsersFile),
		[]byte(`[{"password":"bob12345","userStatus":"enable","userType":"Normal","username":"bob"}]`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, AclsFile), []byte(`[{"policies":[{"entries":[{"actions":["Pub"],`+
		`"decision":"Allow","resource":"Topic:T"}],"policyType":"Custom"}],"subject":"User:bob"}]`), 0o644))
	s, err := OpenStore(dir)
	require.NoError(t, err)
	u, ok := s.User("bob")
	require.True(t, ok)
	assert.Equal(t, User{Username: "bob", Password: "bob12345", Type: UserNormal, Status: StatusEnable}, u)
	for _, name := range []string{UsersFile, AclsFile} {
		_, err := os.Stat(filepath.Join(dir, name))
		assert.True(t, os.IsNotExist(err), "%s renamed", name)
		_, err = os.Stat(filepath.Join(dir, name+".migrated"))
		assert.NoError(t, err)
	}
	again, err := OpenStore(dir)
	require.NoError(t, err)
	assert.Equal(t, s.Users(""), again.Users(""))
	assert.Equal(t, s.Acls(), again.Acls())
	require.Len(t, again.Acls(), 1)
}

func TestStoreKeepsTheOtherColumnFamilies(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, rocksdb.Write(filepath.Join(dir, UsersDB), []rocksdb.Family{
		{Name: rocksdb.DefaultFamily, Entries: map[string][]byte{"ann": []byte(`{"password":"p","userType":"Super","username":"ann"}`)}},
		{Name: "forbidden", Entries: map[string][]byte{"g@t": []byte("1")}},
	}))
	s, err := OpenStore(dir)
	require.NoError(t, err)
	u, ok := s.User("ann")
	require.True(t, ok, "enum names are read as fastjson2 reads them")
	assert.Equal(t, UserSuper, u.Type)
	require.NoError(t, s.CreateUser(User{Username: "bob", Password: "bob12345"}))
	fams, err := rocksdb.Read(filepath.Join(dir, UsersDB))
	require.NoError(t, err)
	require.Equal(t, []string{"default", "kvDataVersion", "forbidden"}, familyNames(fams))
	assert.Equal(t, map[string][]byte{"g@t": []byte("1")}, fams[2].Entries)
	assert.Len(t, fams[0].Entries, 2)
}

// testdata/java-broker: config/users and config/acls as the Java 5.3.3
// broker left them when killed after mqadmin createUser rdbJava (Super),
// rdbNormal and createAcl User:rdbNormal (compat/acl2-rocksdb.sh with
// ACL2RDB_FIXTURE): its writes are in the WAL only.
func TestStoreReadsWhatTheJavaBrokerWrote(t *testing.T) {
	dir := t.TempDir()
	for _, db := range []string{UsersDB, AclsDB} {
		require.NoError(t, os.CopyFS(filepath.Join(dir, db), os.DirFS(filepath.Join("testdata", "java-broker", db))))
	}
	s, err := OpenStore(dir)
	require.NoError(t, err)
	assert.Equal(t, []User{
		{Username: "acl2Root", Password: "acl2Root123", Type: UserSuper, Status: StatusEnable},
		{Username: "rdbJava", Password: "rdbJava123", Type: UserSuper, Status: StatusEnable},
		{Username: "rdbNormal", Password: "rdbNormal123", Type: UserNormal, Status: StatusEnable},
	}, s.Users(""))
	assert.Equal(t, []Acl{{Subject: "User:rdbNormal", Policies: []Policy{{Type: PolicyCustom, Entries: []PolicyEntry{{
		Resource: Topic("RdbTopic"), Actions: []Action{ActionPub, ActionSub},
		SourceIPs: []string{"10.10.0.0/16"}, Decision: Allow}}}}}}, s.Acls())

	// Ours writes the bytes Java wrote.
	for _, c := range []struct{ db, key string }{{UsersDB, "rdbNormal"}, {AclsDB, "User:rdbNormal"}} {
		fams, err := rocksdb.Read(filepath.Join("testdata", "java-broker", c.db))
		require.NoError(t, err)
		var ours []byte
		if c.db == UsersDB {
			u, _ := s.User(c.key)
			ours = AppendStoredUser(nil, u)
		} else {
			a, _ := s.Acl(c.key)
			ours = AppendStoredAcl(nil, a)
		}
		assert.Equal(t, string(fams[0].Entries[c.key]), string(ours), c.key)
	}
}
