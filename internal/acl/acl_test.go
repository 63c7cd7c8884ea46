package acl

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSignIsHmacSHA1OfTheSortedValuesAndBody(t *testing.T) {
	ext := map[string]string{"b": "topicA", "AccessKey": "RocketMQ", "a": "0", FieldSignature: "x", fieldUniqueQuery: "true"}
	assert.Equal(t, "RocketMQ0topicA", string(Content(ext, nil)))
	// printf 'RocketMQ0topicA' | openssl dgst -sha1 -hmac 12345678 -binary | base64
	assert.Equal(t, "Yivq3qjvoMuezLTRSKJRZ2akviM=", Sign(Content(ext, nil), "12345678"))
	assert.Equal(t, "RocketMQ0topicAbody", string(Content(ext, []byte("body"))))
}

func TestAddressPatterns(t *testing.T) {
	for _, c := range []struct {
		pattern string
		in, out []string
	}{
		{"", nil, []string{"127.0.0.1"}},
		{"*", []string{"1.2.3.4", "::1"}, nil},
		{"192.168.1.{1,2,3}", []string{"192.168.1.2"}, []string{"192.168.1.4"}},
		{"192.168.1.1,10.0.0.1", []string{"10.0.0.1"}, []string{"10.0.0.2"}},
		{"192.168.1.*", []string{"192.168.1.200"}, []string{"192.168.2.1"}},
		{"192.168.*", []string{"192.168.9.9"}, []string{"192.169.1.1"}},
		{"192.168.1.10-20", []string{"192.168.1.15"}, []string{"192.168.1.21", "192.168.1.9"}},
		{"192.168.1-9.*", []string{"192.168.5.7"}, []string{"192.168.10.7"}},
		{"127.0.0.1", []string{"127.0.0.1"}, []string{"127.0.0.2"}},
		{"::1", []string{"0:0:0:0:0:0:0:1"}, []string{"::2"}},
		{"1:2:3:4:5:6:7:ab-ff", []string{"1:2:3:4:5:6:7:ac"}, []string{"1:2:3:4:5:6:7:1"}},
	} {
		m, err := compileAddress(c.pattern)
		require.NoError(t, err, c.pattern)
		for _, a := range c.in {
			assert.True(t, m(a), "%s should match %s", c.pattern, a)
		}
		for _, a := range c.out {
			assert.False(t, m(a), "%s should not match %s", c.pattern, a)
		}
	}
	for _, bad := range []string{"192.168.1", "192.168.1.-5", "192.168.1.20-10", "1.2.{3}"} {
		_, err := compileAddress(bad)
		assert.Error(t, err, bad)
	}
}

const testFile = `globalWhiteRemoteAddresses:
- 10.10.103.*
accounts:
- accessKey: RocketMQ
  secretKey: 12345678
  whiteRemoteAddress:
  admin: false
  defaultTopicPerm: DENY
  defaultGroupPerm: SUB
  topicPerms:
  - topicA=DENY
  - topicB=PUB|SUB
  - topicC=SUB
  groupPerms:
  - groupA=DENY
  - groupB=PUB|SUB
- accessKey: rocketmq2
  secretKey: 12345678
  whiteRemoteAddress: 192.168.1.*
  admin: true
dataVersion:
- counter: 3
  timestamp: 1630000000000
`

func loadTest(t *testing.T) *Table {
	path := filepath.Join(t.TempDir(), "plain_acl.yml")
	require.NoError(t, os.WriteFile(path, []byte(testFile), 0o644))
	f, err := ReadFile(path)
	require.NoError(t, err)
	tab, err := Compile(f)
	require.NoError(t, err)
	return tab
}

func signed(ak, sk string, ext map[string]string, res map[string]byte) Request {
	ext[FieldAccessKey] = ak
	ext[FieldSignature] = Sign(Content(ext, nil), sk)
	return Request{Code: 10, Addr: "127.0.0.1", Ext: ext, Resources: res}
}

func TestCheckRefusesAsJavaDoes(t *testing.T) {
	tab := loadTest(t)
	assert.Equal(t, DataVersion{Counter: 3, Timestamp: 1630000000000}, tab.Version)
	msg := func(err error) string {
		if err == nil {
			return ""
		}
		require.True(t, errors.Is(err, ErrDenied))
		return err.Error()
	}
	ok := signed("RocketMQ", "12345678", map[string]string{"b": "topicB"}, map[string]byte{"topicB": PermPub})
	assert.Empty(t, msg(tab.Check(ok)))
	assert.Equal(t, "No accessKey is configured", msg(tab.Check(Request{Addr: "127.0.0.1", Ext: map[string]string{}})))
	assert.Empty(t, msg(tab.Check(Request{Addr: "10.10.103.7"})), "the global white list lets anyone in")
	assert.Equal(t, "No acl config for nobody12", msg(tab.Check(signed("nobody12", "12345678", map[string]string{}, nil))))
	assert.Equal(t, "Check signature failed for accessKey=RocketMQ", msg(tab.Check(signed("RocketMQ", "wrong-secret", map[string]string{}, nil))))
	assert.Equal(t, "No default permission for topic:topicA",
		msg(tab.Check(signed("RocketMQ", "12345678", map[string]string{}, map[string]byte{"topicA": PermPub}))))
	assert.Equal(t, "No default permission for topic:topicC",
		msg(tab.Check(signed("RocketMQ", "12345678", map[string]string{}, map[string]byte{"topicC": PermPub}))))
	assert.Equal(t, "No default permission for topic:other",
		msg(tab.Check(signed("RocketMQ", "12345678", map[string]string{}, map[string]byte{"other": PermSub}))), "defaultTopicPerm DENY")
	assert.Equal(t, "No default permission for group:groupA",
		msg(tab.Check(signed("RocketMQ", "12345678", map[string]string{}, map[string]byte{RetryTopic("groupA"): PermSub}))))
	assert.Empty(t, msg(tab.Check(signed("RocketMQ", "12345678", map[string]string{}, map[string]byte{RetryTopic("anyGroup"): PermSub}))), "defaultGroupPerm SUB")
	admin := signed("RocketMQ", "12345678", map[string]string{}, nil)
	admin.Admin, admin.Code = true, 17
	assert.Equal(t, "Need admin permission for request code=17, but accessKey=RocketMQ is not", msg(tab.Check(admin)))
	white := Request{Addr: "192.168.1.5", Ext: map[string]string{FieldAccessKey: "rocketmq2"}}
	assert.Empty(t, msg(tab.Check(white)), "an account's white address needs no signature")
	trace := signed("RocketMQ", "12345678", map[string]string{}, map[string]byte{traceTopic: PermPub})
	assert.Empty(t, msg(tab.Check(trace)), "the trace topic is let through once signed")
}

func TestCompileRefusesShortKeys(t *testing.T) {
	_, err := Compile(File{Accounts: []Account{{AccessKey: "short", SecretKey: "12345678"}}})
	require.Error(t, err)
	assert.Equal(t, "The accessKey=short and secretKey=12345678 cannot be null and length should longer than 6", err.Error())
}

func TestUpdateAccountWritesTheFileAsJavaDoes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plain_acl.yml")
	require.NoError(t, os.WriteFile(path, []byte(testFile), 0o644))
	white := "192.168.0.*"
	require.NoError(t, UpdateAccount(path, Change{AccessKey: "RocketMQ", SecretKey: "12345678", WhiteRemoteAddress: &white,
		DefaultTopicPerm: "PUB", TopicPerms: []string{"topicA=PUB|SUB"}}, 1700000000000))
	require.NoError(t, UpdateAccount(path, Change{AccessKey: "newUser1", SecretKey: "abcdefgh", Admin: true}, 1700000000001))
	ok, err := DeleteAccount(path, "rocketmq2", 1700000000002)
	require.NoError(t, err)
	assert.True(t, ok)
	require.NoError(t, UpdateGlobalWhiteAddrs(path, []string{"10.10.*", "*"}, 1700000000003))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, `globalWhiteRemoteAddresses:
- 10.10.*
- '*'
accounts:
- accessKey: RocketMQ
  secretKey: '12345678'
  whiteRemoteAddress: 192.168.0.*
  admin: false
  defaultTopicPerm: PUB
  defaultGroupPerm: SUB
  topicPerms:
  - topicA=PUB|SUB
  groupPerms:
  - groupA=DENY
  - groupB=PUB|SUB
- accessKey: newUser1
  secretKey: abcdefgh
  admin: true
dataVersion:
- counter: 7
  timestamp: 1700000000003
`, string(data))
	f, err := ReadFile(path)
	require.NoError(t, err)
	_, err = Compile(f)
	require.NoError(t, err, "the file written reads back")
	_, err = DeleteAccount(path, "nobody12", 1)
	require.NoError(t, err)
	assert.Error(t, UpdateAccount(path, Change{AccessKey: "shortk", SecretKey: "12345678"}, 1))
	assert.Error(t, UpdateAccount(path, Change{AccessKey: "longkey1", SecretKey: "12345678", TopicPerms: []string{"t=BAD"}}, 1))
}
