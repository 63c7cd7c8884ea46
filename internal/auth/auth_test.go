package auth

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/rmqgo/rmqgo/internal/acl"
	"github.com/rmqgo/rmqgo/internal/rocksdb"
)

func newStore(t *testing.T) *Store {
	t.Helper()
	s, err := OpenStore(t.TempDir())
	require.NoError(t, err)
	return s
}

func deniedMsg(t *testing.T, err error) string {
	t.Helper()
	var d *Denied
	require.True(t, errors.As(err, &d), "want a refusal, got %v", err)
	return d.Msg
}

// signed signs ext and body as AclClientRPCHook does.
func signed(user, secret string, ext map[string]string, body []byte) Signed {
	ext[acl.FieldAccessKey] = user
	ext[acl.FieldSignature] = acl.Sign(acl.Content(ext, body), secret)
	return SignedContent(ext, body, 500)
}

func TestAuthenticateAsJava(t *testing.T) {
	s := newStore(t)
	require.NoError(t, s.CreateUser(User{Username: "alice", Password: "alice123"}))
	require.NoError(t, s.CreateUser(User{Username: "off", Password: "off12345", Status: StatusDisable}))

	assert.NoError(t, s.Authenticate(signed("alice", "alice123", map[string]string{"topic": "T"}, []byte("body"))))
	assert.Equal(t, "check signature failed.", deniedMsg(t, s.Authenticate(signed("alice", "wrong", map[string]string{"topic": "T"}, nil))))
	assert.Equal(t, "User:bob is not found.", deniedMsg(t, s.Authenticate(signed("bob", "x", map[string]string{}, nil))))
	assert.Equal(t, "User:off is disabled.", deniedMsg(t, s.Authenticate(signed("off", "off12345", map[string]string{}, nil))))
	assert.Equal(t, "username cannot be null.", deniedMsg(t, s.Authenticate(SignedContent(map[string]string{"topic": "T"}, nil, 500))))
	assert.Equal(t, "username cannot be null.", deniedMsg(t, s.Authenticate(SignedContent(nil, nil, 500))))

	tampered := signed("alice", "alice123", map[string]string{"topic": "T"}, []byte("body"))
	tampered.Content = append(tampered.Content, 'x')
	assert.Equal(t, "check signature failed.", deniedMsg(t, s.Authenticate(tampered)))
}

func TestSignedContentLeavesOutUniqueKeyQueryOfOldClients(t *testing.T) {
	ext := map[string]string{"AccessKey": "a", "Signature": "s", "_UNIQUE_KEY_QUERY": "q", "topic": "T"}
	assert.Equal(t, "aqT", string(SignedContent(ext, nil, 500).Content))
	assert.Equal(t, "aT", string(SignedContent(ext, nil, versionV4_9_3).Content))
}

func aclOf(entries ...PolicyEntry) Acl {
	return Acl{Subject: "User:bob", Policies: []Policy{{Type: PolicyCustom, Entries: entries}}}
}

func entry(key string, d Decision, ips []string, actions ...Action) PolicyEntry {
	r, _ := ParseResource(key)
	return PolicyEntry{Resource: r, Actions: actions, SourceIPs: ips, Decision: d}
}

func TestAuthorizeAsJava(t *testing.T) {
	s := newStore(t)
	require.NoError(t, s.CreateUser(User{Username: "root", Password: "root1234", Type: UserSuper}))
	require.NoError(t, s.CreateUser(User{Username: "bob", Password: "bob12345"}))
	require.NoError(t, s.PutAcl(aclOf(
		entry("Topic:Orders", Allow, nil, ActionPub, ActionSub),
		entry("Topic:Pay*", Allow, []string{"10.0.0.0/8"}, ActionPub),
		entry("Topic:PaySecret", Deny, nil, ActionPub),
		entry("Group:G*", Allow, nil, ActionSub),
		entry("Group:GDenied", Deny, nil, ActionSub),
	)))
	ask := func(user string, r Resource, ip string, actions ...Action) error {
		return s.Authorize(Context{Username: user, HasUser: true, Resource: r, Actions: actions, SourceIP: ip})
	}
	assert.NoError(t, ask("bob", Topic("Orders"), "127.0.0.1", ActionPub))
	assert.NoError(t, ask("bob", Topic("PayIn"), "10.1.2.3", ActionPub))
	assert.Equal(t, "User:bob has no permission to access Topic:PayIn from 127.0.0.1, no matched policies.",
		deniedMsg(t, ask("bob", Topic("PayIn"), "127.0.0.1", ActionPub)))
	assert.Equal(t, "User:bob has no permission to access Topic:PaySecret from 10.1.2.3, the decision is deny.",
		deniedMsg(t, ask("bob", Topic("PaySecret"), "10.1.2.3", ActionPub)), "the literal entry comes before the prefix")
	assert.Equal(t, "User:bob has no permission to access Topic:Other from 127.0.0.1, no matched policies.",
		deniedMsg(t, ask("bob", Topic("Other"), "127.0.0.1", ActionSub)))
	assert.NoError(t, ask("bob", Group("%RETRY%GA"), "127.0.0.1", ActionSub), "a retry topic is its group")
	assert.Equal(t, "User:bob has no permission to access Group:GDenied from 127.0.0.1, the decision is deny.",
		deniedMsg(t, ask("bob", Group("GDenied"), "127.0.0.1", ActionSub)))
	assert.NoError(t, ask("root", Topic("Other"), "1.2.3.4", ActionPub), "a super user may do anything")
	assert.Equal(t, "User:nobody not found.", deniedMsg(t, ask("nobody", Topic("T"), "1.2.3.4", ActionPub)))
	assert.Equal(t, "Authorization failed. Please verify your access rights and try again.",
		deniedMsg(t, s.Authorize(Context{Resource: Topic("T"), Actions: []Action{ActionPub}})))
}

func TestAuthorizeAllAndAnyResource(t *testing.T) {
	s := newStore(t)
	require.NoError(t, s.CreateUser(User{Username: "bob", Password: "bob12345"}))
	require.NoError(t, s.PutAcl(aclOf(entry("*", Allow, nil, ActionAll), entry("Topic:Secret", Deny, nil, ActionAll))))
	c := Context{Username: "bob", HasUser: true, Actions: []Action{ActionSub}, SourceIP: "127.0.0.1"}
	c.Resource = Cluster("DefaultCluster")
	assert.NoError(t, s.Authorize(c))
	c.Resource = Topic("Secret")
	assert.Equal(t, "User:bob has no permission to access Topic:Secret from 127.0.0.1, the decision is deny.", deniedMsg(t, s.Authorize(c)))
}

func TestIPInRange(t *testing.T) {
	assert.True(t, ipInRange("192.168.1.7", "192.168.1.0/24"))
	assert.False(t, ipInRange("192.168.2.7", "192.168.1.0/24"))
	assert.True(t, ipInRange("127.0.0.1", "127.0.0.1"))
	assert.False(t, ipInRange("127.0.0.1", "127.0.0.2"))
	assert.True(t, ipInRange("::1", "::/0"))
	assert.True(t, ipInRange("127.0.0.1", "::/0"), "numbers compared as Java's BigInteger compares them")
	assert.False(t, ipInRange("127.0.0.1", "junk/8"))
	assert.True(t, validIPOrCIDR("10.0.0.0/8"))
	assert.True(t, validIPOrCIDR("::1"))
	assert.False(t, validIPOrCIDR("10.0.0.0/33"))
	assert.False(t, validIPOrCIDR("10.0.0.*"))
}

func TestManageMessagesAsJava(t *testing.T) {
	s := newStore(t)
	assert.Equal(t, "username can not be blank", deniedMsg(t, s.CreateUser(User{Password: "p"})))
	assert.Equal(t, "password can not be blank", deniedMsg(t, s.CreateUser(User{Username: "u"})))
	require.NoError(t, s.CreateUser(User{Username: "u", Password: "p"}))
	assert.Equal(t, "The user is existed", deniedMsg(t, s.CreateUser(User{Username: "u", Password: "p"})))
	assert.Equal(t, "The user is not exist", deniedMsg(t, s.UpdateUser(User{Username: "x"})))
	u, _ := s.User("u")
	assert.Equal(t, User{Username: "u", Password: "p", Type: UserNormal, Status: StatusEnable}, u)
	require.NoError(t, s.UpdateUser(User{Username: "u", Status: StatusDisable}))
	u, _ = s.User("u")
	assert.Equal(t, StatusDisable, u.Status)
	assert.Equal(t, "p", u.Password)

	assert.Equal(t, "The subject of User:x is not exist.", deniedMsg(t, s.PutAcl(Acl{Subject: "User:x", Policies: []Policy{{Entries: []PolicyEntry{entry("Topic:T", Allow, nil, ActionPub)}}}})))
	assert.Equal(t, "The policies is empty.", deniedMsg(t, s.PutAcl(Acl{Subject: "User:u"})))
	assert.Equal(t, "The resource is null.", deniedMsg(t, s.PutAcl(aclFor("u", PolicyEntry{Actions: []Action{ActionPub}, Decision: Allow}))))
	assert.Equal(t, "The actions is empty.", deniedMsg(t, s.PutAcl(aclFor("u", entry("Topic:T", Allow, nil)))))
	assert.Equal(t, "The actions can not be Any.", deniedMsg(t, s.PutAcl(aclFor("u", entry("Topic:T", Allow, nil, ActionAny)))))
	assert.Equal(t, "The source ip is invalid.", deniedMsg(t, s.PutAcl(aclFor("u", entry("Topic:T", Allow, []string{"1.2.3"}, ActionPub)))))
	assert.Equal(t, "The decision is null or illegal.", deniedMsg(t, s.PutAcl(aclFor("u", entry("Topic:T", "", nil, ActionPub)))))
	assert.Equal(t, "The acl is not exist.", deniedMsg(t, s.DeleteAcl("User:u", "", nil)))
	assert.Equal(t, "The subject is not exist.", deniedMsg(t, s.DeleteAcl("User:x", "", nil)))

	require.NoError(t, s.PutAcl(aclFor("u", entry("Topic:A", Allow, nil, ActionPub))))
	require.NoError(t, s.PutAcl(aclFor("u", entry("Topic:B", Allow, nil, ActionSub), entry("Topic:A", Deny, nil, ActionSub))))
	a, ok, err := s.GetAcl("User:u")
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, `{"policies":[{"entries":[{"actions":["Sub"],"decision":"Deny","resource":"Topic:A"},{"actions":["Sub"],"decision":"Allow","resource":"Topic:B"}],"policyType":"Custom"}],"subject":"User:u"}`,
		string(AppendAclInfo(nil, a)), "an entry of the same resource is replaced, a new one added")
	r, _ := ParseResource("Topic:A")
	require.NoError(t, s.DeleteAcl("User:u", "", &r))
	a, _, _ = s.GetAcl("User:u")
	assert.Len(t, a.Policies[0].Entries, 1)
	require.NoError(t, s.DeleteUser("u"))
	_, ok = s.Acl("User:u")
	assert.False(t, ok, "a user's ACL goes with it")
}

func aclFor(user string, entries ...PolicyEntry) Acl {
	return Acl{Subject: SubjectKey(user), Policies: []Policy{{Entries: entries}}}
}

func TestStoreKeepsUsersAndAclsAcrossOpens(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenStore(dir)
	require.NoError(t, err)
	require.NoError(t, s.EnsureUser(User{Username: "admin", Password: "admin123"}))
	require.NoError(t, s.CreateUser(User{Username: "bob", Password: "bob12345"}))
	require.NoError(t, s.PutAcl(aclFor("bob", entry("Topic:T*", Allow, []string{"10.0.0.0/8"}, ActionPub, ActionSub))))

	fams, err := rocksdb.Read(filepath.Join(dir, UsersDB))
	require.NoError(t, err)
	require.Equal(t, []string{"default", "kvDataVersion", "forbidden"}, familyNames(fams))
	assert.Equal(t, `{"password":"bob12345","subjectType":1,"userStatus":1,"userType":2,"username":"bob"}`,
		string(fams[0].Entries["bob"]))
	assert.Len(t, fams[0].Entries, 2)
	fams, err = rocksdb.Read(filepath.Join(dir, AclsDB))
	require.NoError(t, err)
	assert.Equal(t, `{"policies":[{"entries":[{"actions":[3,4],"decision":1,"environment":{"sourceIps":["10.0.0.0/8"]},`+
		`"resource":{"resourceName":"T","resourcePattern":3,"resourceType":4}}],"policyType":1}],`+
		`"subject":{"subjectType":1,"username":"bob"}}`, string(fams[0].Entries["User:bob"]))

	again, err := OpenStore(dir)
	require.NoError(t, err)
	assert.Equal(t, s.Users(""), again.Users(""))
	assert.Equal(t, s.Acls(), again.Acls())
	assert.Len(t, again.Users("bo"), 1)
}

func TestBodiesReadAsFastjson(t *testing.T) {
	info, err := DecodeAclInfo([]byte(`{"subject":"User:u","policies":[{"policyType":"custom","entries":[` +
		`{"resource":"Group:G*","actions":["sub","bogus","GET"],"sourceIps":["127.0.0.1"],"decision":"allow"}]}]}`))
	require.NoError(t, err)
	a, ok := info.Acl()
	require.True(t, ok)
	assert.Equal(t, Acl{Subject: "User:u", Policies: []Policy{{Type: PolicyCustom, Entries: []PolicyEntry{{
		Resource: Resource{Type: ResourceGroup, Name: "G", Pattern: PatternPrefixed}, Actions: []Action{ActionSub, ActionGet},
		SourceIPs: []string{"127.0.0.1"}, Decision: Allow}}}}}, a)
	u, err := DecodeUserInfo([]byte(`{"username":"x","password":"y","userType":"super"}`))
	require.NoError(t, err)
	assert.Equal(t, User{Username: "x", Password: "y", Type: UserSuper}, u.User())
}

func TestResourceKeys(t *testing.T) {
	for _, k := range []string{"*", "Topic:*", "Topic:T*", "Topic:T", "Group:G", "Cluster:C"} {
		r, ok := ParseResource(k)
		require.True(t, ok, k)
		assert.Equal(t, k, r.Key())
	}
	r, ok := ParseResource("topic:t")
	assert.True(t, ok)
	assert.Equal(t, "Topic:t", r.Key())
	_, ok = ParseResource("Queue:q")
	assert.False(t, ok)
	_, ok = ParseResource(" ")
	assert.False(t, ok)
}

// A resource a request did not name (Java's null) is keyed "Topic:null" and
// covered by no literal or prefixed entry, not even "Topic:" or a
// resource named "null".
func TestNullNamedResourceAsJava(t *testing.T) {
	missing := Topic("").NullNamed(false)
	assert.Equal(t, "Topic:null", missing.Key())
	assert.Equal(t, "Group:null", Group("").NullNamed(false).Key())
	assert.Equal(t, "Topic:", Topic("").NullNamed(true).Key())
	for key, covers := range map[string]bool{"*": true, "Topic:*": true, "Topic:": false, "Topic:null": false, "Topic:nu*": false} {
		p, ok := ParseResource(key)
		require.True(t, ok, key)
		assert.Equal(t, covers, p.Matches(missing), key)
	}
	s := newStore(t)
	require.NoError(t, s.CreateUser(User{Username: "bob", Password: "bob12345"}))
	require.NoError(t, s.PutAcl(aclFor("bob", entry("Topic:null", Allow, nil, ActionPub))))
	err := s.Authorize(Context{Username: "bob", HasUser: true, SourceIP: "127.0.0.1", Resource: missing, Actions: []Action{ActionPub}})
	assert.EqualError(t, err, "User:bob has no permission to access Topic:null from 127.0.0.1, no matched policies.")
}

func TestComparePolicyEntriesAsJavaSorts(t *testing.T) {
	lit := entry("Topic:T", Allow, nil, ActionPub)
	pre := entry("Topic:T*", Deny, nil, ActionPub)
	anyType := entry("*", Deny, nil, ActionPub)
	for _, order := range [][]PolicyEntry{{lit, pre, anyType}, {anyType, pre, lit}, {pre, anyType, lit}} {
		list := append([]PolicyEntry(nil), order...)
		javaListSort(list, comparePolicyEntries)
		assert.NotEqual(t, ResourceAny, list[0].Resource.Type, "an Any entry never decides before the others")
	}
}

func TestMigrateV1AsAuthMigrator(t *testing.T) {
	s := newStore(t)
	require.NoError(t, s.CreateUser(User{Username: "kept", Password: "kept1234"}))
	files := []acl.File{{Accounts: []acl.Account{
		{AccessKey: "RocketMQ", SecretKey: "12345678", Admin: true},
		{AccessKey: "aclNormal", SecretKey: "aclNormal123", DefaultTopicPerm: "DENY", DefaultGroupPerm: "SUB",
			TopicPerms: []string{"AclTopicA=PUB|SUB", "AclTopicB=PUB", "bad", "AclTopicDeny=DENY"}, GroupPerms: []string{"AclGroupA=SUB"}},
		{AccessKey: "kept", SecretKey: "other123", Admin: true},
	}}, {Accounts: []acl.Account{{AccessKey: "aclNormal", SecretKey: "second12", Admin: true}}}}
	require.NoError(t, s.MigrateV1(files))
	assert.Equal(t, []User{
		{Username: "RocketMQ", Password: "12345678", Type: UserSuper, Status: StatusEnable},
		{Username: "aclNormal", Password: "aclNormal123", Type: UserNormal, Status: StatusEnable},
		{Username: "kept", Password: "kept1234", Type: UserNormal, Status: StatusEnable},
	}, s.Users(""), "an existing user is left alone, the first file's account wins")
	a, ok := s.Acl("User:aclNormal")
	require.True(t, ok)
	assert.Equal(t, `{"policies":[{"entries":[`+
		`{"actions":["Pub","Sub"],"decision":"Allow","resource":"Topic:AclTopicA"},`+
		`{"actions":["Pub"],"decision":"Allow","resource":"Topic:AclTopicB"},`+
		`{"actions":["All"],"decision":"Deny","resource":"Topic:AclTopicDeny"},`+
		`{"actions":["Sub"],"decision":"Allow","resource":"Group:AclGroupA"}],"policyType":"Custom"},`+
		`{"entries":[{"actions":["All"],"decision":"Deny","resource":"Topic:*"},`+
		`{"actions":["Sub"],"decision":"Allow","resource":"Group:*"}],"policyType":"Default"}],"subject":"User:aclNormal"}`,
		string(AppendAclInfo(nil, a)))
	ask := func(r Resource, act Action) error {
		return s.Authorize(Context{Username: "aclNormal", HasUser: true, Resource: r, Actions: []Action{act}, SourceIP: "127.0.0.1"})
	}
	assert.NoError(t, ask(Topic("AclTopicB"), ActionPub))
	assert.Error(t, ask(Topic("Unlisted"), ActionPub), "the default policy denies other topics")
	assert.NoError(t, ask(Group("AnyGroup"), ActionSub), "the default policy lets any group subscribe")
}
