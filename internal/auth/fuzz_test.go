package auth

import (
	"testing"

	"github.com/rmqgo/rmqgo/internal/acl"
)

// FuzzAuthorizeRequest is the hostile-input run of the ACL 2.0 path: any
// ext fields, body, source address and bodies of the admin codes. Nothing
// panics, nothing is authenticated that the user did not sign with its
// password, and a normal user gets no topic its ACL does not allow.
func FuzzAuthorizeRequest(f *testing.F) {
	s, err := OpenStore(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	if err := s.CreateUser(User{Username: "bob", Password: "bob12345"}); err != nil {
		f.Fatal(err)
	}
	if err := s.PutAcl(Acl{Subject: "User:bob", Policies: []Policy{{Entries: []PolicyEntry{
		{Resource: Topic("T"), Actions: []Action{ActionPub}, SourceIPs: []string{"10.0.0.0/8"}, Decision: Allow}}}}}); err != nil {
		f.Fatal(err)
	}
	f.Add("bob", "sig", "T", "10.1.1.1", []byte("body"), true, []byte(`{"policies":[{"entries":[{"resource":"Topic:*","actions":["All"],"decision":"Allow"}]}]}`))
	f.Add("", "", "", "", []byte{}, false, []byte(`[`))
	f.Add("bob", "", "%RETRY%x", "::1", []byte(nil), false, []byte(`{"policies":null}`))
	f.Fuzz(func(t *testing.T, user, sig, topic, ip string, body []byte, sign bool, aclBody []byte) {
		if info, err := DecodeAclInfo(aclBody); err == nil && info != nil {
			_, _ = info.Acl()
		}
		_, _ = DecodeUserInfo(aclBody)
		ext := map[string]string{acl.FieldAccessKey: user, "b": topic}
		if sign {
			sig = acl.Sign(acl.Content(ext, body), "bob12345")
		}
		ext[acl.FieldSignature] = sig
		if s.Authenticate(SignedContent(ext, body, 500)) == nil &&
			(user != "bob" || acl.Sign(SignedContent(ext, body, 500).Content, "bob12345") != sig) {
			t.Fatalf("authenticated: user=%q sig=%q", user, sig)
		}
		c := Context{Username: user, HasUser: true, Resource: Topic(topic), Actions: []Action{ActionPub}, SourceIP: ip}
		if s.Authorize(c) == nil && (user != "bob" || topic != "T" || !ipInRange(ip, "10.0.0.0/8")) {
			t.Fatalf("authorized: user=%q topic=%q ip=%q", user, topic, ip)
		}
	})
}
