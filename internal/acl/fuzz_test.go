package acl

import (
	"testing"
)

// FuzzCheck is the hostile-input run of the ACL path: any ext fields,
// body, address and resources. Nothing panics, and nothing gets in that
// is neither white-listed nor signed with the account's secret.
func FuzzCheck(f *testing.F) {
	tab, err := Compile(File{
		GlobalWhiteRemoteAddresses: []string{"10.10.103.*"},
		Accounts: []Account{{AccessKey: "RocketMQ", SecretKey: "12345678", DefaultTopicPerm: "DENY", DefaultGroupPerm: "SUB",
			TopicPerms: []string{"topicA=PUB|SUB"}}, {AccessKey: "whiteOne", SecretKey: "12345678", WhiteRemoteAddress: "192.168.1.*"}},
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Add("RocketMQ", "sig", "topicA", "127.0.0.1", []byte("body"), uint8(PermPub), true)
	f.Add("", "", "", "", []byte{}, uint8(0), false)
	f.Add("RocketMQ", "Yivq3qjvoMuezLTRSKJRZ2akviM=", "topicA", "::1", []byte(nil), uint8(PermSub), false)
	f.Fuzz(func(t *testing.T, ak, sig, topic, addr string, body []byte, perm uint8, sign bool) {
		ext := map[string]string{FieldAccessKey: ak, "b": topic}
		if sign {
			sig = Sign(Content(ext, body), "12345678")
		}
		ext[FieldSignature] = sig
		r := Request{Code: 310, Addr: addr, Ext: ext, Body: body, Resources: map[string]byte{topic: perm}}
		if tab.Check(r) != nil {
			return
		}
		white := tab.global[0](addr) || ak == "whiteOne" && tab.accounts["whiteOne"].white(addr)
		signed := Sign(Content(ext, body), "12345678") == sig && (ak == "RocketMQ" || ak == "whiteOne")
		if !white && !signed {
			t.Fatalf("let in: ak=%q addr=%q sig=%q", ak, addr, sig)
		}
		if !white && ak == "RocketMQ" && topic != "topicA" && topic != traceTopic && perm != 0 && perm&PermDeny == 0 {
			t.Fatalf("let in without permission: topic %q perm %d", topic, perm)
		}
	})
}
