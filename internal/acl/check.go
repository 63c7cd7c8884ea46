package acl

import (
	"crypto/hmac"
	"crypto/sha1"
	"encoding/base64"
	"fmt"
	"sort"
)

// Ext field names of AclClientRPCHook (SessionCredentials), wire names:
// do not change.
const (
	FieldAccessKey     = "AccessKey"
	FieldSignature     = "Signature"
	FieldSecurityToken = "SecurityToken"
	// fieldUniqueQuery is MixAll.UNIQUE_MSG_QUERY_FLAG, left out of the
	// signed content.
	fieldUniqueQuery = "_UNIQUE_KEY_QUERY"
)

// Request is what a request asks, as PlainAccessValidator.parse reads it.
type Request struct {
	// Code is the request code, for the admin refusal's message.
	Code int32
	// Addr is the client's address without its port.
	Addr string
	// Ext is the request's ext fields (nil when it has none), Body its body.
	Ext  map[string]string
	Body []byte
	// Resources are the topics and groups (as RetryTopic keys) the
	// request touches, with the permission each needs.
	Resources map[string]byte
	// Admin is set for the codes only admin accounts may send.
	Admin bool
}

// Table is the loaded ACL: the global white list and the accounts.
type Table struct {
	global   []matcher
	accounts map[string]*access
	// retired are keys a reload of their file dropped: Java keeps them in
	// its key table, so they are refused as "No PlainAccessResource".
	retired map[string]bool
	// Version is the default file's dataVersion.
	Version DataVersion
}

// Compile builds a Table from the files read (the default file last).
func Compile(files ...File) (*Table, error) {
	t := &Table{accounts: map[string]*access{}}
	for _, f := range files {
		for _, p := range f.GlobalWhiteRemoteAddresses {
			m, err := compileAddress(p)
			if err != nil {
				return nil, &Denied{Msg: err.Error()}
			}
			t.global = append(t.global, m)
		}
		for _, a := range f.Accounts {
			ac, err := compileAccount(a)
			if err != nil {
				return nil, err
			}
			if _, dup := t.accounts[ac.AccessKey]; !dup {
				t.accounts[ac.AccessKey] = ac
			}
		}
		if len(f.DataVersion) > 0 {
			t.Version = f.DataVersion[0]
		}
	}
	return t, nil
}

// Retire keeps the keys of before that t no longer has as retired (a
// reload of the same files, as Java's per-file reload leaves them in its
// key table), but not those forgotten.
func (t *Table) Retire(before *Table, forget map[string]bool) {
	t.retired = map[string]bool{}
	for k := range before.retired {
		t.retired[k] = true
	}
	for k := range before.accounts {
		t.retired[k] = true
	}
	for k := range t.accounts {
		delete(t.retired, k)
	}
	for k := range forget {
		delete(t.retired, k)
	}
}

// Has tells whether an account is loaded.
func (t *Table) Has(accessKey string) bool { _, ok := t.accounts[accessKey]; return ok }

// Check is PlainPermissionManager.validate: nil when the request may go
// on, else a *Denied with Java's message.
func (t *Table) Check(r Request) error {
	for _, m := range t.global {
		if m(r.Addr) {
			return nil
		}
	}
	key, ok := r.Ext[FieldAccessKey]
	if !ok {
		return &Denied{"No accessKey is configured", SiteNoAccessKey}
	}
	owned, ok := t.accounts[key]
	if !ok && t.retired[key] {
		return &Denied{fmt.Sprintf("No PlainAccessResource for accessKey=%s", key), SiteNoResource}
	}
	if !ok {
		return &Denied{fmt.Sprintf("No acl config for %s", key), SiteNoAccount}
	}
	if owned.white(r.Addr) {
		return nil
	}
	if Sign(Content(r.Ext, r.Body), owned.SecretKey) != r.Ext[FieldSignature] {
		return &Denied{fmt.Sprintf("Check signature failed for accessKey=%s", key), SiteSignature}
	}
	if r.Resources[traceTopic] == PermPub {
		return nil
	}
	return owned.checkPerms(r)
}

// traceTopic is RMQ_SYS_TRACE_TOPIC: a request that publishes to it is
// let through once signed.
const traceTopic = "RMQ_SYS_TRACE_TOPIC"

// checkPerms is checkPerm.
func (a *access) checkPerms(r Request) error {
	if r.Admin && !a.Admin {
		return &Denied{fmt.Sprintf("Need admin permission for request code=%d, but accessKey=%s is not", r.Code, a.AccessKey), SiteAdmin}
	}
	if r.Resources == nil || a.perms == nil && a.Admin {
		return nil
	}
	for res, needed := range r.Resources {
		owned, ok := a.perms[res]
		site := SitePerm
		if !ok {
			owned, site = a.topicDefault, SiteDefaultPerm
			if isGroup(res) {
				owned = a.groupDefault
			}
		}
		if !CheckPermission(needed, owned) {
			return &Denied{fmt.Sprintf("No default permission for %s", printResource(res)), site}
		}
	}
	return nil
}

// Content is combineRequestContent over the ext fields but the
// signature and the unique-query flag: their values in key order, then
// the body.
func Content(ext map[string]string, body []byte) []byte {
	keys := make([]string, 0, len(ext))
	for k := range ext {
		if k != FieldSignature && k != fieldUniqueQuery {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var out []byte
	for _, k := range keys {
		out = append(out, ext[k]...)
	}
	return append(out, body...)
}

// Sign is AclSigner.calSignature: HmacSHA1 of data with the secret key,
// base64.
func Sign(data []byte, secretKey string) string {
	mac := hmac.New(sha1.New, []byte(secretKey))
	mac.Write(data)
	return base64.StdEncoding.EncodeToString(mac.Sum(nil))
}
